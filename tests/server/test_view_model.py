"""The declared view model (docs/view-model.md): what the server sends a browser to draw.

For every game that declares one, the models of many positions (every seat's view and a
spectator's) and of every legal move match the game's JSON Schema, hold only integers that
JavaScript reads exactly, and the browser's drawer expects the same version and reads no
engine state. A change on one side without the other fails here.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import jsonschema
import pytest

from boards import drawn
from configurations import CONFIGURATIONS
from kingdomkit.core.protocol import Game
from kingdomkit.core.registry import make_game
from kingdomkit.server.board import board
from paths import ROOT

CLIENT = ROOT / "src" / "kingdomkit" / "server" / "client"
SAFE = 2**53 - 1  # Number.MAX_SAFE_INTEGER
GAMES_PER_CONFIGURATION = 2
EVERY = 9  # positions checked: one decision in EVERY, plus the last


def unsafe_numbers(value: Any, path: str = "model") -> list[str]:
    """The paths of integers beyond JavaScript's safe range, and of non-JSON values."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, int):
        return [path] if abs(value) > SAFE else []
    if isinstance(value, float):
        return [] if value == value and abs(value) != float("inf") else [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in unsafe_numbers(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in unsafe_numbers(v, f"{path}[{i}]")]
    return [f"{path} ({type(value).__name__})"]


def positions(game: Game[Any], seed: int) -> list[Any]:
    """Decision states of one random game, one in EVERY, and the final state."""
    rng = random.Random(seed)
    state, kept, decisions = game.initial_state(), [], 0
    while not game.is_terminal(state):
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        if decisions % EVERY == 0:
            kept.append(state)
        decisions += 1
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return [*kept, state]


DECLARED = [(n, o) for n, o in CONFIGURATIONS if board(make_game(n, o)) is not None]


@pytest.mark.parametrize(("name", "options"), DECLARED, ids=lambda v: str(v))
def test_models_match_their_declaration(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, options)
    shown = drawn(game)
    schema = shown.view_model_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["version"]["const"] == shown.view_model_version
    models = jsonschema.Draft202012Validator(schema)
    moves = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/move"})
    for seed in range(GAMES_PER_CONFIGURATION):
        for state in positions(game, seed):
            # Every seat's view in the first game; then a spectator's and the seat to act's.
            acting = game.current_player(state)
            seats = range(game.num_players) if seed == 0 else [acting] if acting >= 0 else []
            for seat in [None, *seats]:
                model = {"version": shown.view_model_version}
                model.update(shown.view_model(game.view(state, seat), seat))
                models.validate(model)
                assert not unsafe_numbers(model), unsafe_numbers(model)
                assert json.loads(json.dumps(model)) == model
            if game.is_terminal(state):
                continue
            for action in game.legal_actions(state):
                move = shown.move_model(state, action)
                moves.validate(move)
                assert not unsafe_numbers(move, "move"), unsafe_numbers(move, "move")


@pytest.mark.parametrize("name", sorted({n for n, _ in DECLARED}))
def test_the_drawer_expects_the_declared_version_and_reads_no_state(name: str) -> None:
    game = make_game(name, {})
    drawer = (CLIENT / "boards" / f"{name}.js").read_text()
    declared = re.search(r"\bMODEL_VERSION\s*=\s*(\d+)", drawer)
    assert declared, f"boards/{name}.js declares no MODEL_VERSION"
    assert int(declared.group(1)) == drawn(game).view_model_version
    assert not re.search(r"\.state\b", drawer), f"boards/{name}.js reads the engine's state"
