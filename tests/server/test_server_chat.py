"""A table's chat through the HTTP API and the WebSocket (FastAPI's test client, SQLite): who
may write, the text kept as typed text (never markup), the limits of length and rate, every
message sent to everyone (muting is the client's), and messages that survive a restart. Also
what the table page needs beside it: which seats' holders are here, and a replay's scores at
the step shown."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_server import HUMAN, Person, create

from kingdomkit.server.app import ServerConfig, create_app
from kingdomkit.server.limits import Limits
from paths import EXAMPLES

TWO_PEOPLE = [HUMAN, HUMAN]


def started(url: str, limits: Limits | None = None) -> Iterator[FastAPI]:
    app = create_app(ServerConfig(database=url, secret="test secret", limits=limits or Limits()))
    with TestClient(app) as server:
        app.state.test_client = server
        yield app


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'kingdomkit.db'}"


@pytest.fixture
def app(url: str) -> Iterator[FastAPI]:
    yield from started(url)


def seated_pair(app: FastAPI) -> tuple[Person, Person, str]:
    """Ann and Bob at a table of two people; the table."""
    ann, bob = Person(app), Person(app)
    made = create(ann, "kingdomino", TWO_PEOPLE)
    token = made["invitations"][0]["token"]
    joined = bob.post(f"/api/tables/{made['table']}/join", json={"name": "Bob", "token": token})
    assert joined.status_code == 200
    return ann, bob, made["table"]


def say(person: Person, table: str, text: Any) -> Any:
    return person.post(f"/api/tables/{table}/chat", json={"text": text})


def test_players_chat_and_the_text_stays_text(app: FastAPI) -> None:
    ann, bob, table = seated_pair(app)
    markup = '<img src=x onerror="alert(1)"> & <b>bold</b>'
    answer = say(ann, table, f"  {markup}   there ")
    assert answer.status_code == 201
    said = answer.json()
    assert said["text"] == f"{markup} there"  # spaces tidied, nothing escaped or removed
    assert (said["seat"], said["name"], said["spectator"]) == (0, "Ann", False)
    assert say(bob, table, "hello Ann").status_code == 201
    seen = bob.get(f"/api/tables/{table}/chat").json()
    assert [m["text"] for m in seen["messages"]] == [f"{markup} there", "hello Ann"]
    assert seen["may_write"] and seen["limit"] == 300
    authors = [m["author"] for m in seen["messages"]]
    assert authors[0] != authors[1] and seen["you"] == authors[1]
    assert ann.get(f"/api/tables/{table}/chat").json()["you"] == authors[0]
    me = ann.get("/api/me").json()["id"]
    assert me not in json.dumps(seen)  # the author key does not give the identity away


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("x" * 300, 201),
        ("x" * 301, 422),
        ("   ", 422),
        ("line\nbreak", 422),
        ("zero\u200bwidth", 422),
        (42, 422),
    ],
)
def test_a_message_is_cleaned_as_names_are_and_limited(
    app: FastAPI, text: Any, status: int
) -> None:
    ann, _, table = seated_pair(app)
    answer = say(ann, table, text)
    assert answer.status_code == status, answer.text
    if status == 422:
        assert "chat message" in json.dumps(answer.json()) or "text" in json.dumps(answer.json())


def test_the_length_and_the_rate_are_limits_of_the_server(url: str) -> None:
    for app in started(url, Limits(chat_chars=10, chat_messages_per_minute=3)):
        ann, bob, table = seated_pair(app)
        assert say(ann, table, "x" * 11).status_code == 422
        assert all(say(ann, table, f"hi {n}").status_code == 201 for n in range(3))
        over = say(ann, table, "one more")
        assert over.status_code == 429 and int(over.headers["Retry-After"]) > 0
        assert "3 chat messages in a minute" in over.json()["detail"]
        assert say(bob, table, "my turn").status_code == 201  # per person
        assert len(bob.get(f"/api/tables/{table}/chat").json()["messages"]) == 4
    for app in started(url, Limits(chat_chars=0)):
        ann, _, table = seated_pair(app)
        assert say(ann, table, "hello").status_code == 403
        assert not ann.get(f"/api/tables/{table}/chat").json()["may_write"]


def test_spectators_write_once_they_have_a_name_and_are_marked(app: FastAPI) -> None:
    ann, _, table = seated_pair(app)
    eve = Person(app)
    assert not eve.get(f"/api/tables/{table}/chat").json()["may_write"]
    refused = say(eve, table, "hi all")
    assert refused.status_code == 403 and "name" in refused.json()["detail"]
    assert eve.post("/api/me", json={"name": "Eve"}).status_code == 200
    assert eve.get(f"/api/tables/{table}/chat").json()["may_write"]
    said = say(eve, table, "good luck both").json()
    assert (said["seat"], said["name"], said["spectator"]) == (None, "Eve", True)
    # A spectator named as a player is still marked as a spectator.
    assert eve.post("/api/me", json={"name": "Ann"}).status_code == 200
    assert say(eve, table, "it's me").json()["spectator"]
    assert [m["spectator"] for m in ann.get(f"/api/tables/{table}/chat").json()["messages"]] == [
        True,
        True,
    ]


def test_messages_go_to_every_socket_and_may_be_sent_on_it(app: FastAPI) -> None:
    """Everyone at the table is sent every message: muting a person is done by each client
    (the server has no mute, and tells no one who muted whom)."""
    ann, bob, table = seated_pair(app)
    eve = Person(app)
    with (
        bob.websocket_connect(f"/ws/tables/{table}") as bob_socket,
        eve.websocket_connect(f"/ws/tables/{table}") as eve_socket,
    ):
        assert bob_socket.receive_json()["type"] == "view"
        assert eve_socket.receive_json()["type"] == "view"
        assert say(ann, table, "<i>hi</i>").status_code == 201
        for socket in (bob_socket, eve_socket):
            message = socket.receive_json()
            while message["type"] == "view":  # someone arriving is told as a view
                message = socket.receive_json()
            assert message["type"] == "chat" and message["message"]["text"] == "<i>hi</i>"
        bob_socket.send_json({"chat": "sent on the socket"})
        eve_socket.send_json({"chat": "me too"})  # no name: refused, the socket stays
        error = eve_socket.receive_json()
        while error["type"] != "error":
            error = eve_socket.receive_json()
        assert error["status"] == 403
        bob_socket.send_json({"chat": "x" * 301})
        message = bob_socket.receive_json()
        while message["type"] != "error":
            message = bob_socket.receive_json()
        assert message["status"] == 422
    texts = [m["text"] for m in ann.get(f"/api/tables/{table}/chat").json()["messages"]]
    assert texts == ["<i>hi</i>", "sent on the socket"]
    assert ann.post(f"/api/tables/{table}/chat/mute", json={}).status_code in (404, 405)


def test_the_chat_survives_a_restart_and_unknown_tables_have_none(url: str) -> None:
    for app in started(url):
        ann, _, table = seated_pair(app)
        assert say(ann, table, "before the restart").status_code == 201
        assert Person(app).get("/api/tables/nowhere/chat").status_code == 404
        assert say(ann, "nowhere", "hello").status_code == 404
    for app in started(url):
        texts = [m["text"] for m in Person(app).get(f"/api/tables/{table}/chat").json()["messages"]]
        assert texts == ["before the restart"]


def test_views_say_which_holders_are_here(app: FastAPI) -> None:
    ann, bob, table = seated_pair(app)
    assert ann.get(f"/api/tables/{table}").json()["here"] == []
    with bob.websocket_connect(f"/ws/tables/{table}") as socket:
        socket.receive_json()
        assert ann.get(f"/api/tables/{table}").json()["here"] == [1]
        with ann.websocket_connect(f"/ws/tables/{table}") as mine:
            assert mine.receive_json()["view"]["here"] == [0, 1]
            told = socket.receive_json()  # Bob hears that Ann arrived
            assert told["type"] == "view" and told["view"]["here"] == [0, 1]
        told = socket.receive_json()  # ... and that she left
        assert told["type"] == "view" and told["view"]["here"] == [1]
    assert ann.get(f"/api/tables/{table}").json()["here"] == []


def test_a_replay_frame_has_the_scores_of_its_step(app: FastAPI) -> None:
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    person = Person(app)
    table = person.post("/api/records", json=record).json()["table"]
    final = person.get(f"/api/tables/{table}").json()
    steps = final["decisions"]
    start = person.get(f"/api/tables/{table}/replay/0").json()
    middle = person.get(f"/api/tables/{table}/replay/{steps // 2}").json()
    assert start["scores"] == [0] * len(final["seats"])
    assert middle["scores"] != final["scores"] and max(final["scores"]) > max(middle["scores"])
