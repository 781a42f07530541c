"""Queendomino's batched simulator (its `batch` capability, shape.py): N games stepped at once
by the compiled kernel of batch_kernel.py, for learning at hundreds of thousands of steps a
second. `kingdomkit.rl`'s vector environment is built on it, and gives the rewards
(kingdomkit.rl.batch): the simulator says how the games ended, not what that is worth.

    batch = kingdomkit.rl.observation.batch_maker(game)(256, opponents=["greedy"], seat=0)
    out = batch.reset(seeds=range(256))     # a SimulatorStep (kingdomkit.rl.observation)
    out = batch.step(actions)               # actions[i]: game i's action, legal in
                                            # out.action_mask[i]

Every option set of the kernel: 2 to 4 players, the Royal Wedding (3 to 8 players, the 7x7
kingdoms), teams, a corrected building table. Opponents are the compiled playout policies
("random", "greedy": the full greedy bot), one per other seat in seat order; None is
self-play. Observations are those of Queendomino's encoding (encoding.py), byte for byte,
with the game as first index; the kernel reads the encoder's domino and building feature
tables, so both show the same rows. Each game draws from its own SplitMix64 stream, started
at `rl.compiled_batch.stream_seed(seeds[i])` and going on from one episode to the next; the
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

from kingdomkit.games.queendomino import batch_kernel as bk
from kingdomkit.games.queendomino import kernel as kn
from kingdomkit.games.queendomino.encoding import BUILDING_WIDTH, PLANES, QueendominoEncoder
from kingdomkit.rl.compiled_batch import CompiledBatch

if TYPE_CHECKING:
    from kingdomkit.games.queendomino.accelerator import QueendominoAccelerator
    from kingdomkit.games.queendomino.rules import Queendomino

Ints = npt.NDArray[np.int64]
OPPONENT_POLICIES = {"random": kn.RANDOM, "greedy": kn.GREEDY}
OBSERVATION_ORDER = (  # the kernel's
    "kingdoms",
    "line",
    "kings",
    "seats",
    "realms",
    "board",
    "pile",
    "top",
    "unseen",
    "counters",
)


class QueendominoBatch(CompiledBatch):
    """N Queendomino games in kernel arrays, stepped together (module card)."""

    kernel = staticmethod(bk.step_batch)

    def __init__(
        self,
        game: Queendomino,
        accelerator: QueendominoAccelerator,
        num_envs: int,
        opponents: Sequence[str] | None,
        seat: int | None,
    ) -> None:
        super().__init__(game, num_envs, opponents, seat, OPPONENT_POLICIES)
        n = self.num_envs
        encoder = QueendominoEncoder(game)
        self.tables = accelerator.tables
        self.codes = (encoder.dominoes, encoder.buildings)
        initial = accelerator.state_arrays(game.initial_state())
        side = game.geo.side
        self.arrays = (
            *(np.zeros((n, *array.shape), np.int64) for array in initial),
            np.zeros((n, kn.MAX_REALMS, game.geo.cells), np.uint8),  # knights by square
            np.zeros((n, kn.MAX_REALMS, BUILDING_WIDTH), np.int64),  # buildings' features
            np.zeros((n, kn.MAX_REALMS, PLANES * side * side), np.uint8),  # kingdom planes
            np.zeros((n, kn.MAX_REALMS, bk.PAD_SIZE), np.int64),  # score pad figures
            self.streams,
            self.seats,
            self.actors,
            self.pending,
            *initial,  # flat: numba's parallel loop takes no tuple inside a tuple
        )
        observation = dict(self.observation)
        # The kernel copies a realm's planes as one run of bytes: one row per game (a view).
        observation["kingdoms"] = observation["kingdoms"].reshape(n, -1)
        self._kernel_observation = tuple(observation[name] for name in OBSERVATION_ORDER)

    def _run(self, actions: Ints) -> None:
        bk.step_batch(
            actions,
            self.arrays,
            self.tables,
            self.codes,
            self.settings,
            self.policies,
            self._kernel_observation,
            self.out,
            numba.get_num_threads(),
        )
