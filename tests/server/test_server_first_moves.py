"""`kingdomkit loadtest --first-moves` against a real `kingdomkit serve` process: a new table's
first bot move is timed for the game asked, and what it cannot run is refused in words. (With
--cold it compiles every kernel from nothing, minutes: docs/server.md has its figures.)"""

from __future__ import annotations

import json

import pytest

from kingdomkit.cli.main import main


def test_the_first_move_of_a_new_table_is_timed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["loadtest", "--first-moves", "--game", "kingdoms", "--json", "--seconds", "600"]
    argv += ["--delay", "0.5"]
    # --lazy-kernels: no start-up compilation of the other games' kernels beside it
    assert main([*argv, "--server-args=--lazy-kernels"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["numba cache"] == "as it is"
    assert summary["serve flags"] == "--lazy-kernels"
    assert summary["tables made after (s)"] == 0.5
    took = summary["kingdoms first move (s)"]
    assert isinstance(took, float) and took > 0
    assert [key for key in summary if key.endswith("first move (s)")] == ["kingdoms first move (s)"]
    assert "server error" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--cold"], "--cold and --delay go with --first-moves"),
        (["--delay", "5"], "--cold and --delay go with --first-moves"),
        (["--first-moves", "--game", "chess"], "one of kingdomino, kingdoms, queendomino"),
        (["--first-moves", "--database", "sqlite:///x.db"], "starts its own server on SQLite"),
        (["--first-moves", "--seconds", "0"], "--seconds is more than 0"),
        (["--first-moves", "--delay", "-1"], "--delay at least 0"),
    ],
)
def test_what_the_first_moves_cannot_run_is_refused_in_words(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["loadtest", *argv]) == 2
    assert message in capsys.readouterr().err
