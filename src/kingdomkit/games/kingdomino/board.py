"""Kingdomino as the browser draws it (its `board` capability, kingdomkit.server.board): the
view model of view.py, declared by view_model.schema.json, the box, and the words of words.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kingdomkit.games import kingdomino
from kingdomkit.games.kingdomino import view, words
from kingdomkit.games.kingdomino.dominoes import DOMINOES, TERRAINS
from kingdomkit.games.kingdomino.geometry import geometry_json
from kingdomkit.games.kingdomino.rules import Kingdomino
from kingdomkit.games.kingdomino.state import KingdominoState
from kingdomkit.server.board import read_schema


class KingdominoBoard:
    """The board of one configured Kingdomino."""

    view_model_version = view.VERSION

    def __init__(self, game: Kingdomino) -> None:
        self.game = game

    def view_model(self, state: KingdominoState, seat: int | None) -> dict[str, Any]:
        return view.view_model(self.game, state)

    def view_model_schema(self) -> dict[str, Any]:
        return read_schema(kingdomino)

    def move_model(self, state: KingdominoState, action: int) -> dict[str, Any]:
        return view.move_model(self.game, state, action)

    def last_model(
        self, before: KingdominoState, action: int, after: KingdominoState
    ) -> dict[str, Any] | None:
        """Exact, with the decision known; the model alone reads it from the position,
        which cannot always tell the claim."""
        return view.last_decision_made(self.game, before, action, after)

    def components(self) -> dict[str, Any]:
        """The dominoes by number (square 1 then square 2, as [terrain, crowns]) and the
        kingdom's frame: a cell of `state_to_json` is at x = cell % width - reach,
        y = cell // width - reach, the castle at (0, 0)."""
        return {
            "terrains": list(TERRAINS),
            "dominoes": [
                {
                    "id": d.number,
                    "label": str(d.number),
                    "squares": [[d.terrain1, d.crowns1], [d.terrain2, d.crowns2]],
                }
                for d in DOMINOES
            ],
            "geometry": geometry_json(self.game.geo),
        }

    def move_label(self, state: KingdominoState, action: int) -> str:
        return words.move_label(self.game, state, action)

    def move_sentence(
        self, before: KingdominoState, action: int, after: KingdominoState, who: str
    ) -> str:
        return words.move_sentence(self.game, before, action, after, who)

    def chance_sentence(
        self,
        before: KingdominoState,
        outcome: int,
        after: KingdominoState,
        names: Sequence[str],
    ) -> str | None:
        return words.chance_sentence(self.game, before, outcome, after, names)
