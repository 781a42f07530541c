"""The application: the API routers, the browser client's files, sessions, and the tables
service with its database and bot workers (started and stopped with the app)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware
from swagger_ui_bundle import swagger_ui_path

from kingdomkit import __version__
from kingdomkit.core.registry import GAMES
from kingdomkit.server import api
from kingdomkit.server.accounts import Accounts
from kingdomkit.server.analysts import Analysts
from kingdomkit.server.bots import prepare_playouts
from kingdomkit.server.database import open_engine
from kingdomkit.server.fanout import Listener
from kingdomkit.server.guard import OriginCheck, SecurityHeaders
from kingdomkit.server.hub import Hub, KeepTransport
from kingdomkit.server.jobs import Jobs, WorkerSettings
from kingdomkit.server.limits import BodyLimit, Guard, Limits
from kingdomkit.server.live import RefusedError
from kingdomkit.server.metrics import HEALTH_TIMEOUT, Health, Metrics, monitoring
from kingdomkit.server.rates import Rates
from kingdomkit.server.scheduler import Scheduler
from kingdomkit.server.service import Tables
from kingdomkit.server.sessions import EndedSessions, Sessions
from kingdomkit.server.store import Store

CLIENT = Path(__file__).with_name("client")
BOARDS_MARK = "  <!-- the games' boards -->\n"  # in index.html: where table_page puts them


def table_page() -> str:
    """index.html with the script of each registered game's board that has one
    (client/boards/<game>.js): a new game's drawing is its file, not an edit of the page."""
    page = (CLIENT / "index.html").read_text(encoding="utf-8")
    scripts = "".join(
        f'  <script src="/static/boards/{name}.js"></script>\n'
        for name in GAMES
        if (CLIENT / "boards" / f"{name}.js").is_file()
    )
    assert BOARDS_MARK in page, "index.html lost the mark where the boards' scripts go"
    return page.replace(BOARDS_MARK, scripts)


SESSION_DAYS = 30
DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kingdomkit API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/static/docs.js"></script></body></html>
"""
LISTEN_TIMEOUT = 30.0  # seconds to start listening to a shared database's notifications
GC_YOUNG = 50_000  # allocations between collections of the youngest generation


@dataclass(frozen=True)
class ServerConfig:
    database: str  # an SQLAlchemy URL
    secret: str  # signs the session cookies
    bot_workers: int = 2  # play lane: processes playing bot moves
    secure_cookies: bool = False  # True behind HTTPS
    origins: tuple[str, ...] = ()  # the origins that may act (none given: the request's host)
    local_only: bool = False  # served on loopback: only loopback host names are answered
    limits: Limits = field(default_factory=Limits)
    bot_share: int = 1  # play workers one identity may hold at once
    analysis_workers: int = 1  # analysis lane: processes making hints and reviews
    send_queue: int = 32  # views waiting for a WebSocket before it is dropped as too slow
    send_timeout: float = 10.0  # seconds a WebSocket may take to accept one view
    send_buffer: int = 65536  # bytes the kernel may hold unsent for one WebSocket
    job_heartbeat: float = 10.0  # seconds between a job worker's heartbeats (PostgreSQL)
    job_stalled: float = 30.0  # seconds without a heartbeat before a worker's jobs rerun
    job_sweep: float = 30.0  # seconds between sweeps for stalled jobs and lost tables
    prepare_playouts: bool = False  # compile the bots' kernels at start (serve, worker)

    def __post_init__(self) -> None:
        if (
            not self.database.startswith("postgresql")
            and min(self.bot_workers, self.analysis_workers) < 1
        ):
            raise ValueError(
                "with SQLite this process plays every bot itself: --bot-workers and"
                " --analysis-workers are at least 1 (0 is for serve processes on PostgreSQL,"
                " with `kingdomkit worker` processes beside them)"
            )

    @property
    def worker(self) -> WorkerSettings:
        """The job worker this process runs on a shared database."""
        return WorkerSettings(
            play=self.bot_workers,
            analysis=self.analysis_workers,
            heartbeat=self.job_heartbeat,
            stalled=self.job_stalled,
            sweep=self.job_sweep,
        )

    health_timeout: float = HEALTH_TIMEOUT  # seconds /health waits for the database
    metrics_token: str | None = None  # lets clients not on loopback read /metrics
    rates: Rates | None = None  # where rate limits are counted (None: this process's memory)
    analysts: Analysts = field(default_factory=Analysts)  # who makes hints and reviews


def create_app(config: ServerConfig) -> FastAPI:
    page_text = table_page()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = open_engine(config.database)
        bots = Scheduler(
            max(1, config.bot_workers), config.bot_share, max(1, config.analysis_workers)
        )
        hub = Hub(config.send_queue, config.send_timeout, config.send_buffer)
        store = Store(engine)
        jobs = Jobs(config.database, Store(engine), config.analysts) if store.shared else None
        tables = Tables(store, bots, hub, jobs, config.analysts)
        app.state.tables = tables
        background: list[asyncio.Task[Any]] = []
        if jobs is not None:
            await jobs.open()
            listener = Listener(config.database, tables.heard, tables.lost)
            background.append(asyncio.create_task(listener.run()))
            await asyncio.wait_for(listener.ready.wait(), LISTEN_TIMEOUT)
            tables.share_sockets(app.state.guard)
            background.append(asyncio.create_task(tables.keep_presence()))
            if config.bot_workers or config.analysis_workers:
                background.append(asyncio.create_task(jobs.work(config.worker)))
        tables.metrics = app.state.metrics = Metrics(tables)
        if jobs is not None:
            jobs.metrics = app.state.metrics.jobs
        app.state.health = Health(engine, config.health_timeout)
        limits = config.limits
        background.append(asyncio.create_task(tables.keep_tidy(limits.open_table_minutes)))
        if config.prepare_playouts and (config.bot_workers or config.analysis_workers):
            background.append(asyncio.create_task(prepare_playouts()))
        app.state.accounts = Accounts(engine, limits.password_workers, limits.password_queue)
        app.state.sessions = Sessions(engine, store.tell)
        tables.ended = app.state.sessions.forget
        await tables.resume()
        # A full collection walks every object of every table in memory, which stalled the
        # event loop for tens of milliseconds under load (docs/benchmarks.md): what exists at
        # start is set aside, and young objects are collected less often.
        gc.freeze()
        gc.set_threshold(GC_YOUNG, 50, 1000)
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            await tables.close()
            if jobs is not None:
                await jobs.close()
            app.state.health.close()
            app.state.accounts.close()
            engine.dispose()

    app = FastAPI(
        title="kingdomkit",
        version=__version__,
        summary="Play Kingdomino, Queendomino and Kingdoms with friends and bots.",
        lifespan=lifespan,
        docs_url=None,  # served below from the package's own copy of Swagger UI, no CDN
        redoc_url=None,
    )
    # The last added is the outermost: the WebSocket's transport noted, headers on every
    # answer, the origin check and the body's size before anything is read, then the cookie,
    # then whether its signed-in session still lives.
    app.state.guard = Guard(config.limits, config.rates, config.secret)
    app.state.metrics_token = config.metrics_token
    app.add_middleware(EndedSessions)
    app.add_middleware(
        SessionMiddleware,
        secret_key=config.secret,
        session_cookie="kingdomkit",
        max_age=SESSION_DAYS * 24 * 3600,
        same_site="lax",
        https_only=config.secure_cookies,
    )
    app.add_middleware(BodyLimit, limits=config.limits)  # before anything reads a body
    app.add_middleware(OriginCheck, origins=config.origins, loopback=config.local_only)
    app.add_middleware(SecurityHeaders, https=config.secure_cookies)  # on every answer
    app.add_middleware(KeepTransport)  # the last added, so the outermost

    @app.exception_handler(RefusedError)
    async def refused(_request: Request, error: RefusedError) -> JSONResponse:
        headers = getattr(error, "headers", None)  # Retry-After of a limit
        return JSONResponse({"detail": str(error)}, status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        # Where and why, without the refused input: it may hold what UTF-8 cannot encode (a
        # lone surrogate, even in a key of the field's path), which failed the answer with 500.
        detail = [
            {"loc": [readable(p) for p in e["loc"]], "msg": readable(e["msg"]), "type": e["type"]}
            for e in error.errors()
        ]
        return JSONResponse({"detail": detail}, status_code=422)

    app.include_router(api.lobby)
    app.include_router(api.play)
    app.include_router(api.sockets)
    app.include_router(monitoring)
    app.mount("/static", StaticFiles(directory=CLIENT), name="client")
    app.mount("/docs/assets", StaticFiles(directory=swagger_ui_path), name="swagger-ui")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(DOCS_PAGE)

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    async def page(request: Request, table_id: str | None = None) -> HTMLResponse:
        # The session (a guest's identity) comes with the page, so that the page's first
        # requests never each make one and race to set the cookie: a join made as one guest
        # was then followed over the WebSocket as another.
        api.identity(request.session)
        return HTMLResponse(page_text)

    return app


def readable(part: object) -> object:
    """`part` (of a field's path, or a message) as UTF-8 can encode it: a surrogate becomes
    its escape."""
    if isinstance(part, str):
        return part.encode("utf-8", "backslashreplace").decode("utf-8")
    return part
