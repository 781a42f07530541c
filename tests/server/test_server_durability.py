"""Nothing a table was set up with is lost: a real `kingdomkit serve` is killed with SIGKILL in
the middle of games and started again on the same database (SQLite and PostgreSQL), and every
table reads the same as before (views, lobby rows, seats, clocks, stand-ins, reviews, uploads);
a rated game that spans the restart still rates its players. And a table's clock starts when
its game starts, not when it was created."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

from kingdomkit.server.app import ServerConfig, create_app
from paths import EXAMPLES
from serving import ServeProcess

HUMAN = {"kind": "human"}
PASSWORDS = {"ann": "plum orchard at dusk 7", "bob": "seven gulls over the pier"}
WAIT = 120.0  # seconds for bots and the review (a ceiling against hanging, not a measure)


@pytest.fixture
def server(served: ServeProcess) -> ServeProcess:
    return served


def person(server: ServeProcess) -> httpx2.Client:
    return httpx2.Client(base_url=server.url, timeout=60)


def sign_up(client: httpx2.Client, name: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORDS[name]})
    assert answer.status_code == 201, answer.text


def until(check: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.05)


def play(people: list[httpx2.Client], table: str, decisions: int) -> None:
    """Whoever of `people` is to act plays their first legal action, `decisions` times in all
    (the bots and stand-ins move between)."""
    for _ in range(decisions):
        view, who = until(lambda: to_act(people, table), "a person's turn")
        body = {"action": view["legal"][0]["id"], "version": view["version"]}
        answer = who.post(f"/api/tables/{table}/actions", json=body)
        assert answer.status_code == 200, answer.text


def to_act(people: list[httpx2.Client], table: str) -> tuple[dict[str, Any], httpx2.Client] | None:
    for who in people:
        view: dict[str, Any] = who.get(f"/api/tables/{table}").json()
        if view["legal"]:
            return view, who
    return None


def timeless(view: dict[str, Any]) -> dict[str, Any]:
    """A view without the seconds left on the clock, which run on between two looks."""
    copy: dict[str, Any] = json.loads(json.dumps(view))
    if "clock" in copy:
        copy["clock"].pop("left")
    return copy


def described(people: list[httpx2.Client], tables: list[str]) -> dict[str, Any]:
    """Everything public about `tables`: each person's and a spectator's view, the lobby's
    rows (seats included), reviews."""
    spectator = people[0].__class__(base_url=people[0].base_url)
    rows = {row["table"]: row for row in people[0].get("/api/tables").json()}
    seen: dict[str, Any] = {}
    for table in tables:
        seen[table] = {
            "views": [timeless(p.get(f"/api/tables/{table}").json()) for p in people],
            "spectator": timeless(spectator.get(f"/api/tables/{table}").json()),
            "lobby": rows[table],
            "review": people[0].get(f"/api/tables/{table}/review").json(),
        }
    return seen


def test_a_kill_9_loses_nothing_a_table_was_set_up_with(server: ServeProcess) -> None:
    ann, bob = person(server), person(server)
    sign_up(ann, "ann")
    sign_up(bob, "bob")
    made = ann.post(
        "/api/tables",
        json={
            "game": "kingdomino",
            "seats": [HUMAN, HUMAN],
            "rated": True,
            "hints": True,
            "move_seconds": 900,
            "game_seconds": 3600,
        },
    ).json()
    table = made["table"]
    bob.post(f"/api/tables/{table}/join", json={"token": made["invitations"][0]["token"]})
    play([ann, bob], table, 5)
    stood = bob.post(f"/api/tables/{table}/seats/1/bot", json={"bot": "easy"})
    assert stood.status_code == 200, stood.text
    # On ann's own turn (the deal decides whose turn it is now), so that her clock shows time
    # used (the view rounds to 0.1 s): sleeping on the stand-in's turn left it at 0.0.
    until(lambda: to_act([ann], table), "ann's turn")
    time.sleep(0.3)
    play([ann], table, 3)  # the stand-in plays for bob between
    until(lambda: to_act([ann], table), "the stand-in's move")

    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    uploaded = ann.post("/api/records", json=record).json()["table"]
    assert ann.post(f"/api/tables/{uploaded}/review").status_code == 202
    until(lambda: ann.get(f"/api/tables/{uploaded}/review").status_code == 200, "the review")

    before = described([ann, bob], [table, uploaded])
    lobby = before[table]["lobby"]
    assert lobby["rated"] and lobby["hints"] and lobby["status"] == "running"
    assert (lobby["move_seconds"], lobby["game_seconds"]) == (900, 3600)
    seats = before[table]["spectator"]["seats"]
    assert seats[1]["stand_in"] == "easy" and seats[0]["time_used"] > 0

    server.kill()
    server.start()
    after = described([ann, bob], [table, uploaded])
    assert after == before

    # The game goes on, rated, to its end: the stand-in gives the seat back, both play.
    assert bob.post(f"/api/tables/{table}/seats/1/back", json={}).status_code == 200
    while (view := ann.get(f"/api/tables/{table}").json())["status"] != "finished":
        for who in (ann, bob):
            seen = who.get(f"/api/tables/{table}").json()
            if seen["legal"]:
                body = {"action": seen["legal"][0]["id"], "version": seen["version"]}
                who.post(f"/api/tables/{table}/actions", json=body)
    assert view["rated"]
    board = {row["name"]: row for row in ann.get("/api/leaderboard/kingdomino").json()}
    assert board["ann"]["games"] == board["bob"]["games"] == 1
    if len(set(view["result"]["scores"])) == 2:
        assert {board["ann"]["rating"], board["bob"]["rating"]} == {1516, 1484}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_clock_starts_when_the_last_seat_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    monkeypatch.setattr("kingdomkit.server.live.time", clock)
    app = create_app(ServerConfig(f"sqlite:///{tmp_path / 'k.db'}", "secret"))
    with TestClient(app) as browser:
        made = browser.post(
            "/api/tables",
            json={"game": "kingdomino", "seats": [HUMAN, HUMAN], "move_seconds": 60},
        ).json()
        clock.now += 23  # Bob comes 23 s after the table was made
        browser.cookies.clear()  # Bob's browser: another guest
        token = made["invitations"][0]["token"]
        joined = browser.post(
            f"/api/tables/{made['table']}/join", json={"token": token, "name": "Bob"}
        )
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        assert joined.json()["view"]["clock"]["left"] == 60.0
        clock.now += 5
        left = browser.get(f"/api/tables/{made['table']}").json()["clock"]["left"]
        assert left == 55.0
