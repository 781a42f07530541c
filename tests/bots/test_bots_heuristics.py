"""The bots' capabilities of a game: its heuristics (or the plain ones when its shape names
none) and its compiled playouts, each made once per configured game and never pickled."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.heuristics import Plain, heuristics
from kingdomkit.core.driver import random_playout
from kingdomkit.core.registry import GAMES, make_game, register
from kingdomkit.core.shape import Capabilities
from kingdomkit.games.kingdomino.heuristics import KingdominoHeuristics
from kingdomkit.games.kingdoms.heuristics import KingdomsHeuristics
from kingdomkit.games.queendomino.heuristics import QueendominoHeuristics


@pytest.fixture
def kingdoms_without_heuristics() -> Iterator[None]:
    """Kingdoms as a game whose shape names no heuristics (its own put back after)."""
    shape = GAMES["kingdoms"]
    register(dataclasses.replace(shape, capabilities=Capabilities()))
    try:
        yield
    finally:
        register(shape)


def test_each_game_gets_its_own_heuristics_made_once() -> None:
    for name, kind in (
        ("kingdomino", KingdominoHeuristics),
        ("queendomino", QueendominoHeuristics),
        ("kingdoms", KingdomsHeuristics),
    ):
        game = make_game(name, {"players": 2})
        found = heuristics(game)
        assert type(found) is kind
        assert heuristics(game) is found
        assert heuristics(make_game(name, {"players": 2})) is not found  # one per game


def test_a_game_that_names_no_heuristics_is_played_with_the_plain_ones(
    kingdoms_without_heuristics: None,
) -> None:
    game = make_game("kingdoms", {"players": 3})
    plain = heuristics(game)
    assert type(plain) is Plain and heuristics(game) is plain
    assert plain.playout_depth() == 0
    steps = 0

    def check(before: Any, action: int, after: Any) -> None:
        nonlocal steps
        player = game.current_player(before)
        if player >= 0:
            steps += 1
            for p in range(3):
                assert plain.evaluate(before, p) == game.scores(before)[p]
                assert plain.forecast(before, p) == plain.evaluate(before, p)
            assert not plain.is_draft(before)
        assert plain.turn_continues(before, after) == (
            player >= 0 and game.current_player(after) == player
        )

    end = random_playout(game, random.Random(5), on_step=check)
    assert steps > 0
    assert [plain.evaluate(end, p) for p in range(3)] == list(game.scores(end))


def test_a_pickled_game_leaves_its_capabilities_behind() -> None:
    game = make_game("queendomino", {"players": 2})
    made = heuristics(game)
    copy = pickle.loads(pickle.dumps(game))
    assert "_capabilities" not in copy.__dict__
    again = heuristics(copy)
    assert type(again) is type(made) and again is not made


def test_no_compiled_playouts_without_a_provider(kingdoms_without_heuristics: None) -> None:
    """Every shipped game offers them (with the fast extra); a shape without a provider
    gets None."""
    assert compiled(make_game("kingdoms", {"players": 2})) is None
