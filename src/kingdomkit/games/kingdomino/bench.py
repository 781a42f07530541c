"""Kingdomino's benchmarks: the kernels a playout spends its time in, on real positions.

The positions come from random 4-player games played once before timing: every (kingdom,
domino) pair met at a placement step, and every finished kingdom.
"""

from __future__ import annotations

import random
from typing import Any

from kingdomkit.core.benchmark import Benchmark
from kingdomkit.core.driver import random_playout
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import Domino
from kingdomkit.games.kingdomino.rules import PLACE, Kingdomino, KingdominoState

PROTOCOL_OPTIONS: dict[str, Any] = {"players": 4}
PROTOCOL_TARGET = 1_000.0


def sample_positions(
    games: int, seed: int = 0
) -> tuple[Kingdomino, list[tuple[kd.Kingdom, Domino]], list[kd.Kingdom]]:
    """Placement positions and finished kingdoms from `games` random 4-player games."""
    game = Kingdomino(PROTOCOL_OPTIONS)
    rng = random.Random(seed)
    placements: list[tuple[kd.Kingdom, Domino]] = []
    finished: list[kd.Kingdom] = []

    def keep_placement(before: KingdominoState, action: int, after: KingdominoState) -> None:
        if before.phase == PLACE:
            player = game.current_player(before)
            placements.append((before.kingdoms[player], game.acting_domino(before)))

    for _ in range(games):
        finished.extend(random_playout(game, rng, on_step=keep_placement).kingdoms)
    return game, placements, finished


def kernels(games: int = 100, passes: int = 20) -> list[Benchmark]:
    """Each timed run goes `passes` times over the positions, so that it lasts long enough
    (a tenth of a second or more) for the clock's and the processor's noise not to matter."""
    game, placements, finished = sample_positions(games)
    geo = game.geo

    def list_placements() -> int:
        for _ in range(passes):
            for kingdom, domino in placements:
                kd.legal_placements(geo, kingdom, domino)
        return passes * len(placements)

    def score_kingdoms() -> int:
        for _ in range(passes * 5):
            for kingdom in finished:
                kd.territory_score(geo, kingdom)
        return passes * 5 * len(finished)

    return [
        Benchmark("kingdomino legal-placement lists", "lists", list_placements, 250_000.0),
        Benchmark("kingdomino full-kingdom scorings", "scorings", score_kingdoms, 200_000.0),
    ]
