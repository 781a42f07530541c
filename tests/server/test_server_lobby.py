"""The lobby and the table around the game, through the HTTP API (SQLite and PostgreSQL): each
person's tables listed first with "your turn", finished tables with their scores, set-ups the
games refuse served as data and refused in words, a rated game's rating changes, and a rematch
made once whose seats are kept for the same people, also across a kill -9 of the real server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kingdomkit.server.app import ServerConfig, create_app
from kingdomkit.server.limits import Limits
from serving import ServeProcess

HUMAN = {"kind": "human"}
EASY = {"kind": "bot", "bot": "easy"}
WAIT = 120.0  # seconds for bots (a ceiling against hanging, not a measure)


class Person:
    """Somebody with their own session cookie, through the app's one test client."""

    def __init__(self, app: FastAPI) -> None:
        self.server: TestClient = app.state.test_client
        self.jar = httpx2.Cookies()

    def _call(self, method: str, path: str, **kwargs: Any) -> httpx2.Response:
        self.server.cookies = self.jar
        response: httpx2.Response = self.server.request(method, path, **kwargs)
        self.jar = httpx2.Cookies(self.server.cookies)
        return response

    def get(self, path: str) -> httpx2.Response:
        return self._call("GET", path)

    def post(self, path: str, json: Any = None) -> httpx2.Response:
        return self._call("POST", path, json=json if json is not None else {})


@pytest.fixture
def app(database: str) -> Iterator[FastAPI]:
    # every refused set-up is tried: more tables a minute than a person may make
    many = Limits(tables_per_minute=10_000, address_tables_per_minute=10_000)
    app = create_app(ServerConfig(database=database, secret="test secret", limits=many))
    with TestClient(app) as server:
        app.state.test_client = server
        yield app


def until(check: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while not (found := check()):
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.02)
    return found


def create(person: Any, seats: list[dict[str, str]], name: str, **body: Any) -> dict[str, Any]:
    answer = person.post(
        "/api/tables", json={"game": "kingdomino", "seats": seats, "name": name, **body}
    )
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def finish(people: list[Any], table: str) -> dict[str, Any]:
    """Whoever is to act plays their first legal action until the game is over (bots move
    meanwhile); the last view."""
    while True:
        for person in people:
            view: dict[str, Any] = person.get(f"/api/tables/{table}").json()
            if view["status"] == "finished":
                return view
            if view["legal"]:
                body = {"action": view["legal"][0]["id"], "version": view["version"]}
                person.post(f"/api/tables/{table}/actions", json=body)
        time.sleep(0.01)


def rows(person: Any, status: str | None = None) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = person.get(
        "/api/tables" + (f"?status={status}" if status else "")
    ).json()
    return found


def test_games_serve_names_variants_and_every_refused_set_up_in_words(app: FastAPI) -> None:
    ann = Person(app)
    games = {game["game"]: game for game in ann.get("/api/games").json()}
    assert {game["name"] for game in games.values()} == {"Kingdomino", "Queendomino", "Kingdoms"}
    named = {v["option"]: v["name"] for v in games["kingdomino"]["variants"]}
    assert named["mighty_duel"] == "Mighty Duel" and named["middle_kingdom"] == "The Middle Kingdom"
    assert {v["name"] for v in games["queendomino"]["variants"]} == {"Royal Wedding", "Teams"}
    assert all(v["description"] for game in games.values() for v in game["variants"])
    assert games["kingdoms"]["unit"] == "gold"
    refused = games["kingdomino"]["refused"]
    assert refused["3"]["mighty_duel"] == "Mighty Duel is for 2 players"
    assert "mighty_duel" not in refused["2"] and "" not in refused["3"]
    wedding = games["queendomino"]["refused"]
    assert "Royal Wedding" in wedding["4"]["teams"] and "" not in wedding["4"]
    assert "6" not in wedding or "royal_wedding+teams" not in wedding["6"]
    assert "" in wedding["6"] and "royal_wedding" not in wedding["6"]
    assert games["kingdoms"]["refused"] == {}
    for game in games.values():  # every reason in words, and the server's check agrees
        for players, combos in game["refused"].items():
            for combo, reason in combos.items():
                assert "_" not in reason, reason
                options = dict.fromkeys(combo.split("+") if combo else [], True)
                seats = [HUMAN] + [EASY] * (int(players) - 1)
                body = {"game": game["game"], "options": options, "seats": seats, "name": "Ann"}
                answer = ann.post("/api/tables", json=body)
                assert answer.status_code == 422 and answer.json()["detail"] == reason


@pytest.mark.parametrize(
    ("options", "seats", "words"),
    [
        ({"mighty_duel": True}, 3, "Mighty Duel is for 2 players"),
        ({"draw_four": True}, 2, "Draw Four is for 3 players"),
        ({"players": 3}, 2, "a game of 3 players needs 3 seats, not 2"),
        ({"harmonyy": True}, 2, "Kingdomino has no option called 'harmonyy'"),
    ],
)
def test_a_refused_set_up_is_a_422_in_words(
    app: FastAPI, options: dict[str, Any], seats: int, words: str
) -> None:
    body = {"game": "kingdomino", "options": options, "seats": [HUMAN] + [EASY] * (seats - 1)}
    answer = Person(app).post("/api/tables", json=body)
    assert answer.status_code == 422 and answer.json()["detail"] == words


def test_each_person_sees_their_tables_first_with_your_turn(app: FastAPI) -> None:
    ann, bob, cyd = Person(app), Person(app), Person(app)
    duel = create(ann, [HUMAN, HUMAN], "Ann")
    bob.post(f"/api/tables/{duel['table']}/join", json={"name": "Bob"})
    solo = create(ann, [HUMAN, EASY], "Ann")
    lone = create(cyd, [HUMAN, HUMAN], "Cyd")  # the newest, open
    for table in (duel["table"], solo["table"]):
        until(
            lambda t=table: (
                ann.get(f"/api/tables/{t}").json()["legal"]
                or bob.get(f"/api/tables/{t}").json()["legal"]
            ),
            "a person's turn",
        )
    first = ann.get(f"/api/tables/{duel['table']}").json()["to_act"]
    mover, waiter = (ann, bob) if first == 0 else (bob, ann)

    seen = {row["table"]: row for row in rows(ann)}
    assert {row["table"] for row in rows(ann)[:2]} == {duel["table"], solo["table"]}
    assert rows(ann)[-1]["table"] == lone["table"] and seen[lone["table"]]["you"] is None
    assert seen[solo["table"]]["your_turn"] and seen[solo["table"]]["you"] == 0
    theirs = rows(mover)
    duel_row = next(row for row in theirs if row["table"] == duel["table"])
    assert duel_row["your_turn"] and theirs.index(duel_row) < 2
    assert all(row["your_turn"] for row in theirs[: theirs.index(duel_row)])  # turns first
    waiting = {row["table"]: row for row in rows(waiter)}[duel["table"]]
    assert not waiting["your_turn"] and waiting["you"] == (1 if mover is ann else 0)
    cyds = rows(cyd)
    assert cyds[0]["table"] == lone["table"] and cyds[0]["you"] == 0
    assert not any(row["your_turn"] for row in cyds)
    assert rows(cyd, "running")[0]["you"] is None  # someone else's, listed to watch
    assert seen[duel["table"]]["names"] == {"game": "Kingdomino", "variants": []}

    last = finish([ann], solo["table"])
    done = {row["table"]: row for row in rows(ann, "finished")}[solo["table"]]
    assert done["result"]["scores"] == last["result"]["scores"] and done["finished"]
    assert done["result"]["winners"] and not done["your_turn"]


def test_a_rated_game_shows_each_player_their_rating_change(app: FastAPI) -> None:
    ann, bob = Person(app), Person(app)
    for who, name in ((ann, "ann"), (bob, "bob")):
        body = {"name": name, "password": f"a long {name} passphrase"}
        assert who.post("/api/accounts", json=body).status_code == 201
    made = create(ann, [HUMAN, HUMAN], "ann", rated=True)
    bob.post(f"/api/tables/{made['table']}/join", json={})
    last = finish([ann, bob], made["table"])
    changes = {change["seat"]: change for change in last["ratings"]}
    assert changes[0]["before"] == changes[1]["before"] == 1500
    scores = last["result"]["scores"]
    if scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        assert changes[winner]["after"] == 1516 and changes[1 - winner]["after"] == 1484
    assert bob.get(f"/api/tables/{made['table']}").json()["ratings"] == last["ratings"]


def test_a_rematch_is_made_once_with_the_same_seats_kept_for_the_same_people(
    app: FastAPI,
) -> None:
    ann, bob, cyd = Person(app), Person(app), Person(app)
    made = create(ann, [HUMAN, HUMAN, EASY], "Ann", hints=True, move_seconds=600)
    old = made["table"]
    bob.post(f"/api/tables/{old}/join", json={"name": "Bob"})
    assert ann.post(f"/api/tables/{old}/rematch").status_code == 409  # not over yet
    finish([ann, bob], old)
    assert cyd.post(f"/api/tables/{old}/rematch").status_code == 403  # not a player

    first = ann.post(f"/api/tables/{old}/rematch")
    assert first.status_code == 201, first.text
    new = first.json()["table"]
    assert first.json()["seat"] == 0
    assert ann.post(f"/api/tables/{old}/rematch").json()["table"] == new  # once
    assert bob.post(f"/api/tables/{old}/rematch").json()["table"] == new
    assert cyd.post(f"/api/tables/{old}/rematch").status_code == 403  # still not a player
    for who in (ann, bob, cyd):
        assert who.get(f"/api/tables/{old}").json()["rematch"] == {"table": new, "by": 0}

    view = cyd.get(f"/api/tables/{new}").json()
    assert view["status"] == "open" and view["hints"] and view["clock"]["move_seconds"] == 600
    assert [(s["kind"], s["name"], s["kept"]) for s in view["seats"]] == [
        ("human", "Ann", False),
        ("human", "Bob", True),
        ("bot", "easy", False),
    ]
    assert bob.get(f"/api/tables/{new}").json()["kept"] == 1  # his page takes it on opening
    assert "kept" not in view and "kept" not in ann.get(f"/api/tables/{new}").json()
    listed = {row["table"]: row for row in rows(bob)}[new]
    assert listed["you"] == 1 and rows(bob)[0]["table"] == new  # kept for Bob: his, first
    refused = cyd.post(f"/api/tables/{new}/join", json={"name": "Cyd"})
    assert refused.status_code == 409 and "kept for Bob" in refused.json()["detail"]
    refused = cyd.post(f"/api/tables/{new}/join", json={"name": "Cyd", "seat": 1})
    assert refused.status_code == 409
    joined = bob.post(f"/api/tables/{new}/join", json={"seat": 0})  # his own, whatever asked
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert joined.json()["view"]["status"] == "running"
    assert joined.json()["view"]["seats"][1]["name"] == "Bob"


def test_a_rematch_against_bots_starts_at_once(app: FastAPI) -> None:
    ann = Person(app)
    made = create(ann, [HUMAN, {"kind": "bot", "bot": "medium"}], "Ann")
    finish([ann], made["table"])
    again = ann.post(f"/api/tables/{made['table']}/rematch").json()
    assert again["view"]["status"] == "running" and again["seat"] == 0
    assert again["view"]["seats"][1]["name"] == "medium"


def test_rematches_are_limited_as_new_tables_are(database: str) -> None:
    app = create_app(ServerConfig(database=database, secret="s", limits=Limits(open_tables=1)))
    with TestClient(app) as server:
        app.state.test_client = server
        ann = Person(app)
        made = create(ann, [HUMAN, {"kind": "bot", "bot": "random"}], "Ann")
        finish([ann], made["table"])
        create(ann, [HUMAN, HUMAN], "Ann")  # her one unfinished table
        answer = ann.post(f"/api/tables/{made['table']}/rematch")
        assert answer.status_code == 429 and "unfinished tables" in answer.json()["detail"]
        assert "rematch" not in ann.get(f"/api/tables/{made['table']}").json()


def test_a_rematch_and_its_kept_seats_survive_a_kill_9(served: ServeProcess) -> None:
    ann = httpx2.Client(base_url=served.url, timeout=60)
    bob = httpx2.Client(base_url=served.url, timeout=60)
    for who, name in ((ann, "ann"), (bob, "bob")):
        body = {"name": name, "password": f"a long {name} passphrase"}
        assert who.post("/api/accounts", json=body).status_code == 201
    made = create(ann, [HUMAN, HUMAN], "ann", rated=True)
    old = made["table"]
    bob.post(f"/api/tables/{old}/join", json={})
    finished = finish([ann, bob], old)
    new = ann.post(f"/api/tables/{old}/rematch", json={}).json()["table"]
    listed = {row["table"]: row for row in rows(bob, "finished")}[old]

    served.kill()
    served.start()
    view = bob.get(f"/api/tables/{old}").json()
    assert view["rematch"] == {"table": new, "by": 0}
    assert view["ratings"] == finished["ratings"] and len(view["ratings"]) == 2
    assert {row["table"]: row for row in rows(bob, "finished")}[old] == listed
    assert listed["result"]["scores"] == finished["result"]["scores"]
    assert ann.post(f"/api/tables/{old}/rematch", json={}).json()["table"] == new
    stranger = httpx2.Client(base_url=served.url, timeout=60)
    assert stranger.post(f"/api/tables/{new}/join", json={"name": "Cyd"}).status_code == 409
    joined = bob.post(f"/api/tables/{new}/join", json={})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    again = ann.get(f"/api/tables/{new}").json()
    assert again["status"] == "running" and again["rated"] and again["you"] == 0
