"""The text notation of a Kingdoms board, for people scoring real boards and for test
positions (docs/kingdoms-notation.md).

Five lines of six cells, separated by spaces, top row first:

    .        an empty space
    +3  -6   a resource or a hazard tile, by its signed value (+1 .. +6, -1 .. -6)
    MTN DRG  the mountain, the dragon,
    GLD WIZ  the gold mine, the wizard
    A4       a castle: the player's letter (A .. D, player 0 is A) and its printed rank (1 .. 4)

Blank lines and lines starting with `#` are ignored; letters may be lower case. Any board
that can be read is accepted: the notation does not count castles or tiles against the box
(scoring a board needs no more). The rulebook's Example of Scoring, as one board that agrees
with its text (examples/kingdoms-scoring-example.txt):

    +3 B1  A4 C1  -6  A1
    C3 GLD +4 +1  MTN WIZ
    +2 +4  B3 -5  -2  C1
    A2 DRG +1 MTN C1  +5
    A2 -3  -1 A1  +6  +2
"""

from __future__ import annotations

from kingdomkit.games.kingdomino.notation import NotationError
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.tiles import LABELS, RANKS, tile_type

EMPTY = "."
PLAYER_LETTERS = "ABCD"
HELP = "+1..+6, -1..-6, MTN, DRG, GLD, WIZ, a castle such as A4, or . for an empty space"

__all__ = ["NotationError", "board_to_notation", "parse_board", "players_on", "square_token"]


def _whole(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _read_token(token: str, line: int, column: int) -> int:
    """The square a token writes (board.py's encoding)."""
    word = token.upper()
    if word == EMPTY:
        return bd.EMPTY
    kind = tile_type(word)
    if kind is not None:
        return kind.index
    if word[:1] in "+-" and _whole(word[1:]):
        raise NotationError(line, column, f"{token!r}: tiles are worth +1 to +6 or -1 to -6")
    if _whole(word):
        raise NotationError(line, column, f"{token!r}: write a tile's sign, as in +{word}")
    if len(word) > 1 and word[0].isalpha() and _whole(word[1:]):
        if word[0] not in PLAYER_LETTERS:
            raise NotationError(
                line, column, f"{token!r}: castles belong to players A to D, not {token[0]!r}"
            )
        rank = int(word[1:])
        if not 1 <= rank <= RANKS:
            raise NotationError(line, column + 1, f"{token!r}: a castle's rank is 1 to {RANKS}")
        return bd.castle(PLAYER_LETTERS.index(word[0]), rank)
    raise NotationError(line, column, f"unknown cell {token!r} ({HELP})")


def _tokens(raw: str) -> list[tuple[int, str]]:
    """The tokens of a line with the column each starts at (from 1)."""
    found = []
    position = 0
    for token in raw.split():
        position = raw.index(token, position)
        found.append((position + 1, token))
        position += len(token)
    return found


def parse_board(text: str) -> bd.Board:
    """The board that `text` writes; raises NotationError naming the line and column."""
    squares: list[int] = []
    rows = 0
    last = 1  # the line of the last row read, where a missing row is reported
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        tokens = _tokens(raw)
        if rows == bd.ROWS:
            raise NotationError(number, tokens[0][0], f"the board has {bd.ROWS} rows, not more")
        squares.extend(_read_token(token, number, at) for at, token in tokens[: bd.COLUMNS])
        if len(tokens) != bd.COLUMNS:
            # Too many: point at the first cell too many; too few: at the end of the line.
            at = tokens[bd.COLUMNS][0] if len(tokens) > bd.COLUMNS else len(raw.rstrip()) + 1
            count = f"a row has {bd.COLUMNS} cells, this one has {len(tokens)}"
            raise NotationError(number, at, count)
        rows += 1
        last = number
    if rows < bd.ROWS:
        where = "the text is empty" if not rows else f"the text ends after {rows}"
        raise NotationError(last, 1, f"the board has {bd.ROWS} rows of {bd.COLUMNS}; {where}")
    return tuple(squares)


def square_token(square: int) -> str:
    """One square's notation: `.`, `+3`, `MTN`, `A4`."""
    if square == bd.EMPTY:
        return EMPTY
    if bd.is_castle(square):
        return f"{PLAYER_LETTERS[bd.castle_owner(square)]}{bd.castle_rank(square)}"
    return LABELS[square]


def board_to_notation(board: bd.Board) -> str:
    """The notation of `board`: five lines, columns lined up, no newline at the end."""
    grid = [
        [square_token(board[bd.space(row, column)]) for column in range(bd.COLUMNS)]
        for row in range(bd.ROWS)
    ]
    widths = [max(len(row[column]) for row in grid) for column in range(bd.COLUMNS)]
    return "\n".join(
        " ".join(token.ljust(width) for token, width in zip(row, widths, strict=True)).rstrip()
        for row in grid
    )


def players_on(board: bd.Board) -> int:
    """How many players a board is scored for: up to the highest letter on it, at least 2."""
    owners = [bd.castle_owner(square) for square in board if bd.is_castle(square)]
    return max([2, *(owner + 1 for owner in owners)])
