"""What every game's compiled kernel shares (the `fast` extra): numba's decorators, and the
SplitMix64 stream of `kingdomkit.core.rng`, so that a kernel draws its chance exactly as the
Python engine does from the same seed.

Two kinds of compiled function: entry points (`entry`), which allocate (scratch arrays, copies
of a start) and so need numba's runtime (NRT), and everything a playout or a batch step runs
(`jit`, `jit_inline`), compiled without it: those functions only read and write the arrays they
are given (none allocates or copies through a slice), and counting those arrays' references,
atomically at every call and tuple item, is time a playout does not need.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])
Array = Any  # numpy arrays; numba types them at compile time

# numba's target option `_nrt` (used by numba's own tests): compile without its runtime.
BARE: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
SHIFT11, SHIFT27, SHIFT30, SHIFT31 = np.uint64(11), np.uint64(27), np.uint64(30), np.uint64(31)
UNIT = 1.0 / 9007199254740992.0  # 2**-53


def entry(function: F) -> F:
    """numba's njit, cached on disk, typed for mypy: for the entry points (module card)."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def jit(function: F) -> F:
    """`entry` without numba's reference counting (module card)."""
    return cast(F, numba.njit(**BARE)(function))


def jit_inline(function: F) -> F:
    """`jit`, inlined into its callers by numba (no call on a playout's path)."""
    return cast(F, numba.njit(inline="always", **BARE)(function))


@jit_inline
def uniform(rng: Array) -> float:
    """The next SplitMix64 uniform in [0, 1) of the stream `rng[0]`, as
    `kingdomkit.core.rng.SplitMix64.random`."""
    state = rng[0] + GOLDEN_GAMMA
    rng[0] = state
    z = (state ^ (state >> SHIFT30)) * MIX1
    z = (z ^ (z >> SHIFT27)) * MIX2
    z = z ^ (z >> SHIFT31)
    return float(z >> SHIFT11) * UNIT
