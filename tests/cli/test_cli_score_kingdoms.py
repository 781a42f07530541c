"""`kingdomkit score kingdoms`: what a board written in the notation pays each player.

Gold is checked against the rulebook's Example of Scoring (each line it explains), hand
counts, the score events of played games, and a plain scorer written here over the text
itself (split at mountains, sum, dragon, gold mine, wizard), never the engine's board code.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli_score import run, score_json

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.record import make_record
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdoms.options import FLAGS
from kingdomkit.games.kingdoms.report import NOT_FOR_SCORING, score_text
from paths import EXAMPLES

SCORING_EXAMPLE = EXAMPLES / "kingdoms-scoring-example.txt"
BOARD_4P = EXAMPLES / "kingdoms-4p.txt"
BOARD_UNFINISHED = EXAMPLES / "kingdoms-last-castle.txt"
LINE_NAMES = [f"row {r}" for r in range(1, 6)] + [f"column {c}" for c in range(1, 7)]
TOKENS = [".", *(f"{s}{v}" for s in "+-" for v in range(1, 7)), "MTN", "DRG", "GLD", "WIZ"]
CASTLES = [f"{letter}{rank}" for letter in "ABCD" for rank in range(1, 5)]
Grid = dict[tuple[int, int], str]


# -- a plain scorer over the text ---------------------------------------------------------------
def read_grid(text: str) -> Grid:
    rows = [line.upper().split() for line in text.splitlines()]
    rows = [tokens for tokens in rows if tokens and not tokens[0].startswith("#")]
    return {(r, c): token for r, tokens in enumerate(rows) for c, token in enumerate(tokens)}


def oracle_lines(text: str) -> dict[str, dict[str, int]]:
    """Each line's gold per player letter, by the rulebook's words, from the text."""
    grid = read_grid(text)
    letters = "ABCD"[: max([2, *("ABCD".index(t[0]) + 1 for t in grid.values() if t in CASTLES)])]

    def rank(r: int, c: int) -> int:
        near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        return int(grid[r, c][1]) + sum(grid.get(n) == "WIZ" for n in near)

    lines = [[(r, c) for c in range(6)] for r in range(5)] + [
        [(r, c) for r in range(5)] for c in range(6)
    ]
    gold: dict[str, dict[str, int]] = {}
    for name, spaces in zip(LINE_NAMES, lines, strict=True):
        gold[name] = dict.fromkeys(letters, 0)
        part: list[tuple[int, int]] = []
        for space in [*spaces, None]:
            if space is not None and grid[space] != "MTN":
                part.append(space)
                continue
            tokens = [grid[s] for s in part]
            values = [int(t) for t in tokens if t[0] in "+-"]
            if "DRG" in tokens:
                values = [v for v in values if v < 0]  # the dragon cancels resources
            base = sum(values) * (2 if "GLD" in tokens else 1)
            for s in part:
                if grid[s] in CASTLES:
                    gold[name][grid[s][0]] += base * rank(*s)
            part = []
    return gold


def oracle_totals(text: str) -> dict[str, tuple[int, int]]:
    """(rows, columns) per player letter."""
    lines = oracle_lines(text)
    return {
        letter: (
            sum(lines[name][letter] for name in LINE_NAMES[:5]),
            sum(lines[name][letter] for name in LINE_NAMES[5:]),
        )
        for letter in lines["row 1"]
    }


def as_oracle(data: dict[str, Any]) -> dict[str, tuple[int, int]]:
    players = data["players"]
    for player in players.values():
        assert player["total"] == player["rows"] + player["columns"]
    return {letter: (p["rows"], p["columns"]) for letter, p in players.items()}


def line_gold(data: dict[str, Any], line: str) -> dict[str, int]:
    return {letter: p["lines"][line]["gold"] for letter, p in data["players"].items()}


def written(tmp_path: Path, text: str, name: str = "board.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def board_text(*rows: str) -> str:
    """A board from its first rows; the rows not given are empty."""
    return "\n".join([*rows, *[". . . . . ."] * (5 - len(rows))]) + "\n"


# -- the rulebook's Example of Scoring -------------------------------------------------------
# Yellow, red and blue are A, B and C (the order of the rulebook's table of scores).
def test_the_example_pays_each_line_as_the_rulebook_explains(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = score_json(capsys, "kingdoms", str(SCORING_EXAMPLE))
    lines = data["lines"]
    # Row 1: Town +3 and Troll -6, base -3; red and blue pay 3 for a rank-1 castle each; yellow
    # pays 18 for a rank 4 and a rank 1 next to the Wizard (6 ranks).
    assert [part["base"] for part in lines["row 1"]] == [-3]
    assert lines["row 1"][0]["ranks"] == {"A": 6, "B": 1, "C": 1}
    assert line_gold(data, "row 1") == {"A": -18, "B": -3, "C": -3}
    # Row 4: a mountain splits it; on the left the Dragon cancels the Village and yellow's
    # rank 2 scores nothing; on the right the Knight +5 x blue's rank 1 = 5.
    left, right = lines["row 4"]
    assert (left["dragon"], left["base"], left["ranks"]["A"]) == (True, 0, 2)
    assert (right["base"], right["ranks"]) == (5, {"A": 0, "B": 0, "C": 1})
    assert line_gold(data, "row 4") == {"A": 0, "B": 0, "C": 5}
    # Column 2: the Dragon cancels the Windmill +4, the Dire Wolves -3 are doubled by the Gold
    # Mine: red pays 6 for a rank-1 castle.
    (column_2,) = lines["column 2"]
    assert (column_2["dragon"], column_2["gold_mine"], column_2["base"]) == (True, True, -6)
    assert line_gold(data, "column 2") == {"A": 0, "B": -6, "C": 0}
    # Column 4: the mountain cuts yellow's castle off (no gold); the Village +1 and the Raider
    # -5 make -4, and blue pays 4 for a rank-1 castle.
    upper, lower = lines["column 4"]
    assert (upper["base"], upper["ranks"]) == (-4, {"A": 0, "B": 0, "C": 1})
    assert (lower["base"], lower["ranks"]["B"], lower["ranks"]["C"]) == (0, 0, 0)
    assert lower["ranks"]["A"] > 0
    assert line_gold(data, "column 4") == {"A": 0, "B": 0, "C": -4}
    # Column 6: the Knight +5 and the Farm +2, base 7; the Wizard raises the two rank-1 castles
    # next to it: yellow and blue collect 14 each.
    assert [(part["base"], part["ranks"]) for part in lines["column 6"]] == [
        (7, {"A": 2, "B": 0, "C": 2})
    ]
    assert line_gold(data, "column 6") == {"A": 14, "B": 0, "C": 14}
    assert as_oracle(data) == oracle_totals(SCORING_EXAMPLE.read_text(encoding="utf-8"))


def test_the_example_has_the_legible_base_values(capsys: pytest.CaptureFixture[str]) -> None:
    """The rulebook's table of base values, where its text keeps them (column 1 is lost)."""
    data = score_json(capsys, "kingdoms", str(SCORING_EXAMPLE))
    bases = {line: [part["base"] for part in parts] for line, parts in data["lines"].items()}
    assert bases == {
        "row 1": [-3],
        "row 2": [10, 0],
        "row 3": [-1],
        "row 4": [0, 5],
        "row 5": [4],
        "column 1": [5],  # our choice
        "column 2": [-6],
        "column 3": [4],
        "column 4": [-4, 0],
        "column 5": [-6, 4],
        "column 6": [7],
    }


def test_the_example_gives_yellows_scores_but_not_the_whole_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The rulebook's table of scores (yellow -6/50/44, red -5/8/3, blue 25/29/54) is more
    than its text pins down: this board, true to every stated line, matches yellow's scores
    and blue's columns only (see the example file)."""
    data = score_json(capsys, "kingdoms", str(SCORING_EXAMPLE))
    scores = {
        letter: (p["rows"], p["columns"], p["total"]) for letter, p in data["players"].items()
    }
    assert scores == {"A": (-6, 50, 44), "B": (-6, 6, 0), "C": (30, 29, 59)}


# -- the table and the JSON ----------------------------------------------------------------------
def rows_of(out: str) -> dict[str, list[str]]:
    """The table's rows by their first cell (a line's second part is under its name), each
    row's other cells joined by " | "."""
    found: dict[str, list[str]] = {}
    name = ""
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.split("│")[1:-1]]
        if len(cells) < 4:
            continue
        name = cells[0] or name
        found.setdefault(name, []).append(" | ".join(cells[1:]))
    return found


def test_the_table_shows_each_part_and_the_totals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = board_text(
        "+3  B1 A4 C1  -6  A1",
        "+4  .  -1 +1  MTN WIZ",
        "DRG A2 +5 GLD C3  B2",
        ".   .  .  .   .   .",
        "MTN +6 -2 A3  .   +2",
    )
    status, out, err = run(capsys, "kingdoms", written(tmp_path, text))
    assert (status, err) == (0, "")
    assert "DRG A2 +5 GLD C3  B2" in out  # the board as read, in the notation
    rows = rows_of(out)
    assert rows["row 1"] == ["columns 1-6 | -3 | 6: -18 | 1: -3 | 1: -3"]
    assert rows["row 2"] == ["columns 1-4 | +4 |  |  | ", "column 6 | 0 |  |  | "]
    assert rows["row 3"] == ["columns 1-6 | 0 (DRG, GLD) | 2: 0 | 3: 0 | 3: 0"]
    assert rows["column 1"] == ["rows 1-4 | 0 (DRG) |  |  | "]
    assert rows["column 4"] == ["rows 1-5 | +2 (GLD) | 3: +6 |  | 1: +2"]
    assert rows["column 5"] == ["row 1 | -6 |  |  | ", "rows 3-5 | 0 |  |  | 3: 0"]
    assert rows["Rows"] == [" |  | 0 | -3 | -3"]
    assert rows["Columns"] == [" |  | 30 | 12 | 2"]
    assert rows["Total"] == [" |  | 30 | 9 | -1"]
    assert "Players: A, B, C" in out and "8 empty spaces: each counts 0." in out
    assert as_oracle(score_json(capsys, "kingdoms", written(tmp_path, text))) == oracle_totals(text)


def test_the_json_has_every_player_and_line(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(capsys, "kingdoms", str(BOARD_4P))
    assert data["file"] == str(BOARD_4P) and data["game"] == "kingdoms"
    assert data["options"] == [] and data["empty_spaces"] == 0
    assert len(data["board"]) == 5
    assert list(data["players"]) == ["A", "B", "C", "D"]
    assert list(data["lines"]) == LINE_NAMES
    for player in data["players"].values():
        assert set(player) == {"rows", "columns", "total", "lines"}
        assert list(player["lines"]) == LINE_NAMES
        assert player["rows"] == sum(player["lines"][line]["gold"] for line in LINE_NAMES[:5])
        for line in LINE_NAMES:
            parts = player["lines"][line]["parts"]
            assert [p["base"] for p in parts] == [p["base"] for p in data["lines"][line]]
            assert player["lines"][line]["gold"] == sum(p["base"] * p["rank"] for p in parts)
    for line, parts in data["lines"].items():
        length = 6 if line.startswith("row") else 5
        covered = [n for part in parts for n in range(part["from"], part["to"] + 1)]
        assert covered == sorted(covered) and set(covered) <= set(range(1, length + 1))
    assert as_oracle(data) == oracle_totals(BOARD_4P.read_text(encoding="utf-8"))


def test_an_unfinished_board_counts_empty_spaces_as_0(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(capsys, "kingdoms", str(BOARD_UNFINISHED))
    assert data["empty_spaces"] > 0
    assert as_oracle(data) == oracle_totals(BOARD_UNFINISHED.read_text(encoding="utf-8"))


def test_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(board_text("a1 +6 . . . b2")))
    data = score_json(capsys, "kingdoms", "-")
    assert data["file"] == "-" and data["board"][0] == "A1 +6 . . . B2"
    assert (data["players"]["A"]["total"], data["players"]["B"]["total"]) == (6, 12)


# -- hand counts ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rows", "line", "gold"),
    [
        # A castle between two wizards has its rank raised twice: (1 + 2) x 5.
        (("WIZ A1 WIZ +5 . .",), "row 1", {"A": 15, "B": 0}),
        # The wizard works across a mountain: the castle is next to it, whatever the line.
        (("A1 MTN +2 . . .", "WIZ . . . . ."), "row 1", {"A": 0, "B": 0}),
        (("A1 +2 . . . .", "WIZ . . . . ."), "row 1", {"A": 4, "B": 0}),
        # The dragon cancels resources only; hazards still count, and the gold mine doubles.
        (("B3 DRG +6 -2 GLD .",), "row 1", {"A": 0, "B": -12}),
        # A mountain at the end of a line leaves one part; two mountains make three.
        (("A2 +1 MTN B1 MTN +3",), "row 1", {"A": 2, "B": 0}),
        (("A2 +1 . . . MTN",), "row 1", {"A": 2, "B": 0}),
        # D on the board: four players, the others pay their share.
        (("D4 C1 -6 . . .",), "row 1", {"A": 0, "B": 0, "C": -6, "D": -24}),
    ],
)
def test_hand_made_boards(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    rows: tuple[str, ...],
    line: str,
    gold: dict[str, int],
) -> None:
    text = board_text(*rows)
    data = score_json(capsys, "kingdoms", written(tmp_path, text))
    assert line_gold(data, line) == gold
    assert as_oracle(data) == oracle_totals(text)


def test_three_parts_are_listed_in_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = score_json(capsys, "kingdoms", written(tmp_path, board_text("A2 +1 MTN B1 MTN +3")))
    parts = data["lines"]["row 1"]
    assert [(p["from"], p["to"], p["base"]) for p in parts] == [(1, 2, 1), (4, 4, 0), (6, 6, 3)]


boards = st.lists(st.sampled_from(TOKENS + CASTLES), min_size=30, max_size=30)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(boards)
def test_any_board_pays_what_the_plain_scorer_says(tokens: list[str]) -> None:
    text = "\n".join(" ".join(tokens[r * 6 : r * 6 + 6]) for r in range(5))
    _, data = score_text(text, [])
    assert as_oracle(data) == oracle_totals(text)
    expected = oracle_lines(text)
    assert {line: line_gold(data, line) for line in LINE_NAMES} == expected


# -- boards of played games ----------------------------------------------------------------------
def empty_grid() -> list[list[str]]:
    return [["."] * 6 for _ in range(5)]


@pytest.mark.parametrize(
    "options",
    [{"players": 3}, {"players": 4, "score_as_you_go": True, "down_to_the_last_castle": True}],
    ids=str,
)
def test_each_line_pays_what_the_record_says_it_paid(options: dict[str, Any]) -> None:
    """The board rebuilt from a record's tile and castle events, written in the notation,
    pays each line as the record's score event for it says, when it scored."""
    game = make_game("kingdoms", options)
    rng = random.Random(str(options))
    for _ in range(3):
        seed = rng.randrange(10**6)
        actions = play(game, [make_bot("random")] * game.num_players, seed).actions
        record = make_record(game, seed, ["a", "b", "c", "d"][: game.num_players], actions)
        grid = empty_grid()
        checked = 0
        for event in record["events"]:
            if event["type"] == "epoch":
                grid = empty_grid()
            elif event["type"] == "tile":
                grid[event["row"] - 1][event["column"] - 1] = event["tile"]
            elif event["type"] == "castle":
                letter = "ABCD"[event["player"]]
                grid[event["row"] - 1][event["column"] - 1] = f"{letter}{event['rank']}"
            elif event["type"] == "score":
                text = "\n".join(" ".join(cells) for cells in grid)
                _, data = score_text(text, [])
                paid = line_gold(data, event["line"])
                assert list(paid.values())[: game.num_players] == event["gold"]
                assert [p["base"] for p in data["lines"][event["line"]]] == [
                    p["base"] for p in event["parts"]
                ]
                checked += 1
        assert checked >= 11


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "where", "why"),
    [
        (board_text("+3 B1 A4 C1 -6 X9"), "line 1, column 16", "castles belong to players A to D"),
        (board_text(". A7 . . . ."), "line 1, column 4", "a castle's rank is 1 to 4"),
        (board_text(". . . . . . ."), "line 1, column 13", "a row has 6 cells, this one has 7"),
        ("# empty\n\n", "line 1, column 1", "the board has 5 rows of 6; the text is empty"),
    ],
)
def test_bad_boards_name_file_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, where: str, why: str
) -> None:
    path = written(tmp_path, text)
    status, out, err = run(capsys, "kingdoms", path)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"kingdomkit score: error: {path}: {where}: ")
    assert why in err


def test_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.txt")
    status, out, err = run(capsys, "kingdoms", missing)
    assert status == 2 and out == "" and f"cannot read {missing}" in err


def test_every_variant_is_named_when_refused() -> None:
    assert set(NOT_FOR_SCORING) == set(FLAGS)


@pytest.mark.parametrize(
    ("option", "why"),
    [
        *(
            (flag, f"option {flag!r} cannot be used to score a board: it changes ")
            for flag in FLAGS
        ),
        ("harmony", "unknown option 'harmony' for scoring a board"),
    ],
)
def test_options_are_refused_before_the_file_is_read(
    capsys: pytest.CaptureFixture[str], option: str, why: str
) -> None:
    status, out, err = run(capsys, "kingdoms", "no-such-file.txt", "--option", option)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert why in err and "no-such-file" not in err


def test_json_output_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "kingdoms", str(SCORING_EXAMPLE), "--json")
    assert status == 0 and isinstance(json.loads(out), dict)
