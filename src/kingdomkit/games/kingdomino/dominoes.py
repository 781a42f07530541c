"""The 48 Kingdomino dominoes, loaded from the data file that ships with the package.

Terrains are small ints in the order of `TERRAINS`; a domino's squares keep the order of the
data file ("square 1", "square 2"), which is the order game records use.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

from kingdomkit.core.protocol import KingdomkitError

Terrain = int

TERRAINS = ("wheat", "forest", "lake", "grassland", "swamp", "mine")
TERRAIN_LETTERS = "WFLGSM"
NUM_DOMINOES = 48
MAX_CROWNS = 3


@dataclass(frozen=True, slots=True)
class Domino:
    """One domino: its printed number and its two squares (terrain, crowns)."""

    number: int
    terrain1: Terrain
    crowns1: int
    terrain2: Terrain
    crowns2: int

    @property
    def symmetric(self) -> bool:
        """True when both squares are alike, so turning the domino round changes nothing."""
        return self.terrain1 == self.terrain2 and self.crowns1 == self.crowns2

    def describe(self) -> str:
        """`W1|F` style text: terrain letters with crowns, square 1 first."""
        return (
            f"{square_text(self.terrain1, self.crowns1)}|{square_text(self.terrain2, self.crowns2)}"
        )


def square_text(terrain: Terrain, crowns: int, letters: str = TERRAIN_LETTERS) -> str:
    return letters[terrain] + (str(crowns) if crowns else "")


def _terrain(name: str, row: int, terrains: tuple[str, ...]) -> Terrain:
    try:
        return terrains.index(name.strip())
    except ValueError:
        raise KingdomkitError(f"dominoes data, row {row}: unknown terrain {name!r}") from None


def _crowns(text: str, row: int) -> int:
    try:
        crowns = int(text)
    except ValueError:
        raise KingdomkitError(
            f"dominoes data, row {row}: crowns {text!r} is not a number"
        ) from None
    if not 0 <= crowns <= MAX_CROWNS:
        raise KingdomkitError(f"dominoes data, row {row}: {crowns} crowns is out of range")
    return crowns


def parse_dominoes(text: str, terrains: tuple[str, ...] = TERRAINS) -> tuple[Domino, ...]:
    """The dominoes described by a CSV text (columns as in the shipped data file); a game
    with more terrains (Queendomino's towns) passes its own list, Kingdomino's first."""
    dominoes = []
    for row, fields in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            number = int(fields["number"])
            domino = Domino(
                number,
                _terrain(fields["square1_terrain"], row, terrains),
                _crowns(fields["square1_crowns"], row),
                _terrain(fields["square2_terrain"], row, terrains),
                _crowns(fields["square2_crowns"], row),
            )
        except (KeyError, TypeError, ValueError):
            raise KingdomkitError(f"dominoes data, row {row}: missing or bad field") from None
        dominoes.append(domino)
    numbers = [domino.number for domino in dominoes]
    if numbers != list(range(1, NUM_DOMINOES + 1)):
        raise KingdomkitError(f"dominoes data must list dominoes 1 to {NUM_DOMINOES} in order")
    return tuple(dominoes)


def load_dominoes() -> tuple[Domino, ...]:
    data = resources.files(__package__).joinpath("data/kingdomino_dominoes.csv")
    return parse_dominoes(data.read_text(encoding="utf-8"))


DOMINOES: tuple[Domino, ...] = load_dominoes()


def domino(number: int) -> Domino:
    return DOMINOES[number - 1]
