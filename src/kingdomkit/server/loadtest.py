"""The load benchmark: many tables of people played at once over WebSockets on loopback.

`run_load` starts `kingdomkit serve` as its own process (a temporary data folder; SQLite, or
the database given), creates `tables` tables of `players` human seats, and gives every seat a
client: its own session, its own WebSocket. A client plays a random legal action whenever its
view offers some, after `think` seconds; it measures the time from sending an action to
receiving the view that shows it (the broadcast). At the end every table's record is fetched
and compared with what the clients sent: an action sent and acknowledged but missing from the
record is lost, one that appears twice is duplicated.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import websockets

START_TIMEOUT = 60.0
ACK_TIMEOUT = 30.0  # a sent action not shown within this is counted lost
# Every simulated person comes from the loopback address: the limits per address are lifted.
EVERYONE_AT_ONE_ADDRESS = {
    f"KINGDOMKIT_LIMIT_ADDRESS_{name}": "1000000"
    for name in ("TABLES_PER_MINUTE", "OPEN_TABLES", "SOCKETS")
}


@dataclass
class LoadResult:
    tables: int
    players: int
    game: str
    database: str
    think: float
    seconds: float = 0.0
    actions: int = 0
    finished: int = 0
    latencies: list[float] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    refused: int = 0
    dropped: int = 0  # connections the server closed during a game (the client reconnects)
    server_errors: list[str] = field(default_factory=list)

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The q-quantile of send-to-broadcast latency, in milliseconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000.0 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "tables": self.tables,
            "players": self.players,
            "database": self.database,
            "think_seconds": self.think,
            "seconds": round(self.seconds, 1),
            "actions": self.actions,
            "finished_tables": self.finished,
            "actions_per_second": round(self.actions_per_second, 1),
            "latency_ms_p50": round(self.percentile(0.5), 1),
            "latency_ms_p99": round(self.percentile(0.99), 1),
            "latency_ms_mean": round(1000 * statistics.fmean(self.latencies), 1)
            if self.latencies
            else None,
            "lost": self.lost,
            "duplicated": self.duplicated,
            "refused": self.refused,
            "dropped_connections": self.dropped,
            "server_errors": len(self.server_errors),
        }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """`kingdomkit serve` in a process of its own."""

    def __init__(self, database: str | None, data: Path, args: Sequence[str] = ()) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "kingdomkit", "serve", "--port", str(self.port)]
        command += ["--data", str(data), *args]
        if database:
            command += ["--database", database]
        env = {**os.environ, "KINGDOMKIT_SECRET": "load test", **EVERYONE_AT_ONE_ADDRESS}
        self.log = data / "server.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        self.url = f"http://127.0.0.1:{self.port}"

    def errors(self) -> list[str]:
        """The server's errors: each logged error or traceback, with its lines."""
        found: list[str] = []
        inside = False
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("ERROR") or (line.startswith("Traceback") and not inside):
                found.append(line)
                inside = True
            elif line.startswith(("INFO", "WARNING", "kingdomkit:")):
                inside = False
            elif inside:
                found[-1] += "\n" + line
        return found

    async def wait(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        async with httpx2.AsyncClient() as client:
            while True:
                if self.process.poll() is not None:
                    error = self.log.read_text(errors="replace").strip()[-500:]
                    raise RuntimeError(f"the server stopped: {error}")
                try:
                    if (await client.get(f"{self.url}/api/games")).is_success:
                        return
                except httpx2.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start")
                await asyncio.sleep(0.2)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


@dataclass
class Seat:
    """One client: a person at one seat of one table."""

    http: httpx2.AsyncClient
    table: str = ""
    acknowledged: dict[int, int] = field(default_factory=dict)  # version -> action
    unanswered: int = 0  # actions sent and never shown


async def play_seat(
    seat: Seat, base: str, think: float, rng: random.Random, result: LoadResult
) -> None:
    """Play the seat to the end of its game, reconnecting if the server drops the socket."""
    while not await _play_connected(seat, base, think, rng, result):
        result.dropped += 1
        await asyncio.sleep(0.5)


async def _play_connected(
    seat: Seat, base: str, think: float, rng: random.Random, result: LoadResult
) -> bool:
    """Play over one connection; True when the game is over (or nothing comes any more)."""
    cookie = "; ".join(f"{k}={v}" for k, v in seat.http.cookies.items())
    uri = base.replace("http", "ws", 1) + f"/ws/tables/{seat.table}"
    pending: tuple[int, int, float] | None = None  # (version, action, sent at)
    try:
        async with websockets.connect(uri, additional_headers={"Cookie": cookie}) as socket_:
            while True:
                try:
                    raw = await asyncio.wait_for(socket_.recv(), timeout=ACK_TIMEOUT)
                except TimeoutError:
                    if pending is not None:
                        result.lost += 1
                        seat.unanswered += 1
                    return True
                message = json.loads(raw)
                if message["type"] == "error":
                    result.refused += 1
                    pending = None
                    continue
                view = message["view"]
                if pending is not None and view["version"] > pending[0]:
                    result.latencies.append(time.perf_counter() - pending[2])
                    seat.acknowledged[pending[0]] = pending[1]
                    pending = None
                if view["status"] == "finished":
                    return True
                if view["legal"] and pending is None:
                    if think:
                        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    action = rng.choice(view["legal"])["id"]
                    pending = (view["version"], action, time.perf_counter())
                    await socket_.send(json.dumps({"action": action, "version": view["version"]}))
    except (websockets.ConnectionClosed, OSError):
        return False


async def set_up_table(base: str, game: str, players: int, rng: random.Random) -> list[Seat]:
    seats = [Seat(httpx2.AsyncClient(base_url=base, timeout=60)) for _ in range(players)]
    body = {"game": game, "seats": [{"kind": "human"}] * players, "name": "load 0"}
    made = (await seats[0].http.post("/api/tables", json=body)).json()
    for i, invitation in enumerate(made["invitations"], start=1):
        joined = await seats[i].http.post(
            f"/api/tables/{made['table']}/join",
            json={"name": f"load {i}", "token": invitation["token"]},
        )
        joined.raise_for_status()
    for seat in seats:
        seat.table = made["table"]
    return seats


async def check_records(base: str, tables: list[list[Seat]], result: LoadResult) -> None:
    """Compare each table's decisions with the actions its clients had acknowledged: fewer
    is a lost action, more a duplicated one (sends never acknowledged are already lost)."""
    async with httpx2.AsyncClient(base_url=base, timeout=60) as client:
        for seats in tables:
            view = (await client.get(f"/api/tables/{seats[0].table}")).json()
            result.finished += view["status"] == "finished"
            acknowledged = sum(len(seat.acknowledged) for seat in seats)
            unanswered = sum(seat.unanswered for seat in seats)
            if view["decisions"] < acknowledged:
                result.lost += acknowledged - view["decisions"]
            elif view["decisions"] > acknowledged + unanswered:
                result.duplicated += view["decisions"] - acknowledged - unanswered


async def run_load(
    tables: int, players: int, game: str, think: float, database: str | None, seed: int = 0
) -> LoadResult:
    result = LoadResult(tables, players, game, database or "sqlite (temporary)", think)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="kingdomkit-load-") as data:
        server = Server(database, Path(data))
        try:
            await server.wait()
            everyone = [await set_up_table(server.url, game, players, rng) for _ in range(tables)]
            start = time.perf_counter()
            await asyncio.gather(
                *(
                    play_seat(seat, server.url, think, random.Random(rng.getrandbits(64)), result)
                    for seats in everyone
                    for seat in seats
                )
            )
            result.seconds = time.perf_counter() - start
            result.actions = len(result.latencies)
            await check_records(server.url, everyone, result)
            result.server_errors = server.errors()
            for seats in everyone:
                for seat in seats:
                    await seat.http.aclose()
        finally:
            server.stop()
    return result
