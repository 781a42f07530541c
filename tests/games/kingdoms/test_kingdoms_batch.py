"""The batched Kingdoms simulator: every game of a batch is played step for step beside the
reference engine (batch_reference.py: the same SplitMix64 stream, the same learner actions,
the bots' Python policies) and must show the same observation (the Python encoder's, from the
observer's view: hidden tiles never show), mask, rewards and scores at every step, over whole
episodes, for 2, 3 and 4 players and every option. Its vector env: test_vector_envs.py.
Skipped without numba."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from batch_reference import ReferenceGame, play_beside_reference

# Four Kingdoms games beside the reference.
play = partial(play_beside_reference, "kingdoms", games=4, seed_base=2000)


CASES = [
    ({"players": 2}, ["random"], 0, "wdl", 160),
    ({"players": 2}, ["greedy"], None, "margin", 160),
    ({"players": 3}, None, 0, "wdl", 260),
    ({"players": 3, "score_as_you_go": True}, ["random", "greedy"], 1, "margin", 120),
    ({"players": 4}, ["greedy", "random", "greedy"], 2, "wdl", 100),
    ({"players": 4, "no_luck": True}, ["greedy", "greedy", "random"], 3, "margin", 100),
    ({"players": 2, "down_to_the_last_castle": True}, ["greedy"], 1, "wdl", 200),
    ({"players": 4, "score_as_you_go": True}, None, 0, "wdl", 420),
    (
        {"players": 3, "no_luck": True, "score_as_you_go": True, "down_to_the_last_castle": True},
        None,
        0,
        "margin",
        260,
    ),
]


@pytest.mark.parametrize(("options", "opponents", "seat", "reward", "steps"), CASES, ids=str)
def test_batch_plays_the_reference_games(
    options: dict[str, Any], opponents: list[str] | None, seat: int | None, reward: str, steps: int
) -> None:
    hidden: set[int] = set()

    def count_hidden(_reference: ReferenceGame, observation: Mapping[str, Any]) -> None:
        # The supply shown (tiles[2]) against its size (counters[7]): apart where tiles hide.
        tiles, counters = observation["tiles"], observation["counters"]
        hidden.add(int(tiles[2].sum()) - int(counters[7]))

    played = play(options, opponents, seat, reward, steps, watch=count_hidden)
    assert played.ended >= 4  # whole episodes, and the next ones started from the same streams
    # Tiles the observer may not see were there, and stayed hidden (no_luck hides nothing).
    assert max(hidden) > 0 if not options.get("no_luck") else hidden == {0}


def test_illegal_actions_end_the_episode_and_the_next_one_follows() -> None:
    played = play({"players": 2}, ["random"], 0, "wdl", 120, games=3, illegal_every=9)
    # Illegal actions, each ending its episode, then the next episodes.
    assert played.ended >= 6 and played.illegal >= 1
