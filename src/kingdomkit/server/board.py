"""What the browser draws of a game (its `board` capability): the view model and the words."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

S_contra = TypeVar("S_contra", contravariant=True)


class Board(Protocol[S_contra]):
    """A game's view model (docs/view-model.md) and its moves in words."""

    def view_model(self, state: S_contra, seat: int | None) -> dict[str, Any]: ...
