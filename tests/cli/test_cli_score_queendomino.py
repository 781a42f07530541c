"""`kingdomkit score queendomino`: the score pad of a realm written in the notation.

Totals are checked against the rulebook's Scoring Example, hand counts, the game's own scores
of played realms, and a plain scorer written here over the text itself (breadth-first search
from tests/support/oracle.py), never the engine's bitboards.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from test_cli_score import KINGDOM_5X5, run, score_json

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.registry import make_game
from kingdomkit.games.queendomino.buildings import BuildingTable, shipped_buildings
from kingdomkit.games.queendomino.dominoes import TERRAIN_LETTERS, TERRAINS
from kingdomkit.games.queendomino.notation import realm_to_notation
from kingdomkit.games.queendomino.report import score_text
from kingdomkit.games.queendomino.rules import Queendomino
from oracle import XY, Square, territories
from paths import EXAMPLES, ROOT

SCORING_EXAMPLE = EXAMPLES / "queendomino-scoring-example.txt"
REALM_7X7 = EXAMPLES / "queendomino-7x7.txt"
SHIPPED_CSV = ROOT / "src/kingdomkit/games/queendomino/data/queendomino_buildings.csv"


def oracle_pad(text: str, table: BuildingTable) -> dict[str, Any]:
    """The score pad by breadth-first search over the text: wealth, points per terrain, the
    Queen, each building's points, the total and the largest territory."""
    tiles = {building.tile: building for building in table.buildings}
    squares: dict[XY, Square] = {}
    fields: dict[str, str] = {}
    rows = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, colon, value = line.partition(":")
        if colon and name.strip().isalpha() and len(name.strip()) > 1:
            fields[name.strip()] = value.strip()
        else:
            rows.append(line.split())
    castle = next((x, y) for y, row in enumerate(rows) for x, t in enumerate(row) if t == "C")
    built = []
    stars = 0
    for y, row in enumerate(rows):
        for x, token in enumerate(row):
            stars += token.endswith("*")
            letter, _, tile = token.rstrip("*").partition(":")
            if letter in (".", "C"):
                continue
            xy = (x - castle[0], y - castle[1])
            terrain = TERRAIN_LETTERS.index(letter[0])
            squares[xy] = (terrain, tiles[tile].crowns if tile else int(letter[1:] or 0))
            if tile:
                built.append(tiles[tile])
    found = territories(squares)
    points = [0] * len(TERRAINS)
    for terrain, region, crowns in found:
        points[terrain] += len(region) * crowns
    largest = max((len(region) for _, region, _ in found), default=0)
    towers, knights = int(fields.get("towers", 0)), stars + int(fields.get("guard", 0))
    buildings = {}
    for building in built:
        separate = sum(t == building.endgame_terrain for t, _, _ in found)
        times = {"fixed": 1, "per_tower": towers, "per_knight": knights}
        times |= {"per_separate_territory": separate, "none": 0}
        buildings[building.tile] = building.endgame_points * times[building.endgame]
    queen = largest if fields.get("queen") == "yes" else 0
    wealth = int(fields.get("coins", 0)) // 3
    return {
        "wealth": wealth,
        "terrain_points": dict(zip(TERRAINS, points, strict=True)),
        "queen": queen,
        "buildings": buildings,
        "total": wealth + sum(points) + queen + sum(buildings.values()),
        "largest_territory": largest,
    }


def as_oracle(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON of `kingdomkit score` in the oracle's shape."""
    keys = ("wealth", "terrain_points", "queen", "total", "largest_territory")
    return {key: data[key] for key in keys} | {
        "buildings": {b["building"]: b["points"] for b in data["buildings"]}
    }


def written(tmp_path: Path, text: str, name: str = "realm.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def corrected_table(tmp_path: Path, change: dict[str, dict[str, str]]) -> str:
    """The shipped table with some cells changed ({tile: {column: value}}), as a file."""
    lines = SHIPPED_CSV.read_text(encoding="utf-8").splitlines()
    columns = lines[0].split(",")
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        for column, value in change.get(cells[0], {}).items():
            cells[columns.index(column)] = value
        out.append(",".join(cells))
    return written(tmp_path, "\n".join(out) + "\n", "buildings.csv")


# -- the rulebook's Scoring Example ---------------------------------------------------------
def test_the_scoring_example_scores_71_as_the_rulebook_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = score_json(capsys, "queendomino", str(SCORING_EXAMPLE))
    assert data["total"] == 71
    assert data["wealth"] == 3 and data["coins"] == 11
    assert data["terrain_points"] == {
        "wheat": 3,
        "forest": 3,
        "lake": 6,
        "grassland": 12,
        "swamp": 1,
        "mine": 12,
        "town": 0,
    }
    # "Grasslands score 16 points: 4 squares x 3 crowns and the Queen".
    assert data["queen"] == 4 and data["queen_territory"] == "grassland"
    assert {b["building"]: b["points"] for b in data["buildings"]} == {
        "B03": 6,  # Sawmill: 3 forest territories x 2
        "B13": 8,  # Church: 4 town territories x 2
        "B17": 3,  # Travelling Castle: 3 towers x 1
        "B23": 2,  # Big Tavern
        "B27": 5,  # Statue
        "B21": 3,  # Guardtower
    }
    assert data["building_points"] == 27
    assert {b["building"] for b in data["buildings"] if not b["verified"]} == {"B03", "B13", "B27"}
    assert (data["largest_territory"], data["size"], data["hosts_queen"]) == (4, 5, True)
    assert (data["towers"], data["knights"], data["guard"]) == (3, 4, 1)
    assert data["buildings_table"]["source"] == "shipped"
    text = SCORING_EXAMPLE.read_text(encoding="utf-8")
    assert as_oracle(data) == oracle_pad(text, shipped_buildings())


def test_the_score_pad_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "queendomino", str(SCORING_EXAMPLE))
    assert (status, err) == (0, "")
    assert "T:B03 T:B13*" in out and "queen: yes" in out  # the realm as read
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") == 4}
    for name, count, points in [
        ("Wealth", "11 coins", 3),
        ("forest", "2x1 + 1x1 + 1x0", 3),
        ("town", "2x0 + 2x0 + 1x0 + 1x0", 0),
        ("The Queen", "grassland territory, 4 squares", 4),
        ("B03 Sawmill (unverified)", "2 per forest territory x 3", 6),
        ("B13 Church (unverified)", "2 per town territory x 4", 8),
        ("B17 Travelling Castle", "1 per tower x 3", 3),
        ("B21 Guardtower", "3 points", 3),
        ("Total", "", 71),
    ]:
        assert count in rows[name] and rows[name].rstrip(" │").endswith(str(points)), name
    assert "Largest territory: 4 squares" in out and "Towers: 3" in out
    assert "an effect of this tile is unknown" in out and "--buildings FILE" in out


# -- hand-made realms -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # No Queen: she adds nothing, and the pad says so.
        ("G2 G C W W", {"total": 4, "queen": 0, "queen_territory": None}),
        # Two largest territories (2 squares): the Queen sits on the one with more points.
        (
            "G2 G C W W T:B21\ntowers: 2\nqueen: yes",
            {"total": 4 + 2 + 3, "queen": 2, "queen_territory": "grassland"},
        ),
        # Training Camp: 1 per knight owned, in the kingdom and in the guard.
        ("C T:B15* W* W\nguard: 2", {"total": 4, "building_points": 4, "knights": 4}),
        # Bakery: 2 per separate wheat territory, crowned or not.
        ("W C W T:B01 W", {"total": 6, "building_points": 6}),
        # The Queen's Tower puts a crown on its town territory: 3 squares x 1.
        ("C T:B30 T T", {"total": 3, "terrain_points": {"town": 3}}),
        # Travelling Castle: 1 per tower; the supply ran out and it brought none.
        ("C T:B17\ntowers: 0", {"total": 0, "towers": 0}),
        # Wealth: one point per 3 coins, rounded down.
        ("C W\ncoins: 8", {"total": 2, "wealth": 2}),
    ],
)
def test_hand_made_realms(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, expected: dict[str, Any]
) -> None:
    data = score_json(capsys, "queendomino", written(tmp_path, text))
    for key, value in expected.items():
        if isinstance(value, dict):
            assert {k: data[key][k] for k in value} == value
        else:
            assert data[key] == value, key
    assert as_oracle(data) == oracle_pad(text, shipped_buildings())


def test_a_7x7_realm(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(capsys, "queendomino", str(REALM_7X7))
    text = REALM_7X7.read_text(encoding="utf-8")
    assert data["size"] == 7 and data["total"] == 184
    assert as_oracle(data) == oracle_pad(text, shipped_buildings())


def test_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("C G1\n. G\ncoins: 3\n"))
    data = score_json(capsys, "queendomino", "-")
    assert data["total"] == 3 and data["realm"][:2] == ["C  G1", ".  G"]


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 4},
        {"players": 5, "royal_wedding": True},
        {"players": 8, "royal_wedding": True, "teams": True},
    ],
    ids=str,
)
def test_played_realms_score_as_the_game_scored_them(options: dict[str, Any]) -> None:
    game = make_game("queendomino", options)
    assert isinstance(game, Queendomino)
    rng = random.Random(str(options))
    for _ in range(4):
        state = play(game, [make_bot("random")] * game.num_players, rng.randrange(10**6))
        final = state.final_state
        for r, realm in enumerate(final.realms):
            text = realm_to_notation(game.geo, game.table, realm, final.queen == r)
            _, data = score_text(text, [])
            assert data["total"] == game.realm_scores(final)[r]
            assert as_oracle(data) == oracle_pad(text, game.table)


# -- building tables ------------------------------------------------------------------------
def test_a_corrected_table_changes_the_score(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Say the user's Statue shows 7 points and its effects are now known.
    known = {"immediate_status": "established", "ongoing_status": "established"}
    table = corrected_table(tmp_path, {"B27": {**known, "endgame_points": "7"}})
    data = score_json(capsys, "queendomino", str(SCORING_EXAMPLE), "--buildings", table)
    assert data["total"] == 73
    assert data["buildings_table"]["source"] == table
    statue = next(b for b in data["buildings"] if b["building"] == "B27")
    assert statue["points"] == 7 and statue["verified"] is True
    status, out, _ = run(capsys, "queendomino", str(SCORING_EXAMPLE), "--buildings", table)
    assert status == 0 and "B27 Statue  " in out and "73" in out


def test_a_table_that_knows_more_towers_lets_the_realm_hold_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    realm = written(tmp_path, "C T:B21\ntowers: 3\n")
    status, _, err = run(capsys, "queendomino", realm)
    assert status == 2 and "3 towers, but the buildings bring 2 at most" in err
    table = corrected_table(tmp_path, {"B21": {"immediate_towers": "3"}})
    data = score_json(capsys, "queendomino", realm, "--buildings", table)
    assert data["towers"] == 3


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("tile,name\nB01,Bakery\n", "no column 'crowns'"),
        (None, "row 28: crowns must be a number from 0 to 3, not 'x'"),
        ("", "no column 'tile'"),
    ],
)
def test_a_malformed_table_is_refused_by_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None, why: str
) -> None:
    if content is None:
        table = corrected_table(tmp_path, {"B27": {"crowns": "x"}})
    else:
        table = written(tmp_path, content, "buildings.csv")
    status, out, err = run(capsys, "queendomino", str(SCORING_EXAMPLE), "--buildings", table)
    assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"kingdomkit score: error: buildings table {table}")
    assert why in err


def test_a_missing_table_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.csv")
    status, _, err = run(capsys, "queendomino", str(SCORING_EXAMPLE), "--buildings", missing)
    assert status == 2 and f"cannot read buildings table {missing}" in err


def test_buildings_is_not_an_option_of_kingdomino(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = corrected_table(tmp_path, {})
    status, out, err = run(capsys, "kingdomino", str(KINGDOM_5X5), "--buildings", table)
    assert status == 2 and out == ""
    assert "--buildings is not an option of kingdomino" in err


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "where", "why"),
    [
        ("C  W  X1\n", "line 1, column 7", "unknown cell 'X1'"),
        ("C  T:B99\n", "line 1, column 6", "no building 'B99'"),
        ("C  W\n\ncoins: lots\n", "line 3, column 8", "whole number"),
        ("C  W:B01\n", "line 1, column 4", "a building stands on a town square"),
        ("C  W  W  W  W  W  W  W\n", "line 1, column 22", "8 squares wide; it must fit in 7x7"),
    ],
)
def test_bad_realms_name_file_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, where: str, why: str
) -> None:
    path = written(tmp_path, text)
    status, out, err = run(capsys, "queendomino", path)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"kingdomkit score: error: {path}: {where}")
    assert why in err


@pytest.mark.parametrize(
    ("option", "why"),
    [
        ("royal_wedding", "cannot be used to score a realm"),
        ("teams", "cannot be used to score a realm"),
        ("harmony", "unknown option 'harmony'"),
    ],
)
def test_options_are_refused(capsys: pytest.CaptureFixture[str], option: str, why: str) -> None:
    status, out, err = run(capsys, "queendomino", "no-such-file.txt", "--option", option)
    assert status == 2 and out == "" and why in err and "no-such-file" not in err
