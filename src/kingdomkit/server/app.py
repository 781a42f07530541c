"""The application: the API routers, the browser client's files, sessions, and the tables
service with its database and bot workers (started and stopped with the app)."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware

import kingdomkit.games  # noqa: F401  (registers every game)
from kingdomkit import __version__
from kingdomkit.server import api
from kingdomkit.server.accounts import Accounts
from kingdomkit.server.database import open_engine
from kingdomkit.server.hub import Hub, KeepTransport
from kingdomkit.server.live import RefusedError
from kingdomkit.server.scheduler import Scheduler
from kingdomkit.server.service import Tables
from kingdomkit.server.store import Store

CLIENT = Path(__file__).with_name("client")
SESSION_DAYS = 30
GC_YOUNG = 50_000  # allocations between collections of the youngest generation


@dataclass(frozen=True)
class ServerConfig:
    database: str  # an SQLAlchemy URL
    secret: str  # signs the session cookies
    bot_workers: int = 2  # play lane: processes playing bot moves
    secure_cookies: bool = False  # True behind HTTPS
    bot_share: int = 1  # play workers one identity may hold at once
    analysis_workers: int = 1  # analysis lane: processes making hints and reviews
    send_queue: int = 32  # views waiting for a WebSocket before it is dropped as too slow
    send_timeout: float = 10.0  # seconds a WebSocket may take to accept one view
    send_buffer: int = 65536  # bytes the kernel may hold unsent for one WebSocket


def create_app(config: ServerConfig) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = open_engine(config.database)
        bots = Scheduler(config.bot_workers, config.bot_share, config.analysis_workers)
        hub = Hub(config.send_queue, config.send_timeout, config.send_buffer)
        tables = Tables(Store(engine), bots, hub)
        app.state.tables = tables
        app.state.accounts = Accounts(engine)
        await tables.resume()
        # A full collection walks every object of every table in memory, which stalled the
        # event loop for tens of milliseconds under load (docs/benchmarks.md): what exists at
        # start is set aside, and young objects are collected less often.
        gc.freeze()
        gc.set_threshold(GC_YOUNG, 50, 1000)
        try:
            yield
        finally:
            await tables.close()
            engine.dispose()

    app = FastAPI(
        title="kingdomkit",
        version=__version__,
        summary="Play Kingdomino, Queendomino and Kingdoms with friends and bots.",
        lifespan=lifespan,
    )
    app.add_middleware(
        SessionMiddleware,
        secret_key=config.secret,
        session_cookie="kingdomkit",
        max_age=SESSION_DAYS * 24 * 3600,
        same_site="lax",
        https_only=config.secure_cookies,
    )
    app.add_middleware(KeepTransport)  # the last added, so the outermost

    @app.exception_handler(RefusedError)
    async def refused(_request: Request, error: RefusedError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=error.status)

    app.include_router(api.lobby)
    app.include_router(api.play)
    app.include_router(api.sockets)
    app.mount("/static", StaticFiles(directory=CLIENT), name="client")

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    async def page(request: Request, table_id: str | None = None) -> FileResponse:
        # The session (a guest's identity) comes with the page, so that the page's first
        # requests never each make one and race to set the cookie: a join made as one guest
        # was then followed over the WebSocket as another.
        api.identity(request.session)
        return FileResponse(CLIENT / "index.html")

    return app
