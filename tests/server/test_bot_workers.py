"""The bot workers die with the process that started them: a `kingdomkit serve` killed with
SIGKILL while its bots play, or one killed while its workers are still starting (the moment
the kernel sends them no signal), leaves no worker waiting on for work that will never come."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx2

from serving import ServeProcess

DEATH_SECONDS = 30  # how long a worker may take to notice its parent has gone
HUMAN = {"kind": "human"}

# Starts a pool, asks two workers for, prints their process ids and kills itself at once,
# long before a new Python process has come as far as its initializer.
KILLED_WHILE_STARTING = """
import os, signal
from kingdomkit.server.bots import BotPool
pool = BotPool(2)
for _ in range(2):
    pool.executor.submit(os.getpid)
print(*pool.executor._processes, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def workers_of(parent: int) -> set[int]:
    """The multiprocessing workers whose parent is `parent`."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == parent and b"spawn_main" in command:
            found.add(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    """Whether `pid` is a live worker (not gone, not a zombie waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return state != "Z" and b"spawn_main" in command


def still_running(pids: set[int]) -> set[int]:
    """Those of `pids` still running after DEATH_SECONDS at most."""
    deadline = time.monotonic() + DEATH_SECONDS
    while (alive := {pid for pid in pids if running(pid)}) and time.monotonic() < deadline:
        time.sleep(0.2)
    return alive


def test_workers_started_by_a_pool_killed_at_once_leave() -> None:
    # Its workers keep its standard output open as long as they run: read a line, not to the end.
    with subprocess.Popen(
        [sys.executable, "-c", KILLED_WHILE_STARTING], stdout=subprocess.PIPE, text=True
    ) as pool:
        assert pool.stdout is not None
        pids = {int(word) for word in pool.stdout.readline().split()}
        assert pool.wait(timeout=60) == -9
    assert len(pids) == 2
    assert not still_running(pids)


def test_a_server_killed_while_its_bots_play_leaves_no_worker(served: ServeProcess) -> None:
    ann = httpx2.Client(base_url=served.url, timeout=60)
    made = ann.post(
        "/api/tables",
        json={"game": "kingdomino", "seats": [HUMAN, {"kind": "bot", "bot": "hard"}]},
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    handed = ann.post(f"/api/tables/{table}/seats/0/bot", json={"bot": "hard"})
    assert handed.status_code == 200, handed.text
    assert served.process is not None
    server = served.process.pid
    deadline = time.monotonic() + DEATH_SECONDS
    while time.monotonic() < deadline:  # until the bots have moved: their workers run
        workers = workers_of(server)
        if workers and ann.get(f"/api/tables/{table}").json()["log"]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the bots did not move")

    served.kill()
    assert not still_running(workers)
