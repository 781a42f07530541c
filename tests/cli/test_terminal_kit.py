"""The terminal toolkit's pieces: squares named like a chess board and refused off the board,
words, the legend that fits, the layout that falls back to a narrow stack, score pads and the
winners' line, and a game interface that refuses another game's states."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from kingdomkit.cli.terminal.kit import (
    Screen,
    count,
    either,
    fitted,
    in_colour,
    log_panel,
    named_square,
    right,
    score_pad,
    show,
    signed,
    square_name,
    unreadable,
    winners_line,
)
from kingdomkit.core.protocol import IllegalActionError
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdomino.terminal import TerminalUI


def printed(*parts: object, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    for part in parts:
        console.print(part)
    return console.export_text()


def test_squares_are_named_and_read_back() -> None:
    assert square_name(0, 0) == "a1" and square_name(5, 4) == "f5"
    assert named_square("f", "5", 6, 5) == (5, 4)
    for column, row in (("g", "1"), ("a", "6"), ("a", "0"), ("a", "x")):
        with pytest.raises(IllegalActionError, match="columns a to f, rows 1 to 5"):
            named_square(column, row, 6, 5, word="space")
    with pytest.raises(IllegalActionError, match=r"^there is no space g1:"):
        named_square("g", "1", 6, 5, word="space")


def test_small_words() -> None:
    assert (count(1, "coin"), count(0, "coin"), count(3, "coin")) == (
        "1 coin",
        "0 coins",
        "3 coins",
    )
    assert (signed(12), signed(-3), signed(0)) == ("+12", "-3", "0")
    assert (either(["a"]), either(["a", "b"]), either(["a", "b", "c"])) == (
        "a", "a or b", "a, b or c"
    )  # fmt: skip
    refusal = unreadable("  " + "x" * 500, "type a move")
    assert str(refusal).startswith("cannot read 'xxx") and str(refusal).endswith(": type a move")
    assert "(500 characters)" in str(refusal)


def test_a_legend_keeps_what_fits_and_always_its_first_part() -> None:
    parts = [Text("wheat"), Text("forest"), Text("lake")]
    assert fitted(parts, 80).plain == "wheat forest lake"
    assert fitted(parts, 12).plain == "wheat forest"
    assert fitted(parts, 2).plain == "wheat"
    assert len(parts) == 3  # the caller's list is left whole


def test_a_screen_is_wide_when_its_row_fits_else_a_narrow_stack() -> None:
    screen = Screen(
        status="status",
        row=[Text("A" * 30), Text("B" * 30)],
        under=["under"],
        narrow=["narrow first", "narrow last"],
        headline="headline",
    )
    console = Console(width=80, record=True, file=io.StringIO())
    show(console, screen)
    wide = console.export_text()
    assert wide.splitlines()[1].startswith("A" * 30 + " " + "B" * 30)
    assert "under" in wide and "narrow" not in wide and wide.rstrip().endswith("headline")
    console = Console(width=61, record=True, file=io.StringIO())  # 30 + 1 + 30, none spare
    show(console, screen)
    narrow = console.export_text()
    assert "narrow first\nnarrow last\nheadline" in narrow and "under" not in narrow


def test_the_log_panel_shows_the_last_moves_or_a_dash() -> None:
    assert "—" in printed(log_panel([]))
    out = printed(log_panel(["ann claimed 3", "bob placed 4"]))
    assert "Recent moves" in out and out.index("ann claimed 3") < out.index("bob placed 4")


def test_a_score_pad_ends_with_its_total_and_the_winners_are_named() -> None:
    pad = score_pad(
        "ann", ["", right("points")], [[["wheat", "6"], ["lake", "4"]]], ["total", "10"]
    )
    assert [row.split() for row in printed(pad).splitlines() if "│" in row][-1] == [
        "│", "total", "│", "10", "│"
    ]  # fmt: skip
    named = [in_colour("ann", 0), in_colour("bob", 1)]
    line = winners_line("Winners, sharing the victory", named, ", 10 points")
    assert line.plain == "Winners, sharing the victory: ann and bob, 10 points"


def test_a_game_interface_refuses_another_games_state() -> None:
    kingdoms = make_game("kingdoms", {"players": 2})
    with pytest.raises(TypeError, match="expected a Kingdomino"):
        TerminalUI().prompt(kingdoms, kingdoms.initial_state())
