"""A game that declares no score report and no benchmarks of its own (Kingdomino with those
slots empty): `score` refuses it plainly, `replay` shows its events as JSON and its position
with `game.render`, and `bench` measures it through the protocol alone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.cli.bench import game_benchmarks, own_benchmarks
from kingdomkit.cli.main import main
from kingdomkit.cli.report import report
from kingdomkit.core.protocol import OptionError
from kingdomkit.core.record import replay_record
from kingdomkit.core.registry import GAMES, register
from paths import EXAMPLES

RECORD_2P = EXAMPLES / "record-2p.json"


@pytest.fixture
def plain() -> Iterator[None]:
    """Kingdomino with its report and benchmarks slots empty, for the test's length."""
    shape = GAMES["kingdomino"]
    register(replace(shape, capabilities=replace(shape.capabilities, report=None, benchmarks=None)))
    try:
        yield
    finally:
        register(shape)


def test_the_declared_report_and_benchmarks_are_found() -> None:
    for name in ("kingdomino", "kingdoms", "queendomino"):
        assert report(name) is not None and own_benchmarks(name) is not None
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        report("chess")


@pytest.mark.usefixtures("plain")
def test_score_says_the_game_has_no_score_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert report("kingdomino") is None
    path = tmp_path / "kingdom.txt"
    path.write_text("C  G1\n", encoding="utf-8")
    status = main(["score", "kingdomino", str(path)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.strip() == (
        "kingdomkit score: error: kingdomino has no score report: "
        "`kingdomkit score` cannot score it"
    )


@pytest.mark.usefixtures("plain")
def test_replay_shows_events_as_json_and_the_position_rendered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    record: dict[str, Any] = json.loads(RECORD_2P.read_text(encoding="utf-8"))
    replay = replay_record(record)
    status = main(["replay", str(RECORD_2P)])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert f"1. {json.dumps(record['events'][0])}\n" in out
    assert replay.game.render(replay.final_state) in out
    status = main(["replay", "--json", str(RECORD_2P)])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and "position" not in data
    assert data["log"][0] == json.dumps(record["events"][0])


@pytest.mark.usefixtures("plain")
def test_bench_measures_a_game_through_the_protocol_alone() -> None:
    figures = game_benchmarks("kingdomino", quick=True)
    names = [figure.name for figure in figures]
    # The default 4 players, no target, no kernels of its own: whole games, then playouts.
    assert names[:2] == [
        "kingdomino random 4-player games (protocol)",
        "kingdomino random 4-player games (simulate)",
    ]
    assert all(" playouts (first 4-player decision)" in name for name in names[2:])
    assert len(names) > 2 and all(figure.target is None for figure in figures)
