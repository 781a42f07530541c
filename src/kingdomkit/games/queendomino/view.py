"""Queendomino's view model (docs/view-model.md, view_model.schema.json): the position as a
browser draws it, in the game's words, and each legal move as a board offers it.

    phase          claim | place | tax | build | site | dragon | over (and, between
                   decisions, draw | turn_up | order)
    realms         per realm (a player's, or a team's): its kingdom, coins, the guard,
                   knights and buildings on their squares, towers, the Queen, the score
    builders_board six spaces, a space's index its price, each a building or empty
    top            the pile's face-up top tile (public), `pile` the tiles under it
    placing, line  the dominoes being placed and the new line, with the kings on them
    turn           who acts and what their turn has done so far
    last           what the latest decision did (`last_model`, given by the server)

Squares are [x, y] from the castle, x to the right and y down. Buildings are named by their
index in the game's table (`components()["buildings"]`) and their printed tile id; dominoes
by their id in `components()["dominoes"]`. The Royal Wedding's deck (a 96-bit set in the
state) is sent as counts only: what is still to come is hidden.

Versions: 1, the first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdomkit.games.queendomino.dominoes import DOMINOES
from kingdomkit.games.queendomino.state import (
    BOARD,
    BUILD,
    CLAIM,
    DRAGON,
    DRAW,
    EMPTY,
    ORDER,
    OVER,
    PLACE,
    PLACE_BASE,
    SITE,
    TAX,
    QueendominoState,
)

if TYPE_CHECKING:
    from kingdomkit.games.queendomino.rules import Queendomino

VERSION = 1
PHASES = {
    DRAW: "draw",
    BOARD: "turn_up",
    ORDER: "order",
    CLAIM: "claim",
    PLACE: "place",
    TAX: "tax",
    BUILD: "build",
    SITE: "site",
    DRAGON: "dragon",
    OVER: "over",
}
STEPS = {TAX: "tax", BUILD: "build", DRAGON: "dragon"}


def _xy(game: Queendomino, cell: int) -> list[int]:
    return list(game.geo.xy(cell))


def _cells(bits: int) -> list[int]:
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found


def _or_none(value: int) -> int | None:
    return None if value < 0 else value


def kingdom_model(game: Queendomino, kingdom: Any) -> dict[str, Any]:
    """The dominoes of a kingdom on their squares, and those discarded."""
    return {
        "placed": [
            {"domino": number - 1, "cells": [_xy(game, c1), _xy(game, c2)]}
            for number, c1, c2 in kingdom.placed
        ],
        "discarded": [number - 1 for number in kingdom.discarded],
    }


def view_model(game: Queendomino, state: QueendominoState, seat: int | None) -> dict[str, Any]:
    """The position as the model declares it (every seat sees the same: no secrets)."""
    realms = []
    for r, realm in enumerate(state.realms):
        realms.append(
            {
                "players": [p for p, owner in enumerate(game.realm_of) if owner == r],
                "kingdom": kingdom_model(game, realm.kingdom),
                "coins": realm.coins,
                "guard": realm.guard,
                "knights": [_xy(game, c) for c in _cells(realm.knights)],
                "towers": realm.towers,
                "buildings": [
                    {"building": index, "tile": game.table[index].tile, "cell": _xy(game, cell)}
                    for index, cell in realm.buildings
                ],
                "free_towns": [_xy(game, c) for c in _cells(game.free_towns(realm))],
                "queen": state.queen == r,
                "score": game.breakdown(state, r).total,
            }
        )
    board = [
        {"space": space, "price": space, "building": _or_none(index), "tile": _tile(game, index)}
        for space, index in enumerate(state.board)
    ]
    return {
        "phase": PHASES[state.phase],
        "players": game.num_players,
        "teams": game.setup.teams,
        "frame": game.geo.size,
        "realms": realms,
        "builders_board": board,
        "top": None
        if state.top == EMPTY
        else {"building": state.top, "tile": game.table[state.top].tile},
        "pile": state.pile.bit_count(),
        "burnt": list(game.burnt(state)),
        "queen": _or_none(state.queen),
        "dragon": "cave" if state.dragon_ready else "away",
        "supply": {"knights": game.knight_supply(state), "towers": game.tower_supply(state)},
        "placing": [
            {"domino": d, "player": p, "done": _placed(state, i)}
            for i, (d, p) in enumerate(zip(state.placing, state.placers, strict=True))
        ],
        "line": [
            {"domino": d, "player": _or_none(p)}
            for d, p in zip(state.line, state.claims, strict=False)
        ],
        "to_come": {
            "dominoes": state.deck.bit_count(),
            "lines": game.setup.lines - state.lines_drawn,
        },
        "turn": _turn(game, state),
    }


def _tile(game: Queendomino, index: int) -> str | None:
    return None if index == EMPTY else game.table[index].tile


def _placed(state: QueendominoState, i: int) -> bool:
    """Is the domino in slot `i` of the line being placed in its kingdom (or discarded)?"""
    if state.phase == OVER:
        return True
    if state.phase in (DRAW, BOARD, ORDER) or not state.placers:
        return False
    return i < state.turn or (i == state.turn and state.phase != PLACE)


def _turn(game: Queendomino, state: QueendominoState) -> dict[str, Any] | None:
    """Who acts, and their turn so far: the domino they place (or placed), the squares of
    it that hold a knight, the building they chose (site)."""
    if state.phase in (DRAW, BOARD, ORDER, OVER):
        return None
    player = game.current_player(state)
    turn: dict[str, Any] = {"player": player, "realm": game.realm_of[player], "domino": None}
    if state.placers:
        turn["domino"] = state.placing[state.turn]
    if state.placers and state.phase != PLACE:
        kingdom = state.realms[game.realm_of[player]].kingdom
        if kingdom.placed and kingdom.placed[-1][0] - 1 == turn["domino"]:
            _, c1, c2 = kingdom.placed[-1]
            turn["cells"] = [_xy(game, c1), _xy(game, c2)]
            turn["knights"] = [i + 1 for i in (0, 1) if state.knighted >> i & 1]
        else:
            turn["discarded"] = True
    if state.phase == SITE:
        turn["building"] = state.board[state.chosen]
        turn["space"] = state.chosen
    return turn


def move_model(game: Queendomino, state: QueendominoState, action: int) -> dict[str, Any]:
    """One legal action as the board offers it."""
    phase = state.phase
    if action == game.pass_action:
        return {"kind": "pass", "step": STEPS[phase]}
    if phase == CLAIM:
        return {"kind": "claim", "slot": action, "domino": state.line[action]}
    if phase == PLACE:
        domino = state.placing[state.turn]
        if action == game.discard_action:
            return {"kind": "discard", "domino": domino}
        code = action - PLACE_BASE
        cell1 = code % game.cells
        cell2 = cell1 + game.geo.deltas[code // game.cells]
        return {"kind": "place", "domino": domino, "cells": [_xy(game, cell1), _xy(game, cell2)]}
    r = game.acting_realm(state)
    if phase == TAX:
        square = action - game.knight_base
        realm = state.realms[r]
        _, cell1, cell2 = realm.kingdom.placed[-1]
        domino = DOMINOES[realm.kingdom.placed[-1][0] - 1]
        cell, terrain = (cell1, domino.terrain1) if square == 0 else (cell2, domino.terrain2)
        coins = game.tax(realm, realm.kingdom.terrains[terrain], cell)
        return {"kind": "knight", "square": square + 1, "cell": _xy(game, cell), "coins": coins}
    if phase == BUILD:
        space = action - game.build_base
        index = state.board[space]
        return {
            "kind": "build",
            "space": space,
            "building": index,
            "tile": game.table[index].tile,
            "price": game.price(state, r, space),
        }
    if phase == SITE:
        return {
            "kind": "site",
            "cell": _xy(game, action - game.site_base),
            "building": state.board[state.chosen],
            "space": state.chosen,
        }
    space = action - game.burn_base  # DRAGON
    index = state.board[space]
    return {"kind": "burn", "space": space, "building": index, "tile": game.table[index].tile}


def last_model(
    game: Queendomino, before: QueendominoState, action: int, after: QueendominoState
) -> dict[str, Any]:
    """What the decision `action` in `before` did, up to `after` (the draws it set off
    included): the move, who made it, and what followed from it on the table."""
    player = game.current_player(before)
    last: dict[str, Any] = {"player": player, "realm": game.realm_of[player]}
    last.update(move_model(game, before, action))
    r = last["realm"]
    was, now = before.realms[r], after.realms[r]
    if before.phase == SITE:
        last["price"] = was.coins - now.coins
        last["knights"] = now.guard - was.guard
        last["towers"] = now.towers - was.towers
    if after.queen != before.queen:
        last["queen"] = {"from": _or_none(before.queen), "to": _or_none(after.queen)}
    # What the round's end brought: the buildings slid and turned up, a new line.
    arrived = [
        {"space": space, "building": index}
        for space, index in enumerate(after.board)
        if index != EMPTY and index not in before.board
    ]
    if arrived:
        last["arrived"] = arrived
    if after.top != before.top and after.top != EMPTY:
        last["turned_up"] = after.top
    if before.phase == CLAIM and after.line != before.line and after.line:
        last["new_line"] = list(after.line)
    return last
