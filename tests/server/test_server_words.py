"""The table speaks the games' words (games/<game>/words.py): a view's log and legal moves in
words with the notation beside, moves a bot made for a person still marked, and the whole log
readable back to move 1 (GET /api/tables/{id}/log, page by page, within its limit)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_server import Person, bot, create, wait_for_turn

from kingdomkit.server.app import ServerConfig, create_app
from kingdomkit.server.limits import Limits
from kingdomkit.server.live import HUMAN, LOG_LENGTH, STAND_IN, LiveTable, RefusedError, Seat
from words import unreadable

PAGE = 25  # the server's log_page in these tests: a long game takes several pages


def _table(game: str, seed: int) -> LiveTable:
    seats = [
        Seat(i, HUMAN, None, name, f"id-{name}", f"t{i}") for i, name in enumerate(("Ann", "Bob"))
    ]
    table = LiveTable("t1", game, {"players": 2}, seed, seats, [])
    table.draw()
    return table


@pytest.mark.parametrize("game", ["kingdomino", "queendomino", "kingdoms"])
def test_views_speak_in_words(game: str) -> None:
    table = _table(game, 3)
    rng = random.Random(3)
    while not table.finished:
        seat = table.to_act
        view = table.view(seat)
        labels = [action["label"] for action in view["legal"]]
        assert labels and len(set(labels)) == len(labels)
        for action in view["legal"]:
            assert unreadable(action["label"]) is None, action
            assert action["notation"] == table.game.action_to_string(table.state, action["id"])
        by = STAND_IN if len(table.decisions) % 7 == 3 else None
        table.play(rng.choice(view["legal"])["id"], by)
    seen = table.view(None)
    assert len(seen["log"]) == LOG_LENGTH < len(table.decisions)
    assert seen["log_start"] == len(table.decisions) - LOG_LENGTH
    for entry in table.decisions:
        name = table.seats[entry["seat"]].name
        assert entry["text"].startswith(f"{name} "), entry
        assert unreadable(entry["text"].removeprefix(f"{name} ")) is None, entry
        assert entry["notation"] and entry["notation"] != entry["text"]
        assert all(unreadable(said) is None for said in entry.get("then", []))
    told = [said for entry in table.decisions for said in entry.get("then", [])]
    # what chance showed everyone, told with the decision before it
    assert told and all(s.startswith(("New line", "Turned up", "Epoch")) for s in told)
    marked = [k for k, entry in enumerate(table.decisions) if entry.get("by") == STAND_IN]
    assert marked == [k for k in range(len(table.decisions)) if k % 7 == 3]


def test_the_log_is_read_page_by_page() -> None:
    table = _table("kingdomino", 5)
    rng = random.Random(5)
    while not table.finished:
        table.play(rng.choice(table.game.legal_actions(table.state)))
    read: list[dict[str, Any]] = []
    while True:
        page = table.log_page(len(read), 10)
        assert page["total"] == len(table.decisions)
        if not page["entries"]:
            break
        assert page["since"] == len(read) and len(page["entries"]) <= 10
        read += page["entries"]
    assert read == table.decisions
    for since in (-1, len(table.decisions) + 1):
        with pytest.raises(RefusedError) as refused:
            table.log_page(since, 10)
        assert refused.value.status == 422


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    config = ServerConfig(
        database=f"sqlite:///{tmp_path / 'k.db'}", secret="test", limits=Limits(log_page=PAGE)
    )
    app = create_app(config)
    with TestClient(app) as server:
        app.state.test_client = server
        yield app


def test_the_whole_log_is_reachable_through_the_api(app: FastAPI) -> None:
    ann = Person(app)
    table = create(ann, "kingdomino", [{"kind": "human"}, bot()])["table"]
    while True:
        view = wait_for_turn(ann, table)
        if view["status"] == "finished":
            break
        assert all(unreadable(a["label"]) is None and a["notation"] for a in view["legal"])
        body = {"action": view["legal"][0]["id"], "version": view["version"]}
        assert ann.post(f"/api/tables/{table}/actions", json=body).status_code == 200
    total = view["decisions"]
    assert total > PAGE and view["log_start"] == total - len(view["log"]) > 0
    read: list[dict[str, Any]] = []
    while len(read) < total:
        page = ann.get(f"/api/tables/{table}/log?since={len(read)}").json()
        assert page["total"] == total and 0 < len(page["entries"]) <= PAGE
        read += page["entries"]
    assert read[-len(view["log"]) :] == view["log"]
    assert read[0]["text"].startswith(("Ann claimed domino", "easy (bot) claimed domino"))
    small = ann.get(f"/api/tables/{table}/log?since=3&limit=2").json()
    assert small["entries"] == read[3:5]
    spectator = Person(app)
    assert spectator.get(f"/api/tables/{table}/log?since=0&limit=5").json()["entries"] == read[:5]
    for query in ("since=-1", f"since={total + 1}", "limit=0", "since=x", "limit=-3"):
        answer = ann.get(f"/api/tables/{table}/log?{query}")
        assert answer.status_code == 422, (query, answer.text)
    assert ann.get("/api/tables/nosuchtable/log").status_code == 404
    frame = ann.get(f"/api/tables/{table}/replay/1").json()
    assert frame["next"] == read[1] and frame["log"] == read[:1]
