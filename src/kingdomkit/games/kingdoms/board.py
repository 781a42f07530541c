"""The Kingdoms board (5 rows of 6 spaces) and its scoring (rulebook "Scoring").

A space is `row * 6 + column` (0-based; people and records count from 1). A square of the
board holds one int:

    EMPTY (-1)          nothing
    0 .. 15             a tile, by its type (tiles.py)
    16 + 4 * p + r - 1  a castle of player p with printed rank r (1 .. 4)

Scoring, per line (the 5 rows top to bottom, then the 6 columns left to right): mountains cut
the line into parts scored apart. A part's base value is the sum of its resources and hazards;
a dragon in the part cancels its resources; a gold mine doubles the rest. Each player gains
base x the sum of their castles' ranks in the part; a castle's rank is its printed rank plus one
per wizard orthogonally next to it on the board (in any direction, whatever the mountains).
Empty spaces count 0.
"""

from __future__ import annotations

from typing import NamedTuple

from kingdomkit.games.kingdoms.tiles import DRG, GLD, HAZARD, MTN, RESOURCE, TYPES, WIZ

ROWS, COLUMNS = 5, 6
SPACES = ROWS * COLUMNS
EMPTY = -1
CASTLE = 16
TILE_VALUES = tuple(t.value if t.kind in (RESOURCE, HAZARD) else 0 for t in TYPES)
IS_RESOURCE = tuple(t.kind == RESOURCE for t in TYPES)
Board = tuple[int, ...]


def castle(player: int, rank: int) -> int:
    return CASTLE + 4 * player + rank - 1


def castle_owner(square: int) -> int:
    return (square - CASTLE) // 4


def castle_rank(square: int) -> int:
    return (square - CASTLE) % 4 + 1


def is_castle(square: int) -> bool:
    return square >= CASTLE


def is_tile(square: int) -> bool:
    return 0 <= square < CASTLE


def space(row: int, column: int) -> int:
    return row * COLUMNS + column


def space_name(index: int) -> str:
    """`row 2, column 5` (1-based, as the rulebook counts)."""
    row, column = divmod(index, COLUMNS)
    return f"row {row + 1}, column {column + 1}"


def _neighbours(index: int) -> tuple[int, ...]:
    row, column = divmod(index, COLUMNS)
    found = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, column + dc
        if 0 <= r < ROWS and 0 <= c < COLUMNS:
            found.append(space(r, c))
    return tuple(found)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(SPACES))
ROW_LINES = tuple(tuple(space(r, c) for c in range(COLUMNS)) for r in range(ROWS))
COLUMN_LINES = tuple(tuple(space(r, c) for r in range(ROWS)) for c in range(COLUMNS))
LINES: tuple[tuple[int, ...], ...] = ROW_LINES + COLUMN_LINES  # the scoring order
LINE_NAMES = tuple(f"row {r + 1}" for r in range(ROWS)) + tuple(
    f"column {c + 1}" for c in range(COLUMNS)
)


class Part(NamedTuple):
    """One part of a line between mountains, as scored."""

    spaces: tuple[int, ...]
    base: int  # after the dragon and the gold mine
    ranks: tuple[int, ...]  # each player's total rank in the part
    dragon: bool
    gold_mine: bool


def rank_at(board: Board, index: int) -> int:
    """The rank of the castle on `index`: printed, plus one per wizard next to it."""
    return castle_rank(board[index]) + sum(1 for n in NEIGHBOURS[index] if board[n] == WIZ)


def line_parts(board: Board, line: tuple[int, ...], players: int) -> list[Part]:
    parts = []
    start = 0
    for i in range(len(line) + 1):
        if i == len(line) or board[line[i]] == MTN:
            if i > start:
                parts.append(_part(board, line[start:i], players))
            start = i + 1
    return parts


def _part(board: Board, spaces: tuple[int, ...], players: int) -> Part:
    squares = [board[s] for s in spaces]
    dragon = DRG in squares
    gold_mine = GLD in squares
    base = 0
    ranks = [0] * players
    for index, square in zip(spaces, squares, strict=True):
        if square >= CASTLE:
            ranks[castle_owner(square)] += rank_at(board, index)
        elif square >= 0 and not (dragon and IS_RESOURCE[square]):
            base += TILE_VALUES[square]
    if gold_mine:
        base *= 2
    return Part(spaces, base, tuple(ranks), dragon, gold_mine)


def line_gold(board: Board, line: tuple[int, ...], players: int) -> tuple[int, ...]:
    """What each player gains (or pays) from one line."""
    gold = [0] * players
    for part in line_parts(board, line, players):
        if part.base:
            for player, rank in enumerate(part.ranks):
                gold[player] += part.base * rank
    return tuple(gold)


def expected_line_gold(
    board: Board, line: tuple[int, ...], players: int, resource: float, hazard: float
) -> list[float]:
    """`line_gold` with every empty space worth what a tile still to come is on average:
    `resource` + `hazard` (the means over the unseen tiles of the resources' values and of the
    hazards'), or `hazard` alone in a part with a dragon. Mountains, wizards and dragons still
    to come are not foreseen."""
    gold = [0.0] * players
    for part in line_parts(board, line, players):
        if not any(part.ranks):
            continue
        empty = sum(1 for s in part.spaces if board[s] == EMPTY)
        expected = empty * (hazard if part.dragon else resource + hazard)
        base = part.base + (2 * expected if part.gold_mine else expected)
        for player, rank in enumerate(part.ranks):
            gold[player] += base * rank
    return gold


def line_full(board: Board, line: tuple[int, ...]) -> bool:
    return all(board[s] != EMPTY for s in line)
