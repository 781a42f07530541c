"""SplitMix64: a tiny generator that compiled kernels and Python code can share exactly.

Python's `random.Random` is the project's generator everywhere else; this one exists so that a
compiled playout kernel and the pure-Python reference can be fed the very same stream of
uniforms and checked to make the very same choices (differential tests). `random()` gives
(x >> 11) * 2**-53, as the kernels do.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def splitmix64_next(state: int) -> tuple[int, int]:
    """(new state, 64-bit output) of one SplitMix64 step."""
    state = (state + GOLDEN_GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class SplitMix64:
    """A `random.Random`-like source of uniforms in [0, 1) (only `random()` is offered)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def random(self) -> float:
        self.state, output = splitmix64_next(self.state)
        return (output >> 11) * (1.0 / (1 << 53))
