"""The load benchmark: many tables of people played at once over WebSockets.

`run_load` plays against the servers it is given (`servers`: URLs of `kingdomkit serve`
processes started by someone else, sharing one database and one KINGDOMKIT_SECRET), or starts
its own: one `kingdomkit serve` (a temporary data folder; SQLite, or the database given), or
`processes` of them on one PostgreSQL database; each it starts is pinned to a core of its own
when the machine has enough. It creates `tables` tables of `players` human seats and gives
every seat a client: its own session, its own WebSocket. With several servers, table t is
created on server t % n and its seat i connects to server (t + i) % n, so the people of one
table are on different processes (a session cookie signed by one server is good on the
others).

A client plays a random legal action whenever its view offers some, after `think` seconds; it
measures the time from sending an action to receiving the view that shows it, on the socket it
sent it on. Figures are kept per server (the actions sent to it, their latency) and in total.
At the end every table's record is fetched and compared with what the clients sent: an action
sent and acknowledged but missing from the record is lost, one that appears twice is
duplicated.
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2
import orjson
import websockets

from kingdomkit.server.logs import LOGGED

START_TIMEOUT = 60.0
ACK_TIMEOUT = 30.0  # a sent action not shown within this is counted lost
SECRET = "load test"  # KINGDOMKIT_SECRET of the servers it starts: one for all of them
# Every simulated person comes from one address: the limits per address are lifted (servers
# given by URL need the same environment).
EVERYONE_AT_ONE_ADDRESS = {
    f"KINGDOMKIT_LIMIT_ADDRESS_{name}": "1000000"
    for name in ("TABLES_PER_MINUTE", "OPEN_TABLES", "SOCKETS")
}


class LoadError(ValueError):
    """A load test that cannot run as asked (the reason in words)."""


def percentile(latencies: Sequence[float], q: float) -> float:
    """The q-quantile of latencies (seconds), in milliseconds; NaN when there are none."""
    if not latencies:
        return float("nan")
    ordered = sorted(latencies)
    return 1000.0 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class ServerFigures:
    """What the clients saw of one server: the actions they sent on its sockets."""

    url: str
    latencies: list[float] = field(default_factory=list)  # of the actions shown, in seconds
    unanswered: int = 0  # sent and never shown
    refused: int = 0
    dropped: int = 0  # connections it closed during a game (the client reconnects)
    # CPU seconds its process used while the tables were played (servers the test started)
    cpu_seconds: float | None = None

    def summary(self, seconds: float) -> dict[str, Any]:
        return {
            "url": self.url,
            "actions": len(self.latencies),
            "actions_per_second": round(len(self.latencies) / seconds, 1) if seconds else 0.0,
            "latency_ms_p50": round(percentile(self.latencies, 0.5), 1),
            "latency_ms_p99": round(percentile(self.latencies, 0.99), 1),
            "unanswered": self.unanswered,
            "refused": self.refused,
            "dropped_connections": self.dropped,
            # its busy share of a core: near 1.0, the server is what limits the rate
            "cpu_share": round(self.cpu_seconds / seconds, 2)
            if self.cpu_seconds is not None and seconds
            else None,
        }


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
    servers: dict[str, ServerFigures] = field(default_factory=dict)  # by URL, in order
    cores: list[int] | None = None  # the core of each server started, when pinned

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The q-quantile of send-to-broadcast latency, in milliseconds."""
        return percentile(self.latencies, q)

    def shown(self, server: str, latency: float) -> None:
        """An action sent to `server` was shown `latency` seconds later."""
        self.latencies.append(latency)
        self.servers[server].latencies.append(latency)

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
            "pinned_cores": self.cores,
            "servers": [figures.summary(self.seconds) for figures in self.servers.values()],
        }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """`kingdomkit serve` in a process of its own (on one core, when `core` is given: its
    bot workers, started later, inherit it)."""

    def __init__(
        self,
        database: str | None,
        data: Path,
        args: Sequence[str] = (),
        core: int | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "kingdomkit", "serve", "--port", str(self.port)]
        command += ["--data", str(data), *args]
        if database:
            command += ["--database", database]
        env = {**os.environ, "KINGDOMKIT_SECRET": SECRET, **EVERYONE_AT_ONE_ADDRESS, **(env or {})}
        data.mkdir(parents=True, exist_ok=True)
        self.log = data / "server.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        if core is not None:
            # Popen returns once the child runs Python, long before it starts a thread.
            os.sched_setaffinity(self.process.pid, {core})
        self.url = f"http://127.0.0.1:{self.port}"

    def errors(self) -> list[str]:
        """The server's errors: each logged error or traceback, with its lines (uvicorn's
        lines start with their level, kingdomkit's with their time, logger and level)."""
        found: list[str] = []
        inside = False
        for line in self.log.read_text(errors="replace").splitlines():
            logged = LOGGED.match(line)
            level = logged.group(1) if logged else line.partition(":")[0]
            if level in ("ERROR", "CRITICAL") or (line.startswith("Traceback") and not inside):
                found.append(line)
                inside = True
            elif logged or line.startswith(("INFO", "WARNING", "kingdomkit:")):
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
    server: str = ""  # the URL its WebSocket connects to
    table: str = ""
    acknowledged: dict[int, int] = field(default_factory=dict)  # version -> action
    unanswered: int = 0  # actions sent and never shown


async def play_seat(seat: Seat, think: float, rng: random.Random, result: LoadResult) -> None:
    """Play the seat to the end of its game, reconnecting if the server drops the socket."""
    while not await _play_connected(seat, think, rng, result):
        result.dropped += 1
        result.servers[seat.server].dropped += 1
        await asyncio.sleep(0.5)


async def _play_connected(seat: Seat, think: float, rng: random.Random, result: LoadResult) -> bool:
    """Play over one connection; True when the game is over (or nothing comes any more)."""
    cookie = "; ".join(f"{k}={v}" for k, v in seat.http.cookies.items())
    uri = seat.server.replace("http", "ws", 1) + f"/ws/tables/{seat.table}"
    figures = result.servers[seat.server]
    pending: tuple[int, int, float] | None = None  # (version, action, sent at)
    try:
        async with websockets.connect(uri, additional_headers={"Cookie": cookie}) as socket_:
            while True:
                try:
                    raw = await asyncio.wait_for(socket_.recv(), timeout=ACK_TIMEOUT)
                except TimeoutError:
                    if pending is not None:
                        result.lost += 1
                        figures.unanswered += 1
                        seat.unanswered += 1
                    return True
                message = orjson.loads(raw)  # the clients' parsing was the bottleneck
                if message["type"] == "error":
                    result.refused += 1
                    figures.refused += 1
                    pending = None
                    continue
                if message["type"] != "view":
                    continue  # a chat message
                view = message["view"]
                if pending is not None and view["version"] > pending[0]:
                    result.shown(seat.server, time.perf_counter() - pending[2])
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


async def set_up_table(servers: Sequence[str], number: int, game: str, players: int) -> list[Seat]:
    """Table `number`, made on server number % n; seat i's socket goes to server
    (number + i) % n. Its people sit down through the server that made it."""
    base = servers[number % len(servers)]
    seats = [
        Seat(httpx2.AsyncClient(base_url=base, timeout=60), servers[(number + i) % len(servers)])
        for i in range(players)
    ]
    body = {"game": game, "seats": [{"kind": "human"}] * players, "name": "load 0"}
    try:
        made = answer(await seats[0].http.post("/api/tables", json=body), base)
        for i, invitation in enumerate(made["invitations"], start=1):
            answer(
                await seats[i].http.post(
                    f"/api/tables/{made['table']}/join",
                    json={"name": f"load {i}", "token": invitation["token"]},
                ),
                base,
            )
    except BaseException as error:
        for seat in seats:
            await seat.http.aclose()
        if isinstance(error, httpx2.TransportError):
            raise LoadError(f"{base} cannot be reached: {error}") from None
        raise
    for seat in seats:
        seat.table = made["table"]
    return seats


def answer(response: httpx2.Response, base: str) -> Any:
    """The JSON of a successful answer; LoadError saying why if refused."""
    if response.is_success:
        return response.json()
    hint = ""
    if response.status_code == 429:
        names = " ".join(f"{name}={value}" for name, value in EVERYONE_AT_ONE_ADDRESS.items())
        hint = f" (every client comes from one address: start the servers with {names})"
    raise LoadError(
        f"{base} answered {response.request.method} {response.request.url.path} with "
        f"{response.status_code}: {response.text[:200]}{hint}"
    )


async def check_records(tables: list[list[Seat]], result: LoadResult) -> None:
    """Compare each table's decisions with the actions its clients had acknowledged: fewer
    is a lost action, more a duplicated one (sends never acknowledged are already lost)."""
    for seats in tables:
        view = (await seats[0].http.get(f"/api/tables/{seats[0].table}")).json()
        result.finished += view["status"] == "finished"
        acknowledged = sum(len(seat.acknowledged) for seat in seats)
        unanswered = sum(seat.unanswered for seat in seats)
        if view["decisions"] < acknowledged:
            result.lost += acknowledged - view["decisions"]
        elif view["decisions"] > acknowledged + unanswered:
            result.duplicated += view["decisions"] - acknowledged - unanswered


async def run_load(
    tables: int,
    players: int,
    game: str,
    think: float,
    database: str | None,
    seed: int = 0,
    servers: Sequence[str] = (),
    processes: int = 1,
) -> LoadResult:
    """The benchmark (see the module card): against `servers` when given, else against
    `processes` servers it starts on `database`. LoadError if it cannot run as asked."""
    check_targets(database, servers, processes)
    label = "the servers' own" if servers else database or "sqlite (temporary)"
    result = LoadResult(tables, players, game, label, think)
    with tempfile.TemporaryDirectory(prefix="kingdomkit-load-") as data:
        started: list[Server] = []
        try:
            if not servers:
                await start_servers(database, Path(data), processes, started)
            urls = [url.rstrip("/") for url in servers] or [server.url for server in started]
            result.servers = {url: ServerFigures(url) for url in urls}
            result.cores = pinned_cores(processes) if started else None
            used = {server.url: cpu_seconds(server.process.pid) for server in started}
            await play_tables(urls, result, random.Random(seed))
            for server in started:  # (set-up and the record checks are in it: a small part)
                used[server.url] = cpu_seconds(server.process.pid) - used[server.url]
                result.servers[server.url].cpu_seconds = used[server.url]
            result.server_errors = [error for server in started for error in server.errors()]
        finally:
            for server in started:
                server.stop()
    return result


def check_targets(database: str | None, servers: Sequence[str], processes: int) -> None:
    """LoadError if the servers asked for cannot be had."""
    if processes < 1:
        raise LoadError("--processes is at least 1")
    if servers and (processes > 1 or database):
        raise LoadError("--server targets running servers: --processes and --database are not")
    for url in servers:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise LoadError(f"a server is http(s)://host[:port], not {url!r}")
    if processes > 1 and not (database or "").startswith("postgresql"):
        raise LoadError(
            f"--processes {processes} needs --database postgresql+psycopg://...: "
            "an SQLite database is served by one process only"
        )


def pinned_cores(processes: int) -> list[int] | None:
    """The core of each of `processes` servers: one each when the machine has enough (one
    server too, so that 1 and N servers are compared at one core each)."""
    cores = sorted(os.sched_getaffinity(0))
    return cores[:processes] if len(cores) >= processes else None


async def start_servers(
    database: str | None, data: Path, processes: int, started: list[Server]
) -> None:
    """Start `processes` servers on `database`, each added to `started` (for the caller to
    stop) and answering on return. The first migrates the schema; the others start once it
    answers (two migrating an empty database at once would collide)."""
    cores = pinned_cores(processes)
    for i in range(processes):
        core = None if cores is None else cores[i]
        started.append(Server(database, data / f"server-{i}", core=core))
        if i == 0:
            await started[0].wait()
    for server in started[1:]:
        await server.wait()


async def play_tables(urls: list[str], result: LoadResult, rng: random.Random) -> None:
    """Set up the tables, play them all at once to the end, check their records."""
    everyone: list[list[Seat]] = []
    try:
        for number in range(result.tables):
            everyone.append(await set_up_table(urls, number, result.game, result.players))
        start = time.perf_counter()
        await asyncio.gather(
            *(
                play_seat(seat, result.think, random.Random(rng.getrandbits(64)), result)
                for seats in everyone
                for seat in seats
            )
        )
        result.seconds = time.perf_counter() - start
        result.actions = len(result.latencies)
        await check_records(everyone, result)
    finally:
        for seats in everyone:
            for seat in seats:
                await seat.http.aclose()
