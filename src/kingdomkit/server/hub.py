"""The WebSocket connections of each table: after every change, each connection is sent the
view of its own seat (a spectator's view when it has none)."""

from __future__ import annotations

import contextlib
from collections import defaultdict
from typing import Any

from starlette.websockets import WebSocket

from kingdomkit.server.live import LiveTable


class Hub:
    def __init__(self) -> None:
        self.connections: dict[str, dict[WebSocket, str | None]] = defaultdict(dict)
        self.sessions: dict[WebSocket, str] = {}  # the signed-in session a socket came with

    def join(
        self, table_id: str, socket: WebSocket, holder: str | None, session: str | None = None
    ) -> None:
        self.connections[table_id][socket] = holder
        if session is not None:
            self.sessions[socket] = session

    async def close_session(self, session: str) -> None:
        """Close every socket opened by the signed-in session `session` (it has ended)."""
        for socket in [s for s, key in self.sessions.items() if key == session]:
            self.sessions.pop(socket, None)
            with contextlib.suppress(Exception):
                await socket.close(code=4401, reason="signed out")

    def leave(self, table_id: str, socket: WebSocket) -> None:
        self.sessions.pop(socket, None)
        self.connections[table_id].pop(socket, None)
        if not self.connections[table_id]:
            del self.connections[table_id]

    def connected(self, table_id: str, holder: str) -> bool:
        """Has `holder` a connection open to the table?"""
        return holder in self.connections.get(table_id, {}).values()

    async def broadcast(self, table: LiveTable) -> None:
        views: dict[int | None, dict[str, Any]] = {}
        for socket, holder in list(self.connections.get(table.id, {}).items()):
            seat = table.seat_of(holder)
            if seat not in views:
                views[seat] = {"type": "view", "view": table.view(seat)}
            with contextlib.suppress(Exception):  # a dropped client reconnects and reloads
                await socket.send_json(views[seat])
