"""`kingdomkit score`: the score pad of a kingdom written in the text notation.

Totals are checked against hand counts of the example kingdoms and against a plain
breadth-first scorer written here over the text itself, never the engine's bitboards.
"""

from __future__ import annotations

import io
import json
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.bots import make_bot
from kingdomkit.cli.main import main
from kingdomkit.core.driver import play
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.notation import kingdom_to_notation
from kingdomkit.games.kingdomino.report import score_text
from kingdomkit.games.kingdomino.rules import Kingdomino
from paths import EXAMPLES

KINGDOM_5X5 = EXAMPLES / "kingdom-5x5.txt"
KINGDOM_7X7 = EXAMPLES / "kingdom-7x7.txt"
KINGDOM_CORNER = EXAMPLES / "kingdom-corner.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["score", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def score_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = run(capsys, *argv, "--json")
    assert (status, err) == (0, "")
    data: dict[str, Any] = json.loads(out)
    return data


def oracle_points(text: str) -> tuple[int, int, int]:
    """(territory points, largest territory, crowns) by breadth-first search over the text."""
    grid: dict[tuple[int, int], tuple[str, int]] = {}
    rows = [line.split() for line in text.splitlines() if line.strip() and line[0] != "#"]
    for y, row in enumerate(rows):
        for x, token in enumerate(row):
            if token not in (".", "C"):
                grid[x, y] = (token[0], int(token[1:] or 0))
    seen: set[tuple[int, int]] = set()
    points = largest = 0
    for start in grid:
        if start in seen:
            continue
        terrain = grid[start][0]
        queue, size, crowns = deque([start]), 0, 0
        seen.add(start)
        while queue:
            x, y = queue.popleft()
            size += 1
            crowns += grid[x, y][1]
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in grid and near not in seen and grid[near][0] == terrain:
                    seen.add(near)
                    queue.append(near)
        points += size * crowns
        largest = max(largest, size)
    return points, largest, sum(crowns for _, crowns in grid.values())


# -- the score pad -----------------------------------------------------------------------
def test_table_shows_every_territory_bonuses_and_total(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "kingdomino", str(KINGDOM_5X5), "--option", "middle_kingdom", "--option", "harmony"
    )
    assert (status, err) == (0, "")
    for words in ("grassland", "swamp", "mine", "Territory points", "Middle Kingdom", "Harmony"):
        assert words in out
    assert "W1 G  F  L  L1" in out  # the kingdom as read
    total_row = next(line for line in out.splitlines() if "Total" in line)
    assert "43" in total_row
    assert "Largest territory: 4 squares" in out
    assert "Crowns: 9" in out


def test_example_5x5_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    # Hand count: grassland 4x2, wheat 4x1 and 3x1, mine 2x2, forest 3x1, lake 3x1, swamp 3x1.
    plain = score_json(capsys, "kingdomino", str(KINGDOM_5X5))
    assert plain["territory_points"] == 28
    assert (plain["middle_kingdom"], plain["harmony"], plain["total"]) == (0, 0, 28)
    assert sorted(t["points"] for t in plain["territories"]) == [0, 3, 3, 3, 3, 4, 4, 8]
    assert plain["territories"][0] == {"terrain": "grassland", "size": 4, "crowns": 2, "points": 8}
    both = score_json(
        capsys, "kingdomino", str(KINGDOM_5X5), "--option", "middle_kingdom", "--option", "harmony"
    )
    assert (both["middle_kingdom"], both["harmony"], both["total"]) == (10, 5, 43)
    assert (both["largest_territory"], both["crowns"]) == (4, 9)
    assert both["complete"] is True and both["castle_in_middle"] is True


def test_bonuses_need_a_centred_castle_and_a_full_frame(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = score_json(
        capsys,
        "kingdomino",
        str(KINGDOM_CORNER),
        "--option",
        "middle_kingdom",
        "--option",
        "harmony",
    )
    # W 2x1, F 3x1, L 3x1, G 3x2, M 1x2, S 1x0.
    assert (data["territory_points"], data["middle_kingdom"], data["harmony"]) == (16, 0, 0)
    assert data["total"] == 16
    assert data["complete"] is False and data["castle_in_middle"] is False


def test_mighty_duel_scores_a_7x7_kingdom(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(
        capsys,
        "kingdomino",
        str(KINGDOM_7X7),
        "--option",
        "mighty_duel",
        "--option",
        "middle_kingdom",
        "--option",
        "harmony",
    )
    text = KINGDOM_7X7.read_text(encoding="utf-8")
    points, largest, crowns = oracle_points(text)
    assert data["size"] == 7
    assert data["territory_points"] == points == 109
    assert (data["largest_territory"], data["crowns"]) == (largest, crowns)
    # One square is empty (a discarded domino): no Harmony; the castle is in the middle.
    assert (data["middle_kingdom"], data["harmony"], data["total"]) == (10, 0, 119)


def test_a_7x7_kingdom_needs_mighty_duel(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "kingdomino", str(KINGDOM_7X7))
    assert status == 2 and out == ""
    assert str(KINGDOM_7X7) in err and "line 3, column" in err and "mighty_duel" in err


def test_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("C G1\n. G\n"))
    data = score_json(capsys, "kingdomino", "-")
    assert data["total"] == 2 and data["kingdom"] == ["C  G1", ".  G"]


def test_json_is_one_object_with_the_score_pad(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(capsys, "kingdomino", str(KINGDOM_5X5), "--option", "harmony")
    for key in (
        "total",
        "territories",
        "territory_points",
        "middle_kingdom",
        "harmony",
        "largest_territory",
        "crowns",
    ):
        assert key in data
    assert data["total"] == data["territory_points"] + data["middle_kingdom"] + data["harmony"]
    assert sum(t["points"] for t in data["territories"]) == data["territory_points"]
    assert data["options"] == ["harmony"]


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"players": 4, "harmony": True, "middle_kingdom": True}, 1),
        ({"players": 3, "harmony": True, "middle_kingdom": True}, 2),
        ({"players": 2, "mighty_duel": True, "harmony": True, "middle_kingdom": True}, 3),
    ],
)
def test_played_kingdoms_score_as_the_game_scored_them(options: dict[str, Any], seed: int) -> None:
    """In a finished game "no domino discarded" and "every square filled" are the same, so
    scoring a kingdom from its picture gives the game's own score, bonuses included."""
    game = make_game("kingdomino", options)
    assert isinstance(game, Kingdomino)
    flags = [name for name in ("mighty_duel", "middle_kingdom", "harmony") if options.get(name)]
    rng = random.Random(seed)
    for _ in range(15):
        played = play(game, [make_bot("random")] * game.num_players, rng.randrange(10**6))
        for player, kingdom in enumerate(played.final_state.kingdoms):
            text = kingdom_to_notation(game.geo, kingdom)
            _, data = score_text(text, flags)
            pad = game.breakdown(played.final_state, player)
            assert data["total"] == pad.total == game.scores(played.final_state)[player]
            assert data["harmony"] == (5 if not kingdom.discarded else 0)
            assert kd.is_complete(game.geo, kingdom) == (not kingdom.discarded)
            assert (data["territory_points"], data["largest_territory"], data["crowns"]) == (
                oracle_points(text)
            )


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "where", "why"),
    [
        ("C  W  X1\n", "line 1, column 7", "unknown cell 'X1'"),
        ("W  C\nW\n", "line 2, column 1", "this row has 1 cells"),
        ("# no castle\nW  W\nF  F\n", "line 2, column 1", "no castle"),
        ("C  C\n", "line 1, column 4", "one castle"),
        ("W  C  W  W  W  W\n", "line 1, column", "6 squares wide"),
        ("C\nW\nW\nW\nW\nW\n", "line 6, column 1", "6 squares tall"),
        ("C  W4\n", "line 1, column 4", "0 to 3 crowns"),
        ("\n# only a comment\n", "line 1, column 1", "the text is empty"),
    ],
)
def test_bad_kingdoms_name_file_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, where: str, why: str
) -> None:
    path = tmp_path / "kingdom.txt"
    path.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "kingdomino", str(path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"kingdomkit score: error: {path}: {where}")
    assert why in err


def test_unreadable_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    binary = tmp_path / "kingdom.bin"
    binary.write_bytes(b"C \xff\xfe W\n")
    cases = {
        str(tmp_path / "missing.txt"): "No such file",
        str(tmp_path): "directory",
        str(binary): "not a UTF-8 text file",
    }
    for path, why in cases.items():
        status, out, err = run(capsys, "kingdomino", path)
        assert status == 2 and out == ""
        assert path in err and why in err and err.count("\n") == 1


def test_undecodable_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"C \xff\n"), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    status, _, err = run(capsys, "kingdomino", "-")
    assert status == 2 and "standard input is not a UTF-8 text file" in err


@pytest.mark.parametrize(
    ("option", "why"),
    [
        ("dynasty", "cannot be used to score a kingdom"),
        ("draw_four", "cannot be used to score a kingdom"),
        ("queen", "unknown option 'queen'"),
    ],
)
def test_options_that_do_not_apply_are_refused(
    capsys: pytest.CaptureFixture[str], option: str, why: str
) -> None:
    status, out, err = run(capsys, "kingdomino", str(KINGDOM_5X5), "--option", option)
    assert status == 2 and out == "" and why in err and err.count("\n") == 1


def test_options_are_refused_before_the_file_is_read(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "kingdomino", "no-such-file.txt", "--option", "dynasty")
    assert status == 2 and "dynasty" in err and "no-such-file" not in err


def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "chess", str(KINGDOM_5X5)])
    assert exit_info.value.code == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err


def test_crowns_must_be_ascii_digits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "kingdom.txt"
    path.write_text("C  W\u00b2\n", encoding="utf-8")  # "²" is a digit to str.isdigit
    status, _, err = run(capsys, "kingdomino", str(path))
    assert status == 2 and f"{path}: line 1, column 4" in err and "0 to 3 crowns" in err
