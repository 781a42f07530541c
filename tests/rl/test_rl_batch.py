"""The batched Kingdomino simulator and the vector environment on it: every game of a batch is
played step for step beside the reference engine (the same SplitMix64 stream, the same learner
actions, the bots' Python policies) and must show the same observation, mask, rewards and
scores at every step, over whole episodes, for every option set; then the vector env's
seeding, spaces and errors. Skipped without numba."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np

import kingdomkit.rl  # noqa: F401  (registers the ids)
from batch_reference import ReferenceGame
from kingdomkit.core.protocol import TERMINAL, OptionError
from kingdomkit.core.registry import make_game
from kingdomkit.rl.adapter import final_rewards
from kingdomkit.rl.batch import batch_simulator
from kingdomkit.rl.compiled_batch import WAITING
from kingdomkit.rl.observation import observer as observer_of
from kingdomkit.rl.vector import KingdomkitVectorEnv


def play_beside_reference(
    options: dict[str, Any],
    opponents: Sequence[str] | None,
    seat: int | None,
    reward: str,
    steps: int,
    games: int = 6,
    illegal_every: int = 0,
) -> int:
    """Steps a batch and its reference games with random learner actions (one in
    `illegal_every` illegal) and checks every output; returns the episodes finished."""
    game = make_game("kingdomino", options)
    batch = batch_simulator(game, games, opponents, seat, reward, -3.0)
    assert batch is not None
    seeds = [1000 + i for i in range(games)]
    out = batch.reset(seeds)
    references = [ReferenceGame(game, seed, opponents, seat) for seed in seeds]
    rng = np.random.default_rng(sum(seeds))
    finished = 0
    for step in range(steps):
        for i, reference in enumerate(references):
            observer = reference.observer()
            assert out.player[i] == observer
            assert out.seat[i] == reference.seat
            expected = observer_of(game).observe(reference.state, observer)
            for name, array in expected.items():
                assert np.array_equal(out.observation[name][i], array), (step, i, name)
            assert np.array_equal(out.action_mask[i], reference.expected_mask()), (step, i)
        actions = []
        for i, reference in enumerate(references):
            legal = np.flatnonzero(out.action_mask[i])
            if reference.ended:
                actions.append(int(rng.integers(game.num_actions)))  # ignored: a new episode
            elif illegal_every and rng.integers(illegal_every) == 0:
                illegal = np.flatnonzero(out.action_mask[i] == 0)
                actions.append(int(rng.choice(illegal)))
            else:
                actions.append(int(rng.choice(legal)))
        out = batch.step(np.array(actions))
        for i, reference in enumerate(references):
            if reference.ended:
                reference.start()
                assert not out.terminated[i] and out.reward[i] == 0.0
                continue
            action = actions[i]
            reference.actor = game.current_player(reference.state)
            if action not in game.legal_actions(reference.state):
                assert out.terminated[i] and out.illegal[i] and out.reward[i] == -3.0
                reference.ended = True
                continue
            reference.state = game.apply(reference.state, action)
            reference.advance()
            over = game.current_player(reference.state) == TERMINAL
            assert out.terminated[i] == over and not out.illegal[i]
            if over:
                rewards = final_rewards(game, reference.state, reward)
                assert out.rewards[i].tolist() == rewards
                assert out.scores[i].tolist() == list(game.scores(reference.state))
                assert out.reward[i] == rewards[reference.actor]
                reference.ended = True
                finished += 1
            else:
                assert out.reward[i] == 0.0 and not out.rewards[i].any()
    return finished


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
    finished = play_beside_reference(options, opponents, seat, reward, steps=300)
    assert finished >= 6  # whole episodes, and the next ones started from the same streams


def test_illegal_actions_end_the_episode_and_the_next_one_follows() -> None:
    finished = play_beside_reference({"players": 2}, ["random"], 0, "wdl", 300, illegal_every=9)
    assert finished >= 1


def make_envs(num_envs: int = 4, **kwargs: Any) -> Any:
    return gymnasium.make_vec(
        "kingdomkit/Kingdomino-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        **kwargs,
    )


def random_actions(rng: np.random.Generator, masks: Any) -> Any:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def rollout(envs: Any, seed: int, steps: int) -> list[Any]:
    observations, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(0)
    trace = [observations["observation"]["kingdoms"].copy()]
    for _ in range(steps):
        observations, rewards, _terminations, truncations, _infos = envs.step(
            random_actions(rng, observations["action_mask"])
        )
        assert not truncations.any()
        trace.append((observations["observation"]["kingdoms"].copy(), rewards.copy()))
    return trace


def test_vector_env_spaces_and_infos() -> None:
    envs = make_envs(3, players=2, opponents="greedy")
    assert isinstance(envs, KingdomkitVectorEnv)
    observations, infos = envs.reset(seed=5)
    assert envs.observation_space.contains(observations)
    assert envs.single_action_space == gymnasium.spaces.Discrete(365)
    assert np.array_equal(infos["action_mask"], observations["action_mask"])
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(120):
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


def test_vector_env_is_determined_by_its_seed() -> None:
    first = rollout(make_envs(players=2, opponents="random"), 11, 60)
    again = rollout(make_envs(players=2, opponents="random"), 11, 60)
    other = rollout(make_envs(players=2, opponents="random"), 12, 60)
    for a, b in zip(first[1:], again[1:], strict=True):
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(first[1:], other[1:], strict=True))


def test_vector_env_seed_list_and_copy() -> None:
    envs = make_envs(2, players=2)
    by_list, _ = envs.reset(seed=[40, 41])
    by_int, _ = make_envs(2, players=2).reset(seed=40)
    assert np.array_equal(by_list["observation"]["kingdoms"], by_int["observation"]["kingdoms"])
    views = KingdomkitVectorEnv(2, players=2, copy=False)
    first, _ = views.reset(seed=1)
    second, _ = views.step(np.argmax(first["action_mask"], axis=1))[:2]
    assert first["observation"]["line"] is second["observation"]["line"]  # the same buffer


def test_self_play_returns_every_decision() -> None:
    envs = make_envs(2, players=3, opponents=None)
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


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": "flat-mc"}, "compiled opponents only"),
        ({"opponents": ["random", "greedy"]}, "1 opponents needed"),
        ({"seat": 2}, "seat must be 0 to 1"),
        ({"reward": "points"}, "unknown reward"),
        ({"num_envs": 0}, "whole number"),
        ({"colour": "red"}, "unknown Kingdomino option"),
    ],
)
def test_vector_env_refuses_bad_settings(kwargs: dict[str, Any], message: str) -> None:
    settings = {"num_envs": 2, "players": 2, **kwargs}
    with pytest.raises(OptionError, match=message):
        KingdomkitVectorEnv(**settings)


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
