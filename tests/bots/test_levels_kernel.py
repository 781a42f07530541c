"""The quick start's bots are the documented bots: docs/strength.md calibrates the levels with
the compiled Kingdomino kernel, so the `web` extra (the quick start's install) brings it, the
levels use it, and `kingdomkit serve` says at start which engine its bots play on (issue 23).

These tests fail, not skip, when numba is missing: the levels would then silently play weaker
than the docs promise."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.bots import make_bot
from kingdomkit.bots.compiled import compiled
from kingdomkit.cli.main import main
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdomino.rules import PLACE
from paths import ROOT


def test_the_web_extra_brings_the_compiled_kernel() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert "kingdomkit[fast]" in extras["web"]
    assert {"numba", "numpy"} <= {spec.split(">")[0] for spec in extras["fast"]}


def a_placement(game: Any) -> Any:
    """A 2-player Kingdomino state where the first king must place."""
    rng = random.Random(4)
    state = game.initial_state()
    while game.is_chance(state) or state.phase != PLACE:
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, game.legal_actions(state)[0])
    return state


def test_the_levels_play_on_the_compiled_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("kingdomino", {"players": 2})
    kernel = compiled(game)
    assert kernel is not None, "the levels need the compiled kernel (the fast extra)"
    calls = []
    playouts = type(kernel).playouts

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return playouts(self, *args, **kwargs)

    monkeypatch.setattr(type(kernel), "playouts", counted)
    state = a_placement(game)
    action = make_bot("hard").act(game, state, random.Random(0))
    assert action in game.legal_actions(state)
    assert calls, "the hard level played without the compiled kernel"


def serve_start(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: Path
) -> str:
    """What `kingdomkit serve` prints before it starts serving (uvicorn not run)."""
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    assert main(["serve", "--data", str(data)]) == 0
    return capsys.readouterr().out


def test_serve_says_which_engine_its_bots_play_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("KINGDOMKIT_COMPILED", raising=False)
    out = serve_start(capsys, monkeypatch, tmp_path)
    assert "bots play on the compiled kernel for kingdomino, kingdoms, queendomino (numba)" in out
    monkeypatch.setenv("KINGDOMKIT_COMPILED", "0")
    out = serve_start(capsys, monkeypatch, tmp_path)
    assert "bots play on the pure-Python engine (KINGDOMKIT_COMPILED=0" in out
    assert "weaker than docs/strength.md says" in out
