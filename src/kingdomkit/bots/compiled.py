"""Compiled playouts (a game's `playouts` capability, numba): the same games as
`kingdomkit.bots.playouts`, from the same stream of uniforms, much faster."""

from __future__ import annotations

from typing import Any, Protocol


class CompiledPlayouts(Protocol):
    def playouts(
        self, state: Any, policy: str, player: int, epsilon: float, count: int, seed: int
    ) -> tuple[Any, Any]: ...
