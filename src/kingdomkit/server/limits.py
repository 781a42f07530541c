"""What one visitor may ask of the server, so that no visitor can stall it: every limit is
answered at once, with 429 and `Retry-After` (or 413 for a body too large), never by slowness.

Anyone can drop their cookie and come back as a new guest, so a limit per identity has a
companion per network address (larger: people behind one router share it). Rates are counted
with the `limits` library (moving windows), in the process's memory or in a Redis the serve
processes share (rates.py); counts of things open at once are taken from the database
(unfinished tables, per identity and per address: a table keeps a keyed digest of the address
it was made from, never the address) or from what the process holds (WebSockets).

Every limit is a field of `Limits`, set by the flag `--limit-<name>` of `kingdomkit serve` or
the environment variable `KINGDOMKIT_LIMIT_<NAME>` (the flag wins), e.g. `--limit-hints-per-minute
20` or `KINGDOMKIT_LIMIT_LOGIN_FAILURES="5/minute;20/hour;100/day"`.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import math
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from kingdomkit.server.live import BOT, RefusedError
from kingdomkit.server.rates import Rates

if TYPE_CHECKING:
    from limits import RateLimitItem
    from starlette.requests import HTTPConnection
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from kingdomkit.server.live import LiveTable

ENV_PREFIX = "KINGDOMKIT_LIMIT_"
RECORDS_PATH = "/api/records"  # POST: a record upload, the one body allowed to be large
AT_ONCE_RETRY = 60  # Retry-After (seconds) when something open at once must end first
BUSY_RETRY = 1  # Retry-After when every password check is taken


def _limit(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class Limits:
    """Every limit, with its default; 0 refuses the thing altogether."""

    body_bytes: int = _limit(64 * 1024, "bytes of a request body")
    record_bytes: int = _limit(2 * 1024 * 1024, "bytes of a record upload (POST /api/records)")
    socket_message_bytes: int = _limit(16 * 1024, "bytes of one WebSocket message")
    tables_per_minute: int = _limit(6, "tables created per identity per minute")
    address_tables_per_minute: int = _limit(30, "tables created per address per minute")
    open_tables: int = _limit(10, "unfinished tables created by one identity")
    address_open_tables: int = _limit(50, "unfinished tables created from one address")
    open_table_minutes: int = _limit(
        24 * 60, "minutes an open table waits for its players before it is withdrawn (0: no limit)"
    )
    bot_tables: int = _limit(2, "running tables of bots only per account (guests: none)")
    uploads_per_hour: int = _limit(30, "records uploaded per identity per hour")
    address_uploads_per_hour: int = _limit(100, "records uploaded per address per hour")
    reviews_per_hour: int = _limit(10, "reviews asked per identity per hour")
    address_reviews_per_hour: int = _limit(30, "reviews asked per address per hour")
    hints_per_minute: int = _limit(10, "hints asked per identity per minute")
    address_hints_per_minute: int = _limit(60, "hints asked per address per minute")
    address_accounts_per_hour: int = _limit(10, "accounts asked for per address per hour")
    log_page: int = _limit(500, "log entries one GET /api/tables/{id}/log answers with")
    chat_chars: int = _limit(300, "characters of a table chat message")
    chat_messages_per_minute: int = _limit(10, "chat messages per identity per minute")
    address_chat_messages_per_minute: int = _limit(60, "chat messages per address per minute")
    sockets: int = _limit(16, "WebSocket connections open per identity")
    address_sockets: int = _limit(64, "WebSocket connections open per address")
    login_failures: str = _limit(
        "5/minute;20/hour;100/day", "failed sign-ins per account name (tiers)"
    )
    address_logins: str = _limit("30/minute;200/hour;1000/day", "sign-ins per address (tiers)")
    password_workers: int = _limit(1, "threads hashing and checking passwords")
    password_queue: int = _limit(8, "password checks waiting beyond those running")

    def __post_init__(self) -> None:
        from limits import parse_many

        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, int) and value < 0:
                raise ValueError(f"the limit {spec.name} is 0 or more, not {value}")
            if isinstance(value, str):
                try:
                    parse_many(value)
                except ValueError:
                    raise ValueError(
                        f"the limit {spec.name} is rates such as 5/minute;20/hour, not {value!r}"
                    ) from None
        if self.password_workers < 1:
            raise ValueError("the limit password_workers is at least 1")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """A flag per limit: `--limit-tables-per-minute`, ... (default: the environment, else
    the field's default)."""
    group = parser.add_argument_group(
        "limits", f"each also set by the environment variable {ENV_PREFIX}<NAME>"
    )
    for spec in fields(Limits):
        group.add_argument(
            "--limit-" + spec.name.replace("_", "-"),
            dest=f"limit_{spec.name}",
            type=type(spec.default),
            default=None,
            metavar="N" if isinstance(spec.default, int) else "RATES",
            help=f"{spec.metadata['help']} (default {spec.default})",
        )


def from_arguments(args: argparse.Namespace, environ: Mapping[str, str]) -> Limits:
    """The limits of the flags, else of the environment, else the defaults; ValueError if
    one is not valid."""
    chosen: dict[str, Any] = {}
    for spec in fields(Limits):
        value = getattr(args, f"limit_{spec.name}", None)
        if value is None and environ.get(ENV_PREFIX + spec.name.upper()):
            text = environ[ENV_PREFIX + spec.name.upper()]
            try:
                value = int(text) if isinstance(spec.default, int) else text
            except ValueError:
                name = ENV_PREFIX + spec.name.upper()
                raise ValueError(f"{name} is a number, not {text!r}") from None
        if value is not None:
            chosen[spec.name] = value
    return replace(Limits(), **chosen)


class LimitedError(RefusedError):
    """A request over a limit: 429 with the seconds to wait (the `Retry-After` header)."""

    def __init__(self, message: str, retry_after: float, status: int = 429) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(status, f"{message}; try again in {self.retry_after} seconds")

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


def address(connection: HTTPConnection) -> str:
    """The caller's network address: the peer's, or the one a trusted proxy forwarded (the
    proxy settings uvicorn is run with decide whom X-Forwarded-For is believed from)."""
    return connection.client.host if connection.client else "unknown"


PER = {"minute": "a minute", "hour": "an hour"}
NAME, ADDRESS = "sign-in name", "sign-in address"  # the two counts of sign-ins


class Guard:
    """The rate limits and the counts of things open at once, for one server process."""

    def __init__(
        self, limits: Limits, rates: Rates | None = None, secret: str | None = None
    ) -> None:
        from limits import parse_many

        self.limits = limits
        self.limiter = rates or Rates()
        self.login_failures = parse_many(limits.login_failures)
        self.address_logins = parse_many(limits.address_logins)
        self.sockets: Counter[str] = Counter()  # identity or address: connections open here
        # On a shared database: the other processes' connections of a key (presence.py),
        # and who tells them this process's count of a key when it changes.
        self.sockets_elsewhere: Callable[[str], int] = lambda key: 0
        self.sockets_changed: Callable[[dict[str, int]], None] | None = None
        # the key of address digests: the server's secret, so that every process agrees
        self._key = (secret or secrets.token_urlsafe(32)).encode()

    def address_key(self, at: str) -> str:
        """What a table stores of the address it was made from: a digest keyed with the
        server's secret (so the stored digests cannot be matched against guessed addresses)."""
        return hmac.new(self._key, b"address:" + at.encode(), hashlib.sha256).hexdigest()[:32]

    # -- rates -----------------------------------------------------------------------------
    def spend(self, what: str, per: str, holder: str | None, at: str) -> None:
        """Count one `what` (tables, uploads, reviews, hints, accounts, chat_messages) asked
        by `holder` from address `at`, allowed so many `per` minute or hour; LimitedError if
        one of the two is spent (and then neither is counted)."""
        from limits import parse

        own = getattr(self.limits, f"{what}_per_{per}", None)  # accounts: per address only
        shared = getattr(self.limits, f"address_{what}_per_{per}")
        things = what.replace("_", " ")
        checks = []
        if own is not None and holder is not None:
            checks.append((own, holder, "you"))
        checks.append((shared, "@" + at, "your network address"))
        for amount, key, whom in checks:
            if amount == 0:
                raise RefusedError(403, f"this server does not allow {things}")
            item = parse(f"{amount}/{per}")
            if not self.limiter.test(item, what, key):
                raise LimitedError(
                    f"{whom} asked for {amount} {things} in {PER[per]}, the most allowed",
                    self._wait(item, what, key),
                )
        for amount, key, _ in checks:
            self.limiter.hit(parse(f"{amount}/{per}"), what, key)

    def _wait(self, item: RateLimitItem, *keys: str) -> float:
        return self.limiter.get_window_stats(item, *keys).reset_time - time.time()

    def login(self, name: str, at: str) -> None:
        """Count a sign-in as `name` from `at` before its password is checked (a success then
        clears the name's count); LimitedError, with the wait of the longest tier spent, when
        the name has failed or the address tried too often."""
        checks = [(item, NAME, name.casefold()) for item in self.login_failures]
        checks += [(item, ADDRESS, at) for item in self.address_logins]
        spent = [check for check in checks if not self.limiter.test(*check)]
        if spent:
            item, *keys = max(spent, key=lambda check: self._wait(*check))
            whom = "this account" if keys[0] == NAME else "your network address"
            raise LimitedError(
                f"too many sign-ins for {whom} (at most {item})", self._wait(item, *keys)
            )
        for check in checks:
            self.limiter.hit(*check)

    def signed_in(self, name: str) -> None:
        for item in self.login_failures:
            self.limiter.clear(item, NAME, name.casefold())

    # -- at once ---------------------------------------------------------------------------
    def new_table(
        self,
        live: Mapping[str, LiveTable],
        holder: str,
        at: str,
        bots_only: bool,
        account: bool,
        from_address: int,
    ) -> None:
        """Allow a new table of `holder` from `at` (RefusedError if not) and count it: tables
        of bots only are for accounts, a few running at once; so many unfinished tables per
        identity and per address (`from_address` of them are already); so many created a
        minute."""
        limits = self.limits
        if bots_only and not account:
            raise RefusedError(403, "tables of bots only are for accounts: sign in first")
        if bots_only and limits.bot_tables == 0:
            raise RefusedError(403, "this server has no tables of bots only")
        mine = [t for t in live.values() if t.owner == holder and not t.finished]
        if bots_only:
            running = [t for t in mine if all(s.kind == BOT for s in t.seats)]
            if len(running) >= limits.bot_tables:
                raise LimitedError(
                    f"you have {len(running)} tables of bots only running, the most allowed "
                    "(one must end first)",
                    AT_ONCE_RETRY,
                )
        if len(mine) >= limits.open_tables:
            raise LimitedError(
                f"you have {len(mine)} unfinished tables, the most allowed (finish one, or cancel"
                " one still waiting for players)",
                AT_ONCE_RETRY,
            )
        if from_address >= limits.address_open_tables:
            raise LimitedError(
                f"your network address has {from_address} unfinished tables, the most allowed",
                AT_ONCE_RETRY,
            )
        self.spend("tables", "minute", holder, at)

    def open_socket(self, holder: str | None, at: str) -> str | None:
        """Count a WebSocket connection of `holder` from `at`; the reason if it is one too
        many (and then it is not counted). The other processes' connections count too,
        as last heard of (two opened at once in two processes may pass the limit by one)."""
        keys = self.socket_keys(holder, at)
        for key in keys:
            most = self.limits.address_sockets if key.startswith("@") else self.limits.sockets
            if self.sockets[key] + self.sockets_elsewhere(key) >= most:
                whom = "your network address has" if key.startswith("@") else "you have"
                return f"{whom} {most} connections open, the most allowed: close a tab"
        self.sockets.update(keys)
        self._tell_sockets(keys)
        return None

    def close_socket(self, holder: str | None, at: str) -> None:
        keys = self.socket_keys(holder, at)
        self.sockets.subtract(keys)
        for key in keys:
            if self.sockets[key] <= 0:
                del self.sockets[key]
        self._tell_sockets(keys)

    def socket_keys(self, holder: str | None, at: str) -> list[str]:
        """The counts a WebSocket connection takes: its address's (by its keyed digest,
        which is what the other processes hear of), and its identity's if any."""
        return ["@" + self.address_key(at)] + ([holder] if holder is not None else [])

    def _tell_sockets(self, keys: list[str]) -> None:
        if self.sockets_changed is not None:
            self.sockets_changed({key: self.sockets[key] for key in keys})


class BodyLimit:
    """ASGI middleware: a request body larger than the limit is answered 413 before anything
    reads it: at once by its Content-Length, or once the bytes streamed in pass the limit (the
    body is held here, at most the limit, and handed on whole). Record uploads have a larger
    limit of their own."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        upload = scope["method"] == "POST" and scope["path"] == RECORDS_PATH
        most = self.limits.record_bytes if upload else self.limits.body_bytes
        length = dict(scope["headers"]).get(b"content-length", b"")
        if length.isdigit() and int(length) > most:
            await self._refuse(send, most)
            return
        held: list[Message] = []
        size = 0
        while True:
            message = await receive()
            held.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > most:
                await self._refuse(send, most)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send: Send, most: int) -> None:
        from starlette.responses import JSONResponse

        detail = f"the request body is larger than {most} bytes, the most allowed here"
        response = JSONResponse({"detail": detail}, status_code=413)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [*response.raw_headers, (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": response.body})
