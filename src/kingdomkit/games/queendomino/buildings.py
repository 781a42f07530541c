"""The building tiles, as data: the table ships with the package, and a user who owns the game
may load a corrected one (`--buildings FILE`, or the `buildings` option).

Columns (docs/rules-notes.md, "Building table"):

    tile, name, crowns                      the tile's id, name and crowns (on a town square)
    immediate_knights, immediate_towers     taken when it is built: knights into the guard,
                                            towers onto the building (from the supply)
    ongoing                                 none | coin_per_knight | coin_per_tower
    endgame, endgame_points, endgame_terrain
                                            none | fixed N | per_knight N | per_tower N |
                                            per_separate_territory N (per territory of a terrain)
    immediate_status, ongoing_status        established | inferred | unknown

An empty effect cell means "none": the engine never invents a value. A tile with an `unknown`
status is unverified, and every list of buildings shown to people marks it so.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.games.queendomino.dominoes import TERRAINS

ONGOING = ("none", "coin_per_knight", "coin_per_tower")
ENDGAME = ("none", "fixed", "per_knight", "per_tower", "per_separate_territory")
STATUSES = ("established", "inferred", "unknown")
COLUMNS = (
    "tile",
    "name",
    "crowns",
    "immediate_knights",
    "immediate_towers",
    "immediate_status",
    "ongoing",
    "ongoing_status",
    "endgame",
    "endgame_points",
    "endgame_terrain",
)
MAX_TILES = 64
SHIPPED = "shipped"


@dataclass(frozen=True, slots=True)
class Building:
    """One building tile (`index` is its row in the table, 0 first)."""

    index: int
    tile: str
    name: str
    crowns: int
    knights: int
    towers: int
    ongoing: str
    endgame: str
    endgame_points: int
    endgame_terrain: int | None
    immediate_known: bool
    ongoing_known: bool

    @property
    def verified(self) -> bool:
        """False when an effect of the tile is unknown (treated as none)."""
        return self.immediate_known and self.ongoing_known

    def label(self) -> str:
        """`B09 Magic School`, with `(unverified)` when an effect is unknown."""
        return f"{self.tile} {self.name}" + ("" if self.verified else " (unverified)")

    def effects(self) -> str:
        """The tile's effects in a few words, e.g. `+1 knight, +1 tower; 2/swamp territory`."""
        now = []
        if self.knights:
            now.append(f"+{self.knights} knight{'s' if self.knights > 1 else ''}")
        if self.towers:
            now.append(f"+{self.towers} tower{'s' if self.towers > 1 else ''}")
        if self.crowns:
            now.append(f"{self.crowns} crown{'s' if self.crowns > 1 else ''}")
        if self.ongoing != "none":
            now.append(
                "tax +1 coin/" + ("knight" if self.ongoing == "coin_per_knight" else "tower")
            )
        end = {
            "none": "",
            "fixed": f"{self.endgame_points} pts",
            "per_knight": f"{self.endgame_points}/knight",
            "per_tower": f"{self.endgame_points}/tower",
            "per_separate_territory": f"{self.endgame_points}/"
            + (TERRAINS[self.endgame_terrain] if self.endgame_terrain is not None else "?")
            + " territory",
        }[self.endgame]
        text = ", ".join(now) or "no immediate effect"
        return f"{text}; {end}" if end else text


@dataclass(frozen=True)
class BuildingTable:
    """The tiles of one table, where it came from, and a digest that records keep."""

    buildings: tuple[Building, ...]
    source: str
    sha256: str

    def __len__(self) -> int:
        return len(self.buildings)

    def __getitem__(self, index: int) -> Building:
        return self.buildings[index]

    @property
    def unverified(self) -> tuple[Building, ...]:
        return tuple(b for b in self.buildings if not b.verified)


def parse_buildings(text: str, source: str) -> BuildingTable:
    """The table in a CSV text; KingdomkitError naming `source` and the row if malformed."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise KingdomkitError(f"buildings table {source}: no column {missing[0]!r}")
    buildings: list[Building] = []
    seen: set[str] = set()
    for row, fields in enumerate(reader, start=2):
        building = _building(fields, len(buildings), f"buildings table {source}, row {row}")
        if building.tile in seen:
            raise KingdomkitError(
                f"buildings table {source}, row {row}: tile {building.tile!r} is listed twice"
            )
        seen.add(building.tile)
        buildings.append(building)
    if not 1 <= len(buildings) <= MAX_TILES:
        raise KingdomkitError(
            f"buildings table {source}: {len(buildings)} tiles (1 to {MAX_TILES} expected)"
        )
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return BuildingTable(tuple(buildings), source, digest)


def _building(fields: dict[str, str | None], index: int, where: str) -> Building:
    def text(column: str) -> str:
        return (fields.get(column) or "").strip()

    def number(column: str, low: int, high: int) -> int:
        value = text(column)
        if not value:
            return 0
        if not value.isdigit() or not low <= int(value) <= high:
            raise KingdomkitError(
                f"{where}: {column} must be a number from {low} to {high}, not {value!r}"
            )
        return int(value)

    def choice(column: str, allowed: tuple[str, ...], default: str) -> str:
        value = text(column) or default
        if value not in allowed:
            raise KingdomkitError(f"{where}: {column} {value!r} is not one of {', '.join(allowed)}")
        return value

    tile = text("tile")
    if not tile:
        raise KingdomkitError(f"{where}: the tile has no id")
    endgame = choice("endgame", ENDGAME, "none")
    terrain_name = text("endgame_terrain")
    terrain: int | None = None
    if endgame == "per_separate_territory":
        if terrain_name not in TERRAINS:
            raise KingdomkitError(
                f"{where}: endgame_terrain {terrain_name!r} is not one of {', '.join(TERRAINS)}"
            )
        terrain = TERRAINS.index(terrain_name)
    elif terrain_name:
        raise KingdomkitError(f"{where}: endgame_terrain is only for per_separate_territory")
    return Building(
        index=index,
        tile=tile,
        name=text("name") or tile,
        crowns=number("crowns", 0, 3),
        knights=number("immediate_knights", 0, 9),
        towers=number("immediate_towers", 0, 9),
        ongoing=choice("ongoing", ONGOING, "none"),
        endgame=endgame,
        endgame_points=number("endgame_points", 0, 99),
        endgame_terrain=terrain,
        immediate_known=choice("immediate_status", STATUSES, "unknown") != "unknown",
        ongoing_known=choice("ongoing_status", STATUSES, "unknown") != "unknown",
    )


def shipped_buildings() -> BuildingTable:
    data = resources.files(__package__).joinpath("data/queendomino_buildings.csv")
    return parse_buildings(data.read_text(encoding="utf-8"), SHIPPED)


def load_buildings(path: str | None) -> BuildingTable:
    """The shipped table (`path` None) or the one in the file at `path`."""
    if path is None or path == SHIPPED:
        return shipped_buildings()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise KingdomkitError(f"buildings table {path} is not a UTF-8 text file") from None
    except OSError as error:
        raise KingdomkitError(
            f"cannot read buildings table {path}: {error.strerror or error}"
        ) from None
    return parse_buildings(text, path)
