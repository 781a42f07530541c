"""The terminal toolkit (a game's `terminal` capability)."""

from __future__ import annotations

from typing import Any, Protocol


class Terminal(Protocol):
    def prompt(self, game: Any, state: Any) -> str: ...
