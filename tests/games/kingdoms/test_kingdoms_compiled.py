"""The compiled Kingdoms kernel against the pure-Python engine, its reference.

Differential tests: the same states (full ones, and views with hidden tiles) must give the
same legal actions, the same states after every decision and chance outcome, the same
greedy values, and the same playouts (scores and win shares) from the same SplitMix64 stream,
for every policy and option set. Skipped when numba is not installed.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest

import kernel_reference as reference
from kernel_reference import POLICIES, game_traces, moves, sample_states
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.playouts import make_policy, playout
from kingdomkit.core.rng import SplitMix64
from kingdomkit.games.kingdoms.rules import (
    DEAL,
    DRAW,
    FIRST,
    HIDDEN,
    OVER,
    PLACE,
    PLAY,
    Kingdoms,
    KingdomsState,
)

pytest.importorskip("numba")

OPTION_SETS: dict[str, dict[str, Any]] = {
    "2p": {"players": 2},
    "3p": {"players": 3},
    "4p": {"players": 4},
    "last-castle-2p": {"players": 2, "down_to_the_last_castle": True},
    "last-castle-4p": {"players": 4, "down_to_the_last_castle": True},
    "no-luck-3p": {"players": 3, "no_luck": True},
    "no-luck-4p": {"players": 4, "no_luck": True},
    "as-you-go-2p": {"players": 2, "score_as_you_go": True},
    "as-you-go-4p": {"players": 4, "score_as_you_go": True},
    "all-2p": {
        "players": 2,
        "down_to_the_last_castle": True,
        "no_luck": True,
        "score_as_you_go": True,
    },
    "all-3p": {
        "players": 3,
        "down_to_the_last_castle": True,
        "no_luck": True,
        "score_as_you_go": True,
    },
}


@cache
def game_for(name: str) -> Kingdoms:
    return Kingdoms(OPTION_SETS[name])


def accelerator_for(name: str) -> Any:
    accelerator = compiled(game_for(name))
    assert accelerator is not None
    return accelerator


def assert_same_playouts(
    name: str, state: KingdomsState, policy: str, player: int, count: int, seed: int
) -> None:
    reference.assert_same_playouts(
        game_for(name), accelerator_for(name), state, policy, player, count, seed
    )


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_legal_actions_apply_and_values_match(name: str) -> None:
    """Every state of a few random games and every player's view of some of them (hidden
    tiles): the same legal actions, the same state after each decision and chance outcome
    (a sample of them), the same greedy evaluation, and the arrays' round trip."""
    game = game_for(name)
    accelerator = accelerator_for(name)
    rng = random.Random(31)
    states = [state for trace in game_traces(game, 3, 17) for state in trace]
    views = [
        game.view(state, viewer)
        for state in rng.sample(states, 60)
        for viewer in range(game.num_players)
    ]
    assert any(HIDDEN in view.starting or view.held == HIDDEN for view in views) == (
        not game.setup.no_luck
    )
    every = states + views
    phases = {state.phase for state in states}
    assert {FIRST, PLAY, PLACE, OVER} <= phases
    assert ({DEAL, DRAW} <= phases) == (not game.setup.no_luck)
    legal = accelerator.legal_lists(every)
    for state, actions in zip(every, legal, strict=True):
        assert actions == (game.legal_actions(state) if game.current_player(state) >= 0 else ())
    before, played = [], []
    for state in every:
        options = moves(game, state)
        for action in rng.sample(options, min(len(options), 12)):
            before.append(state)
            played.append(action)
    after = accelerator.applied(before, played)
    for state, action, row in zip(before, played, after, strict=True):
        expected = game.apply(state, action)
        assert list(row) == list(accelerator.state_arrays(expected)), (state, action)
        assert accelerator.state_from_arrays(row) == expected._replace(placed=(), past=())
    values = accelerator.evaluations(every)
    evaluate = heuristics(game).evaluate
    for state, row in zip(every, values, strict=True):
        assert list(row) == [evaluate(state, p) for p in range(game.num_players)]


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_random_games_match(name: str) -> None:
    game = game_for(name)
    scores = accelerator_for(name).random_games(12, 2024)
    rng = SplitMix64(2024)
    policy = make_policy("random", 0)
    expected = [game.scores(playout(game, game.initial_state(), policy, rng)) for _ in range(12)]
    assert [tuple(row) for row in scores] == expected


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_random_playouts_match_from_every_phase(name: str) -> None:
    game = game_for(name)
    states = sample_states(game_traces(game, 30, 11), 11)
    states.append(game_traces(game, 1, 12)[0][-1])
    assert OVER in {state.phase for state in states}
    for index, state in enumerate(states):
        assert_same_playouts(name, state, "random", index % game.num_players, 3, index)


@pytest.mark.parametrize("policy", POLICIES[1:])
@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_policy_playouts_match(name: str, policy: str) -> None:
    """Greedy playouts are slow in Python: a few, from the later part of games."""
    game = game_for(name)
    for index, state in enumerate(sample_states(game_traces(game, 4, 17), 17, 0.4)):
        assert_same_playouts(name, state, policy, index % game.num_players, 2, 100 + index)


@pytest.mark.parametrize("name", ["2p", "4p", "no-luck-3p"])
def test_greedy_playouts_match_from_the_first_decision(name: str) -> None:
    """Whole greedy games: every tie broken, every epoch, the richest starting."""
    game = game_for(name)
    rng = random.Random(3)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.sample_chance(state, rng))
    assert_same_playouts(name, state, "greedy", game.current_player(state), 1, 7)


@pytest.mark.parametrize("name", ["3p", "as-you-go-4p"])
def test_playouts_match_from_views(name: str) -> None:
    """From a view (hidden tiles), the kernel plays as the Python engine does; search bots
    resample first, so this is the engine's behaviour, kept the same."""
    game = game_for(name)
    for index, state in enumerate(sample_states(game_traces(game, 12, 23), 23)):
        view = game.view(state, index % game.num_players)
        for policy in ("random", "greedy"):
            assert_same_playouts(name, view, policy, index % game.num_players, 2, index)


def test_the_arrays_keep_a_state_whole() -> None:
    game = game_for("4p")
    accelerator = accelerator_for("4p")
    for state in game_traces(game, 1, 5)[0][::9]:
        st = accelerator.state_arrays(state)
        assert st.dtype == np.int64
        assert accelerator.state_from_arrays(st) == state._replace(placed=(), past=())
