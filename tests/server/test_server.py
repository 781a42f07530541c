"""The web platform through its HTTP API and WebSocket (FastAPI's test client, SQLite): whole
games against bots, the refusals (stale, out of turn, foreign seat, spectator, malformed), a
restart that resumes every table, and views that carry no secret."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kingdomkit.core.record import replay_record
from kingdomkit.server.analysts import Analysts
from kingdomkit.server.app import ServerConfig, create_app
from kingdomkit.server.live import LiveTable, RefusedError, model
from paths import EXAMPLES

HUMAN = {"kind": "human"}


def bot(level: str = "easy") -> dict[str, str]:
    return {"kind": "bot", "bot": level}


def make_app(database: str) -> FastAPI:
    return create_app(ServerConfig(database=database, secret="test secret"))


class Person:
    """Somebody with their own session cookie, talking to the app through its one running
    test client (a second client would run the app's start-up again, in another loop)."""

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

    def post(self, path: str, json: Any) -> httpx2.Response:
        return self._call("POST", path, json=json)

    def websocket_connect(self, path: str) -> Any:
        self.server.cookies = self.jar
        return self.server.websocket_connect(path)


@pytest.fixture
def app(database: str) -> Iterator[FastAPI]:
    app = make_app(database)
    with TestClient(app) as server:
        app.state.test_client = server
        yield app


def client(app: FastAPI) -> Person:
    return Person(app)


def live(app: FastAPI, table: str) -> LiveTable:
    found: LiveTable = app.state.tables.live[table]
    return found


def wait_for_turn(person: Any, table: str, timeout: float = 60.0) -> dict[str, Any]:
    """The view once it is this person's turn or the game is over (bots move meanwhile)."""
    end = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = person.get(f"/api/tables/{table}").json()
        if view["legal"] or view["status"] == "finished":
            return view
        assert time.monotonic() < end, "the bots did not move"
        time.sleep(0.02)


def create(
    person: Any, game: str, seats: list[dict[str, str]], rated: bool = False, **options: Any
) -> Any:
    response = person.post(
        "/api/tables",
        json={"game": game, "options": options, "seats": seats, "name": "Ann", "rated": rated},
    )
    assert response.status_code == 201, response.json()
    return response.json()


@pytest.mark.parametrize(
    ("game", "players"), [("kingdomino", 2), ("queendomino", 2), ("kingdoms", 2)]
)
def test_a_person_plays_a_whole_game_against_a_bot(app: FastAPI, game: str, players: int) -> None:
    ann = client(app)
    made = create(ann, game, [HUMAN] + [bot()] * (players - 1))
    table = made["table"]
    assert made["seat"] == 0
    while True:
        view = wait_for_turn(ann, table)
        if view["status"] == "finished":
            break
        action = view["legal"][-1]["id"]
        response = ann.post(
            f"/api/tables/{table}/actions", json={"action": action, "version": view["version"]}
        )
        assert response.status_code == 200, response.json()
    record = ann.get(f"/api/tables/{table}/record").json()
    replayed = replay_record(record)
    assert list(replayed.game.scores(replayed.final_state)) == view["result"]["scores"]
    assert record["seed"] is None  # the table's seed never leaves the server
    listed = ann.get("/api/tables?status=finished").json()
    assert table in [entry["table"] for entry in listed]


def test_out_of_turn_stale_foreign_spectator_and_malformed_actions_are_refused(
    app: FastAPI,
) -> None:
    ann, bob, eve = client(app), client(app), client(app)
    made = create(ann, "kingdomino", [HUMAN, HUMAN])
    table = made["table"]
    early = ann.post(f"/api/tables/{table}/actions", json={"action": 0, "version": 0})
    assert early.status_code == 409 and "every seat" in early.json()["detail"]
    token = made["invitations"][0]["token"]
    assert (
        bob.post(f"/api/tables/{table}/join", json={"name": "Bob", "token": "x"}).status_code == 404
    )
    joined = bob.post(f"/api/tables/{table}/join", json={"name": "Bob", "token": token})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    full = eve.post(f"/api/tables/{table}/join", json={"name": "Eve"})
    assert full.status_code == 409

    state = live(app, table)
    mover, waiter = (ann, bob) if state.to_act == 0 else (bob, ann)
    view = mover.get(f"/api/tables/{table}").json()
    legal = [a["id"] for a in view["legal"]]
    version = view["version"]
    assert legal and not waiter.get(f"/api/tables/{table}").json()["legal"]

    def post(person: Person, body: Any) -> tuple[int, str]:
        response = person.post(f"/api/tables/{table}/actions", json=body)
        return response.status_code, str(response.json()["detail"])

    assert post(waiter, {"action": legal[0], "version": version}) == (409, "it is not your turn")
    status, detail = post(eve, {"action": legal[0], "version": version})
    assert status == 403 and "spectators" in detail
    status, detail = post(mover, {"action": legal[0], "version": version - 1})
    assert status == 409 and "moved on" in detail
    status, detail = post(mover, {"action": 10**6, "version": version})
    assert status == 422 and "not legal" in detail
    assert post(mover, {"action": "claim 7", "version": version})[0] == 422
    assert post(mover, {"version": version})[0] == 422
    assert state.version == version  # nothing refused changed the table
    played = mover.post(
        f"/api/tables/{table}/actions", json={"action": legal[0], "version": version}
    )
    assert played.status_code == 200 and played.json()["version"] == state.version > version


def test_a_restart_resumes_every_table_exactly_and_its_bots_go_on(database: str) -> None:
    first = make_app(database)
    with TestClient(first) as ann:
        made = create(ann, "kingdomino", [HUMAN, bot("medium")])
        table = made["table"]
        for _ in range(3):
            view = wait_for_turn(ann, table)
            ann.post(
                f"/api/tables/{table}/actions",
                json={"action": view["legal"][0]["id"], "version": view["version"]},
            )
        before = ann.get(f"/api/tables/{table}").json()
        cookies = dict(ann.cookies)
    second = make_app(database)
    with TestClient(second, cookies=cookies) as ann:
        after = ann.get(f"/api/tables/{table}").json()
        assert after["version"] >= before["version"]
        if after["version"] == before["version"]:
            assert after == before
        view = wait_for_turn(ann, table)  # the bot moves after the restart if it was its turn
        assert view["you"] == 0 and view["legal"]


def test_views_carry_only_what_each_seat_may_see(app: FastAPI) -> None:
    ann, bob, eve = client(app), client(app), client(app)
    made = create(ann, "kingdoms", [HUMAN, HUMAN])
    table = made["table"]
    bob.post(
        f"/api/tables/{table}/join", json={"name": "Bob", "token": made["invitations"][0]["token"]}
    )
    state = live(app, table)
    game = state.game
    for person, seat in ((ann, 0), (bob, 1), (eve, None)):
        response = person.get(f"/api/tables/{table}")
        view = response.json()
        assert view["you"] == seat
        seen = game.view(state.state, seat)
        assert view["model"] == model(game, seen, seat, state.last_decision)
        assert "state" not in view  # the engine's state never reaches a browser
        assert view["board"] == game.render(state.state, seat)
        assert str(state.seed) not in response.text
    assert (
        ann.get(f"/api/tables/{table}").json()["model"]
        != bob.get(f"/api/tables/{table}").json()["model"]
    )  # each sees its own starting tile only


def test_the_websocket_sends_views_and_takes_actions(app: FastAPI) -> None:
    ann = client(app)
    made = create(ann, "kingdomino", [HUMAN, bot("easy")])
    table = made["table"]
    wait_for_turn(ann, table)
    with ann.websocket_connect(f"/ws/tables/{table}") as socket:
        first = socket.receive_json()
        assert first["type"] == "view" and first["view"]["you"] == 0
        view = first["view"]
        socket.send_text("not json")
        error = socket.receive_json()
        assert error["type"] == "error" and error["status"] == 422
        socket.send_json({"action": view["legal"][0]["id"], "version": view["version"]})
        moved = socket.receive_json()
        assert moved["type"] == "view" and moved["view"]["version"] > view["version"]
    with ann.websocket_connect("/ws/tables/nowhere") as socket:
        assert socket.receive_json()["status"] == 404


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": [HUMAN]}, "unknown game"),
        ({"game": "kingdomino", "seats": [HUMAN, {"kind": "bot", "bot": "best"}]}, "unknown bot"),
        ({"game": "kingdomino", "options": {"harmonyy": True}, "seats": [HUMAN, HUMAN]}, "option"),
        ({"game": "kingdomino", "options": {"players": 3}, "seats": [HUMAN, HUMAN]}, "seats"),
        ({"game": "kingdomino", "seats": [HUMAN, HUMAN], "name": "  "}, "name"),
        ({"game": "kingdomino", "seats": [HUMAN, {"kind": "bot", "level": "easy"}]}, "level"),
        ({"game": "kingdomino", "seats": [HUMAN, HUMAN], "timer": 5}, "timer"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(app: FastAPI, body: Any, words: str) -> None:
    response = client(app).post("/api/tables", json=body)
    assert response.status_code == 422
    assert words in str(response.json()["detail"])


def play_first_legal_until_over(people: list[Person], table: str) -> dict[str, Any]:
    """Everyone plays their first legal action until the game ends; the last view."""
    while True:
        for person in people:
            view: dict[str, Any] = person.get(f"/api/tables/{table}").json()
            if view["status"] == "finished":
                return view
            if view["legal"]:
                body = {"action": view["legal"][0]["id"], "version": view["version"]}
                assert person.post(f"/api/tables/{table}/actions", json=body).status_code == 200


def test_accounts_sign_in_keep_their_guest_seats_and_are_rated(app: FastAPI) -> None:
    ann, bob = client(app), client(app)
    made = create(ann, "kingdomino", [HUMAN, HUMAN], rated=False)  # as a guest
    refused = ann.post("/api/accounts", json={"name": "ann", "password": "short"})
    assert refused.status_code == 422 and "password" in refused.json()["detail"]
    signed = ann.post("/api/accounts", json={"name": "ann", "password": "correct horse"})
    assert signed.status_code == 201 and signed.json()["account"]
    assert ann.get(f"/api/tables/{made['table']}").json()["you"] == 0  # the seat came along
    taken = bob.post("/api/accounts", json={"name": "ann", "password": "another one"})
    assert taken.status_code == 409
    assert bob.post("/api/accounts", json={"name": "bob", "password": "battery staple"}).is_success
    assert bob.post("/api/logout", json={}).json()["account"] is False
    wrong = bob.post("/api/login", json={"name": "bob", "password": "battery stapler"})
    unknown = bob.post("/api/login", json={"name": "zed", "password": "battery staple"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()  # no hint of which names exist
    assert bob.post("/api/login", json={"name": "bob", "password": "battery staple"}).is_success

    rated = ann.post(
        "/api/tables",
        json={"game": "kingdomino", "seats": [HUMAN, HUMAN], "rated": True},
    ).json()
    table = rated["table"]
    token = rated["invitations"][0]["token"]
    bob.post(f"/api/tables/{table}/join", json={"token": token})
    last = play_first_legal_until_over([ann, bob], table)
    board = {row["name"]: row for row in ann.get("/api/leaderboard/kingdomino").json()}
    assert board["ann"]["games"] == board["bob"]["games"] == 1
    shares = dict(zip(("ann", "bob"), last["result"]["scores"], strict=True))
    if shares["ann"] != shares["bob"]:
        winner = max(shares, key=lambda name: shares[name])
        loser = min(shares, key=lambda name: shares[name])
        assert board[winner]["rating"] == 1516 and board[loser]["rating"] == 1484
    assert ann.get("/api/leaderboard/chess").status_code == 404


def test_elo_changes_balance_and_follow_the_expectation() -> None:
    from kingdomkit.server.ratings import elo_changes

    assert elo_changes([1500.0, 1500.0], [1.0, 0.0]) == [16.0, -16.0]
    changes = elo_changes([1600.0, 1500.0, 1400.0, 1500.0], [0.0, 0.5, 0.5, 0.0])
    assert abs(sum(changes)) < 1e-9
    assert changes[2] > changes[1] > 0 > changes[3] > changes[0]  # upsets pay more


def test_a_bot_stands_in_for_a_person_who_left_until_they_take_their_seat_back(
    app: FastAPI,
) -> None:
    ann, bob, eve = client(app), client(app), client(app)
    made = create(ann, "kingdomino", [HUMAN, HUMAN])
    table = made["table"]
    bob.post(
        f"/api/tables/{table}/join", json={"name": "Bob", "token": made["invitations"][0]["token"]}
    )
    assert eve.post(f"/api/tables/{table}/seats/1/bot", json={"bot": "easy"}).status_code == 403
    with bob.websocket_connect(f"/ws/tables/{table}") as socket:
        socket.receive_json()
        here = ann.post(f"/api/tables/{table}/seats/1/bot", json={"bot": "easy"})
        assert here.status_code == 409 and "still here" in here.json()["detail"]
    # Ann asks for the weakest bot for her absent opponent: she gets the table's stand-in.
    stood = ann.post(f"/api/tables/{table}/seats/1/bot", json={"bot": "random"})
    assert stood.status_code == 200 and stood.json()["seats"][1]["stand_in"] == "medium"
    assert ann.post(f"/api/tables/{table}/seats/1/back", json={}).status_code == 403
    start = live(app, table).version
    for _ in range(4):  # ann plays; the stand-in answers for bob
        view = wait_for_turn(ann, table)
        ann.post(
            f"/api/tables/{table}/actions",
            json={"action": view["legal"][0]["id"], "version": view["version"]},
        )
    assert any(seat == 1 for seat, _ in live(app, table).actions[start:])
    seen = bob.get(f"/api/tables/{table}").json()
    assert not seen["legal"]  # the bot chooses, not bob
    bobs = [entry for entry in seen["log"] if entry["seat"] == 1]
    assert bobs and all(entry["by"] == "stand-in" for entry in bobs)
    assert all(entry.get("by") is None for entry in seen["log"] if entry["seat"] == 0)
    back = bob.post(f"/api/tables/{table}/seats/1/back", json={})
    assert back.status_code == 200 and back.json()["seats"][1]["stand_in"] is None
    deadline = time.monotonic() + 30
    while live(app, table).to_act != 1:  # ann plays on until it is bob's turn
        assert time.monotonic() < deadline
        view = ann.get(f"/api/tables/{table}").json()
        if view["legal"]:
            body = {"action": view["legal"][0]["id"], "version": view["version"]}
            ann.post(f"/api/tables/{table}/actions", json=body)
    version = live(app, table).version
    time.sleep(0.3)
    assert live(app, table).version == version  # no bot plays for bob any more
    assert bob.get(f"/api/tables/{table}").json()["legal"]


def test_when_a_persons_time_runs_out_a_bot_plays_that_decision(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kingdomkit.server import service

    monkeypatch.setattr(service, "MIN_CLOCK", 0.1)
    ann = client(app)
    made = ann.post(
        "/api/tables",
        json={"game": "kingdomino", "seats": [HUMAN, bot()], "move_seconds": 0.3},
    )
    assert made.status_code == 201
    table = made.json()["table"]
    view = made.json()["view"]
    assert view["clock"]["move_seconds"] == 0.3
    deadline = time.monotonic() + 30
    while True:
        seen = ann.get(f"/api/tables/{table}").json()
        if any(e["seat"] == 0 for e in seen["log"]):
            break
        assert time.monotonic() < deadline, "nobody played for the seat out of time"
        time.sleep(0.05)
    assert seen["seats"][0]["time_used"] >= 0.3
    timed_out = [e for e in seen["log"] if e["seat"] == 0]
    assert timed_out[0]["by"] == "clock"
    refused = client(app).post(
        "/api/tables", json={"game": "kingdomino", "seats": [HUMAN, bot()], "game_seconds": 0.01}
    )
    assert refused.status_code == 422 and "time limit" in refused.json()["detail"]


def finished_table(app: FastAPI, person: Person, game: str = "kingdomino") -> str:
    made = create(person, game, [HUMAN, bot("easy")])
    play_first_legal_until_over([person], made["table"])
    return str(made["table"])


def test_hints_are_for_the_seat_to_act_on_tables_that_allow_them(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.state.tables.analysts = Analysts("mcts:playouts=40")
    ann, eve = client(app), client(app)
    plain = create(ann, "kingdomino", [HUMAN, bot()])["table"]
    wait_for_turn(ann, plain)
    assert ann.get(f"/api/tables/{plain}/hint").status_code == 403
    made = ann.post(
        "/api/tables", json={"game": "kingdomino", "seats": [HUMAN, bot()], "hints": True}
    ).json()
    table = made["table"]
    view = wait_for_turn(ann, table)
    advice = ann.get(f"/api/tables/{table}/hint").json()
    assert sorted(a["id"] for a in advice) == sorted(a["id"] for a in view["legal"])
    assert [a["points"] for a in advice] == sorted((a["points"] for a in advice), reverse=True)
    assert eve.get(f"/api/tables/{table}/hint").status_code == 409


def test_a_finished_game_replays_step_by_step_is_reviewed_and_uploads_again(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.state.tables.analysts = Analysts("mcts:playouts=8")
    ann = client(app)
    running = create(ann, "kingdomino", [HUMAN, bot()])["table"]
    assert ann.get(f"/api/tables/{running}/replay/0").status_code == 409
    table = finished_table(app, ann)
    final = ann.get(f"/api/tables/{table}").json()
    steps = final["decisions"]
    first = ann.get(f"/api/tables/{table}/replay/0").json()
    last = ann.get(f"/api/tables/{table}/replay/{steps}").json()
    assert first["steps"] == steps and first["log"] == [] and first["next"] is not None
    assert last["board"] == final["board"] and last["next"] is None
    assert last["model"] == final["model"]
    assert ann.get(f"/api/tables/{table}/replay/{steps + 1}").status_code == 422

    assert ann.get(f"/api/tables/{table}/review").status_code in (404, 409)
    assert ann.post(f"/api/tables/{table}/review", json={}).status_code == 202
    deadline = time.monotonic() + 120
    while (answer := ann.get(f"/api/tables/{table}/review")).status_code != 200:
        assert time.monotonic() < deadline, "the review did not come"
        time.sleep(0.1)
    review = answer.json()
    assert review["decisions"] and {d["seat"] for d in review["decisions"]} == {0, 1}
    assert all(d["loss"] >= 0 for d in review["decisions"])
    assert sum(p["decisions"] for p in review["players"]) == len(review["decisions"])
    graded = review["decisions"][len(review["decisions"]) // 2]
    frame = ann.get(f"/api/tables/{table}/replay/{graded['decision']}").json()
    assert frame["next"]["seat"] == graded["seat"]
    assert frame["next"]["notation"] == graded["played_notation"]  # the same move
    assert graded["played"] != graded["played_notation"]  # said in words
    assert ann.get(f"/api/tables/{table}").json()["review"] == "ready"

    record = ann.get(f"/api/tables/{table}/record").json()
    uploaded = ann.post("/api/records", json=record)
    assert uploaded.status_code == 201 and uploaded.json()["steps"] == steps
    again = ann.get(f"/api/tables/{uploaded.json()['table']}").json()
    assert again["status"] == "finished" and again["board"] == final["board"]
    broken = dict(record, events=record["events"][:-3])
    refused = ann.post("/api/records", json=broken)
    assert refused.status_code == 422
    assert ann.post("/api/records", json={"format": "nonsense"}).status_code == 422


def test_only_the_recently_used_finished_tables_stay_in_memory(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kingdomkit.server import service

    monkeypatch.setattr(service, "KEPT_FINISHED", 2)
    ann = client(app)
    running = create(ann, "kingdomino", [HUMAN, HUMAN])["table"]
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    uploaded = []
    for _ in range(3):
        answer = ann.post("/api/records", json=record)
        assert answer.status_code == 201
        uploaded.append(answer.json()["table"])
    first, second, third = uploaded
    memory = app.state.tables.live
    assert first not in memory and {running, second, third} <= set(memory)

    view = ann.get(f"/api/tables/{first}").json()  # reloaded from the database
    assert view["status"] == "finished"
    assert view["board"] == ann.get(f"/api/tables/{third}").json()["board"]
    assert second not in memory and {running, first, third} <= set(memory)
    assert ann.get(f"/api/tables/{second}/record").json()["events"] == record["events"]
    assert ann.get(f"/api/tables/{running}").json()["status"] != "finished"


def test_a_stand_in_move_arriving_after_the_seat_was_taken_back_is_dropped(
    tmp_path: Path,
) -> None:
    from kingdomkit.server.database import open_engine
    from kingdomkit.server.hub import Hub
    from kingdomkit.server.service import Tables
    from kingdomkit.server.store import Store

    async def scenario() -> None:
        released = asyncio.Event()
        asked: list[int] = []

        class SlowPool:  # a bot that answers only once released
            async def move(self, game: str, options: Any, actions: list[int], *_: Any) -> int:
                asked.append(len(actions))
                await released.wait()
                return live_table.game.legal_actions(live_table.state)[0]

        store = Store(open_engine(f"sqlite:///{tmp_path / 'k.db'}"))
        tables = Tables(store, SlowPool(), Hub())  # type: ignore[arg-type]
        live_table, _ = await tables.create("kingdomino", {}, [HUMAN, HUMAN], "ann", "Ann")
        await tables.join(live_table.id, "bob", "Bob", None, None)
        seat = live_table.to_act
        holder = live_table.seats[seat].holder
        await tables.stand_in(live_table.id, holder, seat, "easy")
        while not asked:  # the stand-in is thinking
            await asyncio.sleep(0.01)
        await tables.stand_in(live_table.id, holder, seat, None)  # back before it answers
        version = live_table.version
        released.set()
        await asyncio.gather(*tables.tasks)
        assert live_table.version == version  # the stand-in's late move was not played
        assert live_table.view(seat)["legal"]

    asyncio.run(scenario())


def test_views_wait_for_a_change_being_committed(tmp_path: Path) -> None:
    from kingdomkit.server.database import open_engine
    from kingdomkit.server.hub import Hub
    from kingdomkit.server.service import Tables
    from kingdomkit.server.store import Store

    async def scenario() -> None:
        store = Store(open_engine(f"sqlite:///{tmp_path / 'k.db'}"))
        tables = Tables(store, None, Hub())  # type: ignore[arg-type]
        table, _ = await tables.create("kingdomino", {}, [HUMAN, HUMAN], "ann", "Ann")
        async with tables.lock(table.id):  # a change is being committed meanwhile
            reader = asyncio.create_task(tables.settled(table.id))
            await asyncio.sleep(0.05)
            assert not reader.done()
        assert await reader is table
        with pytest.raises(RefusedError):
            await tables.settled("nowhere")
        assert "nowhere" not in tables.locks

    asyncio.run(scenario())


def test_a_page_brings_its_session(app: FastAPI) -> None:
    """The page's own requests share the identity it came with (none of them makes one)."""
    person = client(app)
    assert person.get("/").status_code == 200
    assert "kingdomkit" in person.jar
    first = person.get("/api/me").json()["id"]
    assert person.post("/api/me", {"name": "Bob"}).json()["id"] == first
