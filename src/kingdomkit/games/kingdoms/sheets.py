"""Kingdoms' epoch score sheets: every row and column of a scored epoch, each castle's value
and the gold it earned, each player's total (rulebook "Scoring").

The sheet is worked out again from the epoch's last board and the order its spaces filled, with
the scoring code the rules use (board.py), so it says what the purses gained: with
score_as_you_go a line is scored on the board as it stood when the line filled (a wizard placed
later does not raise the ranks of a line already paid).
"""

from __future__ import annotations

from typing import NamedTuple

from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.state import Scored


class CastleScore(NamedTuple):
    space: int
    player: int
    rank: int  # as printed
    strength: int  # the rank with the wizards next to it
    gold: int  # the part's value x strength


class PartScore(NamedTuple):
    """A stretch of a line between mountains, as scored."""

    spaces: tuple[int, ...]
    value: int  # after the dragon and the gold mine
    dragon: bool
    gold_mine: bool
    castles: tuple[CastleScore, ...]


class LineScore(NamedTuple):
    name: str  # "row 1" .. "column 6"
    parts: tuple[PartScore, ...]
    gold: tuple[int, ...]  # what each player gained (or paid) from the line


class Sheet(NamedTuple):
    lines: tuple[LineScore, ...]  # the 5 rows, then the 6 columns
    gold: tuple[int, ...]  # each player's total for the epoch


def line_score(board: bd.Board, line: int, players: int) -> LineScore:
    spaces = bd.LINES[line]
    parts = []
    for part in bd.line_parts(board, spaces, players):
        castles = []
        for space in part.spaces:
            square = board[space]
            if bd.is_castle(square):
                strength = bd.rank_at(board, space)
                castles.append(
                    CastleScore(
                        space,
                        bd.castle_owner(square),
                        bd.castle_rank(square),
                        strength,
                        part.base * strength,
                    )
                )
        parts.append(PartScore(part.spaces, part.base, part.dragon, part.gold_mine, tuple(castles)))
    return LineScore(bd.LINE_NAMES[line], tuple(parts), bd.line_gold(board, spaces, players))


def board_when_full(scored: Scored, line: int) -> bd.Board:
    """The board as it stood when `line` filled (score_as_you_go), or the last board if it
    never did."""
    order = {space: n for n, space in enumerate(scored.placed)}
    spaces = bd.LINES[line]
    if any(space not in order for space in spaces):
        return scored.board
    moment = max(order[space] for space in spaces)
    return tuple(
        square if order.get(space, moment + 1) <= moment else bd.EMPTY
        for space, square in enumerate(scored.board)
    )


def epoch_sheet(scored: Scored, players: int, score_as_you_go: bool) -> Sheet:
    lines = tuple(
        line_score(
            board_when_full(scored, line) if score_as_you_go else scored.board, line, players
        )
        for line in range(len(bd.LINES))
    )
    gold = tuple(sum(line.gold[p] for line in lines) for p in range(players))
    return Sheet(lines, gold)
