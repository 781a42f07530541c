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
state) is sent as a count and the list of the dominoes nobody has seen yet.

Versions: 1, the first.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kingdomkit.games.kingdomino import view as shared
from kingdomkit.games.kingdomino.dominoes import Domino
from kingdomkit.games.queendomino import codec
from kingdomkit.games.queendomino.dominoes import DOMINOES, TERRAINS
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


def _xy(game: Queendomino, cell: int) -> dict[str, int]:
    x, y = game.geo.xy(cell)
    return {"x": x, "y": y}


# The shared shapes name dominoes as the kingdom code holds them: `Domino.number`, the id + 1
# (Queendomino's kingdoms), or the id itself (its lines, hands and moves).
def _held(number: int) -> Domino:
    return DOMINOES[number - 1]


def _by_id(ident: int) -> Domino:
    return DOMINOES[ident]


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
    """A realm's kingdom in the shared shape (Kingdomino's `kingdom_model`)."""
    return shared.kingdom_model(
        game.geo, kingdom, TERRAINS, _held, lambda number: _name(game, number - 1)
    )


def _name(game: Queendomino, ident: int) -> tuple[int, str]:
    return ident, codec.domino_label(game, ident)


def domino_ref(game: Queendomino, ident: int) -> dict[str, Any]:
    return shared.domino_ref(ident, partial(_name, game))


def piece_model(game: Queendomino, ident: int, cell1: int, cell2: int) -> dict[str, Any]:
    return shared.piece_model(game.geo, ident, cell1, cell2, TERRAINS, _by_id, partial(_name, game))


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
        "lines": _lines(game, state),
        "lines_drawn": state.lines_drawn,
        "lines_total": game.setup.lines,
        # Every line takes its dominoes from the deck, and every game uses whole boxes: the
        # dominoes still to come are exactly those nobody has seen.
        "to_come": state.deck.bit_count(),
        "unseen": [domino_ref(game, ident) for ident in _cells(state.deck)],
        "turn": _turn(game, state),
    }


def _tile(game: Queendomino, index: int) -> str | None:
    return None if index == EMPTY else game.table[index].tile


def _lines(game: Queendomino, state: QueendominoState) -> dict[str, Any]:
    """The line being placed and the new line, in the shared shape: a domino is done once
    its king's turn is past the place step."""
    phase = state.phase
    if phase == OVER:
        done, now = len(state.placing), None
    elif phase == PLACE:
        done, now = state.turn, state.turn
    elif phase in (TAX, BUILD, SITE, DRAGON, CLAIM) and state.placers:
        done, now = state.turn + 1, None
    else:
        done, now = 0, None
    return shared.lines_model(
        state.line,
        state.claims,
        state.placing,
        state.placers,
        done,
        now,
        TERRAINS,
        _by_id,
        partial(_name, game),
    )


def _turn(game: Queendomino, state: QueendominoState) -> dict[str, Any] | None:
    """Who acts, and their turn so far: the domino they place (or placed), the squares of
    it that hold a knight, the building they chose (site)."""
    if state.phase in (DRAW, BOARD, ORDER, OVER):
        return None
    player = game.current_player(state)
    turn: dict[str, Any] = {"player": player, "realm": game.realm_of[player], "domino": None}
    if state.placers:
        ident = state.placing[state.turn]
        turn["domino"] = domino_ref(game, ident)
        if state.phase != PLACE:
            kingdom = state.realms[game.realm_of[player]].kingdom
            if kingdom.placed and kingdom.placed[-1][0] - 1 == ident:
                _, c1, c2 = kingdom.placed[-1]
                turn["placed"] = piece_model(game, ident, c1, c2)
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
        return {"kind": "claim", **domino_ref(game, state.line[action]), "slot": action}
    if phase == PLACE:
        ident = state.placing[state.turn]
        if action == game.discard_action:
            return {"kind": "discard", **domino_ref(game, ident)}
        code = action - PLACE_BASE
        cell1 = code % game.cells
        cell2 = cell1 + game.geo.deltas[code // game.cells]
        return {"kind": "place", **piece_model(game, ident, cell1, cell2)}
    r = game.acting_realm(state)
    if phase == TAX:
        square = action - game.knight_base
        realm = state.realms[r]
        number, cell1, cell2 = realm.kingdom.placed[-1]
        domino = _held(number)
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
        last["new_line"] = [domino_ref(game, ident) for ident in after.line]
    return last
