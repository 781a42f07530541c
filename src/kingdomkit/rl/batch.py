"""The rewards of a game's batched simulator (its `batch` capability): the simulator says how
its games ended (`SimulatorStep`: the returns, the scores, an illegal action), and this module
says what that is worth to the learner, as the single environments do (adapter.py):

    batch = batch_simulator(game, 256, opponents=["greedy"], seat=0, reward="wdl",
                            illegal_reward=-1.0)
    out = batch.reset(seeds=range(256))     # a BatchStep
    out = batch.step(actions)               # actions[i]: game i's action, legal in
                                            # out.action_mask[i]

Computed in numpy on the games that ended, after the compiled step, so that no game's kernel
holds reward code: 4 to 6 µs a step of 256 two-player Kingdomino games (one thread, on a busy
host, where the compiled step took 0.9 to 1.1 ms; against 0.37 ms on the idle two cores of
docs/benchmarks.md, about 1.5%, inside that table's spread).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from kingdomkit.core.protocol import Game
from kingdomkit.rl.adapter import check_settings
from kingdomkit.rl.observation import BatchSimulator, Observation, SimulatorStep, batch_maker

if TYPE_CHECKING:
    from numpy.typing import NDArray


class BatchStep(NamedTuple):
    """What a rewarded batched simulator returns for its N games after a reset or a step
    (arrays with the game as first index, owned by the simulator: copy them to keep them)."""

    observation: Observation  # name -> (N, ...) array: `observe` from `player`'s seat
    action_mask: NDArray[Any]  # (N, num_actions) int8: 1 on the legal actions, 0 at the end
    reward: NDArray[Any]  # (N,) float64: the reward of the player who just decided
    terminated: NDArray[Any]  # (N,) bool: this step ended the game
    illegal: NDArray[Any]  # (N,) bool: ended by an illegal action
    player: NDArray[Any]  # (N,) int64: whose observation it is (the player to decide)
    seat: NDArray[Any]  # (N,) int64: the learner's seat, -1 in self-play
    rewards: NDArray[Any]  # (N, players) float64: every player's final reward, else 0
    scores: NDArray[Any]  # (N, players) float64: the final scores, else 0


def final_rewards(returns: NDArray[Any], scores: NDArray[Any], reward: str) -> NDArray[Any]:
    """Every player's reward in each of the ended games whose `returns` and `scores` are
    given (rows), as `kingdomkit.rl.adapter.final_rewards` gives them for one game."""
    if reward == "wdl":
        rewards: NDArray[Any] = 2.0 * returns - 1.0
        return rewards
    winners = returns > 0
    best_winner = np.where(winners, scores, -np.inf).max(axis=1, keepdims=True)
    best_other = np.where(winners, -np.inf, scores).max(axis=1, keepdims=True)
    # A winner's margin is over the best player who did not win (0 when all share it).
    over_others = np.where(np.isfinite(best_other), scores - best_other, 0.0)
    rewards = np.where(winners, over_others, scores - best_winner)
    return rewards


class RewardedBatch:
    """A game's batched simulator with the learner's rewards (module card)."""

    def __init__(
        self, simulator: BatchSimulator, players: int, reward: str, illegal_reward: float
    ) -> None:
        check_settings(reward, None)
        self.simulator = simulator
        self.num_envs = n = simulator.num_envs
        self.reward = reward
        self.illegal_reward = float(illegal_reward)
        self.rewards = np.zeros(n, np.float64)
        self.finals = np.zeros((n, players), np.float64)

    def reset(self, seeds: Sequence[int] | None = None) -> BatchStep:
        """New episodes everywhere; game i's stream from seeds[i] (None: go on)."""
        return self._rewarded(self.simulator.reset(seeds))

    def step(self, actions: Any) -> BatchStep:
        """Plays actions[i] in game i (an illegal one ends that episode)."""
        return self._rewarded(self.simulator.step(actions))

    def _rewarded(self, out: SimulatorStep) -> BatchStep:
        reward, finals = self.rewards, self.finals
        reward.fill(0.0)
        finals.fill(0.0)
        ended = np.flatnonzero(out.terminated & ~out.illegal)
        if ended.size:
            values = final_rewards(out.returns[ended], out.scores[ended], self.reward)
            finals[ended] = values
            reward[ended] = values[np.arange(ended.size), out.actor[ended]]
        reward[out.illegal] = self.illegal_reward
        return BatchStep(
            out.observation,
            out.action_mask,
            reward,
            out.terminated,
            out.illegal,
            out.player,
            out.seat,
            finals,
            out.scores,
        )


def batch_simulator(
    game: Game[Any],
    num_envs: int,
    opponents: Sequence[str] | None,
    seat: int | None,
    reward: str,
    illegal_reward: float,
) -> RewardedBatch | None:
    """The configured `game`'s batched simulator of `num_envs` games with the learner's
    rewards, or None when it has none here. `opponents`: one playout policy name ("random",
    "greedy") per other seat, in seat order, or None for self-play; `seat`: the learner's,
    None to draw it each episode; `reward`: "wdl" or "margin" (adapter.py);
    `illegal_reward`: what an illegal action gets (it ends the game)."""
    maker = batch_maker(game)
    if maker is None:
        return None
    check_settings(reward, None)
    return RewardedBatch(maker(num_envs, opponents, seat), game.num_players, reward, illegal_reward)
