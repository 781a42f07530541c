"""The board capability (kingdomkit.server.board): a game with a board is drawn from it; a game
with none is still played whole through the server, with the text board, its notation for
words and the model {"version": 0}, which no drawer reads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_server import HUMAN, client, create, live

from dominoduel.shape import SHAPE as BOARDLESS
from kingdomkit.core.registry import make_game, register, unregister
from kingdomkit.server.app import BOARDS_MARK, ServerConfig, create_app, table_page
from kingdomkit.server.board import PlainWords, board, words
from kingdomkit.server.live import model
from kingdomkit.server.setups import offered


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    """A server on SQLite (what a board changes does not depend on the database)."""
    app = create_app(ServerConfig(database=f"sqlite:///{tmp_path / 'k.db'}", secret="test"))
    with TestClient(app) as server:
        app.state.test_client = server
        yield app


@pytest.fixture
def boardless() -> Iterator[str]:
    """A game with no board (Domino Duel, tests/plugins), registered for one test (and
    offered by no server after it)."""
    register(BOARDLESS)
    offered.cache_clear()
    try:
        yield BOARDLESS.name
    finally:
        unregister(BOARDLESS.name)
        offered.cache_clear()


@pytest.mark.parametrize("name", ["kingdomino", "queendomino", "kingdoms"])
def test_each_game_has_one_board_made_once(name: str) -> None:
    game = make_game(name, {"players": 2})
    found = board(game)
    assert found is not None and found.view_model_version >= 1
    assert board(game) is found and words(game) is found
    assert found.view_model_schema()["properties"]["version"]["const"] == (found.view_model_version)
    assert board(make_game(name, {"players": 2})) is not found  # one per configured game


def test_a_game_without_a_board_speaks_its_notation(boardless: str) -> None:
    game = make_game(boardless, {"players": 2})
    assert board(game) is None
    said = words(game)
    assert isinstance(said, PlainWords)
    state = game.initial_state()
    while game.is_chance(state):
        before, outcome = state, game.chance_outcomes(state)[0][0]
        state = game.apply(state, outcome)
        assert said.chance_sentence(before, outcome, state, ["Ann", "Bob"]) is None
    action = game.legal_actions(state)[0]
    notation = game.action_to_string(state, action)
    assert said.move_label(state, action) == notation
    assert said.move_sentence(state, action, game.apply(state, action), "Ann") == (
        f"Ann: {notation}"
    )
    assert model(game, state, 0, (state, action)) == {"version": 0}


def test_a_whole_game_without_a_board_is_played_on_the_text_board(
    app: FastAPI, boardless: str
) -> None:
    ann, bob = client(app), client(app)
    made = create(ann, boardless, [HUMAN, HUMAN], players=2)
    table = made["table"]
    joined = bob.post(
        f"/api/tables/{table}/join", json={"name": "Bob", "token": made["invitations"][0]["token"]}
    )
    assert joined.status_code == 200, joined.json()
    assert ann.get(f"/api/tables/{table}/components").json() == {}
    people = {0: ann, 1: bob}
    game = live(app, table).game
    moves = 0
    while True:
        view: dict[str, Any] = ann.get(f"/api/tables/{table}").json()
        assert view["model"] == {"version": 0}  # no drawer reads it: the text board is shown
        assert view["board"] == game.render(live(app, table).state, 0)
        if view["status"] == "finished":
            break
        player = people[view["to_act"]]
        mine = player.get(f"/api/tables/{table}").json()
        assert mine["legal"], mine
        for action in mine["legal"]:
            assert action["label"] == action["notation"] and action["move"] == {}
        chosen = mine["legal"][moves % len(mine["legal"])]
        response = player.post(
            f"/api/tables/{table}/actions",
            json={"action": chosen["id"], "version": mine["version"]},
        )
        assert response.status_code == 200, response.json()
        moves += 1
    assert view["result"]["scores"] == list(game.scores(live(app, table).state))
    log = live(app, table).decisions
    assert len(log) == moves
    for entry in log:
        assert entry["text"].endswith(f": {entry['notation']}") and "then" not in entry


def test_the_page_loads_the_board_of_each_registered_game_that_has_one() -> None:
    """The table page's scripts come from the registry: each game's client/boards/<name>.js,
    none for a game without one (Domino Duel), nothing to edit in index.html."""
    register(BOARDLESS)
    try:
        page = table_page()
    finally:
        unregister(BOARDLESS.name)
    drawn = {"kingdomino", "queendomino", "kingdoms"}
    for name in drawn:
        assert f'<script src="/static/boards/{name}.js"></script>' in page
    assert f"/static/boards/{BOARDLESS.name}.js" not in page
    assert page.count("/static/boards/") == len(drawn) + 2  # and common.js, kingdom.js
    assert BOARDS_MARK not in page
