"""Queendomino's dominoes, and the 96 of a Royal Wedding (both boxes), by one id each.

The Queendomino dominoes load from the data file that ships with the package (the reference
numbering is the least certain part of it: see docs/rules-notes.md). Terrains extend
Kingdomino's with `town` (index 6): towns are a terrain like the others for placement and
territories, and never carry crowns of their own.

Ids: 0 .. 47 are Queendomino's dominoes 1 .. 48, 48 .. 95 Kingdomino's 1 .. 48 (the Royal
Wedding draws lines alternately from the two boxes). `Domino.number` holds id + 1, so that
Kingdomino's kingdom code, which keeps `number` in `Kingdom.placed`, can tell the boxes apart;
`printed(id)` gives the number printed on the domino.
"""

from __future__ import annotations

from importlib import resources

from kingdomkit.games.kingdomino.dominoes import DOMINOES as KINGDOMINO_DOMINOES
from kingdomkit.games.kingdomino.dominoes import TERRAINS as KINGDOMINO_TERRAINS
from kingdomkit.games.kingdomino.dominoes import Domino, parse_dominoes

TERRAINS = (*KINGDOMINO_TERRAINS, "town")
TERRAIN_LETTERS = "WFLGSMT"
TOWN = TERRAINS.index("town")
BOX_SIZE = 48
QUEENDOMINO_BOX, KINGDOMINO_BOX = 0, 1
BOX_NAMES = ("queendomino", "kingdomino")
BOX_LETTERS = "QK"


def load_queendomino_dominoes() -> tuple[Domino, ...]:
    data = resources.files(__package__).joinpath("data/queendomino_dominoes.csv")
    return parse_dominoes(data.read_text(encoding="utf-8"), TERRAINS)


def _renumbered(dominoes: tuple[Domino, ...], first_id: int) -> tuple[Domino, ...]:
    return tuple(
        Domino(first_id + i + 1, d.terrain1, d.crowns1, d.terrain2, d.crowns2)
        for i, d in enumerate(dominoes)
    )


QUEENDOMINO_DOMINOES = load_queendomino_dominoes()
# Every domino by id: Queendomino's box, then Kingdomino's.
DOMINOES: tuple[Domino, ...] = _renumbered(QUEENDOMINO_DOMINOES, 0) + _renumbered(
    KINGDOMINO_DOMINOES, BOX_SIZE
)
BOX_MASKS = ((1 << BOX_SIZE) - 1, ((1 << BOX_SIZE) - 1) << BOX_SIZE)


def box_of(domino_id: int) -> int:
    return domino_id // BOX_SIZE


def printed(domino_id: int) -> int:
    """The number printed on the domino."""
    return domino_id % BOX_SIZE + 1


def domino_id(box: int, number: int) -> int:
    return box * BOX_SIZE + number - 1


def square_label(terrain: int, crowns: int) -> str:
    return TERRAIN_LETTERS[terrain] + (str(crowns) if crowns else "")


def describe(domino: Domino) -> str:
    """`W1|T` style text: terrain letters with crowns, square 1 first."""
    return (
        f"{square_label(domino.terrain1, domino.crowns1)}|"
        f"{square_label(domino.terrain2, domino.crowns2)}"
    )
