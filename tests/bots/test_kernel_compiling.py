"""A kernel compiled once on a machine: processes that need it at the same moment take turns,
and all but the first load numba's copy (core/compiling.py)."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import random
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.bots.compiled import compiled
from kingdomkit.core.registry import make_game

pytest.importorskip("numba")
pytest.importorskip("filelock")

from kingdomkit.core.compiling import one_compiler

KERNEL = """
import numba


@numba.njit(cache=True)
def kernel(n):
    total = 0.0
    for i in range(n):
        total += (i % 7) * 0.5 - (i % 3)
    return total
"""


def compile_in_turn(folder: str, cache: str, first: bool, holding: Any, out: Any) -> None:
    """In a spawned process: compile `kernel` under the lock, and say whether numba compiled
    it here or loaded it from its cache. The first process says it holds the lock, then
    waits a second before compiling; the second asks for the lock only after that, so
    without the lock it would compile too, from an empty cache."""
    os.environ["NUMBA_CACHE_DIR"] = cache
    sys.path.insert(0, folder)
    kernel = importlib.import_module("small_kernel").kernel
    if not first:
        holding.wait()
    with one_compiler(kernel):
        if first:
            holding.set()
            time.sleep(1.0)
        kernel(10)
    stats = kernel.stats
    out.put((first, sum(stats.cache_misses.values()), sum(stats.cache_hits.values())))


def test_two_processes_compile_a_kernel_once_and_the_second_loads_it(tmp_path: Path) -> None:
    (tmp_path / "small_kernel.py").write_text(textwrap.dedent(KERNEL))
    context = multiprocessing.get_context("spawn")
    holding, out = context.Event(), context.Queue()
    processes = [
        context.Process(
            target=compile_in_turn,
            args=(str(tmp_path), str(tmp_path / "cache"), first, holding, out),
        )
        for first in (True, False)
    ]
    for process in processes:
        process.start()
    found = sorted(out.get(timeout=300) for _ in processes)
    for process in processes:
        process.join()
    assert found == [(False, 0, 1), (True, 1, 0)]  # (first, compiled, loaded)


@pytest.mark.parametrize("name", ["kingdomino", "kingdoms", "queendomino"])
def test_a_game_kernel_made_ready_plays_without_compiling_again(name: str) -> None:
    """`ready` compiles (or loads) the very specialisation that playouts from a position of
    the game use: no other is made afterwards."""
    game = make_game(name, {"players": 2})
    playouts: Any = compiled(game)
    playouts.ready()
    made = len(playouts._kernel.signatures)
    state, rng = game.initial_state(), random.Random(3)
    for _ in range(10):  # a few moves in, chance and decisions
        chance = game.is_chance(state)
        state = game.apply(
            state,
            game.sample_chance(state, rng) if chance else rng.choice(game.legal_actions(state)),
        )
    calls, run = [], playouts._run

    def counted(*args: Any) -> Any:
        calls.append(args[4])  # the number of playouts asked
        return run(*args)

    playouts._run = counted
    scores, _ = playouts.playouts(state, "greedy", 0, 0.0, 2, 7)
    assert scores.shape == (2, 2)
    assert calls == [2]  # no call of no playouts once ready: a search asks before every leaf
    assert len(playouts._kernel.signatures) == made == 1


@pytest.mark.parametrize(
    ("name", "options"),
    [("kingdomino", {"players": 2}), ("kingdoms", {"players": 2}), ("queendomino", {"players": 2})],
)
def test_a_batched_simulator_s_first_step_compiles_its_kernel_under_the_lock(
    name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The environments of a vectorised run start together: their batch kernel is compiled
    by one process of the machine too, at the first step in each process, not later."""
    from kingdomkit.core import compiling
    from kingdomkit.rl.compiled_batch import CompiledBatch
    from kingdomkit.rl.observation import batch_maker

    locked: list[Any] = []
    taken = compiling.one_compiler

    def counted(kernel: Any) -> Any:
        locked.append(kernel)
        return taken(kernel)

    monkeypatch.setattr(compiling, "_ready", set())  # as in a new process
    monkeypatch.setattr(compiling, "one_compiler", counted)
    maker = batch_maker(make_game(name, options))
    assert maker is not None
    batch = maker(3, None, None)
    assert isinstance(batch, CompiledBatch)
    step = batch.reset(seeds=[1, 2, 3])
    assert locked == [batch.kernel]
    assert locked[0].py_func.__module__ == f"kingdomkit.games.{name}.batch_kernel"
    batch.step(step.action_mask.argmax(axis=1))  # a legal action in each game
    assert locked == [batch.kernel]
