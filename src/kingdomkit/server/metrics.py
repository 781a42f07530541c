"""Monitoring: `GET /health` for a load balancer, `GET /metrics` for Prometheus.

    /health   200 {"status": "ok", "database": "ok"} when `SELECT 1` on the app's engine answers
              within the time-out (`--health-timeout`), else 503 {"status": "failing",
              "database": <short reason>}. No cookie needed, no limit: one check runs at a
              time (a poll arriving meanwhile waits for it), so a hung database holds one
              thread, not one per poll.
    /metrics  Prometheus' text format, from a registry of the app's own (never the process's
              global one: the tests make many apps in one process). Answered to clients on
              loopback; others need `Authorization: Bearer <--metrics-token>`.

The metrics (docs/server.md says what each means):

    kingdomkit_info{pid, version}               1: tells the processes of a deployment apart
    kingdomkit_tables{status}                   tables in this process's memory: open, running,
                                                finished
    kingdomkit_sockets                          WebSockets open to this process
    kingdomkit_sockets_dropped_total            WebSockets closed for reading too slowly
    kingdomkit_actions_total{game}              moves committed (people's, bots', time-outs')
    kingdomkit_commit_seconds{write}            a database write, from asking to commit
    kingdomkit_jobs_waiting{queue}              bot jobs waiting for a worker, per lane
    kingdomkit_jobs_oldest_age_seconds{queue}   how long the oldest of them has waited
    kingdomkit_jobs_run_total{task, outcome}    jobs this process ran (PostgreSQL): play, clock,
                                                hint, review; done or failed
    kingdomkit_job_seconds{task}                how long each took
    process_*                                   CPU, memory, open files (prometheus_client)

`kingdomkit worker` has no web app: `--metrics-port` serves its own registry (the jobs' lines,
the queues, kingdomkit_info, process_*) on 127.0.0.1 (`--metrics-address` to open it wider,
behind a firewall: it has no token).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import Engine, text

from kingdomkit import __version__
from kingdomkit.core.registry import GAMES
from kingdomkit.server.guard import is_loopback
from kingdomkit.server.live import FINISHED, OPEN, RUNNING

if TYPE_CHECKING:
    from kingdomkit.server.service import Tables

log = logging.getLogger("kingdomkit.server")
HEALTH_TIMEOUT = 2.0  # seconds /health waits for the database (--health-timeout)
# Commits take about a millisecond on a local database; the buckets reach the seconds of one
# that waits for a lock or a disk.
# A job is a bot's move (milliseconds to the expert's seconds), a hint or a whole review.
JOB_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900)
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10)
# A request that came through a proxy is not a client on loopback, even when the proxy is.
FORWARDING_HEADERS = ("forwarded", "x-forwarded-for", "x-real-ip")

monitoring = APIRouter(include_in_schema=False)


class Recorder:
    """What the tables service reports as it works; this one notes nothing (a service made
    without an app). The app gives the service a `Metrics`."""

    def accepted(self, game: str) -> None:
        """A move of `game` was committed."""

    def writing(self, write: str) -> AbstractContextManager[Any]:
        """Around one database write named `write` (create, append, ...)."""
        return nullcontext()


class JobRecorder:
    """Around each job a process runs; this one notes nothing (no registry given)."""

    def job(self, task: str) -> AbstractContextManager[Any]:
        return nullcontext()


class JobMetrics(JobRecorder):
    """The jobs a process ran and how long each took, in `registry` (the serve process's,
    or a worker's own)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.run = Counter(
            "kingdomkit_jobs_run",
            "jobs this process ran (bot moves, clock time-outs, hints, reviews)",
            ["task", "outcome"],
            registry=registry,
        )
        self.seconds = Histogram(
            "kingdomkit_job_seconds",
            "how long a job this process ran took, from its start to its end",
            ["task"],
            buckets=JOB_BUCKETS,
            registry=registry,
        )

    @contextmanager
    def job(self, task: str) -> Iterator[None]:
        with self.seconds.labels(task).time():
            try:
                yield
            except Exception:
                self.run.labels(task, "failed").inc()
                raise
        self.run.labels(task, "done").inc()


def process_registry() -> CollectorRegistry:
    """A registry with kingdomkit_info (this process's id, kingdomkit's version) and the
    process's CPU, memory and open files."""
    registry = CollectorRegistry(auto_describe=True)
    info = Gauge(
        "kingdomkit_info",
        "1, labelled with this process's id and kingdomkit's version",
        ["pid", "version"],
        registry=registry,
    )
    info.labels(str(os.getpid()), __version__).set(1)
    ProcessCollector(registry=registry)
    return registry


class QueueCollector(Collector):
    """The job queues' waiting jobs and the age of the oldest, read when scraped."""

    def __init__(self, waiting: Callable[[], dict[str, tuple[int, float]]]) -> None:
        self.waiting = waiting

    def collect(self) -> Iterator[Metric]:
        yield from queue_families(self.waiting())


def queue_families(found: dict[str, tuple[int, float]]) -> Iterator[Metric]:
    waiting = GaugeMetricFamily(
        "kingdomkit_jobs_waiting", "bot jobs waiting for a worker", labels=["queue"]
    )
    oldest = GaugeMetricFamily(
        "kingdomkit_jobs_oldest_age_seconds",
        "seconds the oldest waiting job has waited (0: none waits)",
        labels=["queue"],
    )
    for queue, (count, age) in sorted(found.items()):
        waiting.add_metric([queue], count)
        oldest.add_metric([queue], age)
    yield waiting
    yield oldest


class Metrics(Recorder):
    """The app's registry: counters the service updates, and what is read at each scrape."""

    def __init__(self, tables: Tables) -> None:
        self.registry = process_registry()
        self.actions = Counter(
            "kingdomkit_actions",
            "moves committed at this process's tables (people's, bots', time-outs')",
            ["game"],
            registry=self.registry,
        )
        # the labelled children, found once (every game shown from the start, at 0)
        self.by_game = {game: self.actions.labels(game) for game in GAMES}
        self.commits = Histogram(
            "kingdomkit_commit_seconds",
            "a database write, from asking for it to its commit (the wait for the writer too)",
            ["write"],
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        self.by_write: dict[str, Histogram] = {}
        self.state = StateCollector(tables)
        self.registry.register(self.state)
        self.jobs = JobMetrics(self.registry)  # the jobs of its own workers (PostgreSQL)

    def accepted(self, game: str) -> None:
        counter = self.by_game.get(game)
        if counter is None:
            counter = self.by_game[game] = self.actions.labels(game)
        counter.inc()

    def writing(self, write: str) -> AbstractContextManager[Any]:
        histogram = self.by_write.get(write)
        if histogram is None:
            histogram = self.by_write[write] = self.commits.labels(write)
        timer: AbstractContextManager[Any] = histogram.time()
        return timer

    async def render(self) -> bytes:
        """The metrics in Prometheus' text format, the job queues asked first."""
        self.state.waiting = await self.state.tables.jobs_waiting()
        return generate_latest(self.registry)


class StateCollector(Collector):
    """What the process holds, read when scraped: tables, sockets, job queues."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.waiting: dict[str, tuple[int, float]] = {}  # set by Metrics.render

    def collect(self) -> Iterator[Metric]:
        by_status = GaugeMetricFamily(
            "kingdomkit_tables", "tables held in memory, by status", labels=["status"]
        )
        statuses = [table.status for table in self.tables.live.values()]
        for status in (OPEN, RUNNING, FINISHED):
            by_status.add_metric([status], statuses.count(status))
        yield by_status
        hub = self.tables.hub
        yield GaugeMetricFamily(
            "kingdomkit_sockets",
            "WebSockets open to this process",
            value=sum(len(sockets) for sockets in hub.connections.values()),
        )
        yield CounterMetricFamily(
            "kingdomkit_sockets_dropped",
            "WebSockets closed for reading their views too slowly",
            value=hub.dropped,
        )
        yield from queue_families(self.waiting)


class Health:
    """`SELECT 1` on the engine, on a thread of its own, within a time-out. One check runs at
    a time: a poll arriving while one is under way waits for that one."""

    def __init__(self, engine: Engine, timeout: float = HEALTH_TIMEOUT) -> None:
        if timeout <= 0:
            raise ValueError("the health check's time-out is more than 0 seconds")
        self.engine = engine
        self.timeout = timeout
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kingdomkit-health")
        self.running: asyncio.Future[None] | None = None
        self.last = "ok"  # the last answer, to log only its changes

    async def database(self) -> str:
        """ "ok", or a short reason why the database does not answer (the details go to the
        log: the reason is shown to anyone, and names no host or user)."""
        if self.running is None or self.running.done():
            self.running = asyncio.get_running_loop().run_in_executor(self.thread, self._select)
        try:
            await asyncio.wait_for(asyncio.shield(self.running), self.timeout)
            reason = "ok"
        except TimeoutError:
            reason = f"no answer within {self.timeout:g} s"
        except Exception as error:
            reason = f"error ({type(error).__name__})"
            if reason != self.last:
                log.warning("the health check's SELECT 1 failed: %s", error)
        if reason != self.last:
            log.warning("health: the database is %s (was %s)", reason, self.last)
            self.last = reason
        return reason

    def _select(self) -> None:
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def close(self) -> None:
        self.thread.shutdown(wait=False, cancel_futures=True)


def may_read_metrics(request: Request, token: str | None) -> bool:
    """A client on loopback (not through a proxy), or one with the bearer token."""
    client = request.client
    forwarded = any(name in request.headers for name in FORWARDING_HEADERS)
    if client is not None and is_loopback(client.host) and not forwarded:
        return True
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if not token or scheme.lower() != "bearer":
        return False
    return secrets.compare_digest(given.strip().encode(), token.encode())


@monitoring.get("/health")
async def health(request: Request) -> JSONResponse:
    checker: Health = request.app.state.health
    database = await checker.database()
    if database == "ok":
        return JSONResponse({"status": "ok", "database": "ok"})
    return JSONResponse({"status": "failing", "database": database}, status_code=503)


@monitoring.get("/metrics")
async def metrics(request: Request) -> Response:
    token: str | None = request.app.state.metrics_token
    if not may_read_metrics(request, token):
        how = (
            "or with the header `Authorization: Bearer <token>` (the server's --metrics-token)"
            if token
            else "only (this server was started without --metrics-token)"
        )
        return JSONResponse({"detail": f"the metrics are for clients on loopback {how}"}, 403)
    registry: Metrics = request.app.state.metrics
    return Response(await registry.render(), media_type=CONTENT_TYPE_LATEST)
