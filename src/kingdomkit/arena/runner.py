"""Where a tournament's games are played: in this process, in local processes, or on Ray.

Each runner takes the games still to play and yields their outcomes as they finish, in any
order (the caller appends each to games.jsonl at once). Workers play whole games and build the
game and the bots from their names (outcome.play_scheduled), so a game played anywhere equals
the same game played here, bots with a time budget aside.

    serial   one game after another in this process (workers = 1)
    local    a pool of `workers` spawned processes that die with the arena
    ray      one remote task per game on the cluster at ADDRESS, collected with ray.wait;
             at most twice the cluster's CPUs in flight
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from kingdomkit.arena.extras import require
from kingdomkit.arena.outcome import Outcome, play_scheduled
from kingdomkit.arena.schedule import ScheduledGame
from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.core.workers import die_with_parent


def run_serial(
    game: str, options: Mapping[str, Any], games: Sequence[ScheduledGame]
) -> Iterator[Outcome]:
    """Play the games one after another in this process."""
    for task in games:
        yield play_scheduled(game, options, task)


def _start_worker(parent: int) -> None:
    # A worker ends with the arena (killed, or stopped by SIGTERM, mid-game); Ctrl-C reaches
    # the whole process group, and the arena alone decides to stop the pool.
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play(job: tuple[str, Mapping[str, Any], ScheduledGame]) -> Outcome:
    return play_scheduled(*job)


def run_local(
    game: str, options: Mapping[str, Any], games: Sequence[ScheduledGame], workers: int
) -> Iterator[Outcome]:
    """Play the games on `workers` local processes; an interruption stops them at once."""
    if workers <= 1 or len(games) <= 1:
        yield from run_serial(game, options, games)
        return
    # Spawned, so that each worker is the arena's own child and can die with it: a fork
    # server's workers are the fork server's children, and outlived a stopped arena.
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(
        min(workers, len(games)), initializer=_start_worker, initargs=(os.getpid(),)
    )
    try:
        jobs = [(game, options, task) for task in games]
        yield from pool.imap_unordered(_play, jobs, chunksize=1)
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def _check_reachable(address: str) -> None:
    """Fail fast (Ray itself waits minutes) when nothing listens at host:port."""
    if address in ("auto", "local"):
        return
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise KingdomkitError(f"--ray takes a HOST:PORT address (or auto), not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise KingdomkitError(f"cannot reach the Ray cluster at {address}: {reason}") from None


def run_ray(
    game: str, options: Mapping[str, Any], games: Sequence[ScheduledGame], address: str
) -> Iterator[Outcome]:
    """Play the games as Ray tasks on the cluster at `address`, one task per game."""
    ray = require("ray", "--ray")
    _check_reachable(address)
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except Exception as error:  # Ray raises many kinds (ConnectionError, RuntimeError, ...)
        raise KingdomkitError(f"cannot connect to the Ray cluster at {address}: {error}") from None
    pending: list[Any] = []
    try:
        remote = ray.remote(play_scheduled)
        window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        queue = iter(games)
        for task in queue:
            pending.append(remote.remote(game, dict(options), task))
            if len(pending) >= window:
                break
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for task in queue:
                pending.append(remote.remote(game, dict(options), task))
                break
            try:
                outcome: Outcome = ray.get(finished[0])
            except ray.exceptions.RayError as error:
                lines = [line for line in str(error).splitlines() if line.strip()]
                reason = lines[-1].strip() if lines else type(error).__name__
                raise KingdomkitError(f"a game failed on the Ray cluster: {reason}") from None
            yield outcome
    finally:
        for reference in pending:
            ray.cancel(reference, force=True)
        ray.shutdown()
