"""Hearing the other processes of a shared database: each change they commit is sent with
PostgreSQL's NOTIFY in its own transaction (store.py), so it is heard here only once it is
stored. A process keeps one connection listening; if it is lost, notifications may have been
missed meanwhile, so `lost` is called once it is back (the tables forget what they hold)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import psycopg

from kingdomkit.server.database import conninfo
from kingdomkit.server.store import CHANNEL

log = logging.getLogger("kingdomkit.fanout")
RECONNECT_SECONDS = 1.0

Heard = Callable[[str, str, list[str]], Awaitable[None]]  # (origin, kind, parts)


class Listener:
    def __init__(self, url: str, heard: Heard, lost: Callable[[], Awaitable[None]]) -> None:
        self.conninfo = conninfo(url)
        self.heard = heard
        self.lost = lost
        self.ready = asyncio.Event()  # listening (set again after each reconnection)
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        """Listen until cancelled, reconnecting after any failure."""
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    if not first:
                        await self.lost()
                    first = False
                    self.ready.set()
                    async for note in connection.notifies():
                        self._hand_on(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.ready.clear()
                log.warning("lost the database's notifications (%s): reconnecting", error)
                await asyncio.sleep(RECONNECT_SECONDS)

    def _hand_on(self, payload: str) -> None:
        origin, kind, *parts = payload.split()
        task = asyncio.get_running_loop().create_task(self._heard(origin, kind, parts))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _heard(self, origin: str, kind: str, parts: list[str]) -> None:
        try:
            await self.heard(origin, kind, parts)
        except Exception:
            log.exception("handling the notification %s %s failed", kind, parts)
