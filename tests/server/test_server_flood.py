"""No visitor can stall the bots, against a real `kingdomkit serve` process (SQLite and
PostgreSQL): while one identity floods the server (tables of expert bots, reviews of uploaded
games), another identity's easy bot answers, and the flood's later jobs are still waiting.
The order is what is checked: the easy bot's replies come while a flood table's first move and
the flood's reviews have not been made."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import httpx2

from kingdomkit.server.floodtest import (
    FLOOD_SERVER_ARGS,
    FLOOD_TABLES,
    REPLY_TIMEOUT,
    FloodResult,
    make_flood,
    play_easy_table,
)
from serving import ServeProcess

REPLIES = 3


async def flood_and_play(base: str) -> tuple[FloodResult, list[int], list[int]]:
    """Flood from one identity, then time the easy bot from another; (the replies, each flood
    table's decisions and each flood review's status, right after the replies)."""
    async with (
        httpx2.AsyncClient(base_url=base, timeout=60) as flooder,
        httpx2.AsyncClient(base_url=base, timeout=60) as player,
    ):
        tables, records = await make_flood(flooder)
        result = FloodResult(REPLIES, "test")
        await play_easy_table(player, base, random.Random(1), result, time.monotonic() + 300)
        decisions = [
            (await flooder.get(f"/api/tables/{table}")).json()["decisions"] for table in tables
        ]
        reviews = [
            (await flooder.get(f"/api/tables/{table}/review")).status_code for table in records
        ]
    return result, decisions, reviews


def test_an_easy_bot_answers_while_a_flood_waits(
    served_database: str | None, tmp_path: Path
) -> None:
    server = ServeProcess(tmp_path, served_database, args=FLOOD_SERVER_ARGS)
    server.start()
    try:
        result, decisions, reviews = asyncio.run(flood_and_play(server.url))
    finally:
        server.stop()
    assert result.timeouts == 0, f"no reply within {REPLY_TIMEOUT} s"
    assert len(result.replies) == REPLIES
    assert len(decisions) == FLOOD_TABLES
    assert 0 in decisions  # a flood table's first move was still queued
    assert 409 in reviews  # a flood review was still being made
