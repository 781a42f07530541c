"""The limits on what one visitor may ask, against a real `kingdomkit serve` with small limits
set by flags and the environment, on SQLite and PostgreSQL: each is answered at once with 429
and Retry-After (413 for a body too large) and a message saying what and when; a visitor who
drops their cookie meets the limit of their address; a sign-in flood is throttled while other
requests keep being answered; a common password is refused."""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
from argon2 import PasswordHasher
from sqlalchemy.orm import Session
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kingdomkit.server.accounts import HASHER, Accounts
from kingdomkit.server.database import open_engine
from kingdomkit.server.limits import Limits, add_arguments, from_arguments
from kingdomkit.server.models import UserRow
from paths import EXAMPLES
from serving import ServeProcess

HUMAN = {"kind": "human"}
# A hard bot thinks 0.3 s a move: the table is still running when the next one is asked for.
BOTS = [{"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "easy"}]
RECORD = json.loads((EXAMPLES / "record-2p.json").read_text())
STRONG = "tiles of wheat and lakes"  # a password zxcvbn finds hard to guess


@pytest.fixture
def serve(database: str, tmp_path: Path) -> Iterator[Any]:
    """Start `kingdomkit serve` with the given flags and environment."""
    started: list[ServeProcess] = []

    def start(args: Sequence[str] = (), env: dict[str, str] | None = None) -> ServeProcess:
        process = ServeProcess(tmp_path, database, args, env)
        process.start()
        started.append(process)
        return process

    yield start
    for process in started:
        process.kill()


def person(server: ServeProcess) -> httpx2.Client:
    """Somebody with a cookie jar of their own (a new one: a new guest)."""
    return httpx2.Client(base_url=server.url, timeout=60)


def limited(response: httpx2.Response, *words: str) -> int:
    """The Retry-After of a 429 whose message has `words`."""
    assert response.status_code == 429, response.text
    detail = response.json()["detail"]
    assert all(word in detail for word in words), detail
    assert "try again in" in detail
    return int(response.headers["retry-after"])


def new_table(client: httpx2.Client, seats: list[dict[str, str]] | None = None) -> httpx2.Response:
    body = {"game": "kingdomino", "seats": seats or [HUMAN, HUMAN], "name": "ann"}
    return client.post("/api/tables", json=body)


def register(client: httpx2.Client, name: str, password: str = STRONG) -> httpx2.Response:
    return client.post("/api/accounts", json={"name": name, "password": password})


@pytest.fixture
def sockets() -> Iterator[Any]:
    """Open a WebSocket to a table as someone (closed at the end of the test)."""
    with ExitStack() as stack:

        def open_(server: ServeProcess, client: httpx2.Client, table: str) -> ClientConnection:
            cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            url = f"{server.ws_url}/ws/tables/{table}"
            opened = connect(url, additional_headers={"Cookie": cookie}, open_timeout=30)
            return stack.enter_context(opened)

        yield open_


def test_bodies_over_their_limit_are_refused_before_reading(serve: Any) -> None:
    server = serve(["--limit-body-bytes", "2000", "--limit-record-bytes", "8000"])
    ann = person(server)
    big = {"game": "kingdomino", "seats": [HUMAN, HUMAN], "name": "a" * 3000}
    refused = ann.post("/api/tables", json=big)
    assert refused.status_code == 413 and "2000 bytes" in refused.json()["detail"]
    streamed = ann.post(
        "/api/tables",
        content=(b"x" * 1000 for _ in range(5)),  # no Content-Length: counted as it comes
        headers={"Content-Type": "application/json"},
    )
    assert streamed.status_code == 413 and "2000 bytes" in streamed.json()["detail"]
    assert ann.post("/api/records", json=RECORD).status_code == 201  # 5 kB: uploads may
    padded = ann.post("/api/records", json={**RECORD, "padding": "x" * 9000})
    assert padded.status_code == 413 and "8000 bytes" in padded.json()["detail"]
    assert new_table(ann).status_code == 201  # the server is fine


def test_websocket_messages_and_connections_are_limited(serve: Any, sockets: Any) -> None:
    socket = sockets
    server = serve(
        ["--limit-socket-message-bytes", "1000", "--limit-address-sockets", "3"],
        env={"KINGDOMKIT_LIMIT_SOCKETS": "2"},
    )
    ann = person(server)
    table = new_table(ann).json()["table"]
    first, second = socket(server, ann, table), socket(server, ann, table)
    for open_ in (first, second):
        assert json.loads(open_.recv(timeout=30))["type"] == "view"
    third = socket(server, ann, table)
    refusal = json.loads(third.recv(timeout=30))
    assert refusal["status"] == 429 and "2 connections" in refusal["detail"]
    with pytest.raises(ConnectionClosed) as closed:
        third.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    bob = person(server)  # another guest at the same address: one more, then it is full
    bobs = socket(server, bob, table)
    assert json.loads(bobs.recv(timeout=30))["type"] == "view"
    carl = person(server)
    carls = socket(server, carl, table)
    refusal = json.loads(carls.recv(timeout=30))
    assert refusal["status"] == 429 and "network address" in refusal["detail"]
    first.close()
    for _ in range(100):  # a connection closed is one free again, once the server has seen it
        again = json.loads(socket(server, ann, table).recv(timeout=30))
        if again["type"] == "view":
            break
        threading.Event().wait(0.1)
    assert again["type"] == "view"
    second.send(json.dumps({"action": 0, "version": 0, "padding": "x" * 2000}))
    with pytest.raises(ConnectionClosed) as closed:
        second.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


def test_tables_created_and_open_are_limited_per_identity_and_address(serve: Any) -> None:
    server = serve(
        [
            "--limit-tables-per-minute",
            "2",
            "--limit-address-tables-per-minute",
            "3",
            "--limit-open-tables",
            "5",
        ]
    )
    ann = person(server)
    assert [new_table(ann).status_code for _ in range(2)] == [201, 201]
    wait = limited(new_table(ann), "you asked for 2 tables in a minute")
    assert 0 < wait <= 60
    assert new_table(person(server)).status_code == 201  # a new cookie: a new guest
    limited(new_table(person(server)), "your network address asked for 3 tables")


def test_unfinished_tables_are_limited_per_identity_and_address(serve: Any) -> None:
    server = serve(["--limit-open-tables", "1", "--limit-address-open-tables", "2"])
    ann = person(server)
    assert new_table(ann).status_code == 201
    limited(new_table(ann), "1 unfinished tables")
    assert new_table(person(server)).status_code == 201
    limited(new_table(person(server)), "your network address has 2 unfinished tables")
    server.kill()  # the count is the database's: a restart does not forget it
    server.start()
    limited(new_table(person(server)), "your network address has 2 unfinished tables")


def test_tables_of_bots_only_are_for_accounts_a_few_at_once(serve: Any) -> None:
    server = serve(["--limit-bot-tables", "1"])
    guest = person(server)
    refused = new_table(guest, BOTS)
    assert refused.status_code == 403 and "accounts" in refused.json()["detail"]
    assert register(guest, "ann").status_code == 201
    assert new_table(guest, BOTS).status_code == 201
    limited(new_table(guest, BOTS), "1 tables of bots only running")
    assert new_table(guest).status_code == 201  # a table with people is still fine


def test_uploads_reviews_and_hints_are_limited(serve: Any) -> None:
    server = serve(
        [
            *("--limit-uploads-per-hour", "2", "--limit-address-uploads-per-hour", "3"),
            *("--limit-reviews-per-hour", "1", "--limit-address-reviews-per-hour", "2"),
            *("--limit-hints-per-minute", "2", "--limit-address-hints-per-minute", "3"),
        ]
    )
    ann, bob, carl = person(server), person(server), person(server)
    uploaded = [ann.post("/api/records", json=RECORD) for _ in range(3)]
    assert [u.status_code for u in uploaded] == [201, 201, 429]
    limited(uploaded[2], "you asked for 2 uploads in an hour")
    bobs = bob.post("/api/records", json=RECORD)
    assert bobs.status_code == 201
    limited(carl.post("/api/records", json=RECORD), "network address asked for 3 uploads")
    first, second = (u.json()["table"] for u in uploaded[:2])
    assert ann.post(f"/api/tables/{first}/review").status_code == 202
    assert ann.post(f"/api/tables/{first}/review").status_code == 202  # the same: not counted
    limited(ann.post(f"/api/tables/{second}/review"), "you asked for 1 reviews")
    assert bob.post(f"/api/tables/{second}/review").status_code == 202
    third = bobs.json()["table"]
    limited(carl.post(f"/api/tables/{third}/review"), "network address asked for 2 reviews")
    body = {"game": "kingdomino", "seats": [HUMAN, HUMAN], "name": "dan", "hints": True}
    dan = person(server)
    table = dan.post("/api/tables", json=body).json()["table"]
    asked = [dan.get(f"/api/tables/{table}/hint").status_code for _ in range(3)]
    assert asked[:2] == [409, 409] and asked[2] == 429  # not yet running, but asked
    assert carl.get(f"/api/tables/{table}/hint").status_code == 409
    limited(bob.get(f"/api/tables/{table}/hint"), "network address asked for 3 hints")


def test_accounts_per_address_and_common_passwords(serve: Any) -> None:
    server = serve(["--limit-address-accounts-per-hour", "3"])
    common = register(person(server), "ann", "password123")
    assert common.status_code == 422 and "common password" in common.json()["detail"]
    named = register(person(server), "kingdomfan", "kingdomfan1")
    assert named.status_code == 422 and "too easy to guess" in named.json()["detail"]
    assert register(person(server), "ann").status_code == 201
    limited(register(person(server), "bob"), "network address asked for 3 accounts")


def test_a_login_flood_is_throttled_and_others_are_still_answered(serve: Any) -> None:
    server = serve(
        [
            *("--limit-login-failures", "2/10 seconds;4/minute"),
            *("--limit-address-logins", "1000/minute", "--limit-password-queue", "2"),
        ]
    )
    ann = person(server)
    assert register(ann, "ann").status_code == 201
    wrong = {"name": "ann", "password": "not the password"}
    assert [ann.post("/api/login", json=wrong).status_code for _ in range(2)] == [401, 401]
    first = limited(ann.post("/api/login", json=wrong), "this account")
    assert 0 < first <= 10
    threading.Event().wait(first + 0.5)  # the tier of 10 seconds is free again, not the minute's
    assert [ann.post("/api/login", json=wrong).status_code for _ in range(2)] == [401, 401]
    longer = limited(ann.post("/api/login", json=wrong), "this account")
    assert longer > first  # the delays grow
    right = ann.post("/api/login", json={"name": "ann", "password": STRONG})
    limited(right, "this account")  # even the right password waits: no guessing meanwhile

    # Many names at once: the password threads and their queue fill, the rest is answered
    # 429 at once, and another visitor's requests are answered all along.
    answers: list[int] = []
    others: list[int] = []

    def flood(index: int) -> None:
        with person(server) as client:
            for step in range(4):
                name = {"name": f"nobody {index} {step}", "password": "not the password"}
                answers.append(client.post("/api/login", json=name).status_code)

    threads = [threading.Thread(target=flood, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    with person(server) as other:
        while any(thread.is_alive() for thread in threads):
            others.append(other.get("/api/tables").status_code)
    for thread in threads:
        thread.join()
    assert set(answers) <= {401, 429} and 429 in answers
    assert others and set(others) == {200}


def test_old_hashes_verify_and_are_made_again(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'kingdomkit.db'}")
    with Session(engine) as session, session.begin():
        session.add(UserRow(name="ann", password_hash=PasswordHasher().hash(STRONG)))
    accounts = Accounts(engine)
    asyncio.run(accounts.login("ann", STRONG))
    accounts.close()
    with Session(engine) as session:
        stored = session.query(UserRow).one().password_hash
    assert not HASHER.check_needs_rehash(stored) and ",p=1$" in stored


def test_limits_come_from_flags_then_the_environment() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--limit-hints-per-minute", "3"])
    env = {"KINGDOMKIT_LIMIT_HINTS_PER_MINUTE": "7", "KINGDOMKIT_LIMIT_SOCKETS": "4"}
    chosen = from_arguments(args, env)
    assert (chosen.hints_per_minute, chosen.sockets) == (3, 4)
    assert chosen.tables_per_minute == Limits().tables_per_minute
    with pytest.raises(ValueError, match="login_failures"):
        from_arguments(parser.parse_args(["--limit-login-failures", "often"]), {})
    with pytest.raises(ValueError, match="KINGDOMKIT_LIMIT_SOCKETS"):
        from_arguments(args, {"KINGDOMKIT_LIMIT_SOCKETS": "many"})
