"""Kingdoms' record events (docs/records.md): what each action writes, and the actions each
event stands for when a record is replayed. A record is written after the game, so it holds
the secrets too (the starting tiles).

    {"type": "epoch", "epoch": 1, "first": p}                 an epoch starts; p plays first
    {"type": "starting_tile", "player": p, "tile": "+3"}      dealt face down
    {"type": "draw", "player": p, "tile": "-6"}               from the supply (No Luck: taken)
    {"type": "tile", "player": p, "tile": "-6", "row": r, "column": c,
     "from": "supply" | "starting"}
    {"type": "castle", "player": p, "rank": 4, "row": r, "column": c}
    {"type": "pass", "player": p}
    {"type": "score", "line": "row 1", "parts": [{"base": b, "ranks": [...]}, ...],
     "gold": [per player]}                                    each line, as it scores
    {"type": "epoch_end", "epoch": 1, "gold": [totals]}

Rows and columns count from 1. `score` and `epoch_end` follow the placement (or pass) that
filled the line or ended the epoch, and stand for no action of their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdomkit.core.protocol import Event, RecordError
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.actions import (
    DRAW_ACTION,
    PASS_ACTION,
    TAKE_BASE,
)
from kingdomkit.games.kingdoms.state import (
    DEAL,
    DRAW,
    FIRST,
    OVER,
    PHASE_NAMES,
    PLACE,
    PLAY,
    KingdomsState,
)
from kingdomkit.games.kingdoms.tiles import TYPES, tile_type

if TYPE_CHECKING:
    from kingdomkit.games.kingdoms.rules import Kingdoms


def events(game: Kingdoms, before: KingdomsState, action: int, after: KingdomsState) -> list[Event]:
    phase = before.phase
    player = before.turn
    if phase == FIRST:
        return [{"type": "epoch", "epoch": before.epoch + 1, "first": action}]
    if phase == DEAL:
        return [{"type": "starting_tile", "player": player, "tile": TYPES[action].label}]
    if phase == DRAW:
        return [{"type": "draw", "player": player, "tile": TYPES[action].label}]
    placed = game.placement(before, action)
    if placed and bd.is_castle(placed[1]):
        space, square = placed
        row, column = divmod(space, bd.COLUMNS)
        written = [
            {"type": "castle", "player": player, "rank": bd.castle_rank(square), "row": row + 1,
             "column": column + 1}
        ]  # fmt: skip
    elif placed:
        source = "supply" if phase == PLACE else "starting"
        written = [_tile(player, placed[1], placed[0], source)]
    elif action == PASS_ACTION:
        written = [{"type": "pass", "player": player}]
    elif action == DRAW_ACTION:
        return []
    else:
        return [{"type": "draw", "player": player, "tile": TYPES[action - TAKE_BASE].label}]
    return written + _scoring(game, before, action, after)


def _scoring(
    game: Kingdoms, before: KingdomsState, action: int, after: KingdomsState
) -> list[Event]:
    """The lines that scored after `action` (a placement or a pass), and the end of the epoch
    if it ended, scored on the board as it was then."""
    board = game.placed_board(before, action)
    ended = after.phase == OVER or after.epoch != before.epoch
    newly = ~before.scored if ended else after.scored & ~before.scored
    written = [
        _score(game, board, line, spaces)
        for line, spaces in enumerate(bd.LINES)
        if newly >> line & 1
    ]
    if ended:
        written.append({"type": "epoch_end", "epoch": before.epoch + 1, "gold": list(after.gold)})
    return written


def _tile(player: int, tile: int, space: int, source: str) -> Event:
    row, column = divmod(space, bd.COLUMNS)
    return {
        "type": "tile",
        "player": player,
        "tile": TYPES[tile].label,
        "row": row + 1,
        "column": column + 1,
        "from": source,
    }


def _score(game: Kingdoms, board: tuple[int, ...], line: int, spaces: tuple[int, ...]) -> Event:
    players = game.num_players
    parts = bd.line_parts(board, spaces, players)
    return {
        "type": "score",
        "line": bd.LINE_NAMES[line],
        "parts": [{"base": part.base, "ranks": list(part.ranks)} for part in parts],
        "gold": list(bd.line_gold(board, spaces, players)),
    }


def event_actions(game: Kingdoms, state: KingdomsState, event: Event) -> list[int]:
    kind = event.get("type")
    phase = state.phase
    if phase == OVER:
        raise RecordError("the game is already over")
    if kind == "epoch" and phase == FIRST:
        if event.get("epoch") != state.epoch + 1:
            raise RecordError(f"epoch {state.epoch + 1} starts here")
        return [_int(event, "first")]
    if kind in ("score", "epoch_end"):
        raise RecordError(
            f"a {kind} event follows the placement that fills a line or ends the epoch"
        )
    player = _int(event, "player")
    if player != state.turn:
        raise RecordError(f"it is player {state.turn}'s turn, not {player}'s")
    if kind == "starting_tile" and phase == DEAL:
        return [_tile_type(event)]
    if phase == PLAY and kind == "draw":
        tile = _tile_type(event)
        return [TAKE_BASE + tile] if game.setup.no_luck else [DRAW_ACTION, tile]
    if phase == PLAY and kind == "castle":
        return [game.parse_action(state, f"castle {_int(event, 'rank')} {_space(event)}")]
    if phase == PLAY and kind == "tile" and event.get("from") == "starting":
        return [game.parse_action(state, f"start {_space(event)}")]
    if phase == PLACE and kind == "tile" and event.get("from") == "supply":
        return [game.parse_action(state, f"place {_space(event)}")]
    if phase == PLAY and kind == "pass":
        return [game.parse_action(state, "pass")]
    due = {
        DEAL: "a starting_tile event",
        PLAY: "a castle, draw, tile (from starting) or pass event",
        DRAW: "a draw event",
        PLACE: "a tile event (from supply)",
    }.get(phase, f"nothing (the {PHASE_NAMES[phase]} step)")
    raise RecordError(f"{due} is due, not {kind!r}")


def _int(event: Event, key: str) -> int:
    value = event.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key!r} must be a whole number")
    return value


def _space(event: Event) -> str:
    return f"{_int(event, 'row')},{_int(event, 'column')}"


def _tile_type(event: Event) -> int:
    label = event.get("tile")
    kind = tile_type(label) if isinstance(label, str) else None
    if kind is None:
        raise RecordError(f"no tile {label!r} (+1..+6, -1..-6, MTN, DRG, GLD, WIZ)")
    return kind.index


def result(game: Kingdoms, state: KingdomsState) -> dict[str, Any]:
    return {
        "scores": list(state.gold),
        "winners": list(game.winners(state)),
        "epochs": state.epoch + 1,
    }
