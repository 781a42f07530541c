"""The worker processes a process started, read from /proc (Linux), for the tests that kill
a server or a training run and check that its workers went with it."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

DEATH_SECONDS = 30  # how long a worker may take to notice that its parent has gone


def _stat(pid: str | int) -> list[str]:
    """The fields of /proc/`pid`/stat after the command's name (OSError once it has gone)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _worker(pid: str, marker: bytes = b"spawn_main") -> tuple[int, str] | None:
    """The parent and state of process `pid` if it is a multiprocessing worker (or the
    process `marker` names, e.g. b"resource_tracker"), else None (also when it has ended
    meanwhile)."""
    try:
        fields = _stat(pid)
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return (int(fields[1]), fields[0]) if marker in command else None


def workers_of(parent: int, marker: bytes = b"spawn_main") -> set[int]:
    """The multiprocessing workers (or `marker`'s processes) whose parent is `parent`."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        worker = _worker(stat.parent.name, marker)
        if worker is not None and worker[0] == parent:
            found.add(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    """Whether `pid` is a live worker (not gone, not a zombie waiting to be reaped)."""
    worker = _worker(str(pid))
    return worker is not None and worker[1] != "Z"


def still_running(pids: set[int]) -> set[int]:
    """Those of `pids` still running after DEATH_SECONDS at most, killed then, so that a
    failing test leaves nothing behind."""
    deadline = time.monotonic() + DEATH_SECONDS
    while (alive := {pid for pid in pids if running(pid)}) and time.monotonic() < deadline:
        time.sleep(0.2)
    for pid in alive:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return alive


def gone(pids: set[int]) -> bool:
    """Whether all of `pids` have ended (or been reaped) within DEATH_SECONDS."""
    deadline = time.monotonic() + DEATH_SECONDS
    while any(Path(f"/proc/{pid}").exists() for pid in pids):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


def cpu_seconds(pid: int) -> float:
    """The processor time `pid` has used, user and system (0 once it has gone)."""
    try:
        fields = _stat(pid)
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def started_workers(parent: int, count: int = 1) -> set[int]:
    """The workers of `parent` once it has `count` of them (a pool starts its workers one
    after another); AssertionError after DEATH_SECONDS."""
    deadline = time.monotonic() + DEATH_SECONDS
    while len(found := workers_of(parent)) < count:
        assert time.monotonic() < deadline, f"{len(found)} of {count} workers started"
        time.sleep(0.05)
    return found
