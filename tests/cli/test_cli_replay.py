"""`kingdomkit replay`: a record checked move by move and shown in plain words."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.cli.main import main
from kingdomkit.core.record import replay_record
from paths import EXAMPLES

RECORD_2P = EXAMPLES / "record-2p.json"
RECORD_DYNASTY = EXAMPLES / "record-dynasty.json"
RECORD_UNFINISHED = EXAMPLES / "record-unfinished.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["replay", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def refused(capsys: pytest.CaptureFixture[str], path: Path | str) -> str:
    """The one-line error for a bad record: exit status 2, nothing on stdout, no traceback."""
    status, out, err = run(capsys, str(path))
    assert status == 2 and out == ""
    assert err.startswith("kingdomkit replay: error: ") and err.count("\n") == 1
    assert "Traceback" not in err
    return err


def write(tmp_path: Path, record: Any, name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


# -- showing a game ------------------------------------------------------------------------------
def test_shows_every_event_the_kingdoms_and_the_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    record = load(RECORD_2P)
    status, out, err = run(capsys, str(RECORD_2P))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    events = record["events"]
    numbered = [line for line in lines if line.lstrip()[:1].isdigit() and ". " in line]
    assert len(numbered) == len(events)
    line, order, claim = events[0], events[1], events[2]
    assert f"New line (line 1 of 6): {line['dominoes'][0]} [" in numbered[0]
    names = record["players"]
    assert (
        "The kings are drawn in this order: " + ", ".join(names[p] for p in order["kings"])
        in numbered[1]
    )
    assert f"{names[claim['player']]} claims {claim['domino']} [" in numbered[2]
    place = next(e for e in events if e["type"] == "place")
    (x1, y1), (x2, y2) = place["cells"]
    assert any(
        f"{names[place['player']]} places {place['domino']} [" in text
        and f"on ({x1}, {y1}) and ({x2}, {y2})" in text
        for text in numbered
    )
    assert f"The record is valid: {len(events)} events." in out
    scores = record["result"]["scores"]
    assert f"Final scores: ann {scores[0]}, bob {scores[1]}" in out
    winners = [names[w] for w in record["result"]["winners"]]
    assert f"Winner: {winners[0]}" in out
    # The final kingdoms in the text notation, each with its castle.
    assert out.count(" C ") + out.count(" C\n") >= 2
    assert f"ann: {scores[0]} points" in out and f"bob: {scores[1]} points" in out


def test_discards_are_told(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = load(RECORD_DYNASTY)
    discard = next(e for g in record["games"] for e in g["events"] if e["type"] == "discard")
    _, out, _ = run(capsys, str(RECORD_DYNASTY))
    name = record["players"][discard["player"]]
    assert f"{name} discards {discard['domino']} [" in out and "fits nowhere" in out


def test_quiet_shows_only_the_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    record = load(RECORD_2P)
    status, out, _ = run(capsys, str(RECORD_2P), "--quiet")
    assert status == 0
    assert "claims" not in out and "places" not in out
    assert f"Final scores: ann {record['result']['scores'][0]}" in out
    assert len(out.splitlines()) < 10


def test_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    record = load(RECORD_2P)
    status, out, _ = run(capsys, str(RECORD_2P), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["valid"] is True and data["finished"] is True
    assert data["scores"] == record["result"]["scores"]
    assert data["winners"] == record["result"]["winners"]
    assert data["result"] == record["result"]
    assert data["events"] == len(data["log"]) == len(record["events"])
    assert data["options"] == record["options"] and data["players"] == record["players"]
    kingdoms = data["position"]["kingdoms"]
    assert len(kingdoms) == 2 and all(any("C" in row for row in k) for k in kingdoms)
    quiet = json.loads(run(capsys, str(RECORD_2P), "--json", "--quiet")[1])
    assert "log" not in quiet and quiet["scores"] == data["scores"]


def test_dynasty_shows_each_game_and_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    record = load(RECORD_DYNASTY)
    status, out, _ = run(capsys, str(RECORD_DYNASTY))
    assert status == 0
    for number in (1, 2, 3):
        assert f"\nGame {number}:\n" in out
        assert f"(game {number}, line 1 of 6)" in out
    events = sum(len(g["events"]) for g in record["games"])
    assert f"The record is valid: {events} events." in out
    for number, game in enumerate(record["games"][:2], start=1):
        scores = game["result"]["scores"]
        assert f"Game {number} of the dynasty: ann {scores[0]}, bob {scores[1]}" in out
    totals = record["result"]["scores"]
    assert f"Final scores: ann {totals[0]}, bob {totals[1]}" in out


def test_each_game_of_a_dynasty_replays_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = load(RECORD_DYNASTY)
    for number, game in enumerate(record["games"], start=1):
        path = write(tmp_path, game, f"game{number}.json")
        data = json.loads(run(capsys, str(path), "--json", "--quiet")[1])
        assert data["finished"] is True and data["scores"] == game["result"]["scores"]


def test_unfinished_game_shows_where_it_stands(capsys: pytest.CaptureFixture[str]) -> None:
    record = load(RECORD_UNFINISHED)
    replay = replay_record(record)
    to_act = replay.game.current_player(replay.final_state)
    status, out, _ = run(capsys, str(RECORD_UNFINISHED))
    assert status == 0
    name = record["players"][to_act]
    assert f"the game is not finished. Next to act: {name}." in out
    assert "The game stands at line" in out and "Scores so far:" in out
    assert "Final scores" not in out and "Winner" not in out
    data = json.loads(run(capsys, str(RECORD_UNFINISHED), "--json")[1])
    assert data["finished"] is False and data["to_act"] == to_act and "winners" not in data


def test_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(RECORD_2P.read_text(encoding="utf-8")))
    status, out, _ = run(capsys, "-", "--quiet")
    assert status == 0 and "Final scores" in out


def test_players_with_the_same_name_are_told_apart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = load(RECORD_2P)
    record["players"] = ["bot", "bot"]
    _, out, _ = run(capsys, str(write(tmp_path, record)), "--quiet")
    assert "Players: bot (#0), bot (#1)" in out


# -- refusing bad records -----------------------------------------------------------------------
def test_event_breaking_a_rule_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = load(RECORD_2P)
    index = next(i for i, e in enumerate(record["events"]) if e["type"] == "place")
    record["events"][index]["cells"] = [[0, 0], [0, 1]]
    path = write(tmp_path, record)
    err = refused(capsys, path)
    event = json.dumps(record["events"][index])
    assert f"{path}: event {index + 1} {event}: that place is already taken" in err


def test_wrong_result_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = load(RECORD_2P)
    record["result"]["scores"][1] += 3
    assert "result.scores" in refused(capsys, write(tmp_path, record))


def test_dynasty_game_breaking_a_rule_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = load(RECORD_DYNASTY)
    changed = copy.deepcopy(record)
    changed["games"][2]["result"]["scores"][0] += 1
    err = refused(capsys, write(tmp_path, changed))
    assert "game 3 of the dynasty: the record's result.scores" in err
    changed = copy.deepcopy(record)
    events = changed["games"][1]["events"]
    index = next(i for i, e in enumerate(events) if e["type"] == "claim")
    events[index]["player"] = 1 - events[index]["player"]
    err = refused(capsys, write(tmp_path, changed))
    assert f"game 2 of the dynasty: event {index + 1} " in err and "turn" in err


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"format": "kingdomkit-record/9"}, "unknown record format 'kingdomkit-record/9'"),
        ({"game": "chess"}, "unknown game 'chess' (known games: kingdomino, kingdoms"),
        ({"options": {"players": 2, "dragons": True}}, "unknown Kingdomino option 'dragons'"),
        ({"options": {"players": 9}}, "2 to 4 players, not 9"),
        ({"players": "ann"}, "'players' field has the wrong type"),
        ({"events": None}, "no list of 'events'"),
    ],
)
def test_bad_headers_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, Any], why: str
) -> None:
    record = load(RECORD_2P)
    record.update(change)
    path = write(tmp_path, record)
    err = refused(capsys, path)
    assert str(path) in err and why in err


def test_missing_header_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = load(RECORD_2P)
    del record["game"]
    assert "the record has no 'game' field" in refused(capsys, write(tmp_path, record))


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b'{"format": "kingdomkit-record/1",\n "game": }', "is not valid JSON (line 2, column 10"),
        (b"", "is not valid JSON (line 1, column 1"),
        (b"[1, 2]", "a record is a JSON object"),
        (b'"kingdomino"', "a record is a JSON object"),
        (b'{"game": "kingdomino"} \xff', "is not a UTF-8 text file"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
def test_files_that_are_not_records_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, why: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    err = refused(capsys, path)
    assert str(path) in err and why in err


def test_unreadable_paths_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "No such file" in refused(capsys, tmp_path / "missing.json")
    assert "directory" in refused(capsys, tmp_path)


def test_bad_standard_input_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("{oops"))
    err = refused(capsys, "-")
    assert "standard input is not valid JSON (line 1, column 2" in err
