"""`kingdomkit worker`: runs the bot moves, clock time-outs, hints and reviews of the serve
processes that share a PostgreSQL database (server/jobs.py). Start as many as the bots need,
on any machine that reaches the database; stop any of them at any time (a job it was running
is run again by another, and its move is played once)."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
from typing import Any

from kingdomkit.cli import serve_workers
from kingdomkit.cli.serve import (
    DATABASE_ENV,
    ServeError,
    add_lazy_kernels,
    add_log_level,
    log_level,
    prepares_kernels,
)
from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.server.logs import show_logs


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "worker",
        help="run bot moves and analyses for serve processes on PostgreSQL",
        description="Run the job queue's bot moves, clock time-outs, hints and reviews for "
        "the `kingdomkit serve` processes sharing a PostgreSQL database.",
    )
    parser.add_argument(
        "--database",
        default=None,
        help=f"the PostgreSQL URL the serve processes use (default ${DATABASE_ENV})",
    )
    parser.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics (the jobs run, their times, the queues) on this port"
        " (default: none)",
    )
    parser.add_argument(
        "--metrics-address",
        default="127.0.0.1",
        metavar="HOST",
        help="the address the metrics are served on (default 127.0.0.1; they have no token:"
        " open them wider only behind a firewall)",
    )
    serve_workers.add_arguments(parser, only=serve_workers.JOBS)
    serve_workers.add_analyst(parser)
    add_lazy_kernels(parser)
    add_log_level(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from kingdomkit.server.analysts import Analysts
        from kingdomkit.server.app import ServerConfig
        from kingdomkit.server.bots import prepare_playouts
        from kingdomkit.server.database import open_engine
        from kingdomkit.server.jobs import Jobs
        from kingdomkit.server.metrics import JobMetrics, QueueCollector, process_registry
        from kingdomkit.server.store import Store
    except ImportError as missing:
        raise ServeError(
            f'the worker needs the web extra ({missing.name} is missing): pip install -e ".[web]"'
        ) from None
    database = args.database or os.environ.get(DATABASE_ENV)
    if not database or not database.startswith("postgresql"):
        raise ServeError(
            "a worker serves processes sharing a PostgreSQL database: give --database"
            " postgresql+psycopg://... (with SQLite, `kingdomkit serve` runs its bots itself)"
        )
    found = serve_workers.settings(args, only=serve_workers.JOBS)
    if found["bot_workers"] + found["analysis_workers"] < 1:
        raise ServeError("a worker runs at least one process (--bot-workers, --analysis-workers)")
    settings = ServerConfig(database, "", **found).worker
    try:
        analysts = Analysts.read(args.analyst)
    except KingdomkitError as error:
        raise ServeError(str(error)) from None

    port = args.metrics_port
    if port is not None and not 1 <= port <= 65535:
        raise ServeError(f"--metrics-port is a port from 1 to 65535, not {port}")
    prepare = prepares_kernels(args)
    logs = log_level(args)

    async def work() -> None:
        jobs = Jobs(database, Store(open_engine(database)), analysts)
        await jobs.open()
        if port is not None:
            from prometheus_client import start_http_server

            registry = process_registry()
            jobs.metrics = JobMetrics(registry)
            registry.register(QueueCollector(jobs.waiting_now))
            try:
                start_http_server(port, args.metrics_address, registry)
            except OSError as error:
                raise ServeError(
                    f"cannot serve metrics on {args.metrics_address}:{port}: {error.strerror}"
                ) from None
            print(
                f"kingdomkit: metrics on http://{args.metrics_address}:{port}/metrics", flush=True
            )
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        for stop in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(stop, task.cancel)
        print(
            f"kingdomkit: worker with {settings.play} bot and {settings.analysis} analysis"
            " processes",
            flush=True,
        )
        background = [asyncio.create_task(prepare_playouts())] if prepare else []
        try:
            await jobs.work(settings)
        except asyncio.CancelledError:
            pass
        finally:
            for task in background:
                task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            await jobs.close()

    show_logs(logs)
    asyncio.run(work())
    return 0
