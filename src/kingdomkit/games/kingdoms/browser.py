"""Kingdoms as the browser draws it (its `board` capability, kingdomkit.server.board): the view
model of view.py, declared by view_model.schema.json, the box, and the words of words.py.
(Not board.py, as in the other games: that is the Kingdoms board itself, its spaces and
scoring.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kingdomkit.games import kingdoms
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms import view, words
from kingdomkit.games.kingdoms.rules import Kingdoms
from kingdomkit.games.kingdoms.state import HIDDEN, KingdomsState
from kingdomkit.games.kingdoms.tiles import RANKS, TYPES
from kingdomkit.server.board import read_schema


class KingdomsBoard:
    """The board of one configured Kingdoms."""

    view_model_version = view.VERSION

    def __init__(self, game: Kingdoms) -> None:
        self.game = game

    def view_model(self, state: KingdomsState, seat: int | None) -> dict[str, Any]:
        return view.view_model(self.game, state, seat)

    def view_model_schema(self) -> dict[str, Any]:
        return read_schema(kingdoms)

    def move_model(self, state: KingdomsState, action: int) -> dict[str, Any]:
        return view.move_model(state, action)

    def last_model(
        self, before: KingdomsState, action: int, after: KingdomsState
    ) -> dict[str, Any] | None:
        return view.last_model(before, action, after)

    def components(self) -> dict[str, Any]:
        """The tile types by index, and the board: `board` in `state_to_json` lists its
        spaces row by row, each -1 (empty), a tile type (0 .. 15), or a castle
        16 + 4 * player + rank - 1; -2 is a tile the viewer may not see."""
        return {
            "rows": bd.ROWS,
            "columns": bd.COLUMNS,
            "tiles": [
                {
                    "index": t.index,
                    "kind": t.kind,
                    "value": t.value,
                    "count": t.count,
                    "label": t.label,
                    "name": t.describe(),
                }
                for t in TYPES
            ],
            "castle_base": bd.CASTLE,
            "ranks": RANKS,
            "hidden": HIDDEN,
        }

    def move_label(self, state: KingdomsState, action: int) -> str:
        return words.move_label(self.game, state, action)

    def move_sentence(
        self, before: KingdomsState, action: int, after: KingdomsState, who: str
    ) -> str:
        return words.move_sentence(self.game, before, action, after, who)

    def chance_sentence(
        self,
        before: KingdomsState,
        outcome: int,
        after: KingdomsState,
        names: Sequence[str],
    ) -> str | None:
        return words.chance_sentence(self.game, before, outcome, after, names)
