"""Who gets the bot workers: two lanes of worker processes, each with a queue per identity.

    play lane      bot moves, clock time-outs    people are waiting for these
    analysis lane  hints, reviews                its own processes: never takes a play worker

A job belongs to an identity (the owner of its table; the table itself when it has none, e.g.
an uploaded record). Each lane serves its identities' queues round robin, and an identity holds
at most `share` of the lane's workers (even alone: the rest stay free for the next identity's
move), and never more than an equal split of the workers among the identities with jobs. A
queued job that is no longer wanted when its turn comes (its table moved on) is dropped
without taking a worker. Every start is recorded in `started`, so that tests check the order
rather than a clock.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kingdomkit.server.bots import BotPool, choose

STARTS_KEPT = 1000  # recent starts kept in `started`


class DroppedError(Exception):
    """The job was no longer wanted when its turn came: it never ran."""


@dataclass
class Job:
    key: str  # the identity whose share it uses
    label: str  # what it is, for the record of starts
    work: Callable[..., Any]
    args: tuple[Any, ...]
    wanted: Callable[[], bool]
    future: asyncio.Future[Any] = field(repr=False)
    queued_at: float = field(default_factory=time.monotonic)


class Lane:
    """Worker processes serving a queue per identity in turn (see the module card)."""

    def __init__(self, name: str, workers: int, share: int, started: deque[tuple[str, str, str]]):
        if workers < 1 or share < 1:
            raise ValueError("a lane has at least one worker, and an identity a share of one")
        self.name = name
        self.workers = workers
        self.share = share
        self.started = started
        self.pool = BotPool(workers)
        self.queues: dict[str, deque[Job]] = {}
        self.running: Counter[str] = Counter()
        self.served: dict[str, int] = {}  # when each identity with jobs last started one
        self.starts = 0
        self.tasks: set[asyncio.Task[Any]] = set()

    @property
    def busy(self) -> int:
        return sum(self.running.values())

    def queued(self, key: str | None = None) -> int:
        """Jobs waiting (of `key`, or of everyone)."""
        if key is not None:
            return len(self.queues.get(key, ()))
        return sum(len(queue) for queue in self.queues.values())

    async def run(
        self,
        key: str,
        label: str,
        work: Callable[..., Any],
        *args: Any,
        wanted: Callable[[], bool] = lambda: True,
    ) -> Any:
        """`work(*args)` in a worker at `key`'s turn; DroppedError if not `wanted()` by then."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queues.setdefault(key, deque()).append(Job(key, label, work, args, wanted, future))
        self._dispatch()
        return await future

    def waiting(self) -> tuple[int, float]:
        """Jobs waiting, and the seconds the oldest of them has waited (0: none)."""
        heads = [queue[0].queued_at for queue in self.queues.values() if queue]
        return self.queued(), time.monotonic() - min(heads) if heads else 0.0

    def _limit(self) -> int:
        """The workers an identity may hold now: its share, and no more than an equal split
        among the identities with jobs running or waiting."""
        active = len(set(self.queues) | {k for k, n in self.running.items() if n})
        return min(self.share, max(1, math.ceil(self.workers / max(1, active))))

    def _dispatch(self) -> None:
        while self.busy < self.workers:
            job = self._next_job()
            if job is None:
                return
            self._start(job)

    def _next_job(self) -> Job | None:
        """The next job of the identity served least recently among those under their limit
        (round robin); stale and abandoned jobs met on the way are dropped."""
        for key in list(self.queues):
            queue = self.queues[key]
            while queue and (queue[0].future.done() or not queue[0].wanted()):
                stale = queue.popleft()
                if not stale.future.done():
                    stale.future.set_exception(DroppedError(stale.label))
            if not queue:
                self._forget(key)
        limit = self._limit()
        ready = [key for key in self.queues if self.running[key] < limit]
        if not ready:
            return None
        key = min(ready, key=lambda k: self.served.get(k, 0))
        job = self.queues[key].popleft()
        if not self.queues[key]:
            self._forget(key)
        return job

    def _forget(self, key: str) -> None:
        """`key` has no job waiting: its queue goes, and its turn too once none runs."""
        self.queues.pop(key, None)
        if not self.running[key]:
            self.running.pop(key, None)
            self.served.pop(key, None)

    def _start(self, job: Job) -> None:
        self.starts += 1
        self.served[job.key] = self.starts
        self.running[job.key] += 1
        self.started.append((self.name, job.key, job.label))
        task = asyncio.get_running_loop().create_task(self.pool.run(job.work, *job.args))
        self.tasks.add(task)
        task.add_done_callback(lambda done: self._finished(job, done))

    def _finished(self, job: Job, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        self.running[job.key] -= 1
        if not self.running[job.key] and job.key not in self.queues:
            self._forget(job.key)
        if not job.future.done():
            if task.cancelled():
                job.future.cancel()
            elif task.exception() is not None:
                job.future.set_exception(task.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(task.result())
        self._dispatch()

    def close(self) -> None:
        for queue in self.queues.values():
            for job in queue:
                job.future.cancel()
        self.queues.clear()
        for task in self.tasks:
            task.cancel()
        self.pool.close()


class Scheduler:
    """The play lane and the analysis lane, and the record of every job's start."""

    def __init__(
        self,
        play_workers: int = 2,
        play_share: int = 1,
        analysis_workers: int = 1,
        analysis_share: int = 1,
    ) -> None:
        self.started: deque[tuple[str, str, str]] = deque(maxlen=STARTS_KEPT)
        self.play = Lane("play", play_workers, play_share, self.started)
        self.analysis = Lane("analysis", analysis_workers, analysis_share, self.started)

    async def move(
        self,
        game_name: str,
        options: dict[str, Any],
        actions: list[int],
        bot: str,
        seed: str,
        key: str = "",
        label: str = "move",
        wanted: Callable[[], bool] = lambda: True,
    ) -> int:
        """A bot's move, in the play lane in `key`'s queue (the arguments of a move come
        first, as BotPool.move has them); DroppedError if no longer `wanted()` at its turn."""
        action: int = await self.play.run(
            key, label, choose, game_name, options, actions, bot, seed, wanted=wanted
        )
        return action

    def waiting(self) -> dict[str, tuple[int, float]]:
        """Per lane: the jobs waiting, and the age in seconds of the oldest (0: none)."""
        return {lane.name: lane.waiting() for lane in (self.play, self.analysis)}

    def close(self) -> None:
        self.play.close()
        self.analysis.close()
