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
from typing import Any

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES, TERRAINS, Domino
from kingdomkit.games.kingdomino.geometry import Cell, Geometry
from kingdomkit.games.kingdomino.state import UNCLAIMED

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


def lines_model(
    line: Sequence[int],
    claims: Sequence[int],
    placing: Sequence[int],
    placers: Sequence[int],
    done: int,
    acting: int | None,
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
                "king": player,
                "done": i < done,
                "acting": i == acting,
            }
            for i, (number, player) in enumerate(zip(placing, placers, strict=True))
        ],
        "new": [
            {
                **domino_ref(number, name),
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
