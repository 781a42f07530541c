"""Kingdoms' moves in words, for the buttons a player clicks and the table's log.

    Place a rank-2 castle on row 3, column 4      Ann placed a rank-2 castle on row 3, column 4
    Draw a tile                                   Cyd chose to draw a tile
    Put the Troll (-6) on row 3, column 4         Cyd drew the Troll (-6) and put it on row 3,
                                                  column 4
    Place your starting tile, the Troll (-6), on row 3, column 4
                                                  Ann played their starting tile, the Troll
                                                  (-6), on row 3, column 4
    Take a Village (+1)   (No Luck)               Ann took a Village (+1)
    Pass (nothing else is possible)               Ann passed (nothing else was possible)

Spaces are named as the rulebook counts them: rows 1 to 5 from the top, columns 1 to 6 from
the left. Tiles by the 2010 rulebook's names with their values, "a" where the box has two alike.
What the log says is public: a drawn tile is named when it is put on the board face up (not
when drawn: its drawer alone sees it until then), a starting tile when it is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.actions import (
    DRAW_ACTION,
    PASS_ACTION,
    PLACE_BASE,
    START_BASE,
    TAKE_BASE,
)
from kingdomkit.games.kingdoms.state import FIRST, PLACE, PLAY, KingdomsState
from kingdomkit.games.kingdoms.tiles import HAZARD, RESOURCE, TYPES

if TYPE_CHECKING:
    from kingdomkit.games.kingdoms.rules import Kingdoms

MINUS = "\u2212"  # the minus sign as printed, not a hyphen (docstrings here write "-")


def value_words(value: int) -> str:
    """`+3`, `-6`."""
    return f"+{value}" if value > 0 else f"{MINUS}{-value}"


def tile_words(kind: int) -> str:
    """`the Troll (-6)`, `a Village (+1)`, `a +4 resource`, `the Dragon`."""
    tile = TYPES[kind]
    article = "a" if tile.count > 1 else "the"
    if tile.kind not in (RESOURCE, HAZARD):
        return f"{article} {tile.name}"
    if tile.name:
        return f"{article} {tile.name} ({value_words(tile.value)})"
    category = "resource" if tile.kind == RESOURCE else "hazard"
    return f"{article} {value_words(tile.value)} {category}"


def space_words(space: int) -> str:
    """`row 3, column 4` (1-based, as the rulebook counts)."""
    return bd.space_name(space)


def move_label(game: Kingdoms, state: KingdomsState, action: int) -> str:
    return _words(game, state, action, None)


def move_sentence(
    game: Kingdoms, before: KingdomsState, action: int, after: KingdomsState, who: str
) -> str:
    return _words(game, before, action, who)


def _words(game: Kingdoms, state: KingdomsState, action: int, who: str | None) -> str:
    """The label (`who` None) or the log's sentence (`who` did it) of a decision."""
    if state.phase == PLACE:
        tile = tile_words(state.held)
        where = space_words(action - PLACE_BASE)
        if who is None:
            return f"Put {tile} on {where}"
        if game.setup.no_luck:
            return f"{who} put {tile} on {where}"
        return f"{who} drew {tile} and put it on {where}"
    if state.phase != PLAY:
        return game.action_to_string(state, action)
    if action < DRAW_ACTION:
        rank, space = divmod(action, bd.SPACES)
        placed = f"a rank-{rank + 1} castle on {space_words(space)}"
        return f"Place {placed}" if who is None else f"{who} placed {placed}"
    if action == DRAW_ACTION:
        return "Draw a tile" if who is None else f"{who} chose to draw a tile"
    if action < PLACE_BASE:
        tile = tile_words(state.starting[state.turn])
        where = space_words(action - START_BASE)
        if who is None:
            return f"Place your starting tile, {tile}, on {where}"
        return f"{who} played their starting tile, {tile}, on {where}"
    if action == PASS_ACTION:
        if who is None:
            return "Pass (nothing else is possible)"
        return f"{who} passed (nothing else was possible)"
    tile = tile_words(action - TAKE_BASE)
    return f"Take {tile}" if who is None else f"{who} took {tile}"


def chance_sentence(
    game: Kingdoms, before: KingdomsState, outcome: int, after: KingdomsState, names: Sequence[str]
) -> str | None:
    """Who starts an epoch; the tiles dealt and drawn are nobody else's business."""
    if before.phase == FIRST:
        return f"Epoch {before.epoch + 1}: {names[outcome]} starts"
    return None
