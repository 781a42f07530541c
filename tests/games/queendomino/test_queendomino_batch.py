"""The batched Queendomino simulator: every game of a batch is played step for step beside the
reference engine (batch_reference.py: the same SplitMix64 stream, the same learner actions,
the bots' Python policies) and must show the same observation (the Python encoder's, byte for
byte), mask, rewards, terminations and scores at every step, over whole episodes and the
auto-resets after them, for 2, 3 and 4 players, the Royal Wedding (3 to 8 players), teams and
a corrected building table. Its vector env: test_vector_envs.py. Skipped without numba."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from batch_reference import Played, ReferenceGame, play_beside_reference
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.state import BUILD, DRAGON, SITE, TAX

DATA = "kingdomkit.games.queendomino.data"

# Four Queendomino games beside the reference.
play = partial(play_beside_reference, "queendomino", games=4, seed_base=3000)


def play_seeing_phases(
    options: dict[str, Any],
    opponents: list[str] | None,
    seat: int | None,
    reward: str,
    steps: int,
) -> tuple[Played, set[int]]:
    """`play`, with the phases the learners decided in (so that a test knows the turn's every
    step was seen)."""
    phases: set[int] = set()

    def see_phase(reference: ReferenceGame, _observation: Mapping[str, Any]) -> None:
        if not reference.ended:
            phases.add(reference.state.phase)

    return play(options, opponents, seat, reward, steps, watch=see_phase), phases


CASES = [
    ({"players": 2}, ["random"], 0, "wdl", 260),
    ({"players": 2}, ["greedy"], None, "margin", 260),
    ({"players": 3}, None, 0, "wdl", 480),
    ({"players": 4}, ["greedy", "random", "greedy"], 2, "wdl", 200),
    ({"players": 4}, ["random", "random", "random"], 3, "margin", 200),
    ({"players": 3, "royal_wedding": True}, ["random", "greedy"], 1, "margin", 360),
    ({"players": 5, "royal_wedding": True}, ["random"] * 4, None, "wdl", 200),
    ({"players": 6, "royal_wedding": True, "teams": True}, ["random"] * 5, 1, "wdl", 200),
    (
        {"players": 8, "royal_wedding": True, "teams": True},
        ["greedy", "random"] * 3 + ["greedy"],
        None,
        "margin",
        200,
    ),
]


@pytest.mark.parametrize(("options", "opponents", "seat", "reward", "steps"), CASES, ids=str)
def test_batch_plays_the_reference_games(
    options: dict[str, Any], opponents: list[str] | None, seat: int | None, reward: str, steps: int
) -> None:
    played, phases = play_seeing_phases(options, opponents, seat, reward, steps)
    assert played.ended >= 4  # whole episodes, and the next ones started from the same streams
    assert {TAX, BUILD, SITE, DRAGON} <= phases  # knights, buildings and the Dragon were seen


def test_self_play_with_the_royal_wedding_in_teams() -> None:
    played = play(
        {"players": 6, "royal_wedding": True, "teams": True}, None, 0, "wdl", 500, games=2
    )
    assert played.ended >= 2


def test_illegal_actions_end_the_episode_and_the_next_one_follows() -> None:
    played = play({"players": 2}, ["random"], 0, "wdl", 120, games=3, illegal_every=9)
    # Illegal actions, each ending its episode, then the next episodes.
    assert played.ended >= 6 and played.illegal >= 1


def corrected_table(path: Path) -> Path:
    """The shipped building table with every tile changed: other crowns, knights and towers
    taken when built, other ongoing and end-game effects (still a valid table)."""
    with resources.files(DATA).joinpath("queendomino_buildings.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    endgames = [("fixed", "3", ""), ("per_knight", "1", ""), ("per_tower", "2", "")]
    for k, row in enumerate(rows):
        row["crowns"] = str((int(row["crowns"]) + 1) % 3)
        row["immediate_knights"] = str(k % 2)
        row["immediate_towers"] = str((k + 1) % 3)
        row["ongoing"] = ("none", "coin_per_knight", "coin_per_tower")[k % 3]
        if k % 2:
            row["endgame"], row["endgame_points"], row["endgame_terrain"] = endgames[k % 3]
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.mark.parametrize("players", [2, 4])
def test_batch_plays_the_reference_games_with_a_corrected_building_table(
    tmp_path: Path, players: int
) -> None:
    """The `buildings` option reaches the compiled kernel: effects, crowns and the observation's
    building features come from the corrected table, as in the reference engine."""
    table = corrected_table(tmp_path / "corrected.csv")
    options = {"players": players, "buildings": str(table)}
    assert Queendomino(options).table.source == str(table)
    opponents = ["greedy", "random", "greedy"][: players - 1]
    played, phases = play_seeing_phases(options, opponents, 0, "margin", 260)
    assert played.ended >= 4
    assert BUILD in phases
