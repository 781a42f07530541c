"""Kingdomino's batched simulator (its `batch` capability, shape.py): N games stepped at once
by the compiled kernel of batch_kernel.py, for learning at hundreds of thousands of steps a
second. `kingdomkit.rl`'s vector environment is built on it, and gives the rewards
(kingdomkit.rl.batch): the simulator says how the games ended, not what that is worth.

    batch = kingdomkit.rl.observation.batch_maker(game)(256, opponents=["greedy"], seat=0)
    out = batch.reset(seeds=range(256))     # a SimulatorStep (kingdomkit.rl.observation)
    out = batch.step(actions)               # actions[i]: game i's action, legal in
                                            # out.action_mask[i]

Opponents are the compiled playout policies ("random", "greedy": the full greedy bot), one
per other seat in seat order; None is self-play. Observations are those of Kingdomino's
encoding (encoding.py), byte for byte, with the game as first index. Each game draws from
its own SplitMix64 stream, started at `rl.compiled_batch.stream_seed(seeds[i])` and going on
from one episode to the next; the reference engine playing the same learner actions from
that stream, with the bots' `kingdomkit.bots.playouts` policies, plays the same games
(batch_kernel.py says the order of the draws).

Versions: 1, the first; 2, no rewards (the returns instead: kingdomkit.rl.batch rewards them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numba
import numpy as np
import numpy.typing as npt

from kingdomkit.games.kingdomino import batch_kernel as bk
from kingdomkit.games.kingdomino import kernel as kn
from kingdomkit.games.kingdomino import playouts as kp
from kingdomkit.rl.compiled_batch import CompiledBatch

if TYPE_CHECKING:
    from kingdomkit.games.kingdomino.accelerator import KingdominoAccelerator
    from kingdomkit.games.kingdomino.rules import Kingdomino

Ints = npt.NDArray[np.int64]
OPPONENT_POLICIES = {"random": kp.RANDOM, "greedy": kp.GREEDY}
OBSERVATION_ORDER = ("kingdoms", "line", "kings", "unseen", "seats", "counters")  # the kernel's


class KingdominoBatch(CompiledBatch):
    """N Kingdomino games in kernel arrays, stepped together (module card)."""

    kernel = staticmethod(bk.step_batch)

    def __init__(
        self,
        game: Kingdomino,
        accelerator: KingdominoAccelerator,
        num_envs: int,
        opponents: Sequence[str] | None,
        seat: int | None,
    ) -> None:
        super().__init__(game, num_envs, opponents, seat, OPPONENT_POLICIES)
        n, players = self.num_envs, self.players
        self.tables = (accelerator.config, accelerator.dominoes, accelerator.orders)
        side, gw = accelerator.side, accelerator.grid_width
        self.arrays = (
            np.zeros((n, kn.STATE_SIZE), np.int64),
            np.zeros((n, players, kn.LAYERS, side + 2), np.int64),
            np.full((n, players, gw * gw), kn.EMPTY, np.int64),
            np.zeros((n, players, gw * gw), np.int64),
            np.zeros((n, players, kn.INFO_SIZE), np.int64),
            self.streams,
            self.seats,
            self.actors,
            self.pending,
        )
        self._kernel_observation = tuple(self.observation[name] for name in OBSERVATION_ORDER)

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
