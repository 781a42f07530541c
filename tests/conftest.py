"""Fixtures shared by test modules: a PostgreSQL server for the whole session (started only
when a test asks for it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from postgres import PostgresServer


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()
