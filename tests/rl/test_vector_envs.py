"""What every game's vector environment (`gymnasium.make_vec` on its batched simulator) must do,
asked of each game alike: its spaces and infos through whole episodes, a rollout determined by
its seed, and the settings it refuses in words. What one game's alone is asked stays with that
game's batch tests. Skipped without numba or gymnasium."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np

from batch_reference import make_envs, random_actions
from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import make_game
from kingdomkit.rl.vector import KingdomkitVectorEnv


@dataclass(frozen=True)
class Case:
    """A game's vector env as the tests below play it."""

    game: str
    steps: int  # of the spaces test, enough for three episodes to end
    rollout: dict[str, Any]  # the settings of the seed test
    rollout_steps: int
    traced: str  # the observation the seed test compares
    actions: int | None = None  # the action space's size, where pinned (else the game's own)
    refusals: list[tuple[dict[str, Any], str]] = field(default_factory=list)


CASES = [
    Case(
        "kingdomino",
        120,
        {"players": 2, "opponents": "random"},
        60,
        "kingdoms",
        actions=365,
        refusals=[
            ({"opponents": "flat-mc"}, "compiled opponents only"),
            ({"opponents": ["random", "greedy"]}, "1 opponents needed"),
            ({"seat": 2}, "seat must be 0 to 1"),
            ({"reward": "points"}, "unknown reward"),
            ({"num_envs": 0}, "whole number"),
            ({"colour": "red"}, "unknown Kingdomino option"),
        ],
    ),
    Case(
        "kingdoms",
        150,
        {"players": 3, "opponents": "random"},
        40,
        "board",
        refusals=[
            ({"opponents": "flat-mc"}, "compiled opponents only"),
            ({"opponents": ["random", "greedy"]}, "1 opponents needed"),
            ({"seat": 2}, "seat must be 0 to 1"),
            ({"num_envs": 0}, "whole number"),
        ],
    ),
    Case(
        "queendomino",
        200,
        {"players": 3, "opponents": "random", "royal_wedding": True},
        40,
        "kingdoms",
        refusals=[
            ({"opponents": "flat-mc"}, "compiled opponents only"),
            ({"opponents": "epsilon-greedy"}, "compiled opponents only"),
            ({"opponents": ["random", "greedy"]}, "1 opponents needed"),
            ({"seat": 2}, "seat must be 0 to 1"),
            ({"num_envs": 0}, "whole number"),
            ({"teams": True}, "Royal Wedding mode"),
        ],
    ),
]

by_game = pytest.mark.parametrize("case", CASES, ids=lambda case: case.game)


@by_game
def test_make_vec_uses_the_batched_simulator(case: Case) -> None:
    envs = make_envs(case.game, 3, players=2, opponents="greedy")
    assert isinstance(envs, KingdomkitVectorEnv)
    observations, infos = envs.reset(seed=5)
    assert envs.observation_space.contains(observations)
    size = case.actions or make_game(case.game, {"players": 2}).num_actions
    assert envs.single_action_space == gymnasium.spaces.Discrete(size)
    assert np.array_equal(infos["action_mask"], observations["action_mask"])
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(case.steps):
        actions = random_actions(rng, observations["action_mask"])
        observations, rewards, terminations, _, infos = envs.step(actions)
        assert envs.observation_space.contains(observations)
        assert infos["seat"].tolist() == [0, 0, 0] and infos["player"].tolist() == [0, 0, 0]
        for i in np.flatnonzero(terminations):
            ended += 1
            assert rewards[i] in (-1.0, 0.0, 1.0) and infos["scores"][i].any()
            assert not observations["action_mask"][i].any()
        assert infos["_rewards"].all()
    assert ended >= 3


def rollout(case: Case, seed: int) -> list[tuple[Any, Any]]:
    """The traced observation and the rewards after each of random legal actions."""
    envs = make_envs(case.game, **case.rollout)
    observations, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(0)
    trace = []
    for _ in range(case.rollout_steps):
        observations, rewards, _terminations, truncations, _infos = envs.step(
            random_actions(rng, observations["action_mask"])
        )
        assert not truncations.any()
        trace.append((observations["observation"][case.traced].copy(), rewards.copy()))
    return trace


@by_game
def test_vector_env_is_determined_by_its_seed(case: Case) -> None:
    first, again, other = rollout(case, 11), rollout(case, 11), rollout(case, 12)
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(first, other, strict=True))


@pytest.mark.parametrize(
    ("game", "kwargs", "message"),
    [(case.game, kwargs, message) for case in CASES for kwargs, message in case.refusals],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_vector_env_refuses_bad_settings(game: str, kwargs: dict[str, Any], message: str) -> None:
    settings = {"num_envs": 2, "players": 2, "game": game, **kwargs}
    with pytest.raises(OptionError, match=message):
        KingdomkitVectorEnv(**settings)
