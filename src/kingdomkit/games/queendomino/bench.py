"""Queendomino's benchmarks: whole Royal Wedding games, the score pad on real realms, the
compiled kernel's games and playouts, and its batched simulator's steps.

The protocol figure (4-player random games, every chance node and micro-action included) has
a target of a third of Kingdomino's measured rate (docs/benchmarks.md). When the compiled fast
path is there (the game's compiled playouts, `kingdomkit.bots.compiled`), whole random games
and the playouts of each policy are timed through it, from the same first decision as
`kingdomkit bench`'s Python playouts (chance from `chance_rng(0)`), so that the two figures of
a run compare like for like, and so is the batched simulator through the vector env. This
module is Queendomino's `benchmarks` capability (kingdomkit.cli.bench.Benchmarks, declared in
shape.py).
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
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.queendomino import scoring
from kingdomkit.games.queendomino.rules import Queendomino

PROTOCOL_OPTIONS: Mapping[str, Any] = {"players": 4}
# A third of Kingdomino's 1,691 random 4-player games per second.
PROTOCOL_TARGET: float | None = 564.0
# Issue 27's targets for the kernel: 20 times the Python random games and 30 times the
# Python greedy playouts of docs/benchmarks.md (814 games, 29.8 playouts a second).
COMPILED_GAMES_TARGET = 16_280.0
COMPILED_GREEDY_TARGET = 894.0


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

    benchmarks = [
        Benchmark("queendomino full score pads", "pads", score_pads, None),
        Benchmark(
            "queendomino Royal Wedding random 8-player games", "games", wedding_playouts, None
        ),
    ]
    accelerator = compiled(game)
    if accelerator is not None:
        games = 300 * passes  # each timed run one kernel call of a tenth of a second or more
        counts = {"random": games, "player-greedy": 30 * passes}
        playouts = {policy: counts.get(policy, 15 * passes) for policy in POLICIES}
        targets = (COMPILED_GAMES_TARGET, COMPILED_GREEDY_TARGET)
        benchmarks += compiled_playout_benchmarks(game, accelerator, games, playouts, targets)
        benchmarks += vector_benchmarks(20 if passes == 1 else 400)
    return benchmarks


VECTOR_TARGET = 150_000.0  # issue 27, on the 2-core machine
VECTOR_CASES = (  # players, label, the opponents' policy (None: self-play)
    (2, "self-play", None),
    (2, "against random", "random"),
    (2, "against greedy", "greedy"),
    (4, "self-play", None),
    (4, "against random", "random"),
    (4, "against greedy", "greedy"),
)


def vector_benchmarks(steps: int) -> list[Benchmark]:
    """The batched simulator through the Gymnasium vector env, as `kingdomkit bench` times
    Kingdomino's (cli/bench.py `game_vector_benchmarks`), with 2 players (7x7 kingdoms) and
    with 4 (where a learner's step against greedy bots carries three greedy turns)."""
    return game_vector_benchmarks("queendomino", VECTOR_CASES, steps, VECTOR_TARGET)
