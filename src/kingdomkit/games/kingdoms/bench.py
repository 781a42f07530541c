"""Kingdoms' benchmarks: whole-board epoch scorings on real end-of-epoch boards, and the
compiled kernel's games and playouts.

The boards come from random 4-player games played once before timing: each full board just
before its epoch is scored. When the compiled fast path is there (the game's compiled
playouts, `kingdomkit.bots.compiled`), whole random games and the playouts of each policy
are timed through it, from the same first decision as `kingdomkit bench`'s Python playouts
(chance from `chance_rng(0)`), so that the two figures of a run compare like for like.
This module is Kingdoms' `benchmarks` capability (kingdomkit.cli.bench.Benchmarks, declared
in shape.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.playouts import POLICIES
from kingdomkit.cli.bench import compiled_playout_benchmarks, game_vector_benchmarks
from kingdomkit.core.benchmark import Benchmark
from kingdomkit.core.driver import random_playout
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState

PROTOCOL_OPTIONS: Mapping[str, Any] = {"players": 4}
PROTOCOL_TARGET: float | None = None  # no target set (issue 4)
# Issue 27's targets for the kernel: 20 times the Python random games and 30 times the
# Python greedy playouts of docs/benchmarks.md (796 games, 7.4 playouts a second).
COMPILED_GAMES_TARGET = 16_000.0
COMPILED_GREEDY_TARGET = 222.0


def full_boards(game: Kingdoms, games: int, seed: int = 0) -> list[tuple[int, ...]]:
    """The board of every epoch of `games` random games, as it stood when it was scored."""
    rng = random.Random(seed)
    boards: list[tuple[int, ...]] = []

    def keep_scored(before: KingdomsState, action: int, after: KingdomsState) -> None:
        if after.epoch != before.epoch or game.is_terminal(after):
            boards.append(game.placed_board(before, action))

    for _ in range(games):
        random_playout(game, rng, on_step=keep_scored)
    return boards


def kernels(games: int = 60, passes: int = 20) -> list[Benchmark]:
    game = Kingdoms(PROTOCOL_OPTIONS)
    boards = full_boards(game, games)
    players = game.num_players

    def score_boards() -> int:
        for _ in range(passes):
            for board in boards:
                for line in bd.LINES:
                    bd.line_gold(board, line, players)
        return passes * len(boards)

    benchmarks = [Benchmark("kingdoms whole-board epoch scorings", "boards", score_boards, None)]
    accelerator = compiled(game)
    if accelerator is not None:
        games = 500 * passes  # each timed run one kernel call of a tenth of a second or more
        counts = {"random": games, "player-greedy": 20 * passes}
        playouts = {policy: counts.get(policy, 10 * passes) for policy in POLICIES}
        targets = (COMPILED_GAMES_TARGET, COMPILED_GREEDY_TARGET)
        benchmarks += compiled_playout_benchmarks(game, accelerator, games, playouts, targets)
        benchmarks += vector_benchmarks(20 if passes == 1 else 400)
    return benchmarks


VECTOR_TARGET = 150_000.0  # issue 27, on the 2-core machine
VECTOR_CASES = (  # players, label, the opponents' policy (None: self-play)
    (2, "self-play", None),
    (2, "against random", "random"),
    (2, "against greedy", "greedy"),
    (3, "against greedy", "greedy"),
    (4, "self-play", None),
    (4, "against greedy", "greedy"),
)


def vector_benchmarks(steps: int) -> list[Benchmark]:
    """The batched simulator through the Gymnasium vector env, as `kingdomkit bench` times
    Kingdomino's (cli/bench.py `game_vector_benchmarks`), with 2 players and with 4 (where a
    learner's step against greedy bots carries three greedy turns)."""
    return game_vector_benchmarks("kingdoms", VECTOR_CASES, steps, VECTOR_TARGET)
