"""Queendomino as the browser draws it (its `board` capability, kingdomkit.server.board): the
view model of view.py, declared by view_model.schema.json, the box, and the words of words.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kingdomkit.games import queendomino
from kingdomkit.games.kingdomino.geometry import geometry_json
from kingdomkit.games.queendomino import codec, view, words
from kingdomkit.games.queendomino.buildings import SHIPPED
from kingdomkit.games.queendomino.dominoes import DOMINOES, TERRAINS
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.state import SPACES, QueendominoState
from kingdomkit.server.board import read_schema

# How a player who owns the game completes the table (the `buildings` file option), for
# boards that mark a building whose effects the table lacks.
HOW_TO_LOAD = (
    "If you own Queendomino, copy the shipped table (queendomino_buildings.csv in the "
    "package's data), write in the effects printed on your tiles, and give it to a game "
    "with --buildings FILE (kingdomkit play, simulate, score, replay, analyze)."
)


class QueendominoBoard:
    """The board of one configured Queendomino (its building table included)."""

    view_model_version = view.VERSION

    def __init__(self, game: Queendomino) -> None:
        self.game = game

    def view_model(self, state: QueendominoState, seat: int | None) -> dict[str, Any]:
        return view.view_model(self.game, state, seat)

    def view_model_schema(self) -> dict[str, Any]:
        return read_schema(queendomino)

    def move_model(self, state: QueendominoState, action: int) -> dict[str, Any]:
        return view.move_model(self.game, state, action)

    def last_model(
        self, before: QueendominoState, action: int, after: QueendominoState
    ) -> dict[str, Any]:
        return view.last_model(self.game, before, action, after)

    def components(self) -> dict[str, Any]:
        """The dominoes of this game's box by id (as `state_to_json` writes them, with the
        printed number as label; the Royal Wedding adds Kingdomino's box), the building tiles
        by index (the Builders' Board lists indices; a space's index is its price; `unknown`:
        the effects the table lacks) with where the table came from and how to load another,
        and the kingdom's frame (see Kingdomino's `components`)."""
        game = self.game
        return {
            "terrains": list(TERRAINS),
            "dominoes": [
                {
                    "id": i,
                    "label": codec.domino_label(game, i),
                    "squares": [[d.terrain1, d.crowns1], [d.terrain2, d.crowns2]],
                }
                for i, d in enumerate(DOMINOES[: 48 * (2 if game.setup.royal_wedding else 1)])
            ],
            "buildings": [
                {
                    "index": b.index,
                    "tile": b.tile,
                    "name": b.name,
                    "crowns": b.crowns,
                    "knights": b.knights,
                    "towers": b.towers,
                    "ongoing": b.ongoing,
                    "endgame": b.endgame,
                    "endgame_points": b.endgame_points,
                    "endgame_terrain": b.endgame_terrain,
                    "verified": b.verified,
                    "unknown": [
                        effect
                        for effect, known in (
                            ("immediate", b.immediate_known),
                            ("ongoing", b.ongoing_known),
                        )
                        if not known
                    ],
                }
                for b in game.table.buildings
            ],
            "buildings_table": {
                "source": "shipped" if game.table.source == SHIPPED else "given",
                "how_to_load": HOW_TO_LOAD,
            },
            "prices": list(range(SPACES)),
            "geometry": geometry_json(game.geo),
        }

    def move_label(self, state: QueendominoState, action: int) -> str:
        return words.move_label(self.game, state, action)

    def move_sentence(
        self, before: QueendominoState, action: int, after: QueendominoState, who: str
    ) -> str:
        return words.move_sentence(self.game, before, action, after, who)

    def chance_sentence(
        self,
        before: QueendominoState,
        outcome: int,
        after: QueendominoState,
        names: Sequence[str],
    ) -> str | None:
        return words.chance_sentence(self.game, before, outcome, after, names)
