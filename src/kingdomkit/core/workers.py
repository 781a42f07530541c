"""Pools of worker processes that end with the process that started them.

A spawned worker holds both ends of its own job queue, so it never sees the queue close:
when its parent is killed with SIGKILL (a crash, the OOM killer, `kill -9` on a server or a
training run) it would finish the game in hand and then wait for work forever, a search's
memory and a core lost until the machine restarts. Here each worker asks the kernel to kill it
with its parent, and leaves at once if the parent died while the worker was still starting.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def die_with_parent(parent: int) -> None:
    """In a worker process (Linux): be killed when `parent`, the process that started it,
    dies. A parent killed while the worker was still starting sends no signal, so the worker
    checks once the signal is asked for, and leaves if its parent has gone."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of up to `workers` spawned processes (not forked: a server or a trainer holds
    threads) that die with this one. The kernel ties a worker to the thread that started
    it: submit work from a thread that lives as long as the pool (the main thread or the
    event loop's)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
