"""The WebSocket connections of each table: after every change, each connection is sent the
view of its own seat (a spectator's view when it has none), with the seats whose holders are
here (have a connection open); chat messages go to every connection alike.

Nothing waits on one socket: each connection has a bounded queue of messages and its own
sender task, and a broadcast only puts the views in the queues. A connection whose queue is
full, or which takes longer than the time-out to accept a message, is closed and forgotten;
its client reconnects and is sent the current view. So bots, clocks and the other sockets of
a table never wait for a client that does not read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from socket import SO_SNDBUF, SOL_SOCKET
from typing import Any, cast

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from kingdomkit.server.live import LiveTable

log = logging.getLogger("kingdomkit.server")
SEND_QUEUE = 32  # messages waiting for a socket
SEND_TIMEOUT = 10.0  # seconds a socket may take to accept one message
SEND_BUFFER = 64 * 1024  # bytes the kernel holds unsent for one socket
TOO_SLOW = 1013  # the close code of a dropped slow reader: try again later
TRANSPORT = "kingdomkit.transport"  # the scope key of a WebSocket's TCP transport
SIGNED_OUT = 4401  # the close code of a socket whose session ended


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    table_id: str
    holder: str | None
    session: str | None
    queue: asyncio.Queue[dict[str, Any]]
    sender: asyncio.Task[None] | None = field(default=None, repr=False)


class Hub:
    def __init__(
        self,
        queue_size: int = SEND_QUEUE,
        send_timeout: float = SEND_TIMEOUT,
        send_buffer: int = SEND_BUFFER,
    ) -> None:
        if queue_size < 1 or send_timeout <= 0 or send_buffer < 1:
            raise ValueError("a send queue holds at least one message, and a time-out is > 0")
        self.queue_size = queue_size
        self.send_timeout = send_timeout
        self.send_buffer = send_buffer
        self.connections: dict[str, dict[WebSocket, Connection]] = defaultdict(dict)
        self.closing: set[asyncio.Task[None]] = set()
        self.dropped = 0  # connections closed for being too slow
        # On a shared database: the holders with a table open in other processes, and who
        # to tell when a holder's first connection here opens or their last one closes.
        self.elsewhere: Callable[[str], set[str]] = lambda _table_id: set()
        self.on_presence: Callable[[str, str, bool], None] | None = None

    def join(
        self, table_id: str, socket: WebSocket, holder: str | None, session: str | None = None
    ) -> None:
        """Follow the table on `socket`, as `holder`; `session` names the sign-in it came
        with (close_session closes it)."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(self.queue_size)
        connection = Connection(socket, table_id, holder, session, queue)
        limit_send_buffer(socket, self.send_buffer)
        connection.sender = asyncio.get_running_loop().create_task(self._send(connection))
        first = holder is not None and not self._here(table_id, holder)
        self.connections[table_id][socket] = connection
        if first and self.on_presence is not None:
            self.on_presence(table_id, str(holder), True)

    def leave(self, table_id: str, socket: WebSocket) -> None:
        connection = self.connections.get(table_id, {}).pop(socket, None)
        if connection is not None and connection.sender not in (None, asyncio.current_task()):
            connection.sender.cancel()
        if table_id in self.connections and not self.connections[table_id]:
            del self.connections[table_id]
        holder = None if connection is None else connection.holder
        if holder is not None and self.on_presence is not None and not self._here(table_id, holder):
            self.on_presence(table_id, holder, False)

    def _here(self, table_id: str, holder: str) -> bool:
        """Has `holder` a connection open to the table in this process?"""
        return any(c.holder == holder for c in self.connections.get(table_id, {}).values())

    def connected(self, table_id: str, holder: str) -> bool:
        """Has `holder` a connection open to the table (in any process)?"""
        return self._here(table_id, holder) or holder in self.elsewhere(table_id)

    async def close_session(self, session: str) -> None:
        """Close every connection joined with `session` (its sign-in ended)."""
        closing = [
            self._drop(connection, SIGNED_OUT, "signed out")
            for sockets in list(self.connections.values())
            for connection in list(sockets.values())
            if connection.session == session
        ]
        await asyncio.gather(*(task for task in closing if task), return_exceptions=True)

    def send(self, table_id: str, socket: WebSocket, message: dict[str, Any]) -> None:
        """Queue `message` for one connection (dropping it if its queue is full)."""
        connection = self.connections.get(table_id, {}).get(socket)
        if connection is not None:
            self._put(connection, message)

    async def broadcast(self, table: LiveTable, skip: WebSocket | None = None) -> None:
        """Queue each connection's view of the table (but `skip`'s); never waits for a
        socket."""
        views: dict[int | None, dict[str, Any]] = {}
        here = self.here(table)
        for connection in list(self.connections.get(table.id, {}).values()):
            if connection.socket is skip:
                continue
            seat = table.seat_of(connection.holder)
            if seat not in views:
                views[seat] = {"type": "view", "view": {**table.view(seat), "here": here}}
            self._put(connection, views[seat])

    def here(self, table: LiveTable) -> list[int]:
        """The seats whose holder has a connection open to the table (in any process)."""
        seats = {table.seat_of(c.holder) for c in self.connections.get(table.id, {}).values()}
        seats |= {table.seat_of(holder) for holder in self.elsewhere(table.id)}
        return sorted(seat for seat in seats if seat is not None)

    def tell(self, table_id: str, message: dict[str, Any]) -> None:
        """Queue the same message (a chat message) for every connection of the table."""
        for connection in list(self.connections.get(table_id, {}).values()):
            self._put(connection, message)

    def _put(self, connection: Connection, message: dict[str, Any]) -> None:
        try:
            connection.queue.put_nowait(message)
        except asyncio.QueueFull:
            self._drop(connection, TOO_SLOW, "too slow: reconnect for the current view")

    async def _send(self, connection: Connection) -> None:
        """Send the connection's messages in order, each within the time-out."""
        while True:
            message = await connection.queue.get()
            try:
                async with asyncio.timeout(self.send_timeout):
                    await connection.socket.send_json(message)
            except Exception:  # too slow, or gone: a dropped client reconnects and reloads
                self._drop(connection, TOO_SLOW, "too slow: reconnect for the current view")
                return

    def _drop(self, connection: Connection, code: int, reason: str) -> asyncio.Task[None] | None:
        """Forget the connection at once and close its socket in the background; the task
        closing it (None if it was already forgotten)."""
        if self.connections.get(connection.table_id, {}).get(connection.socket) is not connection:
            return None
        if code == TOO_SLOW:
            self.dropped += 1
            log.info("dropped a slow WebSocket at table %s", connection.table_id)
        self.leave(connection.table_id, connection.socket)
        task = asyncio.get_running_loop().create_task(self._close(connection, code, reason))
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)
        return task

    async def _close(self, connection: Connection, code: int, reason: str) -> None:
        """Close the socket: a slow one is cut at once (its close frame would wait behind
        what it has not read), another is sent a close frame within the time-out."""
        sender = connection.sender
        if sender is not None and sender is not asyncio.current_task():
            sender.cancel()
            await asyncio.wait([sender], timeout=self.send_timeout)
        if code == TOO_SLOW and abort(connection.socket):
            return
        try:
            async with asyncio.timeout(self.send_timeout):
                await connection.socket.close(code, reason)
        except TimeoutError:
            abort(connection.socket)
        except Exception:  # already closed by the client
            pass


class KeepTransport:
    """ASGI middleware, the outermost: notes in a WebSocket's scope the TCP transport under
    it, when the server shows it (Uvicorn's protocol is the owner of the `send` it gives the
    application; the middlewares inside wrap `send`, so it is found here or nowhere)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if transport is not None:
                scope[TRANSPORT] = transport
        await self.app(scope, receive, send)


def transport_of(socket: WebSocket) -> asyncio.Transport | None:
    """The TCP transport under a WebSocket, if KeepTransport found it (asyncio's, or one
    that acts alike, as uvloop's)."""
    transport = socket.scope.get(TRANSPORT)
    if not all(hasattr(transport, name) for name in ("abort", "get_extra_info")):
        return None
    return cast(asyncio.Transport, transport)


def limit_send_buffer(socket: WebSocket, size: int) -> None:
    """Keep at most about `size` bytes unsent in the kernel for this socket (Linux doubles
    it), so that a client that stops reading makes its sends wait, and is found slow, after
    some views rather than after megabytes of them (the buffer grows to 4 MiB by default)."""
    transport = transport_of(socket)
    raw = None if transport is None else transport.get_extra_info("socket")
    if raw is not None:
        with contextlib.suppress(OSError):
            raw.setsockopt(SOL_SOCKET, SO_SNDBUF, size)


def abort(socket: WebSocket) -> bool:
    """Cut the socket's TCP connection now, discarding what is unsent; False if the server
    does not show its transport. (A transport asked to close politely waits for its buffer
    to drain, which a client that never reads never lets happen.)"""
    transport = transport_of(socket)
    if transport is None:
        return False
    transport.abort()
    return True
