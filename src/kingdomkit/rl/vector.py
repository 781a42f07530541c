"""A Gymnasium vector environment on a game's batched simulator (its `batch` capability,
rewarded by batch.py): N games stepped at once in compiled code, for learning at hundreds of
thousands of steps a second. Written against the protocol; every game has a simulator
(Kingdomino, Queendomino and Kingdoms: the `rl` extra brings numba), and a game without one
here (no numba, or KINGDOMKIT_COMPILED=0) says so (use `vectorization_mode="sync"`).

    import gymnasium, kingdomkit.rl
    envs = gymnasium.make_vec("kingdomkit/Kingdomino-v0", num_envs=256, players=2,
                              opponents="greedy")
    observations, infos = envs.reset(seed=7)
    actions = policy(observations)     # legal: observations["action_mask"][i] == 1
    observations, rewards, terminations, truncations, infos = envs.step(actions)

Keyword arguments, besides the game's options:

    opponents       a compiled policy for every other seat ("random", "greedy"), or a
                    list, one per other seat in seat order, or None for self-play: every
                    decision of every seat is returned, from the deciding player's seat
                    (`infos["player"]`); default "random"
    seat            the learner's seat (default 0), None for one drawn each episode
    reward          "wdl" (default) or "margin" (adapter.py), at the end of a game; in
                    self-play the reward of the player who just decided, and every
                    player's in `infos["rewards"]`
    illegal_reward  an illegal action ends that game with this reward (default -1) and
                    `infos["illegal_action"]`
    copy            True (default): the arrays returned are the caller's to keep; False:
                    views of the simulator's buffers, overwritten by the next step

Autoreset is Gymnasium's default, next-step: after a game ends, the next `step` starts a new
one in that slot (its action is ignored) and returns its first observation with reward 0.
`reset(seed=s)` seeds game i with s + i (a list of seeds: one each); the games' streams then
go on from episode to episode. infos: "action_mask", "player", "seat", "rewards", "scores"
(final, else 0) and "illegal_action", each with its "_name" mask as Gymnasium's vector infos.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import make_game
from kingdomkit.rl.adapter import check_settings, observation_space
from kingdomkit.rl.batch import BatchStep, batch_simulator

Observation = dict[str, Any]


class KingdomkitVectorEnv(VectorEnv[Observation, Any, Any]):
    """N games of one configured game in its batched simulator (module card)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (VectorEnv's type)

    def __init__(
        self,
        num_envs: int = 1,
        game: str = "kingdomino",
        opponents: str | Sequence[str] | None = "random",
        seat: int | None = 0,
        reward: str = "wdl",
        illegal_reward: float = -1.0,
        copy: bool = True,
        **options: Any,
    ) -> None:
        check_settings(reward, None)
        self.game = make_game(game, options)
        players = self.game.num_players
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else opponents
        simulator = batch_simulator(self.game, num_envs, specs, seat, reward, float(illegal_reward))
        if simulator is None:
            raise OptionError(
                f"{game} has no batched simulator here (each game has one with numba, the rl "
                "extra, for every set-up its compiled kernel takes, unless "
                "KINGDOMKIT_COMPILED=0); vectorize the single environment with "
                'vectorization_mode="sync"'
            )
        self.simulator = simulator
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = observation_space(self.game)
        self.single_action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._present = np.ones(num_envs, np.bool_)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        if options:
            raise OptionError(f"reset takes no options, not {sorted(options)}")
        if seed is None:
            seeds = None
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = [int(value) for value in seed]
        out = self.simulator.reset(seeds)
        return self._observation(out), self._infos(out)

    def step(self, actions: Any) -> tuple[Observation, Any, Any, Any, dict[str, Any]]:
        out = self.simulator.step(actions)
        rewards = out.reward.copy()
        terminations = out.terminated.copy()
        truncations = np.zeros(self.num_envs, np.bool_)
        return self._observation(out), rewards, terminations, truncations, self._infos(out)

    def _observation(self, out: BatchStep) -> Observation:
        arrays = out.observation
        mask = out.action_mask
        if self.copy:
            arrays = {name: array.copy() for name, array in arrays.items()}
            mask = mask.copy()
        return {"observation": arrays, "action_mask": mask}

    def _infos(self, out: BatchStep) -> dict[str, Any]:
        present = self._present
        infos: dict[str, Any] = {
            "action_mask": out.action_mask.copy() if self.copy else out.action_mask,
            "player": out.player.copy(),
            "seat": out.seat.copy(),
            "rewards": out.rewards.copy(),
            "scores": out.scores.copy(),
            "illegal_action": out.illegal.copy(),
        }
        for name in list(infos):
            infos["_" + name] = present
        return infos
