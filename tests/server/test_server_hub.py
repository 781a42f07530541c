"""The hub's bookkeeping with stand-in sockets (no server): a broadcast only queues, so a socket
that takes nothing never holds it up and is dropped once its queue is full; sockets are counted
per identity; closing a session closes its sockets only."""

from __future__ import annotations

import asyncio
from typing import Any

from kingdomkit.server.hub import SIGNED_OUT, TOO_SLOW, Hub


class StandInSocket:
    """What the hub uses of a WebSocket; `stuck` ones never finish a send."""

    def __init__(self, stuck: bool = False) -> None:
        self.stuck = stuck
        self.scope: dict[str, Any] = {}
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None

    async def send_json(self, message: dict[str, Any]) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.sent.append(message)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code


class StandInTable:
    id = "t"

    def seat_of(self, holder: str | None) -> int | None:
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"seat": seat}


def test_a_socket_that_takes_nothing_is_dropped_and_holds_nobody_up() -> None:
    async def scenario() -> tuple[StandInSocket, StandInSocket, Hub]:
        hub = Hub(queue_size=3, send_timeout=3600)
        stuck, reader = StandInSocket(stuck=True), StandInSocket()
        hub.join("t", stuck, "ann")  # type: ignore[arg-type]
        hub.join("t", reader, "bob")  # type: ignore[arg-type]
        for n in range(1, 11):
            await hub.broadcast(StandInTable())  # type: ignore[arg-type]
            for _ in range(1000):  # the reader's sender sends it
                if len(reader.sent) == n:
                    break
                await asyncio.sleep(0)
        await asyncio.gather(*hub.closing)
        return stuck, reader, hub

    stuck, reader, hub = asyncio.run(scenario())
    assert len(reader.sent) == 10  # every view, none waiting on the stuck socket
    assert stuck.closed == TOO_SLOW and hub.dropped == 1
    assert not hub.connected("t", "ann") and hub.connected("t", "bob")


def open_of(hub: Hub, holder: str) -> int:
    """The connections `holder` has open in `hub`, at every table."""
    return sum(c.holder == holder for sockets in hub.connections.values() for c in sockets.values())


def test_sockets_are_counted_per_identity_and_closed_per_session() -> None:
    async def scenario() -> tuple[list[StandInSocket], Hub, tuple[int, int]]:
        hub = Hub()
        sockets = [StandInSocket() for _ in range(4)]
        joins = [("t1", "ann", "s1"), ("t2", "ann", "s1"), ("t1", "ann", "s2"), ("t1", "bob", None)]
        for socket, (table, holder, session) in zip(sockets, joins, strict=True):
            hub.join(table, socket, holder, session)  # type: ignore[arg-type]
        before = (open_of(hub, "ann"), open_of(hub, "bob"))
        await hub.close_session("s1")
        return sockets, hub, before

    sockets, hub, before = asyncio.run(scenario())
    assert before == (3, 1)
    assert [s.closed for s in sockets] == [SIGNED_OUT, SIGNED_OUT, None, None]
    assert (open_of(hub, "ann"), open_of(hub, "bob")) == (1, 1)
    assert hub.connected("t1", "ann") and not hub.connected("t2", "ann")
