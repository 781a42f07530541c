"""Bitboard geometry of a kingdom, precomputed once per frame size.

A kingdom lives on a square of side `side = 2 * size - 1` centred on the castle, since the
castle may end up anywhere inside the `size` x `size` frame. Each row is stored in `width =
side + 1` bits: the last is a guard column that no square ever fills, so shifting a board one
step left or right never wraps a square into the next row and needs no mask. Cell (x, y),
relative to the castle (x to the right, y downward), is bit `(y + reach) * width + x + reach`.

    size 5: reach 4, side 9, width 10, 90 cells (81 real)
    size 7: reach 6, side 13, width 14, 182 cells (169 real)

    bit 0 .. 8     row y = -4 (x = -4 .. 4), bit 9 the guard
    bit 10 .. 18   row y = -3
    ...            bit 44 is the castle (0, 0)

Directions of square 2 seen from square 1: 0 right (+1), 1 down (+width), 2 left, 3 up.
"""

from __future__ import annotations

from functools import cache

Bitboard = int
Cell = int

RIGHT, DOWN, LEFT, UP = 0, 1, 2, 3
DIRECTION_NAMES = ("right", "down", "left", "up")


class Geometry:
    """Named tables for one frame size; built once and shared (see `geometry`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.reach = reach = size - 1
        self.side = side = 2 * reach + 1
        self.width = width = side + 1
        self.cells = cells = width * side
        self.xs = tuple(cell % width - reach for cell in range(cells))
        self.ys = tuple(cell // width - reach for cell in range(cells))
        # Every real cell (the guard column left out).
        self.full: Bitboard = sum(1 << c for c in range(cells) if self.xs[c] <= reach)
        self.castle: Cell = reach * width + reach
        self.castle_bit: Bitboard = 1 << self.castle
        self.deltas = (1, width, -1, -width)
        # column_span[(lo + reach) * width + hi + reach]: the cells with lo <= x <= hi.
        self.column_span: list[Bitboard] = [0] * (width * width)
        self.row_span: list[Bitboard] = [0] * (width * width)
        real = [cell for cell in range(cells) if self.xs[cell] <= reach]
        for lo in range(-reach, reach + 1):
            for hi in range(lo, reach + 1):
                columns = rows = 0
                for cell in real:
                    if lo <= self.xs[cell] <= hi:
                        columns |= 1 << cell
                    if lo <= self.ys[cell] <= hi:
                        rows |= 1 << cell
                self.column_span[(lo + reach) * width + hi + reach] = columns
                self.row_span[(lo + reach) * width + hi + reach] = rows

    def cell(self, x: int, y: int) -> Cell:
        """The cell of (x, y); raises ValueError outside the reachable square."""
        if not (-self.reach <= x <= self.reach and -self.reach <= y <= self.reach):
            raise ValueError(f"({x}, {y}) is more than {self.reach} squares from the castle")
        return (y + self.reach) * self.width + x + self.reach

    def xy(self, cell: Cell) -> tuple[int, int]:
        return self.xs[cell], self.ys[cell]

    def neighbours(self, board: Bitboard) -> Bitboard:
        """Cells orthogonally next to any cell of `board` (may include `board` itself)."""
        width = self.width
        return ((board << 1) | (board >> 1) | (board << width) | (board >> width)) & self.full

    def allowed(self, min_x: int, max_x: int, min_y: int, max_y: int) -> Bitboard:
        """Cells that keep a kingdom with this bounding box inside the size x size frame."""
        reach, width, span = self.reach, self.width, self.size - 1
        lo_x, hi_x = max_x - span, min_x + span
        lo_y, hi_y = max_y - span, min_y + span
        return (
            self.column_span[(lo_x + reach) * width + hi_x + reach]
            & self.row_span[(lo_y + reach) * width + hi_y + reach]
        )


@cache
def geometry(size: int) -> Geometry:
    if size not in (5, 7):
        raise ValueError(f"a kingdom is 5x5 or 7x7, not {size}x{size}")
    return Geometry(size)


def geometry_json(geo: Geometry) -> dict[str, int]:
    """The frame as clients need it to place a cell: x = cell % width - reach,
    y = cell // width - reach; kingdoms at most `size` squares wide."""
    return {"size": geo.size, "reach": geo.reach, "width": geo.width}
