"""Queendomino's benchmarks: whole Royal Wedding games, and the score pad on real realms.

The protocol figure (4-player random games, every chance node and micro-action included) has
a target of a third of Kingdomino's measured rate (docs/benchmarks.md). This module is
Queendomino's `benchmarks` capability (kingdomkit.cli.bench.Benchmarks, declared in shape.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdomkit.core.benchmark import Benchmark
from kingdomkit.core.driver import random_playout
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.queendomino import scoring
from kingdomkit.games.queendomino.rules import Queendomino

PROTOCOL_OPTIONS: Mapping[str, Any] = {"players": 4}
# A third of Kingdomino's 1,691 random 4-player games per second.
PROTOCOL_TARGET: float | None = 564.0


def kernels(games: int = 40, passes: int = 10) -> list[Benchmark]:
    """Realms come from random 4-player games played once before timing."""
    game = Queendomino(PROTOCOL_OPTIONS)
    rng = random.Random(0)
    finished = []
    for _ in range(games):
        state = random_playout(game, rng)
        finished += [(realm, state.queen == r) for r, realm in enumerate(state.realms)]
    wedding = Queendomino({"players": 8, "royal_wedding": True})
    wedding_games = max(2, games // 4)

    def score_pads() -> int:
        for _ in range(passes):
            kd.clear_territory_cache()  # each pass floods every realm again, as new ones would
            for realm, hosts_queen in finished:
                scoring.breakdown(game.geo, game.table, realm, hosts_queen)
        return passes * len(finished)

    def wedding_playouts() -> int:
        for _ in range(wedding_games):
            random_playout(wedding, rng)
        return wedding_games

    return [
        Benchmark("queendomino full score pads", "pads", score_pads, None),
        Benchmark(
            "queendomino Royal Wedding random 8-player games", "games", wedding_playouts, None
        ),
    ]
