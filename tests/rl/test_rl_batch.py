"""The batched Kingdomino simulator and the vector environment on it: every game of a batch is
played step for step beside the reference engine (batch_reference.py: the same SplitMix64
stream, the same learner actions, the bots' Python policies) and must show the same
observation, mask, rewards and scores at every step, over whole episodes, for every option
set; then what only Kingdomino's vector env is asked (seed lists, views, self-play, bad calls,
the fallback without compiled kernels, the threads' waiting). What every game's vector env
does is in test_vector_envs.py. Skipped without numba."""

from __future__ import annotations

import os
from functools import partial
from typing import Any

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np

import kingdomkit.rl  # noqa: F401  (registers the ids)
from batch_reference import make_envs, play_beside_reference, random_actions
from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import make_game
from kingdomkit.rl.batch import batch_simulator
from kingdomkit.rl.compiled_batch import WAITING
from kingdomkit.rl.vector import KingdomkitVectorEnv

# Six Kingdomino games beside the reference (batch_reference.py).
play = partial(play_beside_reference, "kingdomino", games=6, seed_base=1000)


CASES = [
    ({"players": 2}, ["random"], 0, "wdl"),
    ({"players": 2}, ["greedy"], None, "margin"),
    ({"players": 3}, None, 0, "wdl"),
    ({"players": 3, "draw_four": True}, ["random", "greedy"], 1, "margin"),
    (
        {"players": 4, "middle_kingdom": True, "harmony": True},
        ["greedy", "random", "greedy"],
        2,
        "wdl",
    ),
    ({"players": 2, "mighty_duel": True, "middle_kingdom": True}, ["greedy"], 1, "margin"),
    ({"players": 2, "dynasty": True, "harmony": True}, None, 0, "margin"),
]


@pytest.mark.parametrize(("options", "opponents", "seat", "reward"), CASES, ids=str)
def test_batch_plays_the_reference_games(
    options: dict[str, Any], opponents: list[str] | None, seat: int | None, reward: str
) -> None:
    played = play(options, opponents, seat, reward, steps=300)
    assert played.finished >= 6  # whole episodes, and the next ones started from the same streams


def test_illegal_actions_end_the_episode_and_the_next_one_follows() -> None:
    played = play({"players": 2}, ["random"], 0, "wdl", 300, illegal_every=9)
    assert played.finished >= 1 and played.illegal >= 1


def test_vector_env_seed_list_and_copy() -> None:
    envs = make_envs("kingdomino", 2, players=2)
    by_list, _ = envs.reset(seed=[40, 41])
    by_int, _ = make_envs("kingdomino", 2, players=2).reset(seed=40)
    assert np.array_equal(by_list["observation"]["kingdoms"], by_int["observation"]["kingdoms"])
    views = KingdomkitVectorEnv(2, players=2, copy=False)
    first, _ = views.reset(seed=1)
    second, _ = views.step(np.argmax(first["action_mask"], axis=1))[:2]
    assert first["observation"]["line"] is second["observation"]["line"]  # the same buffer


def test_self_play_returns_every_decision() -> None:
    envs = make_envs("kingdomino", 2, players=3, opponents=None)
    observations, infos = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    players = set()
    for _ in range(200):
        observations, _rewards, terminations, _, infos = envs.step(
            random_actions(rng, observations["action_mask"])
        )
        players.update(infos["player"].tolist())
        assert (infos["seat"] == -1).all()
        for i in np.flatnonzero(terminations):
            assert sorted(infos["rewards"][i]).count(1.0) >= 1
    assert players == {0, 1, 2}


def test_vector_env_refuses_bad_calls() -> None:
    envs = KingdomkitVectorEnv(2, players=2)
    with pytest.raises(OptionError, match="call reset"):
        envs.step(np.zeros(2, np.int64))
    envs.reset(seed=0)
    with pytest.raises(OptionError, match="one action per game"):
        envs.step(np.zeros(3, np.int64))
    with pytest.raises(OptionError, match="whole numbers"):
        envs.step(np.zeros(2))
    with pytest.raises(OptionError, match="no options"):
        envs.reset(options={"fast": True})
    with pytest.raises(OptionError, match="2 seeds needed"):
        envs.reset(seed=[1, 2, 3])


def test_games_without_a_batched_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every game has one with numba: with the compiled kernels off, none has.
    monkeypatch.setenv("KINGDOMKIT_COMPILED", "0")
    with pytest.raises(OptionError, match="no batched simulator"):
        KingdomkitVectorEnv(2, game="queendomino", players=2)
    envs = gymnasium.make_vec(
        "kingdomkit/Queendomino-v0", num_envs=2, vectorization_mode="sync", players=2
    )
    assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
    observations, _infos = envs.reset(seed=0)
    assert observations["action_mask"].shape[0] == 2


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, {"OMP_WAIT_POLICY": "PASSIVE"}),
        ({"OMP_WAIT_POLICY": "active"}, {"OMP_WAIT_POLICY": "active"}),
        ({"GOMP_SPINCOUNT": "10000"}, {"GOMP_SPINCOUNT": "10000"}),
    ],
)
def test_a_batch_asks_for_threads_that_sleep_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch, given: dict[str, str], expected: dict[str, str]
) -> None:
    for name in WAITING:
        monkeypatch.delenv(name, raising=False)
    for name, value in given.items():
        monkeypatch.setenv(name, value)
    batch_simulator(make_game("kingdomino", {"players": 2}), 2, None, None, "wdl", -1.0)
    assert {name: os.environ[name] for name in WAITING if name in os.environ} == expected
