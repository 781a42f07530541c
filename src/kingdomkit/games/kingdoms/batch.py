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
`rl.compiled_batch.stream_seed(seeds[i])` and going on from one episode to the next; the
reference engine playing the same learner actions from that stream, with the bots'
`kingdomkit.bots.playouts` policies, plays the same games (batch_kernel.py says the order of
the draws).

Versions: 1, the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numba
import numpy as np
import numpy.typing as npt

from kingdomkit.games.kingdoms import batch_kernel as bk
from kingdomkit.games.kingdoms import kernel as kn
from kingdomkit.games.kingdoms.board import SPACES
from kingdomkit.rl.compiled_batch import CompiledBatch

if TYPE_CHECKING:
    from kingdomkit.games.kingdoms.accelerator import KingdomsAccelerator
    from kingdomkit.games.kingdoms.rules import Kingdoms

Ints = npt.NDArray[np.int64]
OPPONENT_POLICIES = {"random": kn.RANDOM, "greedy": kn.GREEDY}
OBSERVATION_ORDER = ("board", "tiles", "seats", "counters")  # the kernel's


class KingdomsBatch(CompiledBatch):
    """N Kingdoms games in kernel arrays, stepped together (module card)."""

    kernel = staticmethod(bk.step_batch)

    def __init__(
        self,
        game: Kingdoms,
        accelerator: KingdomsAccelerator,
        num_envs: int,
        opponents: Sequence[str] | None,
        seat: int | None,
    ) -> None:
        super().__init__(game, num_envs, opponents, seat, OPPONENT_POLICIES)
        n = self.num_envs
        self.tables = (accelerator.config, accelerator.state_arrays(game.initial_state()))
        self.arrays = (
            np.zeros((n, kn.STATE_SIZE), np.int64),
            self.streams,
            self.seats,
            self.actors,
            self.pending,
        )
        board = self.observation["board"]
        # The kernel writes the board's planes by space (row * columns + column): a view.
        self._kernel_observation = (
            board.reshape(n, board.shape[1], SPACES),
            *(self.observation[name] for name in OBSERVATION_ORDER[1:]),
        )

    def _run(self, actions: Ints) -> None:
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
