"""What a game gives learners (its `observation` and `batch` capabilities)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

S_contra = TypeVar("S_contra", contravariant=True)


class Observer(Protocol[S_contra]):
    """A game's observation encoding."""

    def spec(self) -> dict[str, Any]: ...

    def observe(self, state: S_contra, player: int) -> dict[str, Any]: ...


class BatchMaker(Protocol):
    """Makes a compiled simulator of many games at once."""

    def __call__(
        self,
        num_envs: int,
        opponents: Sequence[str] | None,
        seat: int | None,
        reward: str,
        illegal_reward: float,
    ) -> Any: ...
