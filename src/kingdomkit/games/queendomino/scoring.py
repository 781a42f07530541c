"""End-of-game scoring of a realm, as the Queendomino score pad lays it out (rulebook "End of
the Game" and its "Scoring Example").

    wealth        1 point per 3 coins
    territories   size x crowns for every territory, towns included (a town's crowns come
                  from its buildings)
    the Queen     one more crown on her host's largest territory: + its size. When several
                  territories are largest, she goes where the pad shows most points (the
                  total is the same whichever she takes)
    buildings     fixed points, per tower in the kingdom, per knight owned, or N per
                  separate territory of a terrain
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.geometry import Geometry
from kingdomkit.games.queendomino.buildings import Building, BuildingTable
from kingdomkit.games.queendomino.dominoes import TERRAINS
from kingdomkit.games.queendomino.state import Realm

COINS_PER_POINT = 3


class Breakdown(NamedTuple):
    """One realm's score pad."""

    coins: int
    wealth: int
    territories: tuple[kd.Territory, ...]  # every territory, most points first
    terrain_points: tuple[int, ...]  # per terrain (Queen not included)
    queen: int  # points the Queen adds (0 if the realm does not host her)
    queen_territory: kd.Territory | None
    buildings: tuple[tuple[Building, int], ...]  # each built tile with its points
    building_points: int
    total: int
    largest_territory: int


def building_points(
    geo: Geometry, table: BuildingTable, realm: Realm, found: Sequence[kd.Territory]
) -> list[tuple[Building, int]]:
    points = []
    for index, _cell in realm.buildings:
        building = table[index]
        kind, value = building.endgame, building.endgame_points
        if kind == "fixed":
            gained = value
        elif kind == "per_tower":
            gained = value * realm.towers
        elif kind == "per_knight":
            gained = value * realm.knights_owned
        elif kind == "per_separate_territory":
            gained = value * sum(1 for t in found if t.terrain == building.endgame_terrain)
        else:
            gained = 0
        points.append((building, gained))
    return points


def breakdown(geo: Geometry, table: BuildingTable, realm: Realm, hosts_queen: bool) -> Breakdown:
    found = kd.territories(geo, realm.kingdom)
    per_terrain = [0] * len(TERRAINS)
    for territory in found:
        per_terrain[territory.terrain] += territory.points
    largest = max((t.size for t in found), default=0)
    queen_territory = None
    if hosts_queen and found:
        # `found` is sorted most points first, so this is the largest that shows most points.
        queen_territory = next(t for t in found if t.size == largest)
    queen = queen_territory.size if queen_territory else 0
    buildings = building_points(geo, table, realm, found)
    built = sum(points for _, points in buildings)
    wealth = realm.coins // COINS_PER_POINT
    total = wealth + sum(per_terrain) + queen + built
    return Breakdown(
        realm.coins,
        wealth,
        tuple(found),
        tuple(per_terrain),
        queen,
        queen_territory,
        tuple(buildings),
        built,
        total,
        largest,
    )


def score(geo: Geometry, table: BuildingTable, realm: Realm, hosts_queen: bool) -> int:
    return breakdown(geo, table, realm, hosts_queen).total


def territory_size(geo: Geometry, land: int, cell: int) -> int:
    """The size of the territory of `land` (one terrain's squares) that holds `cell`."""
    region = 1 << cell
    width = geo.width
    while True:
        grown = (
            region | (region << 1) | (region >> 1) | (region << width) | (region >> width)
        ) & land
        if grown == region:
            return region.bit_count()
        region = grown
