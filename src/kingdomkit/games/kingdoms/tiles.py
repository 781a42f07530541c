"""Knizia's Kingdoms components, loaded from the data files that ship with the package: the 23
tiles by type, and the castles each player has by player count.

Tile types, in a fixed order (`TYPES`): the resources +1 .. +6, the hazards -1 .. -6, then the
mountain, the dragon, the gold mine and the wizard. A type's `label` is its token in the board
notation (`+3`, `-6`, `MTN`, `DRG`, `GLD`, `WIZ`). Tiles of one type are alike, so the engine
counts them by type: the supply is a tuple of 16 counts.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

from kingdomkit.core.protocol import KingdomkitError

RESOURCE, HAZARD, MOUNTAIN, DRAGON, GOLD_MINE, WIZARD = (
    "resource",
    "hazard",
    "mountain",
    "dragon",
    "gold_mine",
    "wizard",
)
SPECIAL_LABELS = {MOUNTAIN: "MTN", DRAGON: "DRG", GOLD_MINE: "GLD", WIZARD: "WIZ"}
CATEGORIES = {
    "resource": RESOURCE,
    "hazard": HAZARD,
    "special_mountain": MOUNTAIN,
    "special_dragon": DRAGON,
    "special_gold_mine": GOLD_MINE,
    "special_wizard": WIZARD,
}
RANKS = 4


@dataclass(frozen=True, slots=True)
class TileType:
    """One kind of tile: its category, printed value (0 for specials), how many the game has,
    and the names the 2010 rulebook gives it (where it names it)."""

    index: int
    kind: str
    value: int
    count: int
    name: str

    @property
    def label(self) -> str:
        return SPECIAL_LABELS.get(self.kind, f"{self.value:+d}")

    def describe(self) -> str:
        """`+5 Knight`, `-6 Troll`, `Dragon`: what people call it."""
        if self.kind in SPECIAL_LABELS:
            return self.name
        return f"{self.label} {self.name}" if self.name else self.label


def _order(kind: str, value: int) -> tuple[int, int]:
    specials = (MOUNTAIN, DRAGON, GOLD_MINE, WIZARD)
    if kind == RESOURCE:
        return 0, value
    if kind == HAZARD:
        return 1, -value
    return 2, specials.index(kind)


def parse_tiles(text: str) -> tuple[TileType, ...]:
    found = []
    for row, fields in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            kind = CATEGORIES[fields["category"].strip()]
            value = int(fields["value"])
            count = int(fields["count"])
        except (KeyError, ValueError, AttributeError):
            raise KingdomkitError(f"Kingdoms tiles data, row {row}: missing or bad field") from None
        name = (fields.get("name_in_2010_rulebook") or "").strip()
        if name.startswith("(") or "(one copy)" in name:
            name = ""  # not named, or named for one copy only: the value names the type
        if not name and kind in SPECIAL_LABELS:
            name = kind.replace("_", " ").title()
        found.append((kind, value, count, name))
    found.sort(key=lambda t: _order(t[0], t[1]))
    types = tuple(TileType(i, *fields) for i, fields in enumerate(found))
    if sum(t.count for t in types) != 23:
        raise KingdomkitError("Kingdoms tiles data: the game has 23 tiles")
    return types


def parse_castles(text: str) -> dict[int, tuple[int, ...]]:
    """Castles in hand at the start, by player count: counts of rank 1 .. 4."""
    castles = {}
    for row, fields in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            players = int(fields["players"])
            castles[players] = tuple(int(fields[f"rank{r}_per_player"]) for r in range(1, 5))
        except (KeyError, ValueError, TypeError):
            raise KingdomkitError(
                f"Kingdoms castles data, row {row}: missing or bad field"
            ) from None
    return castles


def _data(name: str) -> str:
    return resources.files(__package__).joinpath(f"data/{name}").read_text(encoding="utf-8")


TYPES: tuple[TileType, ...] = parse_tiles(_data("kingdoms_tiles.csv"))
CASTLES: dict[int, tuple[int, ...]] = parse_castles(_data("kingdoms_castles.csv"))
ALL_CASTLES = (4, 3, 2, 1)  # every castle of a colour (Down to the Last Castle)
FULL_SUPPLY: tuple[int, ...] = tuple(t.count for t in TYPES)
LABELS = tuple(t.label for t in TYPES)
MTN, DRG, GLD, WIZ = (LABELS.index(label) for label in ("MTN", "DRG", "GLD", "WIZ"))


def tile_type(label: str) -> TileType | None:
    """The type a notation token names (`+3`, `-6`, `MTN`, ...), or None."""
    label = label.upper()
    return TYPES[LABELS.index(label)] if label in LABELS else None
