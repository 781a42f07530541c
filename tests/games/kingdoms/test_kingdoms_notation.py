"""The Kingdoms board notation: round trips over any board and over boards of played games,
and errors that name the line and column."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.notation import (
    NotationError,
    board_to_notation,
    parse_board,
    players_on,
)
from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState
from kingdomkit.games.kingdoms.tiles import LABELS, MTN, WIZ
from paths import EXAMPLES

# Every square a board can hold: empty, the 16 tile types, 4 players x 4 ranks of castles.
SQUARES = (bd.EMPTY, *range(bd.CASTLE + 16))
FULL = """
+3  B1 A4 C1 -6  A1
+4  .  -1 +1 MTN WIZ
DRG A2 +5 D3 C3  B2
.   .  .  .  .   .
MTN +6 -2 A3 .   +2
"""


def error(text: str) -> NotationError:
    with pytest.raises(NotationError) as caught:
        parse_board(text)
    return caught.value


def row(*tokens: str) -> str:
    return " ".join(tokens)


def board_with(*rows: str) -> str:
    """A board whose first rows are given and whose other rows are empty."""
    return "\n".join([*rows, *[row(*"." * bd.COLUMNS)] * (bd.ROWS - len(rows))])


# -- reading and writing ------------------------------------------------------------------------
def test_every_token_reads_as_the_engine_encodes_it() -> None:
    board = parse_board(FULL)
    at = {(r, c): board[bd.space(r - 1, c - 1)] for r in range(1, 6) for c in range(1, 7)}
    assert at[1, 1] == LABELS.index("+3") and at[1, 5] == LABELS.index("-6")
    assert at[1, 2] == bd.castle(1, 1) and at[1, 3] == bd.castle(0, 4)
    assert at[3, 4] == bd.castle(3, 3)  # D is player 3
    assert (at[2, 5], at[2, 6], at[3, 1], at[5, 1]) == (MTN, WIZ, LABELS.index("DRG"), MTN)
    assert at[2, 2] == at[4, 6] == bd.EMPTY
    assert board.count(bd.EMPTY) == 8 and len(board) == bd.SPACES


def test_writes_back_in_aligned_columns() -> None:
    board = parse_board(FULL)
    text = board_to_notation(board)
    assert text == FULL.strip("\n")
    assert not text.endswith("\n") and len(text.splitlines()) == bd.ROWS
    # Each column starts at the same place on every line.
    starts = {tuple(i for i, ch in enumerate(line) if ch != " " and (i == 0 or line[i - 1] == " "))
              for line in text.splitlines()}  # fmt: skip
    assert len(starts) == 1


def test_comments_blank_lines_case_and_spacing_are_free() -> None:
    text = "# epoch 1, the end\n\n" + FULL.lower().replace(" ", "\t  ") + "\n   # done\n"
    assert parse_board(text) == parse_board(FULL)


def test_the_board_need_not_be_possible_in_play() -> None:
    """Scoring reads any board: three wizards, a rank-4 castle twice, no castles at all."""
    text = board_with(row("WIZ", "WIZ", "WIZ", "A4", "A4", "MTN"), row("MTN", "MTN", *"...."))
    board = parse_board(text)
    assert board.count(WIZ) == 3 and board.count(MTN) == 3
    assert board.count(bd.castle(0, 4)) == 2
    assert parse_board(board_with()) == (bd.EMPTY,) * bd.SPACES


@pytest.mark.parametrize(
    ("letters", "players"), [("", 2), ("A", 2), ("AB", 2), ("C", 3), ("AD", 4), ("BCD", 4)]
)
def test_players_are_up_to_the_highest_letter(letters: str, players: int) -> None:
    tokens = [f"{letter}1" for letter in letters] + ["."] * (bd.COLUMNS - len(letters))
    assert players_on(parse_board(board_with(row(*tokens)))) == players


boards = st.lists(st.sampled_from(SQUARES), min_size=bd.SPACES, max_size=bd.SPACES)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(boards, st.booleans(), st.sampled_from((" ", "  ", "\t", " \t ")))
def test_round_trips(squares: list[int], lower: bool, gap: str) -> None:
    board = tuple(squares)
    text = board_to_notation(board)
    assert parse_board(text) == board
    assert board_to_notation(parse_board(text)) == text
    respaced = "\n".join(gap.join(line.split()) for line in text.splitlines())
    assert parse_board(respaced.lower() if lower else respaced) == board


def boards_of_played_games(options: dict[str, Any], seed: int) -> list[bd.Board]:
    """The boards of a game between random bots: each just before the placement that ends
    its epoch, and the final board."""
    game = make_game("kingdoms", options)
    assert isinstance(game, Kingdoms)
    found = []

    def on_step(before: KingdomsState, action: int, after: KingdomsState) -> None:
        if after.epoch != before.epoch or game.is_terminal(after):
            found.append(before.board)

    final = play(game, [make_bot("random")] * game.num_players, seed, on_step).final_state
    return [*found, final.board]


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3},
        {"players": 4, "no_luck": True},
        {"players": 4, "down_to_the_last_castle": True, "score_as_you_go": True},
    ],
    ids=str,
)
def test_boards_of_played_games_round_trip(options: dict[str, Any]) -> None:
    rng = random.Random(str(options))
    for _ in range(3):
        for board in boards_of_played_games(options, rng.randrange(10**6)):
            text = board_to_notation(board)
            assert parse_board(text) == board
            assert players_on(board) <= options["players"]


# -- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cell", "column", "why"),
    [
        ("X", 16, "unknown cell 'X'"),
        ("MNT", 16, "unknown cell 'MNT'"),
        ("+7", 16, "'+7': tiles are worth +1 to +6 or -1 to -6"),
        ("-0", 16, "tiles are worth +1 to +6"),
        ("3", 16, "'3': write a tile's sign, as in +3"),
        ("E2", 16, "'E2': castles belong to players A to D, not 'E'"),
        ("A5", 17, "'A5': a castle's rank is 1 to 4"),
        ("b0", 17, "'b0': a castle's rank is 1 to 4"),
        ("A\u00b2", 16, "unknown cell"),  # only ASCII digits are ranks
        ("AB", 16, "unknown cell 'AB'"),
    ],
)
def test_an_unreadable_cell_is_named_with_its_place(cell: str, column: int, why: str) -> None:
    text = "# a comment\n\n" + board_with(row(*"......"), f"+3 B1 A4 C1 -6 {cell}")
    found = error(text)
    assert (found.line, found.column) == (4, column)
    assert str(found).startswith(f"line 4, column {column}: ") and why in str(found)


def test_a_row_with_too_many_cells_points_at_the_first_extra_one() -> None:
    found = error(board_with("+3  B1 A4 C1 -6 A1  WIZ"))
    assert (found.line, found.column) == (1, 21)
    assert "a row has 6 cells, this one has 7" in str(found)


def test_a_row_with_too_few_cells_points_at_its_end() -> None:
    found = error(board_with(row(*"......"), "+3 B1 A4 C1 -6   "))
    assert (found.line, found.column) == (2, 15)
    assert "a row has 6 cells, this one has 5" in str(found)


def test_a_bad_cell_is_reported_before_a_short_row() -> None:
    found = error(board_with("+3 B1 ZAP"))
    assert (found.line, found.column) == (1, 7) and "unknown cell 'ZAP'" in str(found)


def test_a_sixth_row_is_named() -> None:
    found = error(board_with() + "\n# one more\n  +3 . . . . .\n")
    assert (found.line, found.column) == (7, 3)
    assert "the board has 5 rows, not more" in str(found)


def test_missing_rows_are_named_after_the_last_row() -> None:
    found = error("\n".join(board_with().splitlines()[:4]) + "\n\n# that's all\n")
    assert (found.line, found.column) == (4, 1)
    assert "the board has 5 rows of 6; the text ends after 4" in str(found)


@pytest.mark.parametrize("text", ["", "\n\n", "   \n", "# only a comment\n"])
def test_an_empty_text(text: str) -> None:
    found = error(text)
    assert (found.line, found.column) == (1, 1)
    assert "the text is empty" in str(found)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("kingdoms-*.txt")), ids=lambda p: p.name)
def test_the_example_boards_are_written_as_kingdomkit_writes_them(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert board_to_notation(parse_board(text)) == "\n".join(rows)
