"""What the browser draws of a game (its `board` capability): the view model and the words.

A game's board (docs/view-model.md) tells the browser the position in the game's own words
(`view_model`), each legal move as a board offers it (`move_model`), what the latest decision
did (`last_model`) and the box (`components`), and says its moves in words for the buttons and
the table's log. The boards in server/client/boards/ read nothing else of a position.

A game with no board is still played whole in the browser: its model is `{"version": 0}`,
which no drawer reads, so the page shows the text board (`Game.render`), with buttons labelled
and a log written in the game's notation (`PlainWords`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from types import ModuleType
from typing import Any, Protocol, TypeVar

from kingdomkit.core.protocol import Game
from kingdomkit.core.registry import shape_of
from kingdomkit.core.shape import capability

S_contra = TypeVar("S_contra", contravariant=True)
SCHEMA = "view_model.schema.json"


class Words(Protocol[S_contra]):
    """A game's moves in words for people (each game's words.py): the buttons a player
    clicks, the table's log, hints, reviews, the replay's next move. The engine's notation
    stays beside them for tools."""

    def move_label(self, state: S_contra, action: int) -> str:
        """The legal `action` as the button its player clicks: imperative, second person, in
        the game's own words ("Claim domino 29 (1-crown forest / grassland)"); the labels of
        one state's legal actions are pairwise distinct."""
        ...

    def move_sentence(self, before: S_contra, action: int, after: S_contra, who: str) -> str:
        """What `who` did by playing `action` in `before`, as the table's log says it to
        everyone ("Ann claimed domino 29 (1-crown forest / grassland)"): past tense, third
        person, never naming what the other players may not see."""
        ...

    def chance_sentence(
        self, before: S_contra, outcome: int, after: S_contra, names: Sequence[str]
    ) -> str | None:
        """What everyone saw happen by the chance `outcome`, for the log ("New line: dominoes
        5, 12, 20 and 37"), or None when it is worth no sentence or is a secret (a tile dealt
        face down). `names`: each seat's name."""
        ...


class Board(Words[S_contra], Protocol[S_contra]):
    """A game as the browser draws it: its view model (docs/view-model.md), the box, and its
    moves in words. Every model is JSON data only, every integer within JavaScript's safe
    range, so every browser reads it exactly."""

    @property
    def view_model_version(self) -> int:
        """The declared shape of `view_model` and `move_model` (the game's
        view_model.schema.json), 1 or more: bumped whenever a field is added, removed or
        changes meaning, and checked by the client's drawer, which reads nothing else of a
        state (0 is the model of a game with no board)."""
        ...

    def view_model(self, state: S_contra, seat: int | None) -> dict[str, Any]:
        """The position as `seat` (None: a spectator) sees it, in the game's own words: named
        phases, the pieces on the table and in hand, each player's holdings. `state` is
        already `view(state, seat)`."""
        ...

    def view_model_schema(self) -> dict[str, Any]:
        """The declaration of `view_model` as a JSON Schema (draft 2020-12): the game
        package's view_model.schema.json (`read_schema`), whose `$defs.move` declares
        `move_model`."""
        ...

    def move_model(self, state: S_contra, action: int) -> dict[str, Any]:
        """One legal `action` as a board offers it: its kind and the pieces and squares it
        uses (the board maps clicks to moves with it, never by reading notation)."""
        ...

    def last_model(self, before: S_contra, action: int, after: S_contra) -> dict[str, Any] | None:
        """What the latest decision did, for the view model's `last`: `action` played in
        `before`, `after` the position once the draws it set off are made (both already as
        the seat sees them). The pieces it moved, in the model's words; None: the game
        tells nothing."""
        ...

    def components(self) -> dict[str, Any]:
        """The box of this configured game as plain data, for the drawer (the dominoes,
        buildings or tiles with the ids `state_to_json` and the models use, the board's
        geometry), fetched once per table (GET /api/tables/{id}/components)."""
        ...


class PlainWords:
    """The words of a game with no board: its notation (labels the notation itself, the log
    "who: notation"), and no sentence for chance, which may be a secret."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def move_label(self, state: Any, action: int) -> str:
        return self.game.action_to_string(state, action)

    def move_sentence(self, before: Any, action: int, after: Any, who: str) -> str:
        return f"{who}: {self.game.action_to_string(before, action)}"

    def chance_sentence(
        self, before: Any, outcome: int, after: Any, names: Sequence[str]
    ) -> str | None:
        return None


def board(game: Game[Any]) -> Board[Any] | None:
    """The board of the configured `game` (made once per game), None when it has none."""
    return capability(game, "board", shape_of(game).capabilities.board)


def words(game: Game[Any]) -> Words[Any]:
    """The configured `game`'s moves in words: its board's, else its notation."""
    found = board(game)
    return found if found is not None else PlainWords(game)


def read_schema(package: ModuleType) -> dict[str, Any]:
    """The view_model.schema.json of a game's `package` (the module itself, so that no
    package is looked up by its name)."""
    text = resources.files(package).joinpath(SCHEMA).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
