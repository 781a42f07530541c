"""The load benchmark end to end, small: a few tables played to the end through real server
processes, on SQLite and on PostgreSQL, with nothing lost or duplicated; against a running
server given by URL; and against two servers on one PostgreSQL, the seats of each table on
different processes."""

from __future__ import annotations

import asyncio
import logging
import os
import re
from pathlib import Path

import pytest

from kingdomkit.server.loadtest import (
    EVERYONE_AT_ONE_ADDRESS,
    SECRET,
    LoadError,
    LoadResult,
    Server,
    pinned_cores,
    run_load,
)
from kingdomkit.server.logs import LOG_FORMAT, LOGGED
from postgres import PostgresServer
from serving import ServeProcess
from system import free_port

SERVER_ENV = {"KINGDOMKIT_SECRET": SECRET, **EVERYONE_AT_ONE_ADDRESS}


def assert_played_cleanly(result: LoadResult, tables: int) -> None:
    assert result.finished == tables
    assert (result.lost, result.duplicated, result.refused) == (0, 0, 0)
    assert result.actions == len(result.latencies) > tables * 20  # every decision was timed
    assert result.percentile(0.5) <= result.percentile(0.99)
    # every action is counted for the one server it was sent to
    assert sum(len(figures.latencies) for figures in result.servers.values()) == result.actions


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_tables_played_at_once_lose_and_duplicate_nothing(
    database: str, request: pytest.FixtureRequest
) -> None:
    url = None
    if database == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        url = server.database()
    result = asyncio.run(run_load(4, 2, "kingdomino", 0.0, url, seed=1))
    assert_played_cleanly(result, 4)
    assert len(result.servers) == 1
    assert result.server_errors == []


def test_a_running_server_is_targeted_by_its_url(tmp_path: Path) -> None:
    served = ServeProcess(tmp_path, env=SERVER_ENV)
    served.start()
    try:
        result = asyncio.run(run_load(4, 2, "kingdomino", 0.0, None, seed=2, servers=[served.url]))
    finally:
        served.stop()
    assert_played_cleanly(result, 4)
    assert list(result.servers) == [served.url]
    summary = result.summary()
    assert summary["database"] == "the servers' own"
    assert summary["servers"][0]["actions"] == result.actions


def test_two_servers_on_one_postgresql_serve_the_people_of_one_table(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    """Two `kingdomkit serve` on one database, started by the test and targeted by URL: each
    table is made on one, and its two people play through different processes."""
    database = postgres.database()
    processes = [ServeProcess(tmp_path / str(i), database, env=SERVER_ENV) for i in range(2)]
    try:
        for process in processes:
            process.start()  # one after the other: the first migrates the schema
        urls = [process.url for process in processes]
        result = asyncio.run(run_load(4, 2, "kingdomino", 0.0, None, seed=3, servers=urls))
    finally:
        for process in processes:
            process.stop()
    assert_played_cleanly(result, 4)
    assert all(figures.latencies for figures in result.servers.values())


def test_the_load_test_starts_two_processes_on_one_postgresql(postgres: PostgresServer) -> None:
    result = asyncio.run(run_load(4, 2, "kingdomino", 0.0, postgres.database(), 4, processes=2))
    assert_played_cleanly(result, 4)
    assert len(result.servers) == 2
    assert all(figures.latencies for figures in result.servers.values())
    assert result.server_errors == []


@pytest.mark.parametrize(
    ("database", "servers", "processes", "words"),
    [
        (None, [], 2, "an SQLite database is served by one process only"),
        ("sqlite:///x.db", [], 2, "an SQLite database is served by one process only"),
        (None, [], 0, "--processes is at least 1"),
        ("postgresql+psycopg://h/d", ["http://127.0.0.1:1"], 1, "--database are not"),
        (None, ["http://127.0.0.1:1"], 2, "--processes and --database are not"),
        (None, ["127.0.0.1:8000"], 1, "a server is http(s)://host[:port]"),
        (None, [f"http://127.0.0.1:{free_port()}"], 1, "cannot be reached"),
    ],
)
def test_targets_that_cannot_be_had_are_refused_with_the_reason(
    database: str | None, servers: list[str], processes: int, words: str
) -> None:
    with pytest.raises(LoadError, match=re.escape(words)):
        asyncio.run(
            run_load(1, 2, "kingdomino", 0.0, database, servers=servers, processes=processes)
        )


def test_each_started_server_is_pinned_to_a_core_of_its_own(tmp_path: Path) -> None:
    cores = sorted(os.sched_getaffinity(0))
    assert pinned_cores(1) == cores[:1]
    assert pinned_cores(len(cores) + 1) is None  # not enough cores: none pinned
    if len(cores) > 1:
        assert pinned_cores(len(cores)) == cores
    server = Server(None, tmp_path, core=cores[-1])
    try:
        asyncio.run(server.wait())
        assert os.sched_getaffinity(server.process.pid) == {cores[-1]}
    finally:
        server.stop()


def test_the_errors_read_from_a_server_log_are_its_errors_and_tracebacks(tmp_path: Path) -> None:
    """uvicorn's lines start with their level, kingdomkit's with their time, logger and level
    (server/logs.py); an info line ends a traceback, and is never an error itself."""
    server = Server.__new__(Server)  # its log alone, no process
    server.log = tmp_path / "server.log"
    server.log.write_text(
        "kingdomkit: serving on http://127.0.0.1:8000\n"
        "2026-11-29 03:08:34,907 kingdomkit.server INFO: bots' compiled playouts ready\n"
        "2026-11-29 03:08:35,001 kingdomkit.jobs ERROR: job 7 failed\n"
        "Traceback (most recent call last):\n"
        '  File "jobs.py", line 1, in run\n'
        "ValueError: no\n"
        "2026-11-29 03:08:36,000 kingdomkit.server INFO: time ran out at table t, version 3\n"
        "ERROR:    Exception in ASGI application\n"
        "Traceback (most recent call last):\n"
        "KeyError: 'x'\n"
        "INFO:     Shutting down\n"
        "2026-11-29 03:08:37,000 kingdomkit.server WARNING: dropped a slow WebSocket\n"
    )
    found = server.errors()
    assert [error.splitlines()[0] for error in found] == [
        "2026-11-29 03:08:35,001 kingdomkit.jobs ERROR: job 7 failed",
        "ERROR:    Exception in ASGI application",
    ]
    assert found[0].endswith("ValueError: no") and found[1].endswith("KeyError: 'x'")


@pytest.mark.parametrize("level", ["DEBUG", "INFO", "WARNING", "ERROR"])
def test_a_line_in_the_servers_log_format_is_read_back_with_its_level(level: str) -> None:
    """What `loadtest` reads (LOGGED) is what `serve` writes (LOG_FORMAT), from a real record."""
    record = logging.LogRecord("kingdomkit.jobs", getattr(logging, level), "", 0, "a: b", (), None)
    line = logging.Formatter(LOG_FORMAT).format(record)
    logged = LOGGED.match(line)
    assert logged is not None and logged.group(1) == level
    assert line.endswith(f"kingdomkit.jobs {level}: a: b")
