"""The text notation of a kingdom, for people scoring real games and for test positions.

One line per row, cells separated by spaces: a terrain letter (W wheat, F forest, L lake,
G grassland, S swamp, M mine) followed by its crowns if any (`G2`), `C` the castle, `.` empty.
Blank lines and lines starting with `#` are ignored. Empty outer rows and columns are trimmed.

    W  W  F  F1 .
    L1 C  G  G  S2
"""

from __future__ import annotations

from typing import NamedTuple

from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.games.kingdomino.dominoes import MAX_CROWNS, TERRAIN_LETTERS, TERRAINS
from kingdomkit.games.kingdomino.geometry import Geometry
from kingdomkit.games.kingdomino.kingdom import Kingdom, square

CASTLE = "C"
CROWN_DIGITS = tuple(str(n) for n in range(MAX_CROWNS + 1))  # ASCII only: "²" is no count
EMPTY = "."


class NotationError(KingdomkitError):
    """A kingdom text that cannot be read; names the line and column."""

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column


Square = tuple[int, int]  # (terrain, crowns)


class _Filled(NamedTuple):
    """A non-empty cell of the text, relative to the castle, with where it was written."""

    x: int
    y: int
    line: int
    column: int
    square: Square | None  # None for the castle


def _read_cell(token: str, line: int, column: int) -> Square | str:
    word = token.upper()
    if word in (CASTLE, EMPTY):
        return word
    letter, crowns = word[0], word[1:]
    if letter not in TERRAIN_LETTERS:
        raise NotationError(
            line,
            column,
            f"unknown cell {token!r} (terrains are {' '.join(TERRAIN_LETTERS)}; "
            "C is the castle, . is empty)",
        )
    if crowns and crowns not in CROWN_DIGITS:
        raise NotationError(line, column, f"{token!r}: a square has 0 to {MAX_CROWNS} crowns")
    return TERRAIN_LETTERS.index(letter), int(crowns or 0)


def _x(entry: _Filled) -> int:
    return entry.x


def _y(entry: _Filled) -> int:
    return entry.y


def parse_kingdom(text: str, geo: Geometry) -> Kingdom:
    """The kingdom that `text` draws, in a frame of `geo.size`; raises NotationError."""
    rows: list[tuple[int, list[tuple[int, Square | str]]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        cells = []
        position = 0
        for token in raw.split():
            position = raw.index(token, position)
            cells.append((position + 1, _read_cell(token, number, position + 1)))
            position += len(token)
        if rows and len(cells) != len(rows[0][1]):
            raise NotationError(
                number, 1, f"this row has {len(cells)} cells, the first row has {len(rows[0][1])}"
            )
        rows.append((number, cells))
    if not rows:
        raise NotationError(1, 1, "no kingdom: the text is empty")
    castles = [
        (line, column, y, x)
        for y, (line, cells) in enumerate(rows)
        for x, (column, cell) in enumerate(cells)
        if cell == CASTLE
    ]
    if not castles:
        raise NotationError(rows[0][0], 1, "no castle (C) in the kingdom")
    if len(castles) > 1:
        raise NotationError(castles[1][0], castles[1][1], "a kingdom has one castle, not two")
    _, _, castle_y, castle_x = castles[0]
    filled = [
        _Filled(x - castle_x, y - castle_y, line, column, cell if isinstance(cell, tuple) else None)
        for y, (line, cells) in enumerate(rows)
        for x, (column, cell) in enumerate(cells)
        if cell != EMPTY
    ]
    for name, coordinate in (("wide", _x), ("tall", _y)):
        values = [coordinate(entry) for entry in filled]
        extent = max(values) - min(values) + 1
        if extent > geo.size:
            far = max(filled, key=lambda e: abs(coordinate(e)))
            hint = " (a 7x7 kingdom needs the mighty_duel option)" if geo.size == 5 else ""
            raise NotationError(
                far.line,
                far.column,
                f"the kingdom is {extent} squares {name}; it must fit in "
                f"{geo.size}x{geo.size}{hint}",
            )
    terrains = [0] * len(TERRAINS)
    crowns1 = crowns2 = 0
    occupied = geo.castle_bit
    for entry in filled:
        if entry.square is None:
            continue
        bit = 1 << geo.cell(entry.x, entry.y)
        terrain, crowns = entry.square
        terrains[terrain] |= bit
        occupied |= bit
        if crowns & 1:
            crowns1 |= bit
        if crowns & 2:
            crowns2 |= bit
    xs = [entry.x for entry in filled]
    ys = [entry.y for entry in filled]
    return Kingdom(
        tuple(terrains), crowns1, crowns2, occupied, min(xs), max(xs), min(ys), max(ys), (), ()
    )


def kingdom_to_notation(geo: Geometry, kingdom: Kingdom) -> str:
    """The notation of `kingdom`, its bounding box only, cells padded to line up."""
    rows = []
    for y in range(kingdom.min_y, kingdom.max_y + 1):
        row = []
        for x in range(kingdom.min_x, kingdom.max_x + 1):
            row.append(f"{square_at(geo, kingdom, x, y):<2}")
        rows.append(" ".join(row).rstrip())
    return "\n".join(rows) + "\n"


def square_at(geo: Geometry, kingdom: Kingdom, x: int, y: int) -> str:
    """The notation of one cell: `C`, `.`, or a terrain letter with its crowns."""
    if x == 0 and y == 0:
        return CASTLE
    found = square(kingdom, geo.cell(x, y))
    if found is None:
        return EMPTY
    terrain, crowns = found
    return TERRAIN_LETTERS[terrain] + (str(crowns) if crowns else "")
