"""Monitoring (server/metrics.py): /health answers 200 while the database does and 503 once it
is gone or silent; /metrics parses as Prometheus text and its figures follow real play through
the API; it is refused to a client not on loopback unless it brings the token."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, make_url, text
from test_server import HUMAN, Person, create, play_first_legal_until_over
from test_server_scheduler import wait_for_gate

from kingdomkit import __version__
from kingdomkit.server.app import ServerConfig, create_app
from kingdomkit.server.metrics import Health
from kingdomkit.server.scheduler import Scheduler
from system import free_port

LOOPBACK = ("127.0.0.1", 50000)
ELSEWHERE = ("203.0.113.7", 40000)  # TEST-NET-3: an address that is not loopback
TOKEN = "a metrics token of some length"


def started(database: str, client: tuple[str, int], token: str | None = None) -> TestClient:
    app = create_app(ServerConfig(database=database, secret="test secret", metrics_token=token))
    server = TestClient(app, client=client)
    app.state.test_client = server
    return server


@pytest.fixture
def app(database: str) -> Iterator[FastAPI]:
    with started(database, LOOPBACK) as server:
        yield server.app  # type: ignore[misc]


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(app: FastAPI) -> Samples:
    """Every sample of GET /metrics, by name and labels, as prometheus_client parses it."""
    response = app.state.test_client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, frozenset(labels.items()))]


def test_health_is_ok_without_a_cookie_and_out_of_the_api_description(app: FastAPI) -> None:
    server: TestClient = app.state.test_client
    response = server.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert "set-cookie" not in response.headers
    paths = server.get("/openapi.json").json()["paths"]
    assert "/health" not in paths and "/metrics" not in paths


def make_database_gone(app: FastAPI, url: str) -> None:
    """Take the database from under the running app: SQLite's file becomes a folder (its open
    connections closed first: they would still read the deleted file); PostgreSQL's database
    is dropped, its connections ended by the server."""
    engine = app.state.health.engine
    if url.startswith("sqlite"):
        engine.dispose()
        path = Path(make_url(url).database or "")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        path.mkdir()
        return
    name = make_url(url).database
    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    admin.dispose()


def test_health_is_503_once_the_database_is_gone(database: str) -> None:
    with started(database, ELSEWHERE) as server:
        assert server.get("/health").status_code == 200
        make_database_gone(server.app, database)  # type: ignore[arg-type]
        response = server.get("/health")
        assert response.status_code == 503
        answer = response.json()
        assert answer["status"] == "failing"
        assert answer["database"].startswith("error (")
        assert "127.0.0.1" not in answer["database"]  # nothing of the set-up is told
        if database.startswith("sqlite"):
            shutil.rmtree(make_url(database).database or "")  # the app closes cleanly


def test_health_gives_up_on_a_database_that_never_answers() -> None:
    """A PostgreSQL port whose listener never accepts: the connection waits for an answer
    that never comes, so the check times out, and the next poll waits for the same check
    instead of starting another thread."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    engine = create_engine(f"postgresql+psycopg://nobody@127.0.0.1:{port}/nothing")
    health = Health(engine, timeout=0.2)

    async def scenario() -> tuple[str, str, bool, str]:
        first = await health.database()
        running = health.running
        second = await health.database()
        same = health.running is running
        silent.close()  # the waiting connection is reset: the check ends with an error
        assert running is not None
        await asyncio.wait([running])
        return first, second, same, await health.database()

    try:
        first, second, same, after = asyncio.run(scenario())
    finally:
        silent.close()
        health.close()
        engine.dispose()
    assert first == second == "no answer within 0.2 s"
    assert same
    assert after == "error (OperationalError)"


def test_metrics_parse_and_follow_real_play(app: FastAPI) -> None:
    before = scrape(app)
    assert value(before, "kingdomkit_info", pid=str(os.getpid()), version=__version__) == 1
    assert value(before, "kingdomkit_actions_total", game="kingdomino") == 0
    assert value(before, "kingdomkit_tables", status="running") == 0
    assert value(before, "kingdomkit_jobs_waiting", queue="play") == 0
    assert value(before, "kingdomkit_jobs_oldest_age_seconds", queue="analysis") == 0
    assert value(before, "kingdomkit_sockets_dropped_total") == 0
    assert ("process_resident_memory_bytes", frozenset()) in before

    ann, bob = Person(app), Person(app)
    made = create(ann, "kingdomino", [HUMAN, HUMAN])
    table = made["table"]
    assert value(scrape(app), "kingdomkit_tables", status="open") == 1
    token = made["invitations"][0]["token"]
    joined = bob.post(f"/api/tables/{table}/join", json={"name": "Bob", "token": token})
    assert joined.status_code == 200
    with ann.websocket_connect(f"/ws/tables/{table}") as socket_:
        socket_.receive_json()
        during = scrape(app)
        assert value(during, "kingdomkit_sockets") == 1
        assert value(during, "kingdomkit_tables", status="running") == 1
    last = play_first_legal_until_over([ann, bob], table)
    after = scrape(app)
    decisions = last["decisions"]
    assert decisions > 20
    assert value(after, "kingdomkit_actions_total", game="kingdomino") == decisions
    assert value(after, "kingdomkit_commit_seconds_count", write="append") == decisions
    assert value(after, "kingdomkit_commit_seconds_count", write="create") == 1
    assert value(after, "kingdomkit_commit_seconds_sum", write="append") > 0
    assert value(after, "kingdomkit_tables", status="finished") == 1
    assert value(after, "kingdomkit_tables", status="running") == 0
    assert value(after, "kingdomkit_sockets") == 0


def test_the_job_queues_report_their_depth_and_oldest_age(tmp_path: Path) -> None:
    """One play worker held by a gated job: the next two wait, the oldest for longer at each
    look; once the gate opens, nothing waits."""
    gate = str(tmp_path / "gate")

    async def scenario() -> list[dict[str, tuple[int, float]]]:
        scheduler = Scheduler(play_workers=1, analysis_workers=1)
        try:
            held = asyncio.ensure_future(scheduler.play.run("a", "held", wait_for_gate, gate, 1))
            await asyncio.sleep(0)
            queued = [
                asyncio.ensure_future(scheduler.play.run(key, "queued", wait_for_gate, gate, 2))
                for key in ("b", "c")
            ]
            await asyncio.sleep(0)  # the jobs are queued
            seen = [scheduler.waiting()]
            await asyncio.sleep(0.01)
            seen.append(scheduler.waiting())
            Path(gate).touch()
            assert await asyncio.gather(held, *queued) == [1, 2, 2]
            seen.append(scheduler.waiting())
            return seen
        finally:
            scheduler.close()

    first, later, done = asyncio.run(scenario())
    assert first["play"][0] == later["play"][0] == 2
    assert 0 < first["play"][1] < later["play"][1]
    assert first["analysis"] == done["analysis"] == done["play"] == (0, 0.0)


def metrics_status(server: TestClient, **headers: str) -> tuple[int, Any]:
    response = server.get("/metrics", headers=headers)
    return response.status_code, response.text


def test_metrics_are_refused_off_loopback_without_the_token(database: str) -> None:
    with started(database, ELSEWHERE, TOKEN) as server:
        status, body = metrics_status(server)
        assert status == 403
        assert "Authorization: Bearer" in body
        assert metrics_status(server, authorization="Bearer not the token")[0] == 403
        assert metrics_status(server, authorization=f"Basic {TOKEN}")[0] == 403
        status, body = metrics_status(server, authorization=f"Bearer {TOKEN}")
        assert status == 200
        assert "kingdomkit_tables" in body
        assert server.get("/health").status_code == 200  # the load balancer needs no token
    with started(database, ELSEWHERE) as server:
        status, body = metrics_status(server, authorization=f"Bearer {TOKEN}")
        assert status == 403
        assert "without --metrics-token" in body
    with started(database, LOOPBACK) as server:
        assert metrics_status(server)[0] == 200
        # a proxy on loopback passing on someone else's request
        assert metrics_status(server, **{"x-forwarded-for": ELSEWHERE[0]})[0] == 403


def test_a_short_metrics_token_is_refused_at_start(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "kingdomkit", "serve", "--data", str(tmp_path)]
    command += ["--port", str(free_port()), "--metrics-token", "short"]
    # a server that started instead would be stopped by the time-out, failing the test
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "the metrics token has at least 16 characters" in done.stderr
