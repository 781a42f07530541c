"""How long a new table waits for its bots' first move: the figure a fresh install is judged by.

A bot's search runs on its game's compiled kernel, which numba compiles at its first call (for
minutes on a fresh install, Queendomino's about two) and keeps on disk. `kingdomkit serve`
compiles the kernels at start in a process of its own (`--lazy-kernels` leaves each to its
first bot move), so that the first table of a game does not wait for it.

`run_first_moves` starts `kingdomkit serve` (loadtest.Server, a temporary data folder,
SQLite; with `cold`, a numba cache of its own that starts empty, as on a fresh install), and
for each game in turn makes a 2-player table of a person and a `hard` bot, hands the person's
seat to a `hard` bot too, and times from that hand-over to the table's first decision. The
tables are made one after the other, `delay` seconds after the server answers: at once (0),
with `cold` they meet the start-up compilation under way (or, with `--lazy-kernels`, compile
at their first move); made once it is done, they show what the compilation at start spares
the people who come later.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from kingdomkit.server.loadtest import LoadError, Server, answer

GAMES = ("kingdomino", "kingdoms", "queendomino")
BOT = "hard"
POLL_SECONDS = 0.1


@dataclass
class FirstMoves:
    """The seconds each game's first table waited for its first decision (None: not within
    the time allowed), and the server's logged errors."""

    cold: bool
    flags: list[str]
    delay: float = 0.0
    seconds: dict[str, float | None] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        shown = {
            game: "not within the time allowed" if took is None else round(took, 2)
            for game, took in self.seconds.items()
        }
        return {
            "numba cache": "empty at start (a fresh install)" if self.cold else "as it is",
            "serve flags": " ".join(self.flags) or "none",
            "tables made after (s)": self.delay,
            **{f"{game} first move (s)": took for game, took in shown.items()},
        }


async def run_first_moves(
    games: Sequence[str], seconds: float, cold: bool, flags: Sequence[str], delay: float = 0.0
) -> FirstMoves:
    """The figure of each game in `games` (module card), its table made `delay` seconds
    after the server answers; a first move waits at most `seconds`. LoadError if the server
    cannot be started or refuses a request."""
    result = FirstMoves(cold, list(flags), delay)
    with tempfile.TemporaryDirectory(prefix="kingdomkit-first-") as folder:
        data = Path(folder)
        env = {"NUMBA_CACHE_DIR": str(data / "numba")} if cold else {}
        server = Server(None, data / "server", list(flags), env=env)
        try:
            try:
                await server.wait()
            except RuntimeError as error:
                raise LoadError(f"kingdomkit serve {' '.join(flags)}: {error}") from None
            await asyncio.sleep(delay)
            async with httpx2.AsyncClient(base_url=server.url, timeout=60) as http:
                for game in games:
                    result.seconds[game] = await first_move(http, server.url, game, seconds)
            result.server_errors = server.errors()
        finally:
            server.stop()
    return result


async def first_move(
    http: httpx2.AsyncClient, base: str, game: str, seconds: float
) -> float | None:
    """Seconds from handing a new table's person's seat to a bot to its first decision."""
    body = {"game": game, "seats": [{"kind": "human"}, {"kind": "bot", "bot": BOT}], "name": "Ann"}
    table = answer(await http.post("/api/tables", json=body), base)["table"]
    started = time.perf_counter()
    answer(await http.post(f"/api/tables/{table}/seats/0/bot", json={"bot": BOT}), base)
    while time.perf_counter() - started < seconds:
        if answer(await http.get(f"/api/tables/{table}"), base)["decisions"] > 0:
            return time.perf_counter() - started
        await asyncio.sleep(POLL_SECONDS)
    return None
