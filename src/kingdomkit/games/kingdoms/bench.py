"""Kingdoms' benchmarks: whole-board epoch scorings on real end-of-epoch boards.

The boards come from random 4-player games played once before timing: each full board just
before its epoch is scored. This module is Kingdoms' `benchmarks` capability
(kingdomkit.cli.bench.Benchmarks, declared in shape.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdomkit.core.benchmark import Benchmark
from kingdomkit.core.driver import random_playout
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState

PROTOCOL_OPTIONS: Mapping[str, Any] = {"players": 4}
PROTOCOL_TARGET: float | None = None  # no target set (issue 4)


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

    return [Benchmark("kingdoms whole-board epoch scorings", "boards", score_boards, None)]
