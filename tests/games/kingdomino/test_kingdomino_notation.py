"""The kingdom text notation: round trips, and errors that name the line and column."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import TERRAINS
from kingdomkit.games.kingdomino.geometry import geometry
from kingdomkit.games.kingdomino.notation import (
    NotationError,
    kingdom_to_notation,
    parse_kingdom,
)

XY = tuple[int, int]
Square = tuple[int, int]


def build(size: int, squares: dict[XY, Square]) -> kd.Kingdom:
    """The kingdom holding `squares` around the castle, made without the notation."""
    geo = geometry(size)
    terrains = [0] * len(TERRAINS)
    crowns1 = crowns2 = 0
    occupied = geo.castle_bit
    for xy, (terrain, crowns) in squares.items():
        bit = 1 << geo.cell(*xy)
        terrains[terrain] |= bit
        occupied |= bit
        crowns1 |= bit if crowns & 1 else 0
        crowns2 |= bit if crowns & 2 else 0
    xs = [0, *(x for x, _ in squares)]
    ys = [0, *(y for _, y in squares)]
    return kd.Kingdom(
        tuple(terrains), crowns1, crowns2, occupied, min(xs), max(xs), min(ys), max(ys), (), ()
    )


def parse(text: str, size: int = 5) -> kd.Kingdom:
    return parse_kingdom(text, geometry(size))


def error(text: str, size: int = 5) -> NotationError:
    with pytest.raises(NotationError) as caught:
        parse(text, size)
    return caught.value


# -- reading and writing ----------------------------------------------------------------------
EXAMPLE = """\
W  W  F  F1 .
L1 C  G  G  S2
"""


def test_the_docstring_example_reads_and_writes_back() -> None:
    kingdom = parse(EXAMPLE)
    wheat, forest, lake, grassland, swamp = range(5)
    assert kingdom == build(
        5,
        {
            (-1, -1): (wheat, 0),
            (0, -1): (wheat, 0),
            (1, -1): (forest, 0),
            (2, -1): (forest, 1),
            (-1, 0): (lake, 1),
            (1, 0): (grassland, 0),
            (2, 0): (grassland, 0),
            (3, 0): (swamp, 2),
        },
    )
    assert kingdom_to_notation(geometry(5), kingdom) == EXAMPLE


def test_empty_outer_rows_and_columns_are_trimmed() -> None:
    padded = ". . . .\n. C W .\n. . . .\n"
    assert parse(padded) == parse("C W")
    assert kingdom_to_notation(geometry(5), parse(padded)) == "C  W\n"


def test_a_gap_inside_stays() -> None:
    text = "C  .  M3\n"
    assert parse(text) == build(5, {(2, 0): (5, 3)})
    assert kingdom_to_notation(geometry(5), parse(text)) == text


def test_comments_and_blank_lines_are_ignored() -> None:
    text = """
    # a kingdom after two turns

    C  W
       # indented comment
    W  W1

    """
    assert parse(text) == parse("C W\nW W1")


def test_lower_case_is_accepted() -> None:
    assert parse("c g2 .\nm3 s l1") == parse("C G2 .\nM3 S L1")


def test_crowns_zero_may_be_written() -> None:
    assert parse("C G0") == parse("C G")


def test_seven_by_seven() -> None:
    text = "C  W  W  W  W  W  W1\n"
    kingdom = parse(text, size=7)
    assert (kingdom.min_x, kingdom.max_x) == (0, 6)
    assert kingdom_to_notation(geometry(7), kingdom) == text


@st.composite
def kingdoms(draw: st.DrawFn) -> tuple[int, dict[XY, Square]]:
    """Any kingdom that fits its frame: the castle anywhere, any squares or gaps."""
    size = draw(st.sampled_from((5, 7)))
    castle = (draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1)))
    square = st.one_of(st.none(), st.tuples(st.integers(0, 5), st.integers(0, 3)))
    grid = draw(st.lists(square, min_size=size * size, max_size=size * size))
    squares = {}
    for index, content in enumerate(grid):
        xy = (index % size - castle[0], index // size - castle[1])
        if content is not None and xy != (0, 0):
            squares[xy] = content
    return size, squares


def write(squares: dict[XY, Square], lower: bool, gap: str) -> str:
    """Our own writing of a kingdom, with a chosen case and spacing."""
    every = [(0, 0), *squares]
    rows = []
    for y in range(min(y for _, y in every), max(y for _, y in every) + 1):
        cells = []
        for x in range(min(x for x, _ in every), max(x for x, _ in every) + 1):
            if (x, y) == (0, 0):
                cells.append("C")
            elif (x, y) in squares:
                terrain, crowns = squares[(x, y)]
                cells.append("WFLGSM"[terrain] + (str(crowns) if crowns else ""))
            else:
                cells.append(".")
        rows.append(gap.join(cells))
    text = "\n".join(rows)
    return text.lower() if lower else text


@settings(max_examples=200, derandomize=True, deadline=None)
@given(kingdoms(), st.booleans(), st.sampled_from((" ", "  ", "\t", " \t ")))
def test_round_trips(kingdom: tuple[int, dict[XY, Square]], lower: bool, gap: str) -> None:
    size, squares = kingdom
    geo = geometry(size)
    parsed = parse(write(squares, lower, gap), size)
    assert parsed == build(size, squares)
    text = kingdom_to_notation(geo, parsed)
    assert parse(text, size) == parsed
    assert kingdom_to_notation(geo, parse(text, size)) == text


# -- errors -----------------------------------------------------------------------------------
def test_an_unknown_letter_is_named_with_its_place() -> None:
    found = error("C X")
    assert (found.line, found.column) == (1, 3)
    assert "'X'" in str(found) and str(found).startswith("line 1, column 3:")
    found = error("# comment\n\nC  W\nW  Q2")
    assert (found.line, found.column) == (4, 4)
    found = error("C C1")  # the castle carries no crowns
    assert (found.line, found.column) == (1, 3)


@pytest.mark.parametrize("token", ["G4", "G9", "G12", "G-1", "G1x", "Gx"])
def test_crowns_out_of_range_or_unreadable(token: str) -> None:
    found = error(f"C  W\nW  {token}")
    assert (found.line, found.column) == (2, 4)
    assert "0 to 3 crowns" in str(found)


@pytest.mark.parametrize("token", ["G\u00b2", "G\u0661", "G03"])
def test_crowns_other_than_ascii_0_to_3_are_a_notation_error(token: str) -> None:
    found = error(f"C {token}")
    assert (found.line, found.column) == (1, 3)
    assert "0 to 3 crowns" in str(found)


def test_a_ragged_row_is_named() -> None:
    found = error("C W W\nW W\n")
    assert (found.line, found.column) == (2, 1)
    assert "2 cells" in str(found) and "3" in str(found)


def test_no_castle() -> None:
    found = error("\n# none here\nW W\nW W")
    assert found.line == 3
    assert "castle" in str(found)


def test_two_castles_name_the_second() -> None:
    found = error("C W\nW C")
    assert (found.line, found.column) == (2, 3)


def test_too_wide_or_too_tall() -> None:
    six = "C W W W W W"
    found = error(six)
    assert (found.line, found.column) == (1, 11)  # the square farthest from the castle
    assert "6 squares wide" in str(found) and "5x5" in str(found)
    assert "mighty_duel" in str(found)
    assert parse(six, size=7).max_x == 5
    eight = "W W W W C W W W"
    found = error(eight, size=7)
    assert (found.line, found.column) == (1, 1)
    assert "8 squares wide" in str(found) and "7x7" in str(found)
    found = error("C\nW\nW\nW\nW\nW")
    assert (found.line, found.column) == (6, 1)
    assert "6 squares tall" in str(found)
    # Empty cells do not count towards the size.
    assert parse(". C W W W W .\n. . . . . . .") == parse("C W W W W")


@pytest.mark.parametrize("text", ["", "\n\n", "   \n", "# only a comment\n"])
def test_an_empty_text(text: str) -> None:
    found = error(text)
    assert (found.line, found.column) == (1, 1)
    assert "empty" in str(found)
