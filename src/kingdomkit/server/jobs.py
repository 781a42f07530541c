"""The durable job queue of a shared database (PostgreSQL, on procrastinate): bot moves, clock
time-outs, hints and reviews, run by `kingdomkit worker` processes and by each `kingdomkit
serve` that keeps workers of its own. Workers may be added or stopped at any time.

    play      bot moves, clock time-outs   people are waiting for these
    analysis  hints, reviews               their own workers: never take a play worker

Fairness holds across every worker: a bot move or an analysis carries a lock named for its
queue and its identity (the table's owner, or the one who asked), and procrastinate runs the
jobs of one lock one at a time, so one identity holds at most one worker of a queue (the
embedded scheduler's share) and everyone else's jobs pass its queue. A clock time-out has no
lock: it is scheduled at the deadline, and a waiting job of a lock holds back the later ones.

A job is a promise about a table at a version: it reloads the table, does nothing if the move
is no longer due, and commits only against the change count it read (store.py), so a job run
twice (its worker died after the commit) plays its move once. A worker killed mid-search stops
sending heartbeats; the others find its job stalled and run it again. A process that dies
between a commit and the defer of the next job is mended by the sweep: each table stores what
it waits for, and one waiting longer than any job would let it is planned again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import procrastinate
from procrastinate.exceptions import AlreadyEnqueued
from procrastinate.schema import SchemaManager
from sqlalchemy import text

from kingdomkit.server.analysts import Analysts
from kingdomkit.server.bots import TIMEOUT_BOT, BotPool, choose, hint, review
from kingdomkit.server.database import conninfo
from kingdomkit.server.live import BOT, CLOCK, HUMAN, STAND_IN, LiveTable
from kingdomkit.server.metrics import JobRecorder
from kingdomkit.server.store import StaleError, Store

log = logging.getLogger("kingdomkit.jobs")
PLAY, ANALYSIS = "play", "analysis"
STALE_RETRIES = 5  # reloads of a table changed by another process while a move committed


def job_schema() -> str:
    """The SQL of procrastinate's tables and functions (the migrations apply it once)."""
    return SchemaManager.get_schema()


@dataclass(frozen=True)
class WorkerSettings:
    play: int = 2  # processes searching bot moves and time-outs
    analysis: int = 1  # processes making hints and reviews (0: none here)
    heartbeat: float = 10.0  # seconds between a worker's heartbeats
    stalled: float = 30.0  # seconds without a heartbeat after which a worker's jobs rerun
    sweep: float = 30.0  # seconds between looks for stalled jobs and forgotten tables
    poll: float = 1.0  # seconds between looks for jobs scheduled now (clock time-outs)


class Jobs:
    """Deferring jobs (any process) and running them (workers)."""

    def __init__(self, url: str, store: Store, analysts: Analysts | None = None) -> None:
        self.store = store
        self.analysts = analysts or Analysts()  # who makes hints and reviews (analysts.py)
        connector = procrastinate.PsycopgConnector(conninfo=conninfo(url), min_size=1)
        self.app = procrastinate.App(connector=connector)
        self.metrics = JobRecorder()  # a serve process's or a worker's JobMetrics
        self.app.task(name="play", queue=PLAY)(self._measured("play", self._play))
        self.app.task(name="clock", queue=PLAY)(self._measured("clock", self._clock))
        self.app.task(name="hint", queue=ANALYSIS)(self._measured("hint", self._hint))
        self.app.task(name="review", queue=ANALYSIS)(self._measured("review", self._review))
        self.pools: dict[str, BotPool] = {}

    def _measured(self, task: str, run: Callable[..., Awaitable[None]]) -> Callable[..., Any]:
        """`run` as a job, counted and timed in `metrics` (read when the job runs)."""

        @functools.wraps(run)
        async def job(**kwargs: Any) -> None:
            with self.metrics.job(task):
                await run(**kwargs)

        return job

    async def open(self) -> None:
        await self.app.open_async()

    async def close(self) -> None:
        for pool in self.pools.values():
            pool.close()
        await self.app.close_async()

    # -- deferring -------------------------------------------------------------------------
    async def _defer(self, task: str, lock: str | None, once: str, **kwargs: Any) -> None:
        """Queue `task`, unless the same one (`once`) is already waiting."""
        schedule_at = kwargs.pop("schedule_at", None)
        deferrer = self.app.configure_task(
            task, lock=lock, queueing_lock=once, schedule_at=schedule_at
        )
        with contextlib.suppress(AlreadyEnqueued):
            await deferrer.defer_async(**kwargs)

    async def plan(self, table: LiveTable) -> None:
        """Queue what `table` waits for: its bot's move, or the time-out of a person's
        clock at its deadline."""
        waiting, deadline = table.waiting()
        if waiting == BOT:
            seat = table.seats[table.to_act]
            await self._defer(
                "play",
                f"{PLAY} {table.share}",
                f"play {table.id} {table.version}",
                table=table.id,
                version=table.version,
                bot=seat.driver,
                by=STAND_IN if seat.kind == HUMAN else None,
            )
        elif waiting == HUMAN and deadline is not None:
            await self._defer(
                "clock",
                None,
                f"clock {table.id} {table.version}",
                schedule_at=datetime.fromtimestamp(deadline, UTC),
                table=table.id,
                version=table.version,
            )

    async def ask_hint(self, table: LiveTable, key: str) -> None:
        await self._defer(
            "hint",
            f"{ANALYSIS} {key}",
            f"hint {table.id} {table.version}",
            table=table.id,
            version=table.version,
        )

    async def ask_review(self, table: LiveTable, key: str) -> None:
        await self._defer("review", f"{ANALYSIS} {key}", f"review {table.id}", table=table.id)

    async def waiting(self) -> dict[str, tuple[int, float]]:
        """Per queue: the jobs due and not started, and the age in seconds of the oldest."""
        return await asyncio.to_thread(self.waiting_now)

    def waiting_now(self) -> dict[str, tuple[int, float]]:
        """`waiting`, on the calling thread (a worker's metrics, scraped on a thread)."""
        found = {PLAY: (0, 0.0), ANALYSIS: (0, 0.0)}
        query = text(
            "SELECT j.queue_name, count(DISTINCT j.id),"
            " extract(epoch FROM now() - min(coalesce(j.scheduled_at, e.at)))"
            " FROM procrastinate_jobs j LEFT JOIN procrastinate_events e"
            " ON e.job_id = j.id AND e.type = 'deferred'"
            " WHERE j.status = 'todo' AND (j.scheduled_at IS NULL OR j.scheduled_at <= now())"
            " GROUP BY j.queue_name"
        )
        for queue, count, age in self._rows(query):
            found[queue] = (int(count), float(age or 0.0))
        return found

    def _in_hand(self) -> set[str]:
        """The tables with a move or a time-out queued or running. The sweep leaves them be:
        a second job would wait behind the first's lock, and if the first's worker died its
        retry would clash with the second's queueing lock, and neither would ever run."""
        query = text(
            "SELECT DISTINCT args->>'table' FROM procrastinate_jobs"
            " WHERE queue_name = :queue AND status IN ('todo', 'doing')"
        ).bindparams(queue=PLAY)
        return {row[0] for row in self._rows(query)}

    def _rows(self, query: Any) -> list[Any]:
        with self.store.engine.connect() as connection:
            return list(connection.execute(query).all())

    # -- running ---------------------------------------------------------------------------
    async def work(self, settings: WorkerSettings) -> None:
        """Run the jobs of both queues here until cancelled, with the sweep."""
        runs = []
        for queue, processes in ((PLAY, settings.play), (ANALYSIS, settings.analysis)):
            if processes < 1:
                continue
            self.pools[queue] = BotPool(processes)
            runs.append(
                self.app.run_worker_async(
                    queues=[queue],
                    name=f"{queue} worker",
                    concurrency=processes,
                    install_signal_handlers=False,
                    update_heartbeat_interval=settings.heartbeat,
                    stalled_worker_timeout=settings.stalled,
                    fetch_job_polling_interval=settings.poll,
                    delete_jobs="successful",
                )
            )
        runs.append(self._mend(settings))
        await asyncio.gather(*runs)

    async def _mend(self, settings: WorkerSettings) -> None:
        """Every `sweep` seconds: run again the jobs of workers that stopped sending
        heartbeats, and plan again the tables whose jobs were lost."""
        while True:
            try:
                await self.sweep(settings.stalled, settings.sweep)
            except Exception:
                log.exception("the job sweep failed; trying again later")
            await asyncio.sleep(settings.sweep)

    async def sweep(self, stalled: float, grace: float) -> int:
        """One sweep (see `_mend`); how many jobs and tables it set going again."""
        mended = 0
        jobs = await self.app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled)
        for job in jobs:
            try:
                await self.app.job_manager.retry_job(job)
                mended += 1
                log.warning("job %s (%s) was stalled: it runs again", job.id, job.task_name)
            except Exception as error:  # another worker's sweep retried it first
                log.info("job %s was not run again: %s", job.id, error)
        in_hand = await asyncio.to_thread(self._in_hand)
        for table_id, _ in await asyncio.to_thread(self.store.waiting, grace):
            if table_id in in_hand:
                continue  # a long search, or a queue that is behind: not lost
            table = await self._load(table_id)
            if table is not None:
                await self.plan(table)
                mended += 1
        return mended

    async def _load(self, table_id: str) -> LiveTable | None:
        try:
            return await asyncio.to_thread(self.store.load, table_id)
        except Exception:  # gone, or under other rules: nothing to do
            log.exception("table %s cannot be loaded for its job", table_id)
            return None

    async def _play(self, table: str, version: int, bot: str, by: str | None) -> None:
        """A bot's (or stand-in's) move at `version`."""
        await self._move(table, version, bot, bot, by)

    async def _clock(self, table: str, version: int) -> None:
        """A person's time ran out at `version`: a bot plays their decision."""
        loaded = await self._load(table)
        if loaded is None or not loaded.awaits(version, None):
            return
        if loaded.time_left() > 0:  # their clock was started again meanwhile
            await self.plan(loaded)
            return
        log.info("time ran out at table %s, version %d", table, version)
        await self._move(table, version, TIMEOUT_BOT, None, CLOCK)

    async def _move(
        self, table_id: str, version: int, bot: str, driver: str | None, by: str | None
    ) -> None:
        table = await self._load(table_id)
        if table is None or not table.awaits(version, driver):
            return  # played already, or the seat changed hands
        moves = [action for _, action in table.actions]
        action = await self.pools[PLAY].run(
            choose, table.game_name, table.options, moves, bot, table.bot_seed()
        )
        for _ in range(STALE_RETRIES):
            fresh = await self._load(table_id)
            if fresh is None or not fresh.awaits(version, driver):
                return
            fresh.play(action, by)
            try:
                await asyncio.to_thread(self.store.append, fresh, version)
            except StaleError:
                continue  # a seat changed meanwhile: look again
            await self.plan(fresh)
            return

    async def _hint(self, table: str, version: int) -> None:
        """The analyst's advice at `version`, kept for whoever asks."""
        if await asyncio.to_thread(self.store.advice, table, version) is not None:
            return
        loaded = await self._load(table)
        if loaded is None or loaded.version < version:
            return
        moves = [action for _, action in loaded.actions[:version]]
        advice = await self.pools[ANALYSIS].run(
            hint,
            loaded.game_name,
            loaded.options,
            moves,
            self.analysts.spec(loaded.game_name),
            str(loaded.seed),
        )
        await asyncio.to_thread(self.store.save_advice, table, version, advice)

    async def _review(self, table: str) -> None:
        loaded = await self._load(table)
        if loaded is None or loaded.review is not None or not loaded.finished:
            return
        moves = [action for _, action in loaded.actions]
        started = time.monotonic()
        loaded.review = await self.pools[ANALYSIS].run(
            review,
            loaded.game_name,
            loaded.options,
            moves,
            self.analysts.spec(loaded.game_name),
            str(loaded.seed),
        )
        await asyncio.to_thread(self.store.save_review, loaded)
        log.info("table %s reviewed in %.1f s", table, time.monotonic() - started)
