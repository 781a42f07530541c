"""A kernel compiled once on a machine: processes that need it at the same moment take turns,
and all but the first load numba's copy (bots/kernel_playouts.py)."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import random
import sys
import textwrap
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.bots.compiled import compiled
from kingdomkit.core.registry import make_game

pytest.importorskip("numba")
pytest.importorskip("filelock")

from kingdomkit.bots.kernel_playouts import one_compiler

KERNEL = """
import numba


@numba.njit(cache=True)
def kernel(n):
    total = 0.0
    for i in range(n):
        total += (i % 7) * 0.5 - (i % 3)
    return total
"""


def compile_after_barrier(folder: str, cache: str, locked: bool, barrier: Any, out: Any) -> None:
    """In a spawned process: meet the other one, then compile `kernel` (with the lock or
    without), and say whether numba compiled it here or loaded it from its cache."""
    os.environ["NUMBA_CACHE_DIR"] = cache
    sys.path.insert(0, folder)
    kernel = importlib.import_module("small_kernel").kernel
    barrier.wait()
    with one_compiler(kernel) if locked else nullcontext():
        kernel(10)
    stats = kernel.stats
    out.put((sum(stats.cache_misses.values()), sum(stats.cache_hits.values())))


def compilations(tmp_path: Path, locked: bool) -> list[tuple[int, int]]:
    """(compiled, loaded) in each of two processes that need `kernel` at the same moment."""
    (tmp_path / "small_kernel.py").write_text(textwrap.dedent(KERNEL))
    cache = tmp_path / "cache"
    context = multiprocessing.get_context("spawn")
    barrier, out = context.Barrier(2), context.Queue()
    args = (str(tmp_path), str(cache), locked, barrier, out)
    processes = [context.Process(target=compile_after_barrier, args=args) for _ in range(2)]
    for process in processes:
        process.start()
    found = [out.get(timeout=300) for _ in processes]
    for process in processes:
        process.join()
    return sorted(found)


def test_two_processes_compile_a_kernel_once_and_the_second_loads_it(tmp_path: Path) -> None:
    assert compilations(tmp_path, locked=True) == [(0, 1), (1, 0)]


def test_without_the_lock_both_would_compile(tmp_path: Path) -> None:
    """What the lock is for: the same start, unlocked, compiles twice."""
    assert compilations(tmp_path, locked=False) == [(1, 0), (1, 0)]


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
    scores, _ = playouts.playouts(state, "greedy", 0, 0.0, 2, 7)
    assert scores.shape == (2, 2)
    assert len(playouts._kernel.signatures) == made == 1
