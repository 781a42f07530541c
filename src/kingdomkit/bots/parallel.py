"""Root parallelism over processes: helpers that search the same root with their own seeds.

A `WorkerPool` keeps `size` helper processes for the life of a bot (started at its first
search, stopped by `close()` or when the pool is garbage collected). Each helper is a plain
`python -c` subprocess running `serve()`, fed pickled requests on its standard input, so
a pool works wherever the bot runs, even inside a daemonic multiprocessing child (which may not
fork multiprocessing children of its own). A request is (a search to make, view, budget,
seed): the search is any picklable callable returning an object that `run`s and has a
`root` (tree.py's `Search` for `mcts`, neural.py's `NeuralSearch` with its network for
`neural`); the answer is the helper's tree, pruned to nodes visited at least `least` times,
which the bot merges into its own (tree.merge). A helper does its numpy on one BLAS thread:
the pool already has a process per core it may use.
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from kingdomkit.bots.budget import Budget
from kingdomkit.bots.tree import Node, pruned
from kingdomkit.core.protocol import KingdomkitError

SHIP_LEAST = 2  # nodes visited fewer times stay in the helper
MAX_WORKERS = 64  # `workers=` of a search: processes, so a typo does not start thousands
ONE_THREAD = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


class WorkerPool:
    """`size` helper processes searching on request (see the module card)."""

    def __init__(self, size: int) -> None:
        env = dict(os.environ)
        source = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
        env.update(dict.fromkeys(ONE_THREAD, "1"))
        self.processes = [
            subprocess.Popen(
                [sys.executable, "-c", "from kingdomkit.bots.parallel import serve; serve()"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
            for _ in range(size)
        ]
        self._finalizer = weakref.finalize(self, _shutdown, list(self.processes))

    @property
    def size(self) -> int:
        return len(self.processes)

    def start(self, search: Callable[[], Any], view: Any, budget: Budget, seeds: list[int]) -> None:
        """Ask every helper for a search (one seed each); `collect` gathers the trees."""
        request = pickle.dumps(search)  # once: a network's weights are a megabyte or two
        for process, seed in zip(self.processes, seeds, strict=True):
            stream = _pipe(process.stdin)
            pickle.dump((request, view, budget, seed), stream)
            stream.flush()

    def collect(self) -> list[Node]:
        """The helpers' trees for the requests `start` sent."""
        trees = []
        for process in self.processes:
            try:
                trees.append(pickle.load(_pipe(process.stdout)))
            except EOFError:
                raise KingdomkitError("a search helper process stopped unexpectedly") from None
        return trees

    def close(self) -> None:
        self._finalizer()


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    if stream is None:
        raise KingdomkitError("a search helper process has no pipe")
    return stream


def _shutdown(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
    for process in processes:
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def serve() -> None:
    """A helper's loop: answer search requests until standard input closes."""
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # the protocol owns the real standard output
    while True:
        try:
            request, view, budget, seed = pickle.load(requests)
        except EOFError:
            return
        search = pickle.loads(request)()
        search.run(view, random.Random(seed), budget.start())
        pickle.dump(pruned(search.root, SHIP_LEAST), answers)
        answers.flush()
