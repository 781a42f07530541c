"""Who has a table open in the other processes of a shared database: a seat's holder is "here"
if any process holds a socket of theirs at the table, and only a holder who is here nowhere
may have a bot put on their seat by another player.

Each process tells the others (by NOTIFY) when a holder's first socket at a table opens and
their last one closes, and that it is alive every `ALIVE_SECONDS`; a process not heard of for
`LIFETIME` seconds is taken for dead (killed: it never said its sockets closed) and what it
held is forgotten. A process that starts, or reconnects after missing notifications, says
hello, and every other one tells it again what it holds.

The same way, each process tells the others how many WebSockets it has open per address and
per identity whenever that changes, so that those limits count every process's.
"""

from __future__ import annotations

import time

ALIVE_SECONDS = 5.0
LIFETIME = 3 * ALIVE_SECONDS


class Presence:
    def __init__(self, lifetime: float = LIFETIME) -> None:
        self.lifetime = lifetime
        self.heard_at: dict[str, float] = {}  # origin -> when it was last heard of
        self.open: dict[str, dict[str, set[str]]] = {}  # table -> origin -> holders
        self.sockets: dict[str, dict[str, int]] = {}  # address or identity -> origin -> open

    def heard(self, origin: str) -> None:
        self.heard_at[origin] = time.monotonic()

    def mark(self, origin: str, table_id: str, holder: str, here: bool) -> None:
        """`holder` opened (`here`) or closed the table in process `origin`."""
        held = self.open.setdefault(table_id, {}).setdefault(origin, set())
        if here:
            held.add(holder)
        else:
            held.discard(holder)
            if not held:
                del self.open[table_id][origin]
                if not self.open[table_id]:
                    del self.open[table_id]

    def count(self, origin: str, key: str, sockets: int) -> None:
        """Process `origin` has `sockets` WebSockets open for `key` (an address's or an
        identity's, as `Guard.socket_keys` names them)."""
        counts = self.sockets.setdefault(key, {})
        if sockets > 0:
            counts[origin] = sockets
        else:
            counts.pop(origin, None)
            if not counts:
                del self.sockets[key]

    def sockets_of(self, key: str) -> int:
        """The WebSockets the other processes have open for `key`."""
        return sum(self.sockets.get(key, {}).values())

    def holders(self, table_id: str) -> set[str]:
        """The holders with the table open in another process."""
        found: set[str] = set()
        for held in self.open.get(table_id, {}).values():
            found |= held
        return found

    def expire(self) -> set[str]:
        """Forget the processes not heard of for `lifetime` seconds; the tables they held."""
        now = time.monotonic()
        dead = {o for o, at in self.heard_at.items() if now - at > self.lifetime}
        return self.forget(dead)

    def forget(self, origins: set[str] | None = None) -> set[str]:
        """Forget what `origins` (None: every other process) held; the tables they held."""
        touched = set()
        for table_id in list(self.open):
            for origin in list(self.open[table_id]):
                if origins is None or origin in origins:
                    del self.open[table_id][origin]
                    touched.add(table_id)
            if not self.open[table_id]:
                del self.open[table_id]
        for key in list(self.sockets):
            for origin in list(self.sockets[key]):
                if origins is None or origin in origins:
                    self.count(origin, key, 0)
        for origin in origins if origins is not None else list(self.heard_at):
            self.heard_at.pop(origin, None)
        return touched
