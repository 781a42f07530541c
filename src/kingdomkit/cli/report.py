"""The score report of `kingdomkit score` (a game's `report` capability)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class ScoreReport(Protocol):
    def score_text(self, text: str, options: Sequence[str]) -> tuple[Any, dict[str, Any]]: ...
