"""Signed-in sessions that the server can end.

The session cookie is signed, so it cannot be forged, but a signature alone never expires
early: a cookie copied before a logout would still be signed in. So signing in also stores a
session row (the SHA-256 of a secret that only the cookie holds), and a signed-in cookie counts
only while its row exists. Logout deletes the row; a password change deletes every other row
of the account. A guest's cookie holds no account and needs no row.

Rows are looked up once and then kept in memory for `CACHE_SECONDS`. The process that ends a
session forgets it at once; on a shared database (PostgreSQL) the end is notified in its
transaction, and every other process forgets it and closes its sockets as soon as it hears.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Callable

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session
from starlette.types import ASGIApp, Receive, Scope, Send

from kingdomkit.server.models import SessionRow
from kingdomkit.server.ratings import USER_PREFIX, user_id

CACHE_SECONDS = 5.0
SECRET_KEY = "sid"  # the session cookie's field that holds the secret


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Sessions:
    def __init__(self, engine: Engine, tell: Callable[..., None] | None = None) -> None:
        self.engine = engine
        self.tell = tell  # Store.tell: notifies the other processes in a transaction
        self._known: dict[str, tuple[int | None, float]] = {}  # digest -> (user, when looked up)

    def open(self, user: int) -> str:
        """A new session of account `user`: the secret for its cookie."""
        secret = secrets.token_urlsafe(32)
        with Session(self.engine) as session, session.begin():
            session.add(SessionRow(digest=digest(secret), user_id=user))
        self._known[digest(secret)] = (user, time.monotonic())
        return secret

    async def user(self, secret: str) -> int | None:
        """The account whose live session `secret` opens, or None (ended, or never was)."""
        key = digest(secret)
        known = self._known.get(key)
        if known is not None and time.monotonic() - known[1] < CACHE_SECONDS:
            return known[0]
        found = await asyncio.to_thread(self._lookup, key)
        if len(self._known) > 100_000:
            self._known.clear()
        self._known[key] = (found, time.monotonic())
        return found

    def _lookup(self, key: str) -> int | None:
        with Session(self.engine) as session:
            return session.scalar(select(SessionRow.user_id).where(SessionRow.digest == key))

    def end(self, secret: str) -> str:
        """End one session (logout); its digest, by which its sockets are known."""
        key = digest(secret)
        with Session(self.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.digest == key))
            self._told(session, [key])
        self.forget(key)
        return key

    def forget(self, key: str) -> None:
        """The session of digest `key` ended (here, or in another process)."""
        self._known[key] = (None, time.monotonic())

    def _told(self, session: Session, keys: list[str]) -> None:
        if self.tell is not None:
            for key in keys:
                self.tell(session, "session", key)

    def end_others(self, user: int, keep: str) -> list[str]:
        """End every session of `user` but the one of secret `keep`; their digests."""
        kept = digest(keep)
        with Session(self.engine) as session, session.begin():
            ended = list(
                session.scalars(
                    select(SessionRow.digest).where(
                        SessionRow.user_id == user, SessionRow.digest != kept
                    )
                )
            )
            session.execute(
                delete(SessionRow).where(SessionRow.user_id == user, SessionRow.digest != kept)
            )
            self._told(session, ended)
        now = time.monotonic()
        for key in ended:
            self._known[key] = (None, now)
        return ended


class EndedSessions:
    """ASGI middleware inside the cookie's: a cookie that says signed in, but whose session
    has ended (logout, a password change elsewhere), is emptied, and its bearer is a guest."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            cookie = scope.get("session")
            if cookie and str(cookie.get("id", "")).startswith(USER_PREFIX):
                sessions: Sessions = scope["app"].state.sessions
                secret = cookie.get(SECRET_KEY)
                live = isinstance(secret, str) and await sessions.user(secret) == user_id(
                    cookie.get("id")
                )
                if not live:
                    cookie.clear()
        await self.app(scope, receive, send)
