"""Grading games move by move (bots/review.py) and `kingdomkit analyze`, with an analyst whose
estimates are known: each action's points are the game's heuristic one step after it."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.bots import BOTS, GreedyPlacementBot, RandomBot
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.review import decisions_to_grade, grade_decision, player_grades, review_game
from kingdomkit.cli.main import main
from kingdomkit.core.driver import Agent, play
from kingdomkit.core.protocol import Game
from kingdomkit.core.record import make_record, write_record
from kingdomkit.core.registry import make_game
from paths import ROOT


@dataclass(frozen=True)
class Estimate:
    action: int
    points: float
    visits: int


@dataclass(frozen=True)
class OneStepAnalysis:
    actions: tuple[Estimate, ...]


class OneStepAnalyst:
    """Expected points = the heuristic right after the action (what greedy-placement maximises)."""

    def analyse(
        self, game: Game[Any], state: Any, rng: random.Random, focus: int | None = None
    ) -> OneStepAnalysis:
        player = game.current_player(state)
        known = heuristics(game)
        return OneStepAnalysis(
            tuple(
                Estimate(action, known.evaluate(game.apply(state, action), player), 1)
                for action in game.legal_actions(state)
            )
        )

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        return game.legal_actions(state)[0]


def _game(bots: list[Agent], seed: int = 3) -> tuple[Game[Any], tuple[int, ...]]:
    game = make_game("kingdomino", {"players": len(bots)})
    return game, play(game, bots, seed).actions


def test_greedy_placements_lose_nothing_and_random_ones_do() -> None:
    game, actions = _game([GreedyPlacementBot(), RandomBot()])
    graded = review_game(game, actions, OneStepAnalyst(), seed=0)
    assert len(graded) == decisions_to_grade(game, actions, range(2))
    greedy_placements = [
        d
        for d in graded
        if d.player == 0 and not heuristics(game).is_draft(_state_at(game, actions, d.step))
    ]
    assert greedy_placements and all(d.loss == 0.0 for d in greedy_placements)
    random_moves = [d for d in graded if d.player == 1]
    assert any(d.loss > 0 for d in random_moves)
    for decision in graded:
        assert decision.best_points >= decision.played_points or decision.loss == 0.0
        assert decision.choices >= 2
    grades = player_grades(game, graded)
    assert grades[0].total_loss < grades[1].total_loss
    assert grades[1].decisions == len(random_moves)


def _state_at(game: Game[Any], actions: tuple[int, ...], step: int) -> Any:
    state = game.initial_state()
    for action in actions[:step]:
        state = game.apply(state, action)
    return state


def test_only_the_chosen_players_are_graded() -> None:
    game, actions = _game([RandomBot(), RandomBot(), RandomBot()])
    graded = review_game(game, actions, OneStepAnalyst(), seed=0, players=[2])
    assert graded and {d.player for d in graded} == {2}


def test_an_analysis_without_the_played_move_is_refused() -> None:
    game = make_game("kingdomino", {"players": 2})
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    with pytest.raises(ValueError, match="no estimate"):
        grade_decision(game, state, 99, 0, OneStepAnalysis(()))


def _oracle_factory(settings: Mapping[str, str]) -> Agent:
    return OneStepAnalyst()


@pytest.fixture
def record_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setitem(BOTS, "one-step", _oracle_factory)
    game, actions = _game([GreedyPlacementBot(), RandomBot()], seed=8)
    path = tmp_path / "game.json"
    write_record(path, make_record(game, 8, ["ann", "bob"], actions))
    return path


def test_analyze_command_json(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(record_file), "--bot", "one-step", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "kingdomino"
    assert {p["name"] for p in data["players"]} == {"ann", "bob"}
    for decision in data["decisions"]:
        assert decision["points_lost"] == pytest.approx(
            max(0.0, decision["best_points"] - decision["played_points"]), abs=0.02
        )
        assert decision["played"].split()[0] in ("place", "claim", "discard")
    bob = next(p for p in data["players"] if p["name"] == "bob")
    assert bob["points_lost"] > 0


def test_analyze_command_table_and_player_filter(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(record_file), "--bot", "one-step", "--player", "bob"]) == 0
    out = capsys.readouterr().out
    assert "Summary per player" in out and "bob" in out
    assert "ann" not in out.split("Summary per player")[1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bot", "one-step", "--player", "zed"], "no player 'zed'"),
        (["--bot", "greedy"], "cannot analyse"),
        (["--bot", "nobody"], "unknown bot"),
    ],
)
def test_analyze_command_refuses_bad_input(
    record_file: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["analyze", str(record_file), *argv]) == 2
    assert message in capsys.readouterr().err


def test_analyze_command_refuses_a_broken_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "kingdomkit-record/1", "game": "kingdomino"', encoding="utf-8")
    assert main(["analyze", str(path), "--bot", "greedy"]) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("record", "player"),
    [("examples/record-2p.json", "0"), ("examples/kingdoms-record-3p.json", "1")],
)
def test_analyze_with_the_mcts_bot(
    record: str, player: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["analyze", str(ROOT / record), "--bot", "mcts:playouts=12", "--player", player]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"], "every game has decisions with a choice"
    assert {d["player"] for d in data["decisions"]} == {int(player)}
    for decision in data["decisions"]:
        assert decision["points_lost"] >= 0
        assert decision["best_points"] >= decision["played_points"] - 0.01
    [summary] = data["players"]
    assert summary["decisions"] == len(data["decisions"])
