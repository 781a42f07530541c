"""The batched Queendomino simulator and the vector environment on it: every game of a batch is
played step for step beside the reference engine (the same SplitMix64 stream, the same learner
actions, the bots' Python policies) and must show the same observation (the Python encoder's,
byte for byte), mask, rewards, terminations and scores at every step, over whole episodes and
the auto-resets after them, for 2, 3 and 4 players, the Royal Wedding (3 to 8 players) and
teams. Skipped without numba."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
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
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.state import BUILD, DRAGON, SITE, TAX
from kingdomkit.rl.adapter import final_rewards
from kingdomkit.rl.batch import batch_simulator
from kingdomkit.rl.observation import observer as observer_of
from kingdomkit.rl.vector import KingdomkitVectorEnv

DATA = "kingdomkit.games.queendomino.data"


def play_beside_reference(
    options: dict[str, Any],
    opponents: Sequence[str] | None,
    seat: int | None,
    reward: str,
    steps: int,
    games: int = 4,
    illegal_every: int = 0,
) -> tuple[int, set[int]]:
    """Steps a batch and its reference games with random learner actions (one in
    `illegal_every` illegal) and checks every output; returns the episodes ended and the
    phases the learners decided in (so that a test knows the turn's every step was seen)."""
    game = make_game("queendomino", options)
    batch = batch_simulator(game, games, opponents, seat, reward, -3.0)
    assert batch is not None
    seeds = [3000 + i for i in range(games)]
    out = batch.reset(seeds)
    references = [ReferenceGame(game, seed, opponents, seat) for seed in seeds]
    rng = np.random.default_rng(sum(seeds))
    encoder = observer_of(game)
    ended = 0
    phases: set[int] = set()
    for step in range(steps):
        for i, reference in enumerate(references):
            observer = reference.observer()
            assert out.player[i] == observer, (step, i)
            assert out.seat[i] == reference.seat
            expected = encoder.observe(reference.state, observer)
            for name, array in expected.items():
                got = out.observation[name][i]
                assert got.dtype == array.dtype and got.tobytes() == array.tobytes(), (
                    step,
                    i,
                    name,
                )
            assert np.array_equal(out.action_mask[i], reference.expected_mask()), (step, i)
            if not reference.ended:
                phases.add(reference.state.phase)
        actions = []
        for i, reference in enumerate(references):
            legal = np.flatnonzero(out.action_mask[i])
            if reference.ended:
                actions.append(int(rng.integers(game.num_actions)))  # ignored: a new episode
            elif illegal_every and rng.integers(illegal_every) == 0:
                illegal = np.flatnonzero(out.action_mask[i] == 0)
                actions.append(int(rng.choice([*illegal[:3], -1, game.num_actions])))
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
                ended += 1
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
                ended += 1
            else:
                assert out.reward[i] == 0.0 and not out.rewards[i].any()
    return ended, phases


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
    ended, phases = play_beside_reference(options, opponents, seat, reward, steps)
    assert ended >= 4  # whole episodes, and the next ones started from the same streams
    assert {TAX, BUILD, SITE, DRAGON} <= phases  # knights, buildings and the Dragon were seen


def test_self_play_with_the_royal_wedding_in_teams() -> None:
    ended, _ = play_beside_reference(
        {"players": 6, "royal_wedding": True, "teams": True}, None, 0, "wdl", 500, games=2
    )
    assert ended >= 2


def test_illegal_actions_end_the_episode_and_the_next_one_follows() -> None:
    ended, _ = play_beside_reference({"players": 2}, ["random"], 0, "wdl", 120, 3, 9)
    assert ended >= 6  # illegal actions, each ending its episode, then the next episodes


def make_envs(num_envs: int = 4, **kwargs: Any) -> Any:
    return gymnasium.make_vec("kingdomkit/Queendomino-v0", num_envs=num_envs, **kwargs)


def random_actions(rng: np.random.Generator, masks: Any) -> Any:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def test_make_vec_uses_the_batched_simulator() -> None:
    envs = make_envs(3, players=2, opponents="greedy")
    assert isinstance(envs, KingdomkitVectorEnv)
    observations, infos = envs.reset(seed=5)
    assert envs.observation_space.contains(observations)
    assert np.array_equal(infos["action_mask"], observations["action_mask"])
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        actions = random_actions(rng, observations["action_mask"])
        observations, rewards, terminations, _, infos = envs.step(actions)
        assert envs.observation_space.contains(observations)
        assert infos["player"].tolist() == [0, 0, 0]
        for i in np.flatnonzero(terminations):
            ended += 1
            assert rewards[i] in (-1.0, 0.0, 1.0) and infos["scores"][i].any()
            assert not observations["action_mask"][i].any()
    assert ended >= 3


def test_vector_env_is_determined_by_its_seed() -> None:
    def rollout(seed: int) -> list[Any]:
        envs = make_envs(players=3, opponents="random", royal_wedding=True)
        observations, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace = []
        for _ in range(40):
            observations = envs.step(random_actions(rng, observations["action_mask"]))[0]
            trace.append(observations["observation"]["kingdoms"].copy())
        return trace

    first, again, other = rollout(11), rollout(11), rollout(12)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert any(not np.array_equal(a, b) for a, b in zip(first, other, strict=True))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": "flat-mc"}, "compiled opponents only"),
        ({"opponents": "epsilon-greedy"}, "compiled opponents only"),
        ({"opponents": ["random", "greedy"]}, "1 opponents needed"),
        ({"seat": 2}, "seat must be 0 to 1"),
        ({"num_envs": 0}, "whole number"),
        ({"teams": True}, "Royal Wedding mode"),
    ],
)
def test_vector_env_refuses_bad_settings(kwargs: dict[str, Any], message: str) -> None:
    settings = {"num_envs": 2, "players": 2, "game": "queendomino", **kwargs}
    with pytest.raises(OptionError, match=message):
        KingdomkitVectorEnv(**settings)


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
    ended, phases = play_beside_reference(options, opponents, 0, "margin", 260)
    assert ended >= 4
    assert BUILD in phases
