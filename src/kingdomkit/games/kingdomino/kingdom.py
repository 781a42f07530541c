"""A player's kingdom as a handful of bitboards: legal placements, placing, and scoring.

This is the hot code of every Kingdomino playout, kept small and separate so that a compiled
kernel can mirror it. Everything here is a pure function of immutable values.

Placement codes: `direction * cells + cell`, where `cell` holds square 1 and `direction` says
where square 2 lies (0 right, 1 down, 2 left, 3 up; see geometry.py). Listing the codes of one
direction after another, each in ascending cell order, gives a sorted list for free. A domino
whose two squares are alike is only offered facing right or down: the other two directions
give the same kingdom.

Scoring (rulebook, "End of the game"): a territory is a group of orthogonally connected squares
of one terrain; it scores its size times its crowns. Only territories with a crown score, so
the flood fill starts from crowned squares only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from kingdomkit.games.kingdomino.dominoes import TERRAINS, Domino
from kingdomkit.games.kingdomino.geometry import Bitboard, Cell, Geometry

MIDDLE_KINGDOM_BONUS = 10
HARMONY_BONUS = 5
TERRITORY_CACHE = 1 << 14  # kingdoms whose territories are kept (a few MB at most)


class Kingdom(NamedTuple):
    """One player's kingdom. `terrains[t]` holds the squares of terrain t; crowns are binary
    digits split over two boards (a square with 3 crowns is in both); the castle is only in
    `occupied`. `placed` keeps (domino, cell of square 1, cell of square 2) in play order."""

    terrains: tuple[Bitboard, ...]
    crowns1: Bitboard
    crowns2: Bitboard
    occupied: Bitboard
    min_x: int
    max_x: int
    min_y: int
    max_y: int
    placed: tuple[tuple[int, Cell, Cell], ...]
    discarded: tuple[int, ...]


def empty_kingdom(geo: Geometry, terrain_count: int = len(TERRAINS)) -> Kingdom:
    """A castle alone; Queendomino asks for one more terrain board (towns)."""
    return Kingdom((0,) * terrain_count, 0, 0, geo.castle_bit, 0, 0, 0, 0, (), ())


def legal_placements(geo: Geometry, kingdom: Kingdom, domino: Domino, offset: int = 0) -> list[int]:
    """Sorted placement codes (plus `offset`) of `domino` in `kingdom`; empty if none."""
    width = geo.width
    span = geo.size - 1
    reach = geo.reach
    # Free cells that keep the bounding box within the frame (rulebook: "must fit in 5x5").
    free = (
        geo.column_span[(kingdom.max_x - span + reach) * width + kingdom.min_x + span + reach]
        & geo.row_span[(kingdom.max_y - span + reach) * width + kingdom.min_y + span + reach]
        & ~kingdom.occupied
    )
    # Cells next to the castle or to a square of the same terrain (connection rules). These
    # may spill into the guard column or past the board, but `free` never holds such cells.
    terrains = kingdom.terrains
    castle = geo.castle_bit
    own1 = terrains[domino.terrain1] | castle
    link1 = (own1 << 1) | (own1 >> 1) | (own1 << width) | (own1 >> width)
    if domino.terrain2 == domino.terrain1:
        link2 = link1
    else:
        own2 = terrains[domino.terrain2] | castle
        link2 = (own2 << 1) | (own2 >> 1) | (own2 << width) | (own2 >> width)
    boards = [
        free & (free >> 1) & (link1 | (link2 >> 1)),
        free & (free >> width) & (link1 | (link2 >> width)),
    ]
    if not (domino.terrain1 == domino.terrain2 and domino.crowns1 == domino.crowns2):
        boards.append(free & (free << 1) & (link1 | (link2 << 1)))
        boards.append(free & (free << width) & (link1 | (link2 << width)))
    codes: list[int] = []
    append = codes.append
    base = offset
    cells = geo.cells
    for board in boards:
        while board:
            low = board & -board
            append(base + low.bit_length() - 1)
            board ^= low
        base += cells
    return codes


def place(geo: Geometry, kingdom: Kingdom, domino: Domino, cell1: Cell, cell2: Cell) -> Kingdom:
    """The kingdom with `domino` placed, square 1 on `cell1` and square 2 on `cell2`.
    Unchecked: the caller has made sure the placement is legal."""
    bit1 = 1 << cell1
    bit2 = 1 << cell2
    terrain1 = domino.terrain1
    terrain2 = domino.terrain2
    terrains = list(kingdom.terrains)
    terrains[terrain1] |= bit1
    terrains[terrain2] |= bit2
    crowns1 = kingdom.crowns1
    crowns2 = kingdom.crowns2
    if domino.crowns1 & 1:
        crowns1 |= bit1
    if domino.crowns1 & 2:
        crowns2 |= bit1
    if domino.crowns2 & 1:
        crowns1 |= bit2
    if domino.crowns2 & 2:
        crowns2 |= bit2
    xs, ys = geo.xs, geo.ys
    x1, x2, y1, y2 = xs[cell1], xs[cell2], ys[cell1], ys[cell2]
    return Kingdom(
        tuple(terrains),
        crowns1,
        crowns2,
        kingdom.occupied | bit1 | bit2,
        min(kingdom.min_x, x1, x2),
        max(kingdom.max_x, x1, x2),
        min(kingdom.min_y, y1, y2),
        max(kingdom.max_y, y1, y2),
        (*kingdom.placed, (domino.number, cell1, cell2)),
        kingdom.discarded,
    )


def best_gain(
    geo: Geometry, kingdom: Kingdom, domino: Domino, score: Callable[[Kingdom], int], base: int
) -> int:
    """The most that placing `domino` adds to `score(kingdom)` (= `base`); 0 if it fits
    nowhere. Greedy evaluations of both games value a claimed domino this way."""
    best = 0
    for code in legal_placements(geo, kingdom, domino):
        cell1, cell2 = decode_placement(geo, code)
        best = max(best, score(place(geo, kingdom, domino, cell1, cell2)) - base)
    return best


def discard(kingdom: Kingdom, domino: Domino) -> Kingdom:
    return kingdom._replace(discarded=(*kingdom.discarded, domino.number))


def decode_placement(geo: Geometry, code: int) -> tuple[Cell, Cell]:
    """The cells of square 1 and square 2 of a placement code."""
    direction, cell1 = divmod(code, geo.cells)
    return cell1, cell1 + geo.deltas[direction]


def territory_score(geo: Geometry, kingdom: Kingdom) -> int:
    """The sum over territories of size x crowns (no bonuses)."""
    width = geo.width
    crowns1 = kingdom.crowns1
    crowns2 = kingdom.crowns2
    crowned_anywhere = crowns1 | crowns2
    total = 0
    for land in kingdom.terrains:
        crowned = land & crowned_anywhere
        while crowned:
            region = crowned & -crowned
            # The guard column is never land, so no shift wraps into a neighbouring row.
            grown = (
                region | (region << 1) | (region >> 1) | (region << width) | (region >> width)
            ) & land
            while grown != region:
                region = grown
                grown = (
                    region | (region << 1) | (region >> 1) | (region << width) | (region >> width)
                ) & land
            total += region.bit_count() * (
                (region & crowns1).bit_count() + 2 * (region & crowns2).bit_count()
            )
            crowned &= ~region
    return total


class Territory(NamedTuple):
    terrain: int
    size: int
    crowns: int
    cells: Bitboard

    @property
    def points(self) -> int:
        return self.size * self.crowns


def territories(geo: Geometry, kingdom: Kingdom) -> tuple[Territory, ...]:
    """Every territory, crowned or not, most points first (then largest, then by terrain)."""
    return _territories(geo.width, kingdom.terrains, kingdom.crowns1, kingdom.crowns2)


def clear_territory_cache() -> None:
    """Forget the kingdoms whose territories are kept (benchmarks that score the same
    kingdoms again measure the flood fill, not the cache)."""
    _territories.cache_clear()


@lru_cache(maxsize=TERRITORY_CACHE)
def _territories(
    width: int, terrains: tuple[Bitboard, ...], crowns1: Bitboard, crowns2: Bitboard
) -> tuple[Territory, ...]:
    # Cached: a greedy bot scores many positions whose land is the same (every claim, every
    # building of one turn), and the flood fills were most of its time.
    found = []
    for terrain, land in enumerate(terrains):
        rest = land
        while rest:
            region = rest & -rest
            while True:
                # The guard column is never land, so no shift wraps into a neighbouring row.
                grown = (
                    region | (region << 1) | (region >> 1) | (region << width) | (region >> width)
                ) & land
                if grown == region:
                    break
                region = grown
            crowns = (region & crowns1).bit_count() + 2 * (region & crowns2).bit_count()
            found.append(Territory(terrain, region.bit_count(), crowns, region))
            rest &= ~region
    found.sort(key=lambda t: (-t.points, -t.size, t.terrain, t.cells))
    return tuple(found)


def square(kingdom: Kingdom, cell: Cell) -> tuple[int, int] | None:
    """The (terrain, crowns) on `cell`, or None for an empty cell or the castle."""
    for terrain, land in enumerate(kingdom.terrains):
        if land >> cell & 1:
            return terrain, (kingdom.crowns1 >> cell & 1) + 2 * (kingdom.crowns2 >> cell & 1)
    return None


def castle_in_middle(geo: Geometry, kingdom: Kingdom) -> bool:
    """Middle Kingdom: the castle is the centre of a size x size frame holding the kingdom.

    With an empty edge row or column the frame could slide; we count the bonus when some frame
    centred on the castle holds every square (docs/rules-notes.md, "Middle Kingdom")."""
    half = (geo.size - 1) // 2
    return (
        -half <= kingdom.min_x
        and kingdom.max_x <= half
        and -half <= kingdom.min_y
        and kingdom.max_y <= half
    )


def is_complete(geo: Geometry, kingdom: Kingdom) -> bool:
    """Every square of the size x size frame is filled."""
    return kingdom.occupied.bit_count() == geo.size * geo.size


def crown_count(kingdom: Kingdom) -> int:
    return kingdom.crowns1.bit_count() + 2 * kingdom.crowns2.bit_count()
