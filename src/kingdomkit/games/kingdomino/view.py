"""Kingdomino's view model: the position as a browser draws it (docs/view-model.md).

Two parts are shared with Queendomino, which imports them (its kingdom is Kingdomino's
kingdom code; its lines are drawn and claimed the same way):

    kingdom_model   a player's kingdom: castle at (0, 0), the frame it must fit, the dominoes
                    placed (as pieces: two squares with terrain and crowns), the discards
    lines_model     the line being placed (kings on it, who is done) and the new line (claims)
    piece_model, domino_ref, last_model   the small shapes both are made of

Their JSON shapes are the `$defs` square, piece, domino_ref, frame, kingdom, placing_item,
line_item, lines and last of view_model.schema.json (Queendomino's schema repeats them).
Coordinates are squares relative to the castle, x to the right, y downward. A domino is named
by `domino` (the id moves use) and `label` (the number printed on it).

Versions: 1, the first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES, TERRAINS, Domino
from kingdomkit.games.kingdomino.geometry import Cell, Geometry
from kingdomkit.games.kingdomino.records import breakdown_json
from kingdomkit.games.kingdomino.state import (
    CLAIM,
    CLAIMS,
    DRAW,
    OVER,
    PHASE_NAMES,
    PLACE,
    UNCLAIMED,
    KingdominoState,
)

if TYPE_CHECKING:
    from kingdomkit.games.kingdomino.rules import Kingdomino

VERSION = 1

Json = dict[str, Any]
# What a kingdom holds (Domino.number) -> the domino, and -> (id moves use, printed label).
DominoOf = Callable[[int], Domino]
NameOf = Callable[[int], tuple[int, str]]


def _kingdomino_domino(number: int) -> Domino:
    return DOMINOES[number - 1]


def _kingdomino_name(number: int) -> tuple[int, str]:
    return number, str(number)


# -- the shared shapes (Queendomino imports these) -------------------------------------------
def domino_ref(number: int, name: NameOf = _kingdomino_name) -> Json:
    """A domino named, without its squares: {"domino": id, "label": printed number}."""
    ident, label = name(number)
    return {"domino": ident, "label": label}


def square_model(x: int, y: int, terrain: str, crowns: int) -> Json:
    return {"x": x, "y": y, "terrain": terrain, "crowns": crowns}


def piece_model(
    geo: Geometry,
    number: int,
    cell1: Cell,
    cell2: Cell,
    terrains: Sequence[str] = TERRAINS,
    domino: DominoOf = _kingdomino_domino,
    name: NameOf = _kingdomino_name,
) -> Json:
    """A placed domino: its name and its two squares (square 1 first) where they lie."""
    d = domino(number)
    x1, y1 = geo.xy(cell1)
    x2, y2 = geo.xy(cell2)
    return {
        **domino_ref(number, name),
        "squares": [
            square_model(x1, y1, terrains[d.terrain1], d.crowns1),
            square_model(x2, y2, terrains[d.terrain2], d.crowns2),
        ],
    }


def kingdom_model(
    geo: Geometry,
    kingdom: kd.Kingdom,
    terrains: Sequence[str] = TERRAINS,
    domino: DominoOf = _kingdomino_domino,
    name: NameOf = _kingdomino_name,
) -> Json:
    """A kingdom as pieces in play order, its discards, its crowns and its frame: the
    kingdom must fit in size x size squares; min/max say how far it reaches so far (the
    castle included), so a board can keep the whole frame in view from the start."""
    return {
        "castle": {"x": 0, "y": 0},
        "frame": {
            "size": geo.size,
            "min_x": kingdom.min_x,
            "max_x": kingdom.max_x,
            "min_y": kingdom.min_y,
            "max_y": kingdom.max_y,
        },
        "pieces": [
            piece_model(geo, number, c1, c2, terrains, domino, name)
            for number, c1, c2 in kingdom.placed
        ],
        "discarded": [domino_ref(number, name) for number in kingdom.discarded],
        "crowns": kd.crown_count(kingdom),
    }


def faces_model(
    number: int, terrains: Sequence[str] = TERRAINS, domino: DominoOf = _kingdomino_domino
) -> list[Json]:
    """A domino's two squares as printed (square 1 first), where it lies not said."""
    d = domino(number)
    return [
        {"terrain": terrains[d.terrain1], "crowns": d.crowns1},
        {"terrain": terrains[d.terrain2], "crowns": d.crowns2},
    ]


def lines_model(
    line: Sequence[int],
    claims: Sequence[int],
    placing: Sequence[int],
    placers: Sequence[int],
    done: int,
    acting: int | None,
    terrains: Sequence[str] = TERRAINS,
    domino: DominoOf = _kingdomino_domino,
    name: NameOf = _kingdomino_name,
    unclaimed: int = UNCLAIMED,
) -> Json:
    """The line being placed (`placing`, its kings' owners `placers`; the first `done` are
    placed or discarded, `acting` is the one being placed now) and the new line with the
    owner of the king on each slot (None: free). Ids go through `name`."""
    return {
        "placing": [
            {
                **domino_ref(number, name),
                "squares": faces_model(number, terrains, domino),
                "king": player,
                "done": i < done,
                "acting": i == acting,
            }
            for i, (number, player) in enumerate(zip(placing, placers, strict=True))
        ],
        "new": [
            {
                **domino_ref(number, name),
                "squares": faces_model(number, terrains, domino),
                "slot": slot,
                "king": None if owner == unclaimed else owner,
            }
            for slot, (number, owner) in enumerate(zip(line, claims, strict=False))
        ],
    }


def last_model(
    player: int,
    placed: Json | None = None,
    discarded: Json | None = None,
    claimed: Json | None = None,
) -> Json:
    """What the latest decision did: the piece placed (as in `kingdom.pieces`), the domino
    discarded, the domino claimed (None when the position does not say which)."""
    return {"player": player, "placed": placed, "discarded": discarded, "claimed": claimed}


# -- Kingdomino's model ------------------------------------------------------------------------
def view_model(game: Kingdomino, state: KingdominoState) -> Json:
    """The whole position (Kingdomino has no secrets: every seat sees the same)."""
    geo, setup = game.geo, game.setup
    phase = state.phase
    acting: Json | None = None
    if phase in (CLAIM, PLACE):
        player = game.current_player(state)
        placing = phase == PLACE
        acting = {
            "player": player,
            "doing": "place" if placing else "claim",
            "domino": domino_ref(state.placing[state.turn]) if placing else None,
        }
    if phase == OVER:
        done, now = len(state.placing), None
    elif phase == PLACE:
        done, now = state.turn, state.turn
    elif phase == CLAIM and state.placers:
        done, now = state.turn + 1, None  # the king to claim has placed its domino
    else:
        done, now = 0, None
    seen = {n for k in state.kingdoms for n, _, _ in k.placed}
    seen.update(n for k in state.kingdoms for n in k.discarded)
    seen.update(state.placing)
    seen.update(state.line)
    drawn = state.lines_drawn * setup.line_size + (len(state.line) if phase == DRAW else 0)
    return {
        "phase": PHASE_NAMES[phase],
        "acting": acting,
        "kingdoms": [kingdom_model(geo, k) for k in state.kingdoms],
        "lines": lines_model(state.line, state.claims, state.placing, state.placers, done, now),
        "lines_drawn": state.lines_drawn,
        "lines_total": setup.lines,
        "to_come": setup.lines * setup.line_size - drawn,
        "unseen": [domino_ref(d.number) for d in DOMINOES if d.number not in seen],
        "scores": [breakdown_json(game.breakdown(state, p)) for p in range(game.num_players)],
        "dynasty": {
            "game": state.game_number + 1,
            "games": setup.games,
            "past_scores": [list(scores) for scores in state.past_scores],
        }
        if setup.dynasty
        else None,
        "last": last_decision(game, state),
    }


def last_decision(game: Kingdomino, state: KingdominoState) -> Json | None:
    """What the latest decision did, read from the position alone. Within a round the kings
    place in line order, lowest number first (rulebook D1), so the latest placement of a
    finished round is the highest-numbered domino placed in it."""
    phase, turn = state.phase, state.turn
    if phase == PLACE and turn > 0:
        # The king before placed (or discarded) its domino, then claimed (if a new line).
        player = state.placers[turn - 1]
        return _placement(game, state, player, state.placing[turn - 1], state.line, state.claims)
    if phase == CLAIM and state.placers:
        player = state.placers[turn]
        return _placement(game, state, player, state.placing[turn], (), ())
    if phase == CLAIM and turn > 0:
        # First round: the king before claimed.
        player = state.order[turn - 1]
        return last_model(player, claimed=_claim(state.line, state.claims, player))
    if phase == CLAIM:
        return None  # the first king of the game is to claim
    if not any(k.placed or k.discarded for k in state.kingdoms):
        if not state.placers:
            return None  # nothing decided yet in this game
        # Every king has claimed a domino of the first line, the last in shuffled order.
        player = state.order[-1]
        return last_model(player, claimed=_claim(state.placing, state.placers, player))
    # A round has ended: its last placement is the highest number among the dominoes each
    # player placed in it (their latest, one per king), followed by that king's claim.
    kings = game.setup.kings // game.num_players
    latest: list[tuple[int, int]] = []
    for player, k in enumerate(state.kingdoms):
        latest += [(number, player) for number, _, _ in k.placed[-kings:]]
        latest += [(number, player) for number in k.discarded[-kings:]]
    number, player = max(latest)
    return _placement(game, state, player, number, state.placing, state.placers)


def last_decision_made(
    game: Kingdomino, before: KingdominoState, action: int, after: KingdominoState
) -> Json | None:
    """What `action`, played in `before`, did, exactly (Board.last_model, when the server
    knows the decision): a placement or discard; a claim, with the placement the same king
    made just before it, so the just-placed mark stays on that domino while its king claims."""
    if after.game_number != before.game_number or before.phase not in (CLAIM, PLACE):
        return None  # a new game of a dynasty: nothing decided in it yet
    player = game.current_player(before)
    if before.phase == PLACE:
        number = before.placing[before.turn]
        if action == game.discard_action:
            return last_model(player, discarded=domino_ref(number))
        cell1, cell2 = kd.decode_placement(game.geo, action - CLAIMS)
        return last_model(player, placed=piece_model(game.geo, number, cell1, cell2))
    claimed = domino_ref(before.line[action])
    if not before.placers:
        return last_model(player, claimed=claimed)  # the first line: nothing placed before
    made = _placement(game, before, player, before.placing[before.turn], (), ())
    return {**made, "claimed": claimed}


def _placement(
    game: Kingdomino,
    state: KingdominoState,
    player: int,
    number: int,
    line: Sequence[int],
    owners: Sequence[int],
) -> Json:
    kingdom = state.kingdoms[player]
    claimed = _claim(line, owners, player) if line else None
    for placed, cell1, cell2 in kingdom.placed:
        if placed == number:
            piece = piece_model(game.geo, number, cell1, cell2)
            return last_model(player, placed=piece, claimed=claimed)
    return last_model(player, discarded=domino_ref(number), claimed=claimed)


def _claim(line: Sequence[int], owners: Sequence[int], player: int) -> Json | None:
    """The player's claim on `line`, when they have only one there (else it cannot tell)."""
    mine = [number for number, owner in zip(line, owners, strict=False) if owner == player]
    return domino_ref(mine[0]) if len(mine) == 1 else None


def move_model(game: Kingdomino, state: KingdominoState, action: int) -> Json:
    """A legal action as the board offers it: claim a slot, place (a piece), or discard."""
    if state.phase == CLAIM:
        return {"kind": "claim", **domino_ref(state.line[action]), "slot": action}
    number = state.placing[state.turn]
    if action == game.discard_action:
        return {"kind": "discard", **domino_ref(number)}
    cell1, cell2 = kd.decode_placement(game.geo, action - CLAIMS)
    return {"kind": "place", **piece_model(game.geo, number, cell1, cell2)}
