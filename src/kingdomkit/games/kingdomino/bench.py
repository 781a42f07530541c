"""Kingdomino's benchmarks: the kernels a playout spends its time in, on real positions.

This module is Kingdomino's `benchmarks` capability (kingdomkit.cli.bench.Benchmarks, declared
in shape.py).

The positions come from random 4-player games played once before timing: every (kingdom,
domino) pair met at a placement step, and every finished kingdom. When the compiled fast path
is there (the game's compiled playouts, `kingdomkit.bots.compiled`), the same work is timed
through it, as one kernel call over many items, with whole random games and the playouts of
each policy from the first decision of a 4-player game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdomkit.bots.compiled import compiled
from kingdomkit.core.benchmark import Benchmark
from kingdomkit.core.driver import random_playout
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import Domino
from kingdomkit.games.kingdomino.rules import PLACE, Kingdomino, KingdominoState

POLICIES = ("random", "greedy", "epsilon-greedy", "player-greedy")

PROTOCOL_OPTIONS: Mapping[str, Any] = {"players": 4}
PROTOCOL_TARGET: float | None = 1_000.0


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

    benchmarks = [
        Benchmark("kingdomino legal-placement lists", "lists", list_placements, 250_000.0),
        Benchmark("kingdomino full-kingdom scorings", "scorings", score_kingdoms, 200_000.0),
    ]
    accelerator = compiled(game)
    if accelerator is not None:
        benchmarks += compiled_kernels(game, accelerator, placements, finished, passes)
    return benchmarks


def first_decision(game: Kingdomino, seed: int = 0) -> KingdominoState:
    """The state of the first decision of a game (the first claim), chance drawn from `seed`."""
    rng = random.Random(seed)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.sample_chance(state, rng))
    return state


def compiled_kernels(
    game: Kingdomino,
    accelerator: Any,
    placements: list[tuple[kd.Kingdom, Domino]],
    finished: list[kd.Kingdom],
    passes: int,
) -> list[Benchmark]:
    """The compiled kernel on the same positions; each timed run is one kernel call (or a
    few), sized to last about a tenth of a second at full size."""
    import numpy as np

    kingdoms = accelerator.kingdom_arrays([kingdom for kingdom, _ in placements])
    numbers = np.array([domino.number for _, domino in placements], np.int64)
    ends = accelerator.kingdom_arrays(finished)
    games = 250 * passes
    start = first_decision(game)
    player = game.current_player(start)

    def random_games() -> int:
        accelerator.random_games(games, 1)
        return games

    def list_placements() -> int:
        accelerator.placement_lists(kingdoms, numbers, passes * 10)
        return passes * 10 * len(numbers)

    def score_kingdoms() -> int:
        accelerator.kingdom_scores(ends, passes * 50)
        return passes * 50 * len(finished)

    def policy_playouts(policy: str, count: int) -> Benchmark:
        def work() -> int:
            accelerator.playouts(start, policy, player, 0.25, count, 1)
            return count

        name = f"kingdomino compiled {policy} playouts (first 4-player decision)"
        return Benchmark(name, "playouts", work)

    counts = {"random": games, "greedy": 4 * passes, "epsilon-greedy": 4 * passes}
    return [
        Benchmark("kingdomino compiled random 4-player games", "games", random_games, 22_000.0),
        Benchmark(
            "kingdomino compiled legal-placement lists", "lists", list_placements, 1_200_000.0
        ),
        Benchmark(
            "kingdomino compiled full-kingdom scorings", "scorings", score_kingdoms, 2_000_000.0
        ),
        *(policy_playouts(policy, counts.get(policy, 10 * passes)) for policy in POLICIES),
    ]
