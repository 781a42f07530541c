"""Long commands say how far they are in a log file too, where rich draws no bar."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from kingdomkit.cli.main import main
from kingdomkit.core import progress
from kingdomkit.core.progress import LoggedProgress


def console(terminal: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=terminal, width=100), out


def test_in_a_log_each_step_past_the_interval_writes_a_line_with_the_time_left() -> None:
    log, out = console(terminal=False)
    with LoggedProgress(console=log, label="arena", every=0) as bar:
        task = bar.add_task("games", total=4)
        bar.advance(task)
        bar.advance(task)
        unknown = bar.add_task("steps", total=None)
        bar.advance(unknown, 3)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("arena: games 1 of 4 (25%), 0:00:00 gone, about ")
    assert lines[0].endswith(" left")
    assert lines[1].startswith("arena: games 2 of 4 (50%)")
    assert lines[-1] == "arena: steps 3, 0:00:00 gone"


def test_a_resumed_run_s_time_left_is_at_this_process_s_pace() -> None:
    """A run resumed at 40 of 50 that took 10 s for its 41st has about 90 s left, not the 2 s
    that its 41 steps in 10 s would say."""
    log, out = console(terminal=False)
    now = [0.0]
    with LoggedProgress(console=log, label="learn", every=0, get_time=lambda: now[0]) as bar:
        task = bar.add_task("iterations", total=50, completed=40)
        now[0] = 10.0
        bar.advance(task)
    assert out.getvalue().splitlines()[0] == (
        "learn: iterations 41 of 50 (82%), 0:00:10 gone, about 0:01:30 left"
    )


def test_in_a_log_nothing_is_written_within_the_interval() -> None:
    log, out = console(terminal=False)
    with LoggedProgress(console=log, label="arena", every=3600) as bar:
        task = bar.add_task("games", total=4)
        for _ in range(4):
            bar.advance(task)
    assert out.getvalue() == ""


def test_in_a_terminal_the_bar_is_drawn_and_no_plain_line() -> None:
    term, out = console(terminal=True)
    with LoggedProgress(console=term, label="arena", every=0) as bar:
        task = bar.add_task("games", total=4)
        bar.advance(task)
    assert "gone" not in out.getvalue()
    assert out.getvalue()  # rich drew its bar


def test_an_arena_in_a_log_reports_its_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "LOG_EVERY", 0.0)
    status = main(
        ["arena", "kingdomino", "--bots", "greedy", "--gauntlet", "random", "--deals", "2",
         "--out", str(tmp_path), "--workers", "1", "--json"]
    )  # fmt: skip
    assert status == 0
    err = capsys.readouterr().err
    assert "arena: games 1 of 8 (12%)" in err
    assert "arena: games 6 of 8 (75%)" in err
