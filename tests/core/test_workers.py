"""Worker pools end with the process that started them (kingdomkit.core.workers): a parent
killed with SIGKILL while its workers were still starting, the moment the kernel sends them no
signal, leaves no worker waiting on for work that will never come. (A server killed while its
bots play: tests/server/test_bot_workers.py; a training run: tests/learn.)"""

from __future__ import annotations

import os
import subprocess
import sys

from kingdomkit.core.workers import worker_pool
from processes import still_running

# Starts a pool, asks two workers for, prints their process ids and kills itself at once,
# long before a new Python process has come as far as its initializer.
KILLED_WHILE_STARTING = """
import os, signal
from kingdomkit.core.workers import worker_pool
pool = worker_pool(2)
for _ in range(2):
    pool.submit(os.getpid)
print(*pool._processes, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_workers_of_a_pool_killed_while_they_start_leave() -> None:
    # Its workers keep its standard output open as long as they run: read a line, not to the end.
    with subprocess.Popen(
        [sys.executable, "-c", KILLED_WHILE_STARTING], stdout=subprocess.PIPE, text=True
    ) as pool:
        assert pool.stdout is not None
        pids = {int(word) for word in pool.stdout.readline().split()}
        assert pool.wait(timeout=60) == -9
    assert len(pids) == 2
    assert not still_running(pids)


def test_a_pool_does_its_work_in_other_processes() -> None:
    with worker_pool(2) as pool:
        pids = set(pool.map(_pid, range(8)))
    assert pids and os.getpid() not in pids


def _pid(_: int) -> int:
    return os.getpid()
