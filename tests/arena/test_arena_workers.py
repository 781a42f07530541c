"""`kingdomkit arena --workers N` stopped by SIGTERM or SIGKILL takes its workers with it, be
they still starting or mid-game: none plays on for minutes, or waits forever for games, after
the arena has gone."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from processes import DEATH_SECONDS, cpu_seconds, started_workers, still_running

# Games of minutes (five seconds a move): a worker that has started is mid-game.
SLOW = ["kingdomino", "--players", "2", "--bots", "mcts:time=5", "--gauntlet", "greedy"]
PLAYING_SECONDS = 3.0  # processor time a worker has used once it is surely searching


def playing(workers: set[int]) -> None:
    """Wait until every worker has used PLAYING_SECONDS of processor time."""
    deadline = time.monotonic() + DEATH_SECONDS
    while min(cpu_seconds(pid) for pid in workers) < PLAYING_SECONDS:
        assert time.monotonic() < deadline, "the workers did not start playing"
        time.sleep(0.2)


@pytest.mark.parametrize(
    ("stop", "wait"),
    [(signal.SIGKILL, False), (signal.SIGKILL, True), (signal.SIGTERM, True)],
    ids=["kill-starting", "kill-playing", "term-playing"],
)
def test_workers_end_with_a_stopped_arena(stop: signal.Signals, wait: bool, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "kingdomkit", "arena", *SLOW, "--deals", "2"]
    with subprocess.Popen(
        [*command, "--workers", "2", "--out", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as arena:
        try:
            workers = started_workers(arena.pid, 2)
            if wait:
                playing(workers)
        finally:
            arena.send_signal(stop)
        assert arena.wait(timeout=60) == -stop
    assert len(workers) == 2
    assert not still_running(workers)
