"""Many processes on one PostgreSQL (issue 25): two `kingdomkit serve` processes without bots of
their own and one `kingdomkit worker`, all real processes on a real database.

- Two people, each connected to a different process, play a whole game of each game against a
  bot, and each sees the other's moves over their own process's WebSocket.
- `kill -9` of a serve process in the middle: its person goes on through the other process,
  and nothing they did is lost.
- `kill -9` of the worker during a bot's search: nothing moves until a new worker starts; then
  the bot moves, once.
- The same action sent to both processes at once: exactly one is accepted.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import psycopg
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families

from kingdomkit.server.database import conninfo
from postgres import PostgresServer
from serving import LAZY, START_SECONDS, ServeProcess, kill, stop
from system import free_port

# The worker notices a dead one quickly here: heartbeats every 0.5 s, stalled after 3 s.
FAST_JOBS = ("--job-heartbeat", "0.5", "--job-stalled", "3", "--job-sweep", "1")
NO_WORKERS = ("--bot-workers", "0", "--analysis-workers", "0")
WAIT = 60.0  # seconds to wait for a view that must come


PASSWORD = "a long enough passphrase for tests"


class WorkerProcess:
    """`kingdomkit worker` on the database, which can be killed and started again (its
    analyst is small: hints and reviews in a test take seconds)."""

    def __init__(self, database: str, env: dict[str, str]) -> None:
        self.database = database
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.more: tuple[str, ...] = ()  # more flags

    def start(self) -> None:
        command = [sys.executable, "-m", "kingdomkit", "worker", "--database", self.database]
        command += ["--bot-workers", "1", "--analysis-workers", "1", *FAST_JOBS]
        command += ["--analyst", "mcts:playouts=8", *self.more]
        self.process = subprocess.Popen(command, env={**os.environ, **LAZY, **self.env})

    def kill(self) -> None:
        assert self.process is not None
        kill(self.process)

    def stop(self) -> None:
        stop(self.process)


class Cluster:
    def __init__(
        self, postgres: PostgresServer, root: Path, limits: dict[str, str] | None = None
    ) -> None:
        self.database = postgres.database()
        env = {"KINGDOMKIT_SECRET": secrets.token_urlsafe(16), **(limits or {})}  # one key
        self.serves = [
            ServeProcess(root / name, self.database, (*NO_WORKERS, *FAST_JOBS), env)
            for name in ("a", "b")
        ]
        self.worker = WorkerProcess(self.database, env)

    def start(self) -> None:
        """The serve processes, then the worker; if one fails to start, the others stop."""
        try:
            for serve in self.serves:
                serve.start()
            self.worker.start()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        self.worker.stop()
        for serve in self.serves:
            serve.stop()


@pytest.fixture
def cluster(postgres: PostgresServer, tmp_path: Path) -> Iterator[Cluster]:
    made = Cluster(postgres, tmp_path)
    made.start()
    try:
        yield made
    finally:
        made.stop()


class Person:
    """One person's browser: a cookie, and a WebSocket to one process of their choice."""

    def __init__(self, name: str, serve: ServeProcess) -> None:
        self.name = name
        self.serve = serve
        self.http = httpx2.AsyncClient(base_url=serve.url, timeout=30)
        self.socket: Any = None
        self.table = ""
        self.view: dict[str, Any] = {}

    async def connect(self, serve: ServeProcess | None = None) -> None:
        """Open the table's socket on `serve` (the same cookie works on every process)."""
        if serve is not None:
            cookies = self.http.cookies
            await self.http.aclose()
            self.serve = serve
            self.http = httpx2.AsyncClient(base_url=serve.url, timeout=30, cookies=cookies)
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.socket = await websockets.connect(
            f"{self.serve.ws_url}/ws/tables/{self.table}",
            additional_headers={"Cookie": cookie, "Origin": self.serve.url},
        )
        await self.seen(lambda view: True)

    async def seen(self, wanted: Any) -> dict[str, Any]:
        """The first view on the socket that is `wanted` (the latest already seen counts)."""
        async with asyncio.timeout(WAIT):
            while not (self.view and wanted(self.view)):
                await self.next_view()
        return self.view

    async def next_view(self) -> None:
        """Read the socket up to its next view (cancelling this loses nothing)."""
        while True:
            message = json.loads(await self.socket.recv())
            if message.get("type") == "view":
                self.view = message["view"]
                return

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        await self.http.aclose()


async def sit_down(cluster: Cluster, game: str, bot: str) -> tuple[Person, Person]:
    """Ann makes a table on process A with Bob and a bot; Bob joins on process B."""
    ann, bob = Person("Ann", cluster.serves[0]), Person("Bob", cluster.serves[1])
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": bot}]
    made = await ann.http.post("/api/tables", json={"game": game, "seats": seats, "name": "Ann"})
    assert made.status_code == 201, made.text
    ann.table = bob.table = made.json()["table"]
    joined = await bob.http.post(f"/api/tables/{bob.table}/join", json={"name": "Bob"})
    assert joined.status_code == 200, joined.text
    await ann.connect()
    await bob.connect()
    return ann, bob


async def play_on(
    people: list[Person], rng: random.Random, until: Any = lambda view: False
) -> dict[str, Any]:
    """Play random legal moves for whoever is to act until the game ends (or `until` holds
    for a view): each move is sent on its person's process, and every person must then see
    it on their own socket. The last view."""
    while True:
        acting = await turn(people, until)
        if acting.view["status"] == "finished" or until(acting.view):
            return acting.view
        view = acting.view
        move = rng.choice(view["legal"])
        sent = await acting.http.post(
            f"/api/tables/{acting.table}/actions",
            json={"action": move["id"], "version": view["version"]},
        )
        assert sent.status_code == 200, sent.text
        version = sent.json()["version"]
        for person in people:  # the move reached every process's sockets
            await person.seen(lambda v, at=version: v["version"] >= at)


async def turn(people: list[Person], until: Any = lambda view: False) -> Person:
    """Once every socket shows the latest version: the person to act then (any of them if
    the game is over, or `until` holds); while a bot moves, both wait for its move on their
    own sockets."""
    async with asyncio.timeout(WAIT):
        while True:
            top = max(p.view["version"] for p in people)
            for person in people:
                view = person.view
                done = view["status"] == "finished" or view["legal"] or until(view)
                if done and all(p.view["version"] == top for p in people):
                    return person
            reads = [asyncio.ensure_future(p.next_view()) for p in people]
            try:
                await asyncio.wait(reads, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for read in reads:
                    read.cancel()
                await asyncio.gather(*reads, return_exceptions=True)


async def record_of(person: Person) -> dict[str, Any]:
    answer = await person.http.get(f"/api/tables/{person.table}/record")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


@pytest.mark.parametrize("game", ["kingdomino", "queendomino", "kingdoms"])
def test_two_people_on_two_processes_play_a_whole_game_with_a_bot(
    cluster: Cluster, game: str
) -> None:
    async def scenario() -> None:
        ann, bob = await sit_down(cluster, game, "random")
        try:
            final = await play_on([ann, bob], random.Random(game))
            assert final["status"] == "finished"
            assert await record_of(bob) == await record_of(ann)
            everyone = await ann.http.get(f"/api/tables/{ann.table}/log", params={"since": 0})
            seats = {entry["seat"] for entry in everyone.json()["entries"]}
            assert seats == {0, 1, 2}  # the bot played too, through the worker
        finally:
            await ann.close()
            await bob.close()

    asyncio.run(scenario())


def test_a_killed_serve_process_loses_nothing(cluster: Cluster) -> None:
    async def scenario() -> None:
        ann, bob = await sit_down(cluster, "kingdomino", "random")
        rng = random.Random(1)
        try:
            middle = await play_on([ann, bob], rng, lambda view: view["version"] >= 20)
            cluster.serves[0].kill()  # Ann's process dies with her socket
            await ann.connect(cluster.serves[1])  # her client reconnects to the other one
            assert ann.view["version"] >= middle["version"]  # nothing of hers was lost
            final = await play_on([ann, bob], rng)
            assert final["status"] == "finished"
        finally:
            await ann.close()
            await bob.close()

    asyncio.run(scenario())


def query(database: str, sql: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(conninfo(database)) as connection:
        return list(connection.execute(sql).fetchall())


def jobs_running(database: str) -> int:
    """Bot moves being searched now."""
    sql = "SELECT count(*) FROM procrastinate_jobs WHERE status = 'doing' AND task_name = 'play'"
    return int(query(database, sql)[0][0])


def job_states(database: str) -> set[str]:
    """The states of every play job left (the successful ones are deleted)."""
    sql = "SELECT DISTINCT status::text FROM procrastinate_jobs WHERE task_name = 'play'"
    return {row[0] for row in query(database, sql)} - {"succeeded"}


def test_a_worker_killed_during_a_search_has_the_bot_move_once(cluster: Cluster) -> None:
    async def scenario() -> None:
        ann, bob = await sit_down(cluster, "kingdomino", "expert")
        try:
            # Play until the bot is searching, then kill its worker.
            view = await play_on([ann, bob], random.Random(2), lambda v: v["to_act"] == 2)
            await asyncio.sleep(0)
            at, decided = view["version"], view["decisions"]
            deadline = time.monotonic() + WAIT
            while not jobs_running(cluster.database):
                assert time.monotonic() < deadline, "the bot's job never started"
                await asyncio.sleep(0.02)
            cluster.worker.kill()
            await asyncio.sleep(4)  # longer than the bot's search would take it to move
            stuck = await ann.http.get(f"/api/tables/{ann.table}")
            assert stuck.json()["version"] == at  # no worker: no move
            cluster.worker.start()
            moved = await ann.seen(lambda v: v["version"] > at)
            assert moved["log"][decided - moved["log_start"]]["seat"] == 2  # the bot moved
            final = await play_on([ann, bob], random.Random(3))
            assert final["status"] == "finished"
            assert job_states(cluster.database) <= {"succeeded"}  # none failed, none left
        finally:
            await ann.close()
            await bob.close()

    asyncio.run(scenario())


def test_a_bot_move_whose_job_was_lost_is_found_by_the_sweep(cluster: Cluster) -> None:
    """A process dies between committing a move and queueing the bot's job (here: the job
    is deleted): the workers' sweep finds the table waiting for its bot, and it moves."""

    async def scenario() -> None:
        cluster.worker.kill()
        ann, bob = await sit_down(cluster, "kingdomino", "random")
        try:
            view = await play_on([ann, bob], random.Random(4), lambda v: v["to_act"] == 2)
            queued = "SELECT count(*) FROM procrastinate_jobs WHERE task_name = 'play'"
            async with asyncio.timeout(WAIT):
                while not query(cluster.database, queued)[0][0]:
                    await asyncio.sleep(0.02)  # the serve process queues it after its commit
            query(cluster.database, "DELETE FROM procrastinate_jobs RETURNING id")
            cluster.worker.start()
            moved = await ann.seen(lambda v: v["version"] > view["version"])
            assert moved["log"][view["decisions"] - moved["log_start"]]["seat"] == 2
        finally:
            await ann.close()
            await bob.close()

    asyncio.run(scenario())


def test_a_long_search_is_not_queued_twice_and_is_mended_when_its_worker_dies(
    cluster: Cluster,
) -> None:
    """A bot's job taken by a worker that searches longer than the sweep's grace (here a
    worker made by hand, whose heartbeat the test keeps): the sweep does not queue the move
    again. When that worker stops beating, its job is run again, and the bot moves once."""

    async def scenario() -> None:
        cluster.worker.kill()
        ann, bob = await sit_down(cluster, "kingdomino", "random")
        try:
            view = await play_on([ann, bob], random.Random(5), lambda v: v["to_act"] == 2)
            queued = "SELECT count(*) FROM procrastinate_jobs WHERE task_name = 'play'"
            async with asyncio.timeout(WAIT):
                while not query(cluster.database, queued)[0][0]:
                    await asyncio.sleep(0.02)
            searcher = query(
                cluster.database, "INSERT INTO procrastinate_workers DEFAULT VALUES RETURNING id"
            )[0][0]
            query(
                cluster.database,
                f"UPDATE procrastinate_jobs SET status = 'doing', worker_id = {int(searcher)}"
                " WHERE task_name = 'play' RETURNING id",
            )
            cluster.worker.start()
            beat = f"UPDATE procrastinate_workers SET last_heartbeat = now() WHERE id = {searcher}"
            for _ in range(10):  # 5 s: five sweeps, each past the grace of 1 s
                query(cluster.database, f"{beat} RETURNING id")
                await asyncio.sleep(0.5)
            assert job_counts(cluster.database) == {"doing": 1}  # the search, not a copy of it
            query(
                cluster.database,
                "UPDATE procrastinate_workers SET last_heartbeat = now() - interval '1 hour'"
                f" WHERE id = {searcher} RETURNING id",
            )
            moved = await ann.seen(lambda v: v["version"] > view["version"])
            assert moved["log"][view["decisions"] - moved["log_start"]]["seat"] == 2
        finally:
            await ann.close()
            await bob.close()

    asyncio.run(scenario())


def job_counts(database: str) -> dict[str, int]:
    """How many play jobs are left in each state."""
    sql = "SELECT status::text, count(*) FROM procrastinate_jobs"
    sql += " WHERE task_name = 'play' GROUP BY 1"
    return {status: int(count) for status, count in query(database, sql)}


def test_the_same_action_sent_to_both_processes_is_accepted_once(cluster: Cluster) -> None:
    async def scenario() -> None:
        ann, bob = await sit_down(cluster, "kingdomino", "random")
        try:
            for _ in range(6):  # six races, each on the decision of whoever is to act
                acting = await turn([ann, bob])
                view = acting.view
                body = {"action": view["legal"][0]["id"], "version": view["version"]}
                other = httpx2.AsyncClient(
                    base_url=cluster.serves[1 - cluster.serves.index(acting.serve)].url,
                    cookies=acting.http.cookies,
                    timeout=30,
                )
                url = f"/api/tables/{acting.table}/actions"
                answers = await asyncio.gather(
                    acting.http.post(url, json=body), other.post(url, json=body)
                )
                await other.aclose()
                codes = sorted(a.status_code for a in answers)
                assert codes == [200, 409], [a.text for a in answers]
                version = max(a.json().get("version", 0) for a in answers if a.is_success)
                for person in (ann, bob):
                    await person.seen(lambda v, at=version: v["version"] >= at)
            # Both processes tell the same game: each race added one decision, not two.
            await turn([ann, bob])  # (once the bot has moved, if it was its turn)
            logs = [
                (await p.http.get(f"/api/tables/{p.table}/log", params={"since": 0})).json()
                for p in (ann, bob)
            ]
            assert logs[0] == logs[1]
            assert len([e for e in logs[0]["entries"] if e["seat"] < 2]) == 6
        finally:
            await ann.close()
            await bob.close()

    asyncio.run(scenario())


def test_hints_time_outs_and_reviews_come_from_the_worker(cluster: Cluster) -> None:
    """Ann plays on process A with her socket on process B: her hint, the clock's move when
    her time runs out, and her game's review are all made by the worker, and reach her."""

    async def scenario() -> None:
        ann = Person("Ann", cluster.serves[0])
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        made = await ann.http.post(
            "/api/tables",
            # 10 s: time for the first hint (its worker process starting on a loaded
            # machine) and the same hint asked again before the clock plays for her
            json={"game": "kingdomino", "seats": seats, "hints": True, "move_seconds": 10},
        )
        assert made.status_code == 201, made.text
        ann.table = made.json()["table"]
        await ann.connect(cluster.serves[1])
        try:
            view = await ann.seen(lambda v: bool(v["legal"]))
            hinted = await ann.http.get(f"/api/tables/{ann.table}/hint")
            assert hinted.status_code == 200, hinted.text
            advice = hinted.json()
            assert {a["id"] for a in advice} == {m["id"] for m in view["legal"]}
            other = httpx2.AsyncClient(
                base_url=cluster.serves[0].url, cookies=ann.http.cookies, timeout=30
            )
            again = await other.get(f"/api/tables/{ann.table}/hint")  # kept: the same answer
            assert again.json() == advice
            # Ann waits: her 10 seconds run out and the clock's bot plays for her.
            timed = await ann.seen(lambda v: v["version"] > view["version"])
            entry = timed["log"][view["decisions"] - timed["log_start"]]
            assert entry["seat"] == 0 and entry["by"] == "clock"
            # A bot stands in for her to the end; then the review, asked on A.
            stood = await other.post(f"/api/tables/{ann.table}/seats/0/bot", json={"bot": "random"})
            assert stood.status_code == 200, stood.text
            await ann.seen(lambda v: v["status"] == "finished")
            asked = await other.post(f"/api/tables/{ann.table}/review")
            assert asked.status_code == 202, asked.text
            async with asyncio.timeout(WAIT):
                while True:
                    got = await ann.http.get(f"/api/tables/{ann.table}/review")
                    if got.status_code == 200:
                        break
                    await asyncio.sleep(0.2)
            assert [p["seat"] for p in got.json()["players"]] == [0, 1]
            assert got.json()["analyst"] == "mcts:playouts=8"  # the worker's --analyst
            await other.aclose()
        finally:
            await ann.close()

    asyncio.run(scenario())


def test_signing_out_on_one_process_ends_the_session_on_the_other(cluster: Cluster) -> None:
    async def scenario() -> None:
        a, b = cluster.serves
        ann = Person("Ann", a)
        made = await ann.http.post("/api/accounts", json={"name": "ann", "password": PASSWORD})
        assert made.status_code == 201, made.text
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        table = await ann.http.post("/api/tables", json={"game": "kingdomino", "seats": seats})
        ann.table = table.json()["table"]
        await ann.connect(b)  # her socket and a copy of her cookie on process B
        copy = httpx2.AsyncClient(base_url=b.url, cookies=ann.http.cookies, timeout=30)
        assert (await copy.get("/api/me")).json()["account"]
        out = httpx2.AsyncClient(base_url=a.url, cookies=ann.http.cookies, timeout=30)
        assert (await out.post("/api/logout")).is_success  # on process A
        async with asyncio.timeout(WAIT):
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await ann.socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        assert not (await copy.get("/api/me")).json()["account"]  # a guest's now, on B
        for client in (copy, out):
            await client.aclose()
        await ann.close()

    asyncio.run(scenario())


def test_who_is_here_is_known_across_processes(cluster: Cluster) -> None:
    """Bob has the table open on process B: Ann, on A, sees him here and cannot put a bot on
    his seat. When his process dies he is gone (once it is missed), and she can."""

    async def scenario() -> None:
        ann, bob = await sit_down(cluster, "kingdomino", "random")
        try:
            await ann.seen(lambda v: 1 in v["here"])
            taken = await ann.http.post(f"/api/tables/{ann.table}/seats/1/bot", json={})
            assert taken.status_code == 409 and "still here" in taken.text
            cluster.serves[1].kill()  # its sockets never say they closed: it is missed
            async with asyncio.timeout(WAIT):
                while 1 in ann.view["here"]:
                    await ann.next_view()
            stood = await ann.http.post(f"/api/tables/{ann.table}/seats/1/bot", json={})
            assert stood.status_code == 200, stood.text
            assert stood.json()["seats"][1]["stand_in"] == "medium"
        finally:
            await ann.close()
            await bob.close()

    asyncio.run(scenario())


def test_the_limit_on_unfinished_tables_counts_every_process(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    """Three unfinished tables at most: two made on A and one on B are three, on B too; and
    five from one address: new guests from it are refused on either."""
    limits = {"KINGDOMKIT_LIMIT_OPEN_TABLES": "3", "KINGDOMKIT_LIMIT_ADDRESS_OPEN_TABLES": "5"}
    cluster = Cluster(postgres, tmp_path, limits)
    try:
        for serve in cluster.serves:
            serve.start()
        ann = httpx2.Client(base_url=cluster.serves[0].url)
        seats = [{"kind": "human"}, {"kind": "human"}]
        body = {"game": "kingdomino", "seats": seats}
        for _ in range(2):
            assert ann.post("/api/tables", json=body).status_code == 201
        on_b = httpx2.Client(base_url=cluster.serves[1].url, cookies=ann.cookies)
        assert on_b.post("/api/tables", json=body).status_code == 201
        refused = on_b.post("/api/tables", json=body)
        assert refused.status_code == 429, refused.text
        assert "3 unfinished tables" in refused.json()["detail"]
        bob = httpx2.Client(base_url=cluster.serves[1].url)
        assert bob.post("/api/tables", json=body).status_code == 201
        carl = httpx2.Client(base_url=cluster.serves[0].url)
        assert carl.post("/api/tables", json=body).status_code == 201
        for url in (serve.url for serve in cluster.serves):
            refused = httpx2.Client(base_url=url).post("/api/tables", json=body)
            assert refused.status_code == 429, refused.text
            assert "your network address has 5 unfinished tables" in refused.json()["detail"]
    finally:
        cluster.stop()


async def socket_on(serve: ServeProcess, cookies: Any, table: str) -> tuple[Any, dict[str, Any]]:
    """A WebSocket to `table` on `serve` with `cookies`, and its first message."""
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    socket = await websockets.connect(
        f"{serve.ws_url}/ws/tables/{table}",
        additional_headers={"Cookie": cookie, "Origin": serve.url},
    )
    return socket, json.loads(await asyncio.wait_for(socket.recv(), WAIT))


async def refused_on(serve: ServeProcess, cookies: Any, table: str) -> str:
    """Open sockets on `serve` until one is refused (the other processes' counts reach it
    by notification, a moment after theirs open); its reason."""
    async with asyncio.timeout(WAIT):
        while True:
            socket, first = await socket_on(serve, cookies, table)
            await socket.close()
            if first["type"] == "error":
                assert first["status"] == 429
                return str(first["detail"])
            await asyncio.sleep(0.2)


def test_the_limits_on_open_websockets_count_every_process(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    """Two WebSockets per identity and three per address at most: Ann's one on A and one
    on B are her two, so a third is refused on A; Bob's one on B is the address's third, so
    Carl is refused on A. Once B is killed and missed, what it had open is free again."""
    limits = {"KINGDOMKIT_LIMIT_SOCKETS": "2", "KINGDOMKIT_LIMIT_ADDRESS_SOCKETS": "3"}
    cluster = Cluster(postgres, tmp_path, limits)
    a, b = cluster.serves

    async def scenario() -> None:
        async with (
            httpx2.AsyncClient(base_url=a.url) as ann,
            httpx2.AsyncClient(base_url=b.url) as bob,
            httpx2.AsyncClient(base_url=a.url) as carl,
        ):
            seats = [{"kind": "human"}, {"kind": "human"}]
            made = await ann.post("/api/tables", json={"game": "kingdomino", "seats": seats})
            assert made.status_code == 201, made.text
            table = made.json()["table"]
            for client in (bob, carl):  # each a guest of their own
                assert (await client.get("/api/me")).status_code == 200
            open_ = []
            for serve, cookies in ((a, ann.cookies), (b, ann.cookies)):
                socket, first = await socket_on(serve, cookies, table)
                assert first["type"] == "view", first
                open_.append(socket)
            assert "you have 2 connections open" in await refused_on(a, ann.cookies, table)
            socket, first = await socket_on(b, bob.cookies, table)
            assert first["type"] == "view", first
            open_.append(socket)
            assert "network address has 3" in await refused_on(a, carl.cookies, table)
            b.kill()  # its two sockets never say they closed: freed once B is missed
            async with asyncio.timeout(WAIT):
                while True:
                    socket, first = await socket_on(a, carl.cookies, table)
                    await socket.close()
                    if first["type"] == "view":
                        break
                    await asyncio.sleep(0.5)
            for socket in open_[:1]:
                await socket.close()

    try:
        for serve in cluster.serves:
            serve.start()
        asyncio.run(scenario())
    finally:
        cluster.stop()


def test_a_worker_needs_postgresql() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kingdomkit", "worker", "--database", "sqlite:///x.db"],
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
    )
    assert done.returncode == 2
    assert "PostgreSQL" in done.stderr


def test_a_worker_refuses_a_metrics_port_that_is_none() -> None:
    database = "postgresql+psycopg://nobody@127.0.0.1:1/none"  # never reached
    command = [sys.executable, "-m", "kingdomkit", "worker", "--database", database]
    done = subprocess.run(
        [*command, "--metrics-port", "70000"],
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
    )
    assert done.returncode == 2
    assert "--metrics-port is a port from 1 to 65535, not 70000" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_table_cancelled_on_one_process_is_gone_on_the_other(cluster: Cluster) -> None:
    """Ann made a table on process A that waits for a third player; Bob, seated, has it open
    on process B. When she cancels it on A, B forgets it and tells Bob's page why."""

    async def scenario() -> None:
        ann, bob = Person("Ann", cluster.serves[0]), Person("Bob", cluster.serves[1])
        seats = [{"kind": "human"}] * 3
        body = {"game": "kingdomino", "options": {"players": 3}, "seats": seats, "name": "Ann"}
        made = await ann.http.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        ann.table = bob.table = made.json()["table"]
        joined = await bob.http.post(f"/api/tables/{bob.table}/join", json={"name": "Bob"})
        assert joined.status_code == 200, joined.text
        await bob.connect()
        try:
            cancelled = await ann.http.delete(f"/api/tables/{ann.table}")
            assert cancelled.status_code == 200, cancelled.text
            async with asyncio.timeout(WAIT):
                while (message := json.loads(await bob.socket.recv()))["type"] != "gone":
                    pass
            assert "cancelled it before its game began" in message["detail"]
            assert (await bob.http.get(f"/api/tables/{bob.table}")).status_code == 404
        finally:
            await ann.close()
            await bob.close()

    asyncio.run(scenario())


def test_a_worker_reports_its_jobs_to_prometheus(postgres: PostgresServer, tmp_path: Path) -> None:
    """`kingdomkit worker --metrics-port`: the bot moves it played, counted and timed, and
    the queues, in Prometheus' text format on loopback."""
    cluster = Cluster(postgres, tmp_path)
    port = free_port()
    cluster.worker.more = ("--metrics-port", str(port))
    cluster.start()

    async def scenario() -> dict[str, Any]:
        ann = Person("Ann", cluster.serves[0])
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        made = await ann.http.post("/api/tables", json={"game": "kingdomino", "seats": seats})
        assert made.status_code == 201, made.text
        ann.table = made.json()["table"]
        await ann.connect()
        try:
            return await play_on([ann], random.Random(5), until=lambda v: v["decisions"] >= 6)
        finally:
            await ann.close()

    try:
        view = asyncio.run(scenario())
        # how many of the first decisions were the bot's depends on the draw of the kings'
        # order: read it from the log
        moved = sum(1 for entry in view["log"] if entry.get("seat") == 1)
        assert moved >= 1
        deadline = time.monotonic() + WAIT
        while True:  # until the worker answers and has counted the moves the log shows
            try:
                page = httpx2.get(f"http://127.0.0.1:{port}/metrics", timeout=10)
            except httpx2.TransportError:
                page = None
            if page is not None:
                samples = {
                    (sample.name, tuple(sorted(sample.labels.items()))): sample.value
                    for family in text_string_to_metric_families(page.text)
                    for sample in family.samples
                }
                done = (("outcome", "done"), ("task", "play"))
                played = samples.get(("kingdomkit_jobs_run_total", done), 0.0)
                if played >= moved:
                    break
            assert time.monotonic() < deadline, "the worker's metrics never counted its moves"
            time.sleep(0.2)
        assert samples[("kingdomkit_job_seconds_count", (("task", "play"),))] == played
        assert ("kingdomkit_jobs_waiting", (("queue", "play"),)) in samples
        assert any(name == "kingdomkit_info" for name, _ in samples)
        assert any(name == "process_cpu_seconds_total" for name, _ in samples)
    finally:
        cluster.stop()
