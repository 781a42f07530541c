"""The load benchmark end to end, small: a few tables played to the end through a real server
process, on SQLite and on PostgreSQL, with nothing lost or duplicated."""

from __future__ import annotations

import asyncio

import pytest

from kingdomkit.server.loadtest import run_load
from postgres import PostgresServer


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_tables_played_at_once_lose_and_duplicate_nothing(
    database: str, request: pytest.FixtureRequest
) -> None:
    url = None
    if database == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        url = server.database()
    result = asyncio.run(run_load(4, 2, "kingdomino", 0.0, url, seed=1))
    assert result.finished == 4
    assert (result.lost, result.duplicated, result.refused) == (0, 0, 0)
    assert result.actions == len(result.latencies) > 4 * 20  # every decision was timed
    assert result.percentile(0.5) <= result.percentile(0.99)
