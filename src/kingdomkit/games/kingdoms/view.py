"""Kingdoms' view model (docs/view-model.md, view_model.schema.json): a position as a browser
draws it, in the game's words, for one seat or a spectator.

The board's 30 squares row by row (a space is row * 6 + column, from 0), each empty (null), a
tile (its type, kind, value and name) or a castle (its owner, printed rank and its strength with
the wizards beside it); each player's gold, castles in hand by rank and whether they hold a
starting tile (its face only for its owner: `state` is already the seat's view); the tile drawn
and held; the face-down supply as a count (face up with no_luck); `last`, the latest decision;
and `epochs`, the score sheet of every epoch scored so far (sheets.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.actions import (
    CASTLE_BASE,
    DRAW_ACTION,
    PASS_ACTION,
    PLACE_BASE,
    START_BASE,
    TAKE_BASE,
)
from kingdomkit.games.kingdoms.options import EPOCHS, START_GOLD
from kingdomkit.games.kingdoms.sheets import epoch_sheet
from kingdomkit.games.kingdoms.state import NO_TILE, PHASE_NAMES, PLACE, PLAY, Scored
from kingdomkit.games.kingdoms.tiles import TYPES

if TYPE_CHECKING:
    from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState

VERSION = 1


def tile_model(tile: int) -> dict[str, Any]:
    t = TYPES[tile]
    return {"kind": t.kind, "type": tile, "value": t.value, "name": t.name, "title": t.describe()}


def square_model(board: bd.Board, space: int) -> dict[str, Any] | None:
    square = board[space]
    if square == bd.EMPTY:
        return None
    if bd.is_castle(square):
        return {
            "kind": "castle",
            "player": bd.castle_owner(square),
            "rank": bd.castle_rank(square),
            "strength": bd.rank_at(board, space),
        }
    return tile_model(square)


def board_model(board: bd.Board) -> list[dict[str, Any] | None]:
    return [square_model(board, space) for space in range(bd.SPACES)]


def view_model(game: Kingdoms, state: KingdomsState, seat: int | None) -> dict[str, Any]:
    """The model of `state`, already `game.view(state, seat)`."""
    from kingdomkit.games.kingdoms.rules import supply_size

    setup = game.setup
    players = []
    for p in range(game.num_players):
        player: dict[str, Any] = {
            "gold": state.gold[p],
            "castles": list(state.castles[p]),
            "has_starting_tile": state.starting[p] != NO_TILE,
        }
        if state.starting[p] >= 0:
            player["starting_tile"] = tile_model(state.starting[p])
        players.append(player)
    held: dict[str, Any] | None = None
    if state.phase == PLACE:
        held = {"player": state.turn}
        if state.held >= 0:
            held["tile"] = tile_model(state.held)
    supply: dict[str, Any] = {"count": supply_size(state)}
    if setup.no_luck:
        supply["face_up"] = [
            {"tile": tile_model(t), "count": n} for t, n in enumerate(state.supply) if n
        ]
    scored = [bool(state.scored >> line & 1) for line in range(len(bd.LINES))]
    return {
        "players": players,
        "variants": {
            "down_to_the_last_castle": setup.down_to_the_last_castle,
            "no_luck": setup.no_luck,
            "score_as_you_go": setup.score_as_you_go,
        },
        "phase": PHASE_NAMES[state.phase],
        "epoch": state.epoch + 1,
        "epochs_in_game": None if setup.down_to_the_last_castle else EPOCHS,
        "turn": state.turn if state.phase in (PLAY, PLACE) else None,
        "rows": bd.ROWS,
        "columns": bd.COLUMNS,
        "board": board_model(state.board),
        "scored": {"rows": scored[: bd.ROWS], "columns": scored[bd.ROWS :]},
        "held": held,
        "supply": supply,
        "epochs": epochs_model(game, state),
    }


def last_model(before: KingdomsState, action: int, after: KingdomsState) -> dict[str, Any]:
    """What the decision `action` of `before` did (`after`: once the draws it set off are
    made); `scored_epoch` when it ended an epoch (its board is then in `epochs`, the board
    shown is the next epoch's)."""
    player = before.turn
    ended = len(after.past) > len(before.past)
    board = after.past[-1].board if ended else after.board
    last: dict[str, Any] = {"player": player}
    if action == PASS_ACTION:
        last["kind"] = "pass"
    elif action == DRAW_ACTION:
        last["kind"] = "draw"
    elif action >= TAKE_BASE:
        last.update(kind="take", tile=tile_model(action - TAKE_BASE))
    else:
        if action < DRAW_ACTION:
            kind, space = "castle", (action - CASTLE_BASE) % bd.SPACES
        elif action < PLACE_BASE:
            kind, space = "starting_tile", action - START_BASE
        else:
            kind, space = "tile", action - PLACE_BASE
        last.update(kind=kind, space=space, piece=square_model(board, space))
    if ended:
        last["scored_epoch"] = len(after.past)
    return last


def epochs_model(game: Kingdoms, state: KingdomsState) -> list[dict[str, Any]]:
    return _sheets(state.past, game.num_players, game.setup.score_as_you_go)


@lru_cache(maxsize=256)
def _sheets(past: tuple[Scored, ...], players: int, score_as_you_go: bool) -> list[dict[str, Any]]:
    """The sheets of the epochs in `past`, worked out once: every view of a table, for every
    seat, until the next epoch ends, sends the same ones (never changed by the callers)."""
    sheets = []
    gold = [START_GOLD] * players
    for epoch, scored in enumerate(past, start=1):
        sheet = epoch_sheet(scored, players, score_as_you_go)
        after = [g + d for g, d in zip(gold, sheet.gold, strict=True)]
        sheets.append(
            {
                "epoch": epoch,
                "board": board_model(scored.board),
                "lines": [
                    {
                        "name": line.name,
                        "parts": [
                            {
                                "spaces": list(part.spaces),
                                "value": part.value,
                                "dragon": part.dragon,
                                "gold_mine": part.gold_mine,
                                "castles": [c._asdict() for c in part.castles],
                            }
                            for part in line.parts
                        ],
                        "gold": list(line.gold),
                    }
                    for line in sheet.lines
                ],
                "gold": list(sheet.gold),
                "before": gold,
                "after": after,
            }
        )
        gold = after
    return sheets


def move_model(state: KingdomsState, action: int) -> dict[str, Any]:
    """A legal action as the board offers it: its kind, and the rank, space or tile it uses."""
    if state.phase == PLACE:
        return {"kind": "tile", "space": action - PLACE_BASE}
    if action < DRAW_ACTION:
        rank, space = divmod(action - CASTLE_BASE, bd.SPACES)
        return {"kind": "castle", "rank": rank + 1, "space": space}
    if action == DRAW_ACTION:
        return {"kind": "draw"}
    if action < PLACE_BASE:
        return {"kind": "starting_tile", "space": action - START_BASE}
    if action == PASS_ACTION:
        return {"kind": "pass"}
    return {"kind": "take", "tile": tile_model(action - TAKE_BASE)}


__all__ = ["VERSION", "move_model", "view_model"]
