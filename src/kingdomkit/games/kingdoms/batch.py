"""Kingdoms' batched simulator (its `batch` capability, shape.py): N games stepped at once by
the compiled kernel of batch_kernel.py, for learning at hundreds of thousands of steps a
second. `kingdomkit.rl`'s vector environment is built on it, and gives the rewards
(kingdomkit.rl.batch): the simulator says how the games ended, not what that is worth.

    batch = kingdomkit.rl.observation.batch_maker(game)(256, opponents=["greedy"], seat=0)
    out = batch.reset(seeds=range(256))     # a SimulatorStep (kingdomkit.rl.observation)
    out = batch.step(actions)               # actions[i]: game i's action, legal in
                                            # out.action_mask[i]

Opponents are the compiled playout policies ("random", "greedy": the full greedy bot), one
per other seat in seat order; None is self-play. Observations are those of Kingdoms'
encoding (encoding.py), byte for byte, from the observer's view (no hidden tile shows), with
the game as first index. Each game draws from its own SplitMix64 stream, started at
`stream_seed(seeds[i])` and going on from one episode to the next; the reference engine
playing the same learner actions from that stream, with the bots' `kingdomkit.bots.playouts`
policies, plays the same games (batch_kernel.py says the order of the draws).

Versions: 1, the first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
import numpy.typing as npt

from kingdomkit.core.protocol import OptionError
from kingdomkit.core.rng import MASK64, splitmix64_next
from kingdomkit.games.kingdoms import batch_kernel as bk
from kingdomkit.games.kingdoms import kernel as kn
from kingdomkit.games.kingdoms.board import SPACES
from kingdomkit.rl.observation import SimulatorStep, observer

if TYPE_CHECKING:
    from kingdomkit.games.kingdoms.accelerator import KingdomsAccelerator
    from kingdomkit.games.kingdoms.rules import Kingdoms

Ints = npt.NDArray[np.int64]
OPPONENT_POLICIES = {"random": kn.RANDOM, "greedy": kn.GREEDY}
OBSERVATION_ORDER = ("board", "tiles", "seats", "counters")  # the kernel's


def stream_seed(seed: int) -> int:
    """The SplitMix64 state a game's stream starts from, for `seed` (one mixing step, so
    that the streams of seeds 0, 1, 2 ... share nothing visible): Kingdomino's rule."""
    return splitmix64_next(seed & MASK64)[1]


class KingdomsBatch:
    """N Kingdoms games in kernel arrays, stepped together (module card)."""

    def __init__(
        self,
        game: Kingdoms,
        accelerator: KingdomsAccelerator,
        num_envs: int,
        opponents: Sequence[str] | None,
        seat: int | None,
    ) -> None:
        players = game.num_players
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise OptionError(f"the number of games is a whole number from 1 up, not {num_envs!r}")
        settings = np.zeros(bk.SETTINGS_SIZE, np.int64)
        self.policies = np.full((players, players), bk.LEARNER, np.int64)
        if opponents is None:
            settings[bk.SELF_PLAY] = 1
        else:
            codes = [self._policy(name) for name in opponents]
            if len(codes) != players - 1:
                raise OptionError(f"{players - 1} opponents needed, {len(codes)} given")
            if seat is None:
                settings[bk.DRAWN_SEAT] = 1
            elif isinstance(seat, bool) or seat not in range(players):
                raise OptionError(f"seat must be 0 to {players - 1} (or None), not {seat!r}")
            else:
                settings[bk.FIXED_SEAT] = seat
            for learner in range(players):
                others = [p for p in range(players) if p != learner]
                self.policies[learner, others] = codes
        self.settings = settings
        self.game = game
        self.num_envs = n = num_envs
        self.players = players
        self.num_actions = game.num_actions
        self.tables = (accelerator.config, accelerator.state_arrays(game.initial_state()))
        self.arrays = (
            np.zeros((n, kn.STATE_SIZE), np.int64),
            np.zeros(n, np.uint64),  # streams
            np.full(n, -1, np.int64),  # seat
            np.full(n, -1, np.int64),  # actor
            np.ones(n, np.int64),  # pending: every game starts a new episode at the next step
        )
        spec = observer(game).spec()
        self.observation = {
            name: np.zeros((n, *array.shape), np.dtype(array.dtype)) for name, array in spec.items()
        }
        board = self.observation["board"]
        # The kernel writes the board's planes by space (row * columns + column): a view.
        self._kernel_observation = (
            board.reshape(n, board.shape[1], SPACES),
            *(self.observation[name] for name in OBSERVATION_ORDER[1:]),
        )
        self.out = (
            np.zeros((n, self.num_actions), np.int8),
            np.zeros(n, np.int8),
            np.zeros(n, np.int8),
            np.zeros(n, np.int64),
            np.zeros((n, players), np.float64),
            np.zeros((n, players), np.float64),
        )
        self._ignored: Ints = np.zeros(n, np.int64)
        self.seeded = False

    @staticmethod
    def _policy(name: str) -> int:
        code = OPPONENT_POLICIES.get(name)
        if code is None:
            known = ", ".join(OPPONENT_POLICIES)
            raise OptionError(
                f"the batched simulator plays compiled opponents only ({known}), not {name!r}"
            )
        return code

    def reset(self, seeds: Iterable[int] | None = None) -> SimulatorStep:
        """New episodes in every game; game i's stream starts at stream_seed(seeds[i]) (None:
        the streams go on, or are drawn from the operating system the first time)."""
        streams = self.arrays[1]
        if seeds is not None:
            values = [int(seed) for seed in seeds]
            if len(values) != self.num_envs:
                raise OptionError(f"{self.num_envs} seeds needed, {len(values)} given")
            streams[:] = [stream_seed(seed) for seed in values]
            self.seeded = True
        elif not self.seeded:
            fresh = np.random.SeedSequence().generate_state(self.num_envs, np.uint64)
            streams[:] = fresh
            self.seeded = True
        self.arrays[4][:] = 1
        return self._step(self._ignored)

    def step(self, actions: Any) -> SimulatorStep:
        """Plays actions[i] in game i (the game's own action numbers, actions.py)."""
        if not self.seeded:
            raise OptionError("call reset() before step()")
        values = np.asarray(actions)
        if values.shape != (self.num_envs,):
            raise OptionError(
                f"one action per game needed: shape ({self.num_envs},), not {values.shape}"
            )
        if not np.issubdtype(values.dtype, np.integer):
            raise OptionError(f"actions are whole numbers, not {values.dtype}")
        return self._step(values.astype(np.int64, copy=False))

    def _step(self, actions: Ints) -> SimulatorStep:
        bk.step_batch(
            actions,
            self.arrays,
            self.tables,
            self.settings,
            self.policies,
            self._kernel_observation,
            self.out,
            numba.get_num_threads(),
        )
        mask, terminated, illegal, player, returns, scores = self.out
        return SimulatorStep(
            self.observation,
            mask,
            terminated.view(np.bool_),
            illegal.view(np.bool_),
            player,
            self.arrays[3],
            self.arrays[2],
            returns,
            scores,
        )
