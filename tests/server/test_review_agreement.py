"""Hints and reviews agree (issue 24): the review searches every decision exactly as the hint
did, so a player who follows every hint is never told they erred; grades are in the game's
unit; the thresholds of the grades cover every game and come from the analyst's measured
noise (`kingdomkit analyze --noise`)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_server import HUMAN, Person, bot, wait_for_turn

from kingdomkit.bots import TreeBot, make_bot
from kingdomkit.bots.grading import Grading
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.noise import measure_noise, quantile
from kingdomkit.bots.review import grading_of
from kingdomkit.cli.main import main
from kingdomkit.core.protocol import CHANCE, TERMINAL
from kingdomkit.core.registry import GAMES, make_game
from kingdomkit.server.analysts import Analysts
from kingdomkit.server.app import ServerConfig, create_app
from kingdomkit.server.bots import hint, review
from kingdomkit.server.limits import Limits

TINY = "mcts:playouts=16:confirm=8"  # the analyst of these tests: fast, and noisy enough that
# two searches with different seeds often disagree (see the noise test below)
FOLLOWED = 5  # decisions of seat 0 played by following the hint, per game


def _followed_game(name: str, players: int, seed: str) -> list[int]:
    """A game's first moves where seat 0 plays the hint's best move at each of its first
    FOLLOWED decisions with a choice and the others play greedy: the actions so far."""
    game = make_game(name, {"players": players})
    rng = random.Random(seed)
    greedy = make_bot("greedy")
    actions: list[int] = []
    state = game.initial_state()
    followed = 0
    while followed < FOLLOWED and (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        elif player == 0 and len(game.legal_actions(state)) > 1:
            action = hint(name, dict(game.options), actions, TINY, seed)[0]["id"]
            followed += 1
        else:
            action = greedy.act(game, state, rng)
        actions.append(action)
        state = game.apply(state, action)
    return actions


@pytest.mark.parametrize(
    ("name", "players"),
    [("kingdomino", 2), ("kingdomino", 4), ("queendomino", 2), ("kingdoms", 2)],
)
def test_a_followed_hint_is_the_reviews_best_move(name: str, players: int) -> None:
    seed = f"table seed {name}"
    actions = _followed_game(name, players, seed)
    graded = review(name, {"players": players}, actions, TINY, seed)
    own = [d for d in graded["decisions"] if d["seat"] == 0]
    assert len(own) == FOLLOWED
    assert all(d["grade"] == "best" and d["loss"] == 0 for d in own), own


def test_the_review_of_followed_hints_with_another_seed_disagrees() -> None:
    """What the test above rules out: the same moves reviewed with a seed other than the
    hints' are searched differently, and the tiny analyst then finds losses in followed
    hints (its noise; the game's thresholds are set above the real analyst's)."""
    seed = "table seed kingdomino"
    actions = _followed_game("kingdomino", 2, seed)
    other = review("kingdomino", {"players": 2}, actions, TINY, "another seed")
    assert any(d["loss"] > 0 for d in other["decisions"] if d["seat"] == 0)


def test_a_hint_is_the_same_search_on_every_call() -> None:
    game = make_game("kingdomino", {"players": 3})
    actions = _followed_game("kingdomino", 3, "s")[:-1]
    assert game.current_player(_replayed(game, actions)) >= 0
    assert hint("kingdomino", {"players": 3}, actions, TINY, "s") == hint(
        "kingdomino", {"players": 3}, actions, TINY, "s"
    )


def _replayed(game: Any, actions: list[int]) -> Any:
    state = game.initial_state()
    for action in actions:
        state = game.apply(state, action)
    return state


def test_every_game_and_player_count_has_a_machine_independent_grading() -> None:
    for info in GAMES.values():
        game = info.rules({})
        for players in range(game.min_players, game.max_players + 1):
            grading = heuristics(game).grading(players)
            assert grading is not None
            analyst = make_bot(grading.analyst)
            assert isinstance(analyst, TreeBot)
            assert analyst.budget.playouts is not None and analyst.budget.seconds is None
            assert 0 < grading.mistake < grading.blunder
    kingdoms = make_game("kingdoms", {"players": 2})
    assert grading_of(kingdoms) is heuristics(kingdoms).grading(2)


def test_grades_follow_the_thresholds() -> None:
    grading = Grading(TINY, mistake=2.0, blunder=5.0)
    assert [grading.grade(loss) for loss in (0.0, 0.5, 2.0, 2.01, 5.0, 5.5)] == [
        "best",
        "good",
        "good",
        "mistake",
        "mistake",
        "blunder",
    ]


def test_a_review_speaks_the_games_unit() -> None:
    for name, unit in (("kingdoms", "gold"), ("kingdomino", "points"), ("queendomino", "points")):
        game = make_game(name, {"players": 2})
        assert game.score_unit == unit
        actions = _followed_game(name, 2, "u")
        graded = review(name, {"players": 2}, actions, TINY, "u")
        grading = grading_of(game)
        assert graded["unit"] == unit
        assert (graded["mistake"], graded["blunder"]) == (grading.mistake, grading.blunder)
        assert {d["grade"] for d in graded["decisions"]} <= {"best", "good", "mistake", "blunder"}
        for d in graded["decisions"]:
            assert d["grade"] == grading.grade(d["loss"])
        mistakes = sum(d["grade"] == "mistake" for d in graded["decisions"])
        assert sum(p["mistakes"] for p in graded["players"]) == mistakes


def test_the_noise_of_a_tiny_analyst_is_measured() -> None:
    game = make_game("kingdomino", {"players": 2})
    noise = measure_noise(game, lambda: make_bot(TINY), positions=3, runs=3, seed=1)  # type: ignore[arg-type,return-value]
    assert len(noise.losses) == 3 * 2 and len(noise.spreads) == 3
    assert all(loss >= 0 for loss in noise.losses)
    assert noise.disagreements > 0  # a 16-playout search does not agree with itself
    assert noise.mistake >= noise.loss_quantile(0.99) and noise.blunder == 2 * noise.mistake
    assert quantile([1.0, 2.0, 3.0], 0.5) == 2.0 and quantile([], 0.9) == 0.0


def test_the_noise_command_reports_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["analyze", "--noise", "kingdoms", "--players", "2", "--positions", "2"]
    assert main([*argv, "--runs", "2", "--bot", TINY, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["unit"] == "gold" and report["analyst"] == TINY
    assert report["positions"] == 2 and report["runs"] == 2
    assert set(report["loss"]) == {"p50", "p90", "p99", "max"}
    assert all(isinstance(v, float | int) and v >= 0 for v in report["loss"].values())
    assert report["suggested"]["blunder"] == 2 * report["suggested"]["mistake"]
    assert report["in_use"]["analyst"] == grading_of(make_game("kingdoms", {"players": 2})).analyst
    assert main([*argv, "--runs", "2", "--bot", TINY]) == 0
    text = capsys.readouterr().out
    assert "suggested thresholds: mistake above" in text and "gold" in text
    assert main([*argv, "--runs", "1", "--bot", TINY]) == 2
    assert "--runs 2 or more" in capsys.readouterr().err


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    """A server that gives a hint at every decision of a whole game (more than a minute's
    worth of the default limit)."""
    limits = Limits(hints_per_minute=100, address_hints_per_minute=100)
    database = f"sqlite:///{tmp_path / 'kingdomkit.db'}"
    app = create_app(ServerConfig(database=database, secret="test secret", limits=limits))
    with TestClient(app) as server:
        app.state.test_client = server
        yield app


def test_a_player_who_follows_every_hint_makes_no_mistake(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24's report, through the server: hints asked over HTTP, followed to the end of
    the game, then the review."""
    app.state.tables.analysts = Analysts(TINY)
    ann = Person(app)
    made = ann.post(
        "/api/tables", json={"game": "kingdomino", "seats": [HUMAN, bot()], "hints": True}
    ).json()
    table = made["table"]
    followed = 0
    while (view := wait_for_turn(ann, table))["status"] != "finished":
        assert view["score_unit"] == "points"
        answer = ann.get(f"/api/tables/{table}/hint")
        assert answer.status_code == 200, answer.json()
        advice = answer.json()
        body = {"action": advice[0]["id"], "version": view["version"]}
        assert ann.post(f"/api/tables/{table}/actions", json=body).status_code == 200
        followed += len(view["legal"]) > 1
    assert ann.post(f"/api/tables/{table}/review", json={}).status_code == 202
    deadline = time.monotonic() + 120
    while (answer := ann.get(f"/api/tables/{table}/review")).status_code != 200:
        assert time.monotonic() < deadline, "the review did not come"
        time.sleep(0.1)
    graded = answer.json()
    own = [d for d in graded["decisions"] if d["seat"] == 0]
    assert len(own) == followed > 10
    assert all(d["grade"] == "best" for d in own), own
    assert graded["unit"] == "points" and graded["players"][0]["mistakes"] == 0
