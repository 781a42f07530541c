"""The Queendomino realm notation: round trips over played games and over any grid, the
rulebook's Scoring Example, and errors that name the line and column."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.geometry import geometry
from kingdomkit.games.queendomino import scoring
from kingdomkit.games.queendomino.buildings import shipped_buildings
from kingdomkit.games.queendomino.dominoes import TOWN
from kingdomkit.games.queendomino.notation import NotationError, parse_realm, realm_to_notation
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.state import Realm
from paths import DOCS, EXAMPLES

TABLE = shipped_buildings()
TILES = {building.tile: building.index for building in TABLE.buildings}

# The rulebook's Scoring Example, without the file's comment lines.
SCORING_EXAMPLE = "".join(
    line
    for line in (EXAMPLES / "queendomino-scoring-example.txt")
    .read_text(encoding="utf-8")
    .splitlines(keepends=True)
    if not line.startswith("#")
)


def parse(text: str, size: int = 5) -> tuple[Realm, bool]:
    return parse_realm(text, geometry(size), TABLE)


def error(text: str, size: int = 5) -> NotationError:
    with pytest.raises(NotationError) as caught:
        parse(text, size)
    return caught.value


def canonical(realm: Realm) -> Realm:
    """What the notation keeps of a realm: not the order of play (placed, discarded, the
    order of the buildings)."""
    kingdom = realm.kingdom._replace(placed=(), discarded=())
    buildings = tuple(sorted(realm.buildings, key=lambda built: built[1]))
    return realm._replace(kingdom=kingdom, buildings=buildings)


def canonical_pad(pad: scoring.Breakdown) -> scoring.Breakdown:
    return pad._replace(buildings=tuple(sorted(pad.buildings, key=lambda b: b[0].index)))


# -- reading and writing ----------------------------------------------------------------------
def test_the_scoring_example_reads_and_writes_back() -> None:
    geo = geometry(5)
    realm, hosts_queen = parse(SCORING_EXAMPLE)
    assert hosts_queen is True
    assert (realm.coins, realm.guard, realm.towers, realm.knights_owned) == (11, 1, 3, 4)
    built = {TABLE[index].tile: geo.xy(cell) for index, cell in realm.buildings}
    assert built == {
        "B03": (1, -1),
        "B13": (2, -1),
        "B17": (0, 1),
        "B21": (2, 1),
        "B23": (-2, 2),
        "B27": (0, 2),
    }
    knights = {geo.xy(cell) for cell in range(geo.cells) if realm.knights >> cell & 1}
    assert knights == {(2, -1), (-2, 0), (1, 1)}
    assert realm.sites == sum(1 << cell for _, cell in realm.buildings)
    assert realm.kingdom.terrains[TOWN] & realm.sites == realm.sites
    assert realm_to_notation(geo, TABLE, realm, hosts_queen) == SCORING_EXAMPLE
    assert (
        (EXAMPLES / "queendomino-scoring-example.txt")
        .read_text(encoding="utf-8")
        .endswith(SCORING_EXAMPLE)
    )


def test_the_docstring_and_the_docs_show_the_scoring_example() -> None:
    from kingdomkit.games.queendomino import notation

    indented = "".join("    " + line + "\n" for line in SCORING_EXAMPLE.splitlines())
    assert notation.__doc__ is not None and indented in notation.__doc__
    docs = DOCS / "queendomino-notation.md"
    assert SCORING_EXAMPLE in docs.read_text(encoding="utf-8")


def test_fields_may_come_first_in_any_case_with_comments() -> None:
    text = """
    # fields first, lower case, odd spacing
    Queen : YES
    towers:3
    coins:   11
    guard: 1

    w1 w w f1 f
    l2 l l t:b03 t:b13*
    g1* g1 c s1 f1
    g1 g t:b17 m2* t:b21
    t:b23 f t:b27 m1 m1
    """
    assert parse(text) == parse(SCORING_EXAMPLE)


def test_fields_left_out_are_zero_and_no_queen() -> None:
    realm, hosts_queen = parse("C  G1")
    assert (realm.coins, realm.guard, realm.towers, hosts_queen) == (0, 0, 0, False)
    assert realm.buildings == () and realm.knights == 0


def test_building_crowns_come_from_the_table() -> None:
    geo = geometry(5)
    # B30, the Queen's Tower, has one crown: the town territory of 2 squares scores 2.
    realm, _ = parse("C  T:B30 T")
    assert kd.square(realm.kingdom, geo.cell(1, 0)) == (TOWN, 1)
    assert kd.square(realm.kingdom, geo.cell(2, 0)) == (TOWN, 0)
    assert scoring.breakdown(geo, TABLE, realm, False).terrain_points[TOWN] == 2


def test_a_knight_may_share_a_town_square_with_a_building() -> None:
    geo = geometry(5)
    realm, _ = parse("C  T:B30*  T*")
    assert realm.knights == (1 << geo.cell(1, 0)) | (1 << geo.cell(2, 0))
    assert realm.sites == 1 << geo.cell(1, 0)


def test_fewer_towers_than_the_buildings_show_are_fine() -> None:
    # The supply may run out: B21 shows 2 towers, the realm got 1.
    assert parse("C  T:B21\ntowers: 1")[0].towers == 1
    # An unverified tile may have brought towers the table does not know of.
    assert parse("C  T:B27\ntowers: 2")[0].towers == 2


def test_seven_by_seven() -> None:
    text = "C  W  W  W  W  W  T:B01*\ncoins: 0\nguard: 0\ntowers: 0\nqueen: no\n"
    realm, _ = parse(text, size=7)
    assert (realm.kingdom.min_x, realm.kingdom.max_x) == (0, 6)
    assert realm_to_notation(geometry(7), TABLE, realm, False) == text


GAMES: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5, "royal_wedding": True},
    {"players": 6, "royal_wedding": True, "teams": True},
]


@pytest.mark.parametrize("options", GAMES, ids=str)
def test_played_realms_round_trip_and_score_the_same(options: dict[str, Any]) -> None:
    game = make_game("queendomino", options)
    assert isinstance(game, Queendomino)
    geo = game.geo
    seen: set[str] = set()
    for seed in range(4):
        state = play(game, [make_bot("random")] * game.num_players, seed).final_state
        for r, realm in enumerate(state.realms):
            seen.update(
                name
                for name, present in (
                    ("buildings", realm.buildings),
                    ("knights", realm.knights),
                    ("towers", realm.towers),
                    ("queen", state.queen == r),
                )
                if present
            )
            text = realm_to_notation(geo, game.table, realm, state.queen == r)
            parsed, hosts_queen = parse_realm(text, geo, game.table)
            assert parsed == canonical(realm)
            assert hosts_queen == (state.queen == r)
            assert realm_to_notation(geo, game.table, parsed, hosts_queen) == text
            pad = scoring.breakdown(geo, game.table, parsed, hosts_queen)
            assert canonical_pad(pad) == canonical_pad(game.breakdown(state, r))
    assert seen == {"buildings", "knights", "towers", "queen"}


def test_the_plain_text_picture_writes_each_realm_in_the_notation() -> None:
    game = make_game("queendomino", {"players": 2})
    assert isinstance(game, Queendomino)
    state = play(game, [make_bot("random")] * 2, 7).final_state
    picture = game.render(state)
    for r, realm in enumerate(state.realms):
        text = realm_to_notation(game.geo, game.table, realm, state.queen == r)
        assert "".join("  " + row + "\n" for row in text.splitlines()) in picture + "\n"


CELLS = st.tuples(st.sampled_from(("", "W", "F1", "L3", "G", "S2", "M1", "T", "T:")), st.booleans())


@st.composite
def realms(draw: st.DrawFn) -> tuple[int, list[list[str]], dict[str, Any]]:
    """Any grid of tokens that fits its frame, with buildings and knights, and its fields."""
    size = draw(st.sampled_from((5, 7)))
    castle = draw(st.integers(0, size * size - 1))
    tiles = draw(st.permutations(list(TILES)))
    cells = draw(st.lists(CELLS, min_size=size * size, max_size=size * size))
    tokens = []
    knights = 0
    for index, (square, knight) in enumerate(cells):
        if index == castle or not square:
            tokens.append("C" if index == castle else ".")
            continue
        token = square + tiles.pop() if square == "T:" and tiles else square.rstrip(":")
        # At most 20 knights in the kingdom: the guard below holds up to 2 more.
        if knight and knights < 20:
            knights += 1
            token += "*"
        tokens.append(token)
    grid = [tokens[y * size : (y + 1) * size] for y in range(size)]
    fields = {"coins": draw(st.integers(0, 99)), "guard": draw(st.integers(0, 2))}
    return size, grid, fields


@settings(max_examples=100, derandomize=True, deadline=None)
@given(realms(), st.sampled_from((" ", "  ", "\t")))
def test_any_grid_round_trips(realm: tuple[int, list[list[str]], dict[str, Any]], gap: str) -> None:
    size, grid, fields = realm
    geo = geometry(size)
    tiles = [token.split(":")[1].rstrip("*") for row in grid for token in row if ":" in token]
    towers = sum(TABLE[TILES[tile]].towers for tile in tiles)
    lines = [gap.join(row) for row in grid]
    lines += [f"{name}: {value}" for name, value in fields.items()] + [f"towers: {towers}"]
    parsed, hosts_queen = parse_realm("\n".join(lines), geo, TABLE)
    assert hosts_queen is False and parsed.towers == towers
    assert sorted(TABLE[index].tile for index, _ in parsed.buildings) == sorted(tiles)
    stars = sum(token.endswith("*") for row in grid for token in row)
    assert parsed.knights.bit_count() == stars
    assert parsed.kingdom.occupied.bit_count() == sum(t != "." for row in grid for t in row)
    text = realm_to_notation(geo, TABLE, parsed, hosts_queen)
    assert parse_realm(text, geo, TABLE) == (parsed, hosts_queen)
    assert realm_to_notation(geo, TABLE, parsed, hosts_queen) == text


# -- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "line", "column", "why"),
    [
        ("C X", 1, 3, "unknown cell 'X'"),
        ("# comment\n\nC  W\nW  Q2", 4, 4, "unknown cell 'Q2'"),
        ("C  W4", 1, 4, "0 to 3 crowns"),
        ("C  G\u00b2", 1, 4, "0 to 3 crowns"),
        ("C  T1", 1, 4, "a town square has no crowns"),
        ("C  W:B01", 1, 4, "a building stands on a town square"),
        ("C  T:B99", 1, 6, "no building 'B99' in the building table (shipped)"),
        ("C  T:", 1, 6, "no building ''"),
        ("C  T:B01 T:B01", 1, 10, "B01 is already built on line 1, column 4"),
        ("C  G**", 1, 4, "one knight at most"),
        ("C*  W", 1, 1, "the castle holds no knight"),
        ("C:B01  W", 1, 1, "the castle holds no building"),
        (".*  C", 1, 1, "an empty cell holds no knight"),
        ("C  W  W\nW  W", 2, 1, "this row has 2 cells, the first row has 3"),
        ("coins: 3\nW  W", 2, 1, "no castle"),
        ("C  W\nW  C", 2, 4, "one castle, not two"),
        ("C  W  W  W  W  W", 1, 16, "6 squares wide; it must fit in 5x5"),
        ("C\nW\nW\nW\nW\nW", 6, 1, "6 squares tall"),
        ("coins: 3\n# nothing else", 1, 1, "no kingdom"),
        ("", 1, 1, "no kingdom"),
        ("C  W\ncoins: eleven", 2, 8, "coins: write a whole number, not 'eleven'"),
        ("C  W\ncoins: -1", 2, 8, "whole number"),
        ("C  W\ncoins: \u0661", 2, 8, "whole number"),
        ("C  W\ncoins: 1\n  coins: 2", 3, 3, "coins is written twice (first on line 2)"),
        ("C  W\ncolour: red", 2, 1, "unknown field 'colour' (the fields are coins, guard"),
        ("C  W\nqueen: maybe", 2, 8, "queen: write yes or no"),
        ("C  W\ntowers: 16", 2, 9, "the game has 15 towers"),
        ("C  W\nguard: 23", 2, 8, "the game has 22 knights"),
        ("C  W*\nguard: 22", 2, 8, "the realm owns 23 knights; the game has 22"),
        ("C  T  T:B21", 1, 7, "B21 brings towers: write how many the realm has (towers: N)"),
        ("C  T:B21\ntowers: 3", 2, 9, "3 towers, but the buildings bring 2 at most (B21 2)"),
        ("C  W\ntowers: 1", 2, 9, "1 towers, but the buildings bring 0 at most (none)"),
        ("C  W\nqueen: yes", 2, 8, "the Queen goes only to a realm with towers"),
    ],
)
def test_errors_name_the_line_and_column(text: str, line: int, column: int, why: str) -> None:
    found = error(text)
    assert (found.line, found.column) == (line, column)
    assert str(found).startswith(f"line {line}, column {column}: ")
    assert why in str(found)


def test_too_many_knights_in_the_kingdom_names_the_last() -> None:
    rows = ["C  " + "  ".join(["W*"] * 6)] + ["  ".join(["W*"] * 7)] * 3
    found = error("\n".join(rows), size=7)
    assert (found.line, found.column) == (4, 25)
    assert "the realm owns 27 knights; the game has 22" in str(found)


def test_a_seven_by_seven_kingdom_in_a_five_by_five_frame() -> None:
    eight = "W  W  W  W  C  W  W  W"
    found = error(eight, size=7)
    assert (found.line, found.column) == (1, 1)
    assert "8 squares wide" in str(found) and "7x7" in str(found)
    # Empty cells do not count.
    assert parse(". C W W W W .\n. . . . . . .") == parse("C W W W W")
