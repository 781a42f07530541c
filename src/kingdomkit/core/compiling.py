"""A numba kernel compiled once per machine, however many processes need it at once.

A kernel compiles on its first call, for minutes on a fresh install (Queendomino's playouts
about two), and numba then keeps it on disk. Every process that calls it before then would
compile it again: a server's bot workers, an arena's, the test suite's, the environments of a
vectorised RL run. So the first call of a kernel in a process (`first_call`) takes a lock per
kernel on the machine: one process compiles, the others wait and then load numba's copy in a
second. Plain Python (the lock is filelock's, when installed), so that any layer can use it.
"""

from __future__ import annotations

import getpass
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

LOCK_SECONDS = 900.0  # the longest wait for another process's compilation: then compile too
_ready: set[Any] = set()  # the kernels (numba dispatchers) this process compiled or loaded


def loaded(kernel: Any) -> bool:
    """Whether `kernel` was compiled or loaded in this process (a set lookup: cheap enough
    for every call of a hot path)."""
    return kernel in _ready


def first_call(kernel: Any, call: Callable[[], T]) -> T:
    """`call()`, a call of `kernel`: the first one in this process under the machine's lock
    for that kernel (module card), the later ones at once."""
    if kernel in _ready:
        return call()
    with one_compiler(kernel):
        result = call()
    _ready.add(kernel)
    return result


@contextmanager
def one_compiler(kernel: Any) -> Iterator[None]:
    """Held by one process of this machine (this user, this numba cache) at a time for
    `kernel` (a numba dispatcher); not held, rather than fail, when the lock cannot be had
    (no filelock, a folder not writable, a holder stuck for LOCK_SECONDS)."""
    try:
        from filelock import FileLock, Timeout
    except ImportError:
        yield
        return
    cache = os.environ.get("NUMBA_CACHE_DIR", "")
    where = f"{kernel.py_func.__code__.co_filename}:{kernel.__name__}:{cache}"
    name = hashlib.sha256(where.encode()).hexdigest()[:16]
    user = os.getuid() if hasattr(os, "getuid") else getpass.getuser()
    path = Path(tempfile.gettempdir()) / f"kingdomkit-{user}-compile-{name}.lock"
    lock = FileLock(path, timeout=LOCK_SECONDS)
    try:
        lock.acquire()
    except (Timeout, OSError):
        yield
        return
    try:
        yield
    finally:
        lock.release()
