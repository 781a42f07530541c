"""Rate limits shared by serve processes through a real Redis (`--rate-storage`): what one
process counted, another refuses; and when Redis goes away each process counts in its own
memory (still limiting, never failing a request) until Redis answers again."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from kingdomkit.server.limits import Guard, LimitedError, Limits
from kingdomkit.server.rates import Rates
from redis_server import RedisServer
from serving import START_SECONDS, ServeProcess


@pytest.fixture
def redis() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.remove()


def test_two_processes_count_one_visitor_once(redis: RedisServer, tmp_path: Path) -> None:
    """Two serve processes (each its own SQLite) on one Redis: two tables a minute per
    address are two in all, not two on each."""
    env = {"KINGDOMKIT_RATE_STORAGE": redis.url, "KINGDOMKIT_LIMIT_ADDRESS_TABLES_PER_MINUTE": "2"}
    serves = [ServeProcess(tmp_path / name, None, (), env) for name in ("a", "b")]
    try:
        for serve in serves:
            serve.start()
        body = {"game": "kingdomino", "seats": [{"kind": "human"}, {"kind": "human"}]}
        made = [httpx2.post(f"{serve.url}/api/tables", json=body) for serve in serves]
        assert [response.status_code for response in made] == [201, 201]
        refused = httpx2.post(f"{serves[0].url}/api/tables", json=body)
        assert refused.status_code == 429, refused.text
        assert "your network address asked for 2 tables in a minute" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
    finally:
        for serve in serves:
            serve.stop()


def counting_alone(guard: Guard) -> bool:
    """Is the guard counting in its own memory, its shared storage having failed?"""
    return guard.limiter.failed_at is not None


def test_without_redis_each_process_counts_alone_until_it_answers(redis: RedisServer) -> None:
    limits = Limits(tables_per_minute=100, address_tables_per_minute=2)
    one, two = Guard(limits, Rates(redis.url)), Guard(limits, Rates(redis.url))
    one.spend("tables", "minute", None, "10.0.0.1")
    redis.stop()
    # The second process cannot reach Redis: it counts alone, and still limits.
    two.spend("tables", "minute", None, "10.0.0.1")
    two.spend("tables", "minute", None, "10.0.0.1")
    with pytest.raises(LimitedError):
        two.spend("tables", "minute", None, "10.0.0.1")
    assert counting_alone(two)
    redis.start()
    two.limiter.failed_at = -1e9  # as if RETRY_SECONDS had passed
    # Redis again (empty: it kept nothing): the two count together once more.
    two.spend("tables", "minute", None, "10.0.0.1")
    assert not counting_alone(two)
    one.spend("tables", "minute", None, "10.0.0.1")
    with pytest.raises(LimitedError):
        one.spend("tables", "minute", None, "10.0.0.1")


def test_a_rate_storage_that_cannot_be_used_is_refused_without_its_password(
    tmp_path: Path,
) -> None:
    command = [sys.executable, "-m", "kingdomkit", "serve", "--data", str(tmp_path)]
    done = subprocess.run(
        [*command, "--rate-storage", "nosuch://user:hunter2@host"],
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
    )
    assert done.returncode == 2
    assert "the rate storage nosuch://... cannot be used" in done.stderr
    assert "hunter2" not in done.stderr + done.stdout
