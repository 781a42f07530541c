"""What every compiled accelerator's playouts share (the `playouts` capability's
`CompiledPlayouts`, bots/compiled.py): the policy's code, the result arrays and the stream of
uniforms around one call of the game's kernel. Imported only by the games' accelerators, which
need numpy and numba anyway.

A kernel compiles on its first call, for minutes on a fresh install (Queendomino's about two),
so the first call in a process (`ready`) is made under the machine's lock for that kernel:
one process compiles, the others load numba's copy (core/compiling.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from kingdomkit.bots.compiled import policy_code
from kingdomkit.core.compiling import first_call, loaded
from kingdomkit.core.rng import MASK64

Floats = npt.NDArray[np.float64]


class KernelPlayouts:
    """`playouts` and `random_games` over a kernel; a game's accelerator sets `players`,
    `_initial` (the initial state's arrays), `_kernel` (its kernel's compiled `playouts(arrays,
    tables, policy, player, epsilon, stream, scores, returns)`) and `_tables` (the tables that
    kernel reads), and says how a state becomes its kernel's arrays (`state_arrays`)."""

    players: int
    _initial: Any
    _kernel: Any
    _tables: Any

    def state_arrays(self, state: Any) -> Any:
        raise NotImplementedError

    def playouts(
        self, state: Any, policy: str, player: int, epsilon: float, count: int, seed: int
    ) -> tuple[Floats, Floats]:
        """`count` playouts from `state` with `policy` (`player` the searching player, for
        player-greedy), uniforms from one `SplitMix64(seed)` stream: count x players scores
        and win shares, as `game.scores` and `game.returns` of each final state."""
        code = policy_code(policy, epsilon)  # the kernels number policies alike
        self.ready()
        return self._run(self.state_arrays(state), code, player, epsilon, count, seed)

    def random_games(self, count: int, seed: int) -> Floats:
        """Scores of `count` whole random games from the initial state (one stream)."""
        self.ready()
        return self._run(self._initial, policy_code("random", 0.0), 0, 0.0, count, seed)[0]

    def ready(self) -> None:
        """The kernel compiled, or loaded from numba's cache, in this process: by no two
        processes of the machine at once (module card). A call of no playouts does it, once:
        a search asks before every leaf."""
        if not loaded(self._kernel):
            first_call(self._kernel, lambda: self._run(self._initial, 0, 0, 0.0, 0, 0))

    def _run(
        self, arrays: Any, policy: int, player: int, epsilon: float, count: int, seed: int
    ) -> tuple[Floats, Floats]:
        scores = np.zeros((count, self.players), np.float64)
        returns = np.zeros((count, self.players), np.float64)
        stream = np.array([seed & MASK64], np.uint64)
        self._kernel(arrays, self._tables, policy, player, float(epsilon), stream, scores, returns)
        return scores, returns
