"""Kingdoms' actions as text, both ways: what logs and golden files show, and what people type.

castle 4 2,5        a castle of rank 4 on row 2, column 5 (rows 1-5, columns 1-6)
draw                draw a tile from the supply (then: place 2,5)
place 2,5           place the tile just drawn (or taken)
start 2,5           place your starting tile
take +3             No Luck: take a face-up tile (+3, -6, MTN, DRG, GLD, WIZ)
pass                only when nothing else is possible
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.core.protocol import IllegalActionError, check_move_length, excerpt
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.actions import (
    DRAW_ACTION,
    PASS_ACTION,
    PLACE_BASE,
    START_BASE,
    TAKE_BASE,
    castle_action,
)
from kingdomkit.games.kingdoms.state import (
    DEAL,
    DRAW,
    FIRST,
    NO_TILE,
    PHASE_NAMES,
    PLACE,
    PLAY,
    KingdomsState,
)
from kingdomkit.games.kingdoms.tiles import TYPES, tile_type

if TYPE_CHECKING:
    from kingdomkit.games.kingdoms.rules import Kingdoms


def space_text(space: int) -> str:
    row, column = divmod(space, bd.COLUMNS)
    return f"{row + 1},{column + 1}"


def parse_space(text: str) -> int:
    """The space `row,column` names (1-based); IllegalActionError if none."""
    try:
        row, column = (int(part) for part in text.split(","))
    except ValueError:
        raise IllegalActionError(
            f"{excerpt(text)} is not a space: write row,column (e.g. 2,5)"
        ) from None
    if not (1 <= row <= bd.ROWS and 1 <= column <= bd.COLUMNS):
        raise IllegalActionError(
            f"{excerpt(text)} is off the board (rows 1-{bd.ROWS}, columns 1-{bd.COLUMNS})"
        )
    return bd.space(row - 1, column - 1)


def action_to_string(game: Kingdoms, state: KingdomsState, action: int) -> str:
    phase = state.phase
    if phase == FIRST:
        return f"first player {action}"
    if phase in (DEAL, DRAW):
        verb = f"deal to player {state.turn}:" if phase == DEAL else "draw"
        return f"{verb} {TYPES[action].label}"
    if phase == PLACE:
        return f"place {space_text(action - PLACE_BASE)}"
    if action < DRAW_ACTION:
        rank, space = divmod(action, bd.SPACES)
        return f"castle {rank + 1} {space_text(space)}"
    if action == DRAW_ACTION:
        return "draw"
    if action < PLACE_BASE:
        return f"start {space_text(action - START_BASE)}"
    if action == PASS_ACTION:
        return "pass"
    return f"take {TYPES[action - TAKE_BASE].label}"


def parse_action(game: Kingdoms, state: KingdomsState, text: str) -> int:
    check_move_length(text)
    words = text.lower().split()
    if not words:
        raise IllegalActionError("empty move")
    verb, args = words[0], words[1:]
    phase = state.phase
    if phase not in (PLAY, PLACE):
        raise IllegalActionError(f"no player moves now (the {PHASE_NAMES[phase]} step)")
    legal = game.legal_actions(state)
    if phase == PLACE:
        if verb != "place" or len(args) != 1:
            raise IllegalActionError("place the tile you drew: write 'place row,column'")
        space = parse_space(args[0])
        return _on_empty(PLACE_BASE + space, space, legal)
    player = state.turn
    if verb == "pass" and not args:
        if PASS_ACTION not in legal:
            raise IllegalActionError("you may pass only when you can do nothing else")
        return PASS_ACTION
    if verb == "castle" and len(args) == 2:
        if not args[0].isdigit() or not 1 <= int(args[0]) <= 4:
            raise IllegalActionError(f"a castle's rank is 1 to 4, not {excerpt(args[0])}")
        rank = int(args[0])
        if not state.castles[player][rank - 1]:
            raise IllegalActionError(f"you have no castle of rank {rank} left")
        space = parse_space(args[1])
        return _on_empty(castle_action(rank, space), space, legal)
    if verb == "start" and len(args) == 1:
        if state.starting[player] == NO_TILE:
            raise IllegalActionError("you have no starting tile (any more)")
        space = parse_space(args[0])
        return _on_empty(START_BASE + space, space, legal)
    if verb == "draw" and not args and not game.setup.no_luck:
        if DRAW_ACTION not in legal:
            raise IllegalActionError("the supply is empty")
        return DRAW_ACTION
    if verb == "take" and len(args) == 1 and game.setup.no_luck:
        kind = tile_type(args[0])
        if kind is None:
            raise IllegalActionError(
                f"no tile {excerpt(args[0])} (+1..+6, -1..-6, MTN, DRG, GLD, WIZ)"
            )
        if TAKE_BASE + kind.index not in legal:
            raise IllegalActionError(f"no {kind.label} tile is left face up")
        return TAKE_BASE + kind.index
    moves = "castle RANK row,column · start row,column · " + (
        "take TILE" if game.setup.no_luck else "draw"
    )
    raise IllegalActionError(f"cannot read {excerpt(text)}: write {moves} (or pass)")


def _on_empty(action: int, space: int, legal: tuple[int, ...]) -> int:
    """`action`, which puts something on `space`, if legal: the space is then empty."""
    if action in legal:
        return action
    raise IllegalActionError(f"{bd.space_name(space)} is taken")
