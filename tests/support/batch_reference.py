"""A batched simulator played beside the pure-Python engine (the reference): each slot replayed
from the same SplitMix64 stream with the bots' Python policies, and every output of the
compiled step compared with what the engine shows (`play_beside_reference`); and the vector
environments on the batches (`make_envs`, `random_actions`). Shared by every game's batch and
vector-env tests, which differ only in their cases and what they look for."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

from kingdomkit.bots.playouts import greedy_policy, random_policy
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game
from kingdomkit.core.registry import make_game
from kingdomkit.core.rng import SplitMix64
from kingdomkit.rl.adapter import action_mask, final_rewards
from kingdomkit.rl.batch import batch_simulator
from kingdomkit.rl.compiled_batch import stream_seed
from kingdomkit.rl.gym import ENV_IDS
from kingdomkit.rl.observation import observer as observer_of

POLICIES = {"random": random_policy, "greedy": greedy_policy}


class ReferenceGame:
    """One slot of a batch, played by the pure-Python engine from the same stream."""

    def __init__(
        self, game: Game[Any], seed: int, opponents: Sequence[str] | None, seat: int | None
    ) -> None:
        self.game = game
        self.rng: Any = SplitMix64(stream_seed(seed))  # random() is all the engine uses
        self.opponents = opponents
        self.fixed_seat = seat
        self.actor = -1
        self.ended = False
        self.start()

    def start(self) -> None:
        game = self.game
        if self.opponents is None:
            self.seat = -1
        elif self.fixed_seat is None:
            self.seat = int(self.rng.random() * game.num_players)
        else:
            self.seat = self.fixed_seat
        self.state = game.initial_state()
        self.ended = False
        self.advance()

    def advance(self) -> None:
        """Chance and the bots, until the learner decides or the game ends."""
        game = self.game
        while True:
            player = game.current_player(self.state)
            if player == CHANCE:
                self.state = game.apply(self.state, game.sample_chance(self.state, self.rng))
                continue
            if player == TERMINAL or self.seat < 0 or player == self.seat:
                return
            assert self.opponents is not None
            others = [p for p in range(game.num_players) if p != self.seat]
            policy = POLICIES[self.opponents[others.index(player)]]
            self.state = game.apply(self.state, policy(game, self.state, self.rng))

    def observer(self) -> int:
        if self.seat >= 0:
            return self.seat
        player = self.game.current_player(self.state)
        return self.actor if self.ended or player < 0 else player

    def expected_mask(self) -> Any:
        game = self.game
        if self.ended:
            return np.zeros(game.num_actions, np.int8)
        return action_mask(game, game.legal_actions(self.state))


ILLEGAL_REWARD = -3.0  # what the batches are told an illegal action costs


@dataclass(frozen=True)
class Played:
    """The episodes a batch ended beside its reference games."""

    finished: int  # played to the end of the game
    illegal: int  # ended by an illegal action

    @property
    def ended(self) -> int:
        return self.finished + self.illegal


Watch = Callable[[ReferenceGame, Mapping[str, Any]], None]


def play_beside_reference(
    game_name: str,
    options: dict[str, Any],
    opponents: Sequence[str] | None,
    seat: int | None,
    reward: str,
    steps: int,
    *,
    games: int,
    seed_base: int,
    illegal_every: int = 0,
    watch: Watch | None = None,
) -> Played:
    """Steps a batch of `games` (seeds from `seed_base`) and its reference games with random
    learner actions (one in `illegal_every` illegal: masked, negative or past the last action)
    and checks every output: the observation byte for byte, the mask, rewards, terminations
    and scores, through whole episodes and the auto-resets after them. `watch` sees each
    slot's reference and the batch's observation row before every step."""
    game = make_game(game_name, options)
    batch = batch_simulator(game, games, opponents, seat, reward, ILLEGAL_REWARD)
    assert batch is not None
    seeds = [seed_base + i for i in range(games)]
    out = batch.reset(seeds)
    references = [ReferenceGame(game, seed, opponents, seat) for seed in seeds]
    rng = np.random.default_rng(sum(seeds))
    encoder = observer_of(game)
    finished = illegal_ends = 0
    for step in range(steps):
        for i, reference in enumerate(references):
            observer = reference.observer()
            assert out.player[i] == observer, (step, i)
            assert out.seat[i] == reference.seat, (step, i)
            expected = encoder.observe(reference.state, observer)
            row = {name: out.observation[name][i] for name in expected}
            for name, array in expected.items():
                got = row[name]
                assert got.dtype == array.dtype and got.tobytes() == array.tobytes(), (
                    step,
                    i,
                    name,
                )
            assert np.array_equal(out.action_mask[i], reference.expected_mask()), (step, i)
            if watch is not None:
                watch(reference, row)
        actions = []
        for i, reference in enumerate(references):
            if reference.ended:
                actions.append(int(rng.integers(game.num_actions)))  # ignored: a new episode
            elif illegal_every and rng.integers(illegal_every) == 0:
                masked = np.flatnonzero(out.action_mask[i] == 0)
                actions.append(int(rng.choice([*masked[:3], -1, game.num_actions])))
            else:
                actions.append(int(rng.choice(np.flatnonzero(out.action_mask[i]))))
        out = batch.step(np.array(actions))
        for i, reference in enumerate(references):
            if reference.ended:
                reference.start()
                assert not out.terminated[i] and out.reward[i] == 0.0, (step, i)
                continue
            action = actions[i]
            reference.actor = game.current_player(reference.state)
            if action not in game.legal_actions(reference.state):
                assert out.terminated[i] and out.illegal[i], (step, i)
                assert out.reward[i] == ILLEGAL_REWARD, (step, i)
                reference.ended = True
                illegal_ends += 1
                continue
            reference.state = game.apply(reference.state, action)
            reference.advance()
            over = game.current_player(reference.state) == TERMINAL
            assert out.terminated[i] == over and not out.illegal[i], (step, i)
            if over:
                rewards = final_rewards(game, reference.state, reward)
                assert out.rewards[i].tolist() == rewards, (step, i)
                assert out.scores[i].tolist() == list(game.scores(reference.state)), (step, i)
                assert out.reward[i] == rewards[reference.actor], (step, i)
                reference.ended = True
                finished += 1
            else:
                assert out.reward[i] == 0.0 and not out.rewards[i].any(), (step, i)
    return Played(finished, illegal_ends)


def make_envs(game: str, num_envs: int = 4, **kwargs: Any) -> Any:
    """`gymnasium.make_vec` for a game, in its default mode (the batched simulator's)."""
    return gymnasium.make_vec(ENV_IDS[game], num_envs=num_envs, **kwargs)


def random_actions(rng: np.random.Generator, masks: Any) -> Any:
    """A legal action for every game (0 where none is: an episode just ended)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
