"""The engine's Kingdomino bitboards read back with the layout its docstrings document, written
out again here (so a wrong table in geometry.py cannot hide behind itself): for the oracle
tests of Kingdomino and of Queendomino, whose kingdoms are the same."""

from __future__ import annotations

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.geometry import geometry
from oracle import XY, Square

# Square 2 seen from square 1, in the engine's direction order: right, down, left, up.
DIRECTION_STEPS: tuple[XY, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))


# -- the documented layout, written out independently -------------------------------------
# Only the sizes (reach, width, cells) come from geometry.py; the formulas are its docstring's.
# A bit in the guard column reads as x = reach + 1, which no oracle kingdom holds.
def cell_of(size: int, xy: XY) -> int:
    """Bit of (x, y): `(y + reach) * width + x + reach` (geometry.py docstring)."""
    geo = geometry(size)
    return (xy[1] + geo.reach) * geo.width + xy[0] + geo.reach


def xy_of(size: int, cell: int) -> XY:
    geo = geometry(size)
    y, x = divmod(cell, geo.width)
    return x - geo.reach, y - geo.reach


def cells_of(size: int, board: int) -> set[XY]:
    assert board >= 0
    assert board >> geometry(size).cells == 0, "a bit past the last cell"
    return {xy_of(size, cell) for cell in range(board.bit_length()) if board >> cell & 1}


def engine_squares(size: int, kingdom: kd.Kingdom) -> dict[XY, Square]:
    """The oracle's picture of an engine kingdom, read straight off its bitboards."""
    squares: dict[XY, Square] = {}
    for terrain, land in enumerate(kingdom.terrains):
        for xy in cells_of(size, land):
            assert xy not in squares, f"{xy} has two terrains"
            cell = cell_of(size, xy)
            squares[xy] = (
                terrain,
                (kingdom.crowns1 >> cell & 1) + 2 * (kingdom.crowns2 >> cell & 1),
            )
    return squares
