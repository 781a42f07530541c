"""Every registered game, under every option set, through the generic conformance checks."""

from __future__ import annotations

from typing import Any

import pytest

from configurations import CONFIGURATIONS
from kingdomkit.bots import make_bot
from kingdomkit.core.conformance import check_playouts
from kingdomkit.core.driver import play
from kingdomkit.core.registry import GAMES, make_game

PLAYOUTS = 300
# Fewer for the longer games: a Queendomino playout has five to ten times the steps, a
# Kingdoms playout (three epochs of 30 placements and up to 23 draws) about three times.
PLAYOUTS_OF = {"queendomino": 60, "kingdoms": 60}


def test_every_registered_game_is_covered() -> None:
    assert {name for name, _ in CONFIGURATIONS} == set(GAMES)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=lambda v: str(v))
def test_random_playouts_conform(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, options)
    playouts = PLAYOUTS_OF.get(name, PLAYOUTS)
    stats = check_playouts(game, playouts, seed=1000, deep_every=25)
    assert stats.playouts == playouts
    assert stats.decisions > 0 and stats.chance_nodes > 0 and stats.deep_states > 0


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS[:5], ids=lambda v: str(v))
def test_same_seed_same_game(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, options)
    agents = [make_bot("greedy" if seat % 2 else "random") for seat in range(game.num_players)]
    first = play(game, agents, seed=42)
    second = play(game, agents, seed=42)
    other = play(game, agents, seed=43)
    assert first.actions == second.actions
    assert first.final_state == second.final_state
    assert first.actions != other.actions
