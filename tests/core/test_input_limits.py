"""Input from people and files is bounded: a huge move is not echoed back whole, a record or
notation file over the documented size is refused before it is read whole, a record's seed
is an integer or null, and a domino number outside the box is said not to exist."""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.cli.main import main
from kingdomkit.cli.play import load_interface
from kingdomkit.cli.score import MAX_NOTATION_BYTES
from kingdomkit.core.protocol import IllegalActionError, RecordError
from kingdomkit.core.record import MAX_RECORD_BYTES, read_bounded, replay_record
from kingdomkit.core.registry import make_game
from paths import EXAMPLES

HUGE = 100_000
# Each game's words for a move, followed by a huge argument.
HUGE_MOVES = [
    "x" * HUGE,
    "claim " + "9" * HUGE,
    "claim " + "x" * HUGE,
    "place " + "1," * HUGE,
    "castle " + "7" * HUGE + " 1,1",
    "castle 1 " + "9" * HUGE,
    "draw " + "x" * HUGE,
    "build " + "x" * HUGE,
    "knight " + "x" * HUGE,
]
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("kingdomino", {"players": 2}),
    ("queendomino", {"players": 2}),
    ("kingdoms", {"players": 3}),
]


def player_states(name: str, options: dict[str, Any], seed: int = 1) -> list[Any]:
    """Every state of a random game where a player is to act."""
    game = make_game(name, options)
    rng = random.Random(seed)
    state, states = game.initial_state(), []
    while not game.is_terminal(state):
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        states.append(state)
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return states


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_huge_move_is_not_echoed_back_whole(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, options)
    interface = load_interface(game)
    states = player_states(name, options)
    refusals = 0
    for state in states[:: max(1, len(states) // 12)]:
        for text in HUGE_MOVES:
            for parse in (game.parse_action, lambda s, t: interface.parse(game, s, t)):
                try:
                    parse(state, text)
                except IllegalActionError as error:
                    refusals += 1
                    assert len(str(error)) < 400, (text[:20], str(error)[:400])
    assert refusals > 0


def test_a_huge_event_is_not_echoed_back_whole() -> None:
    record = json.loads((EXAMPLES / "record-2p.json").read_text(encoding="utf-8"))
    record["events"][2]["note"] = "x" * HUGE
    with pytest.raises(RecordError) as error:
        replay_record(record)
    assert str(error.value).startswith("event 3 ") and len(str(error.value)) < 1000


@pytest.mark.parametrize("seed", ["abc", 1.5, True, [7]])
def test_a_seed_that_is_not_an_integer_is_refused(seed: Any) -> None:
    record = json.loads((EXAMPLES / "record-2p.json").read_text(encoding="utf-8"))
    record["seed"] = seed
    with pytest.raises(RecordError, match="'seed' is an integer or null"):
        replay_record(record)
    record["seed"] = None
    replay_record(record)


@pytest.mark.parametrize(
    ("example", "number", "limit"),
    [("record-2p.json", 49, 48), ("record-2p.json", 0, 48), ("queendomino-record-2p.json", 49, 48)],
)
def test_a_domino_outside_the_box_does_not_exist(example: str, number: int, limit: int) -> None:
    record = json.loads((EXAMPLES / example).read_text(encoding="utf-8"))
    changed = copy.deepcopy(record)
    line = next(e for e in changed["events"] if e["type"] == "line")
    line["dominoes"] = sorted([*line["dominoes"][1:], number])
    with pytest.raises(RecordError) as error:
        replay_record(changed)
    assert f"domino {number} does not exist (the box holds 1 to {limit})" in str(error.value)
    assert "already out" not in str(error.value)


def test_reading_stops_one_byte_past_the_limit() -> None:
    stream = io.BytesIO(b" " * 10_000)
    with pytest.raises(RecordError, match="larger than"):
        read_bounded(stream, 1024, "big.json", "a record")
    assert stream.tell() == 1025
    assert read_bounded(io.BytesIO(b"{}"), 1024, "small.json", "a record") == "{}"


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status = main(list(argv))
    captured = capsys.readouterr()
    assert status == 2 and captured.out == "" and "Traceback" not in captured.err
    return captured.err


def test_an_oversized_record_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    text = (EXAMPLES / "record-2p.json").read_text(encoding="utf-8")
    path.write_text(text + " " * (MAX_RECORD_BYTES - len(text) + 1), encoding="utf-8")
    err = refusal(capsys, "replay", str(path))
    assert f"{path} is larger than {MAX_RECORD_BYTES // 1024} KiB" in err
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    assert "standard input is larger than" in refusal(capsys, "replay", "-")
    # At the limit itself the record is read.
    path.write_text(text + " " * (MAX_RECORD_BYTES - len(text)), encoding="utf-8")
    assert main(["replay", "--quiet", str(path)]) == 0


def test_an_oversized_notation_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "big.txt"
    path.write_text("C G1\n" + "\n" * MAX_NOTATION_BYTES, encoding="utf-8")
    err = refusal(capsys, "score", "kingdomino", str(path))
    assert f"{path} is larger than {MAX_NOTATION_BYTES // 1024} KiB" in err
