"""The flood benchmark: one identity asks for as much bot work as it can, and somebody else
plays an `easy` bot at their own table, timing its replies.

`run_flood` starts `kingdomkit serve` (loadtest.Server), and one client makes the flood
(`make_flood`: tables of four `expert` bots, and finished records uploaded with a review asked
of each). A second client, another identity, plays a person's seat against an `easy` bot over
a WebSocket: after each of its moves that hands the turn to the bot, the reply time is the time
from sending the move to the view where it is the person's turn again (or the game is over).
It plays new tables until `replies` replies are timed or `seconds` have passed. Only loopback
is used.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import websockets

from kingdomkit.core.protocol import CHANCE
from kingdomkit.core.record import make_record
from kingdomkit.core.registry import make_game
from kingdomkit.server.loadtest import START_TIMEOUT, Server

FLOOD_TABLES = 8  # tables of the flood
FLOOD_BOT = "expert"
FLOOD_SEATS = 4
FLOOD_RECORDS = 4  # finished records uploaded, each with a review asked
REPLY_TIMEOUT = 120.0  # a reply not seen within this ends the run (counted as a time-out)


def random_game(game_name: str, players: int, seed: int) -> list[int]:
    """The actions of a whole game of random moves."""
    game = make_game(game_name, {"players": players})
    rng = random.Random(seed)
    state, actions = game.initial_state(), []
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        actions.append(action)
        state = game.apply(state, action)
    return actions


def finished_record(game_name: str, players: int, seed: int) -> dict[str, Any]:
    """The record of a whole game of random moves (for uploading)."""
    game = make_game(game_name, {"players": players})
    actions = random_game(game_name, players, seed)
    return make_record(game, None, [f"player {i}" for i in range(players)], actions)


# The flood is the issue's: 8 tables of 4 expert bots and 4 reviews from one identity. The
# server's limits would refuse most of it (tables of bots only: 2 per account); they are raised
# for it, so that what is measured is the scheduler's fairness, not the limits.
FLOOD_SERVER_ARGS = (
    "--limit-bot-tables=1000",
    "--limit-tables-per-minute=1000",
    "--limit-open-tables=1000",
    "--limit-uploads-per-hour=1000",
    "--limit-reviews-per-hour=1000",
)
FLOOD_PASSWORD = "a flood of expert bots 42"


async def make_flood(
    http: httpx2.AsyncClient,
    tables: int = FLOOD_TABLES,
    records: int = FLOOD_RECORDS,
    seed: int = 0,
) -> tuple[list[str], list[str]]:
    """One identity's flood (the session of `http`): `tables` tables of four expert bots, and
    `records` finished games uploaded with a review asked of each; (bot tables, records).
    Every test and the benchmark make their flood here, so that a change in what an identity
    may create is adapted in one place."""
    # Tables of bots only are for accounts: the flood signs up first.
    account = {"name": f"flood{seed}", "password": FLOOD_PASSWORD}
    (await http.post("/api/accounts", json=account)).raise_for_status()
    seats = [{"kind": "bot", "bot": FLOOD_BOT}] * FLOOD_SEATS
    made = []
    for i in range(tables):
        body = {"game": "kingdomino", "seats": seats, "name": f"flood {i}"}
        response = await http.post("/api/tables", json=body)
        response.raise_for_status()
        made.append(response.json()["table"])
    uploaded = []
    for i in range(records):
        record = finished_record("kingdomino", FLOOD_SEATS, seed + i)
        response = await http.post("/api/records", json=record)
        response.raise_for_status()
        table = response.json()["table"]
        (await http.post(f"/api/tables/{table}/review")).raise_for_status()
        uploaded.append(table)
    return made, uploaded


@dataclass
class FloodResult:
    replies_wanted: int
    database: str
    seconds: float = 0.0
    replies: list[float] = field(default_factory=list)  # seconds, one per bot reply
    timeouts: int = 0
    flood_decisions: int = 0  # decisions the flood's tables made meanwhile
    reviews_ready: int = 0  # of the flood's records, when the measurement ended
    server_errors: list[str] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        """The q-quantile of the reply time, in seconds."""
        if not self.replies:
            return float("nan")
        ordered = sorted(self.replies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def summary(self) -> dict[str, Any]:
        return {
            "flood": f"{FLOOD_TABLES} tables of {FLOOD_SEATS} {FLOOD_BOT} bots, "
            f"{FLOOD_RECORDS} records reviewed, one identity",
            "database": self.database,
            "seconds": round(self.seconds, 1),
            "easy_replies": len(self.replies),
            "easy_reply_s_p50": round(statistics.median(self.replies), 3) if self.replies else None,
            "easy_reply_s_p99": round(self.percentile(0.99), 3) if self.replies else None,
            "easy_reply_s_max": round(max(self.replies), 3) if self.replies else None,
            "timeouts": self.timeouts,
            "flood_decisions_meanwhile": self.flood_decisions,
            "flood_reviews_ready": f"{self.reviews_ready} of {FLOOD_RECORDS}",
            "server_errors": len(self.server_errors),
        }


async def play_easy_table(
    http: httpx2.AsyncClient, base: str, rng: random.Random, result: FloodResult, until: float
) -> None:
    """Play one table against an `easy` bot, timing each reply, until the game ends, enough
    replies are timed, or time is up."""
    body = {"game": "kingdomino", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}
    made = (await http.post("/api/tables", json=body | {"name": "player"})).json()
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    uri = base.replace("http", "ws", 1) + f"/ws/tables/{made['table']}"
    sent: tuple[int, float] | None = None  # (decisions after my move, sent at)
    async with websockets.connect(uri, additional_headers={"Cookie": cookie}) as socket:
        while len(result.replies) < result.replies_wanted and time.monotonic() < until:
            try:
                raw = await asyncio.wait_for(socket.recv(), REPLY_TIMEOUT)
            except TimeoutError:
                result.timeouts += 1
                return
            message = json.loads(raw)
            if message["type"] != "view":
                sent = None
                continue
            view = message["view"]
            mine = bool(view["legal"]) or view["status"] == "finished"
            if sent is not None and mine:
                if view["decisions"] > sent[0]:  # the bot moved in between
                    result.replies.append(time.perf_counter() - sent[1])
                sent = None
            if view["status"] == "finished":
                return
            if view["legal"] and sent is None:
                action = rng.choice(view["legal"])["id"]
                sent = (view["decisions"] + 1, time.perf_counter())
                await socket.send(json.dumps({"action": action, "version": view["version"]}))


async def flood_under_way(http: httpx2.AsyncClient, tables: list[str]) -> None:
    """Wait until the flood's bots have made a decision (its workers are started and busy),
    at most START_TIMEOUT seconds."""
    until = time.monotonic() + START_TIMEOUT
    while time.monotonic() < until:
        for table in tables:
            if (await http.get(f"/api/tables/{table}")).json()["decisions"]:
                return
        await asyncio.sleep(0.2)


async def run_flood(
    replies: int = 100,
    seconds: float = 300.0,
    database: str | None = None,
    seed: int = 0,
    server_args: Sequence[str] = (),
) -> FloodResult:
    """The benchmark (see the module card); `server_args` are more `kingdomkit serve` flags."""
    result = FloodResult(replies, database or "sqlite (temporary)")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="kingdomkit-flood-") as data:
        server = Server(database, Path(data), [*FLOOD_SERVER_ARGS, *server_args])
        try:
            await server.wait()
            async with (
                httpx2.AsyncClient(base_url=server.url, timeout=60) as flooder,
                httpx2.AsyncClient(base_url=server.url, timeout=60) as player,
            ):
                tables, records = await make_flood(flooder, seed=seed)
                await flood_under_way(flooder, tables)
                start = time.perf_counter()
                until = time.monotonic() + seconds
                while len(result.replies) < replies and time.monotonic() < until:
                    await play_easy_table(player, server.url, rng, result, until)
                    if result.timeouts:
                        break
                result.seconds = time.perf_counter() - start
                for table in tables:
                    view = (await flooder.get(f"/api/tables/{table}")).json()
                    result.flood_decisions += view["decisions"]
                for table in records:
                    review = await flooder.get(f"/api/tables/{table}/review")
                    result.reviews_ready += review.is_success
            result.server_errors = server.errors()
        finally:
            server.stop()
    return result
