"""Open tables that never fill: their maker cancels one, or the server withdraws it after
the open-table time limit; either way it is deleted, no longer counts against the maker's
limit of unfinished tables, and its open pages are told why (FastAPI's test client, on
SQLite and on a real PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_server import HUMAN, Person, bot, create, play_first_legal_until_over

from kingdomkit.server.app import ServerConfig, create_app
from kingdomkit.server.limits import Limits


@pytest.fixture
def app(database: str) -> Iterator[FastAPI]:
    app = create_app(
        ServerConfig(database=database, secret="test secret", limits=Limits(open_tables=2))
    )
    with TestClient(app) as server:
        app.state.test_client = server
        yield app


def delete(person: Person, table: str) -> Any:
    return person._call("DELETE", f"/api/tables/{table}")


def open_ids(person: Person) -> set[str]:
    return {row["table"] for row in person.get("/api/tables?status=open").json()}


def test_the_maker_cancels_a_table_still_waiting_for_players(app: FastAPI) -> None:
    ann, bob = Person(app), Person(app)
    table = create(ann, "kingdomino", [HUMAN, HUMAN, HUMAN], players=3)["table"]
    assert ann.get(f"/api/tables/{table}").json()["maker"] == 0
    assert bob.post(f"/api/tables/{table}/join", json={"name": "Bob"}).status_code == 200
    with bob.websocket_connect(f"/ws/tables/{table}") as socket:
        assert json.loads(socket.receive_text())["type"] == "view"
        refused = delete(bob, table)
        assert refused.status_code == 403
        assert "only the player who made this table" in refused.json()["detail"]
        done = delete(ann, table)
        assert done.status_code == 200, done.text
        message = json.loads(socket.receive_text())
        while message["type"] != "gone":
            message = json.loads(socket.receive_text())
        assert "cancelled it before its game began" in message["detail"]
    assert ann.get(f"/api/tables/{table}").status_code == 404
    assert delete(ann, table).status_code == 404
    assert table not in open_ids(bob)


def test_cancelling_frees_a_place_under_the_limit_of_unfinished_tables(app: FastAPI) -> None:
    ann = Person(app)
    made = [create(ann, "kingdomino", [HUMAN, HUMAN])["table"] for _ in range(2)]
    refused = ann.post("/api/tables", json={"game": "kingdomino", "seats": [HUMAN, HUMAN]})
    assert refused.status_code == 429
    assert "cancel one still waiting for players" in refused.json()["detail"]
    assert delete(ann, made[0]).status_code == 200
    create(ann, "kingdomino", [HUMAN, HUMAN])


def test_a_table_whose_game_has_begun_is_not_cancelled(app: FastAPI) -> None:
    ann = Person(app)
    table = create(ann, "kingdomino", [HUMAN, bot()])["table"]
    refused = delete(ann, table)
    assert refused.status_code == 409
    assert "has begun" in refused.json()["detail"]
    assert ann.get(f"/api/tables/{table}").json()["status"] == "running"


def test_open_tables_nobody_filled_in_time_are_withdrawn(app: FastAPI) -> None:
    ann, bob = Person(app), Person(app)
    waiting = create(ann, "kingdomino", [HUMAN, HUMAN])["table"]
    running = create(bob, "kingdomino", [HUMAN, bot()])["table"]
    tables = app.state.tables
    portal = app.state.test_client.portal
    assert portal.call(tables.withdraw_unplayed, 60) == 0  # made just now: it waits on
    with ann.websocket_connect(f"/ws/tables/{waiting}") as socket:
        assert json.loads(socket.receive_text())["type"] == "view"
        assert portal.call(tables.withdraw_unplayed, 0) == 1  # made before now
        message = json.loads(socket.receive_text())
        while message["type"] != "gone":
            message = json.loads(socket.receive_text())
        assert "Nobody took this table's free seats in time" in message["detail"]
    assert ann.get(f"/api/tables/{waiting}").status_code == 404
    assert bob.get(f"/api/tables/{running}").json()["status"] == "running"


def test_a_cancelled_rematch_leaves_the_finished_game_free_to_propose_another(
    app: FastAPI,
) -> None:
    ann, bob = Person(app), Person(app)
    table = create(ann, "kingdomino", [HUMAN, HUMAN])["table"]
    assert bob.post(f"/api/tables/{table}/join", json={"name": "Bob"}).status_code == 200
    play_first_legal_until_over([ann, bob], table)
    proposed = bob.post(f"/api/tables/{table}/rematch", json={})
    assert proposed.status_code == 201, proposed.text
    rematch = proposed.json()["table"]
    assert ann.get(f"/api/tables/{table}").json()["rematch"]["table"] == rematch
    assert delete(ann, rematch).status_code == 403  # Bob made the rematch
    assert delete(bob, rematch).status_code == 200
    assert "rematch" not in ann.get(f"/api/tables/{table}").json()
    again = ann.post(f"/api/tables/{table}/rematch", json={})
    assert again.status_code == 201 and again.json()["table"] != rematch
