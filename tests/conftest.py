"""Fixtures shared by test modules: a PostgreSQL server for the whole session (started only
when a test asks for it), the databases a server test runs on, and a running server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from postgres import PostgresServer
from serving import ServeProcess


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every test that asks runs on SQLite and on a real PostgreSQL server: a database URL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'kingdomkit.db'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.database()


@pytest.fixture(params=["sqlite", "postgresql"])
def served_database(request: pytest.FixtureRequest) -> str | None:
    """For `kingdomkit serve` in its own process: None (its own SQLite file in its data
    folder, as a user runs it) or the URL of a new database on the real PostgreSQL."""
    if request.param == "sqlite":
        return None
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.database()


@pytest.fixture
def served(served_database: str | None, tmp_path: Path) -> Iterator[ServeProcess]:
    """A running `kingdomkit serve` on each database (stopped after the test)."""
    process = ServeProcess(tmp_path, served_database)
    process.start()
    yield process
    process.stop()
