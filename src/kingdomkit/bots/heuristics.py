"""What a game tells its bots beyond the rules (a game's `heuristics` capability)."""

from __future__ import annotations

from typing import Any, Protocol


class Heuristics(Protocol):
    """A game's knowledge for search and greedy bots (see `Plain` for the defaults)."""

    def evaluate(self, state: Any, player: int) -> float: ...

    def forecast(self, state: Any, player: int) -> float: ...

    def playout_depth(self) -> int | None: ...

    def is_draft(self, state: Any) -> bool: ...

    def turn_continues(self, before: Any, after: Any) -> bool: ...
