"""The compiled Kingdoms kernel against the pure-Python engine, its reference, on what only
Kingdoms has: views with hidden tiles. The same states and views must give the same legal
actions, the same states after every decision and chance outcome, the same greedy values,
and the same playouts. Its random games and playouts from full states under every option set
are checked with the other games' in tests/games/test_compiled_kernels.py. Skipped without
numba.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kernel_reference import (
    OPTION_SETS,
    accelerator_for,
    assert_same_legal_actions,
    assert_same_playouts,
    assert_same_values,
    game_for,
    game_traces,
    sample_states,
    sampled_moves,
)
from kingdomkit.games.kingdoms.rules import DEAL, DRAW, FIRST, HIDDEN, OVER, PLACE, PLAY

pytest.importorskip("numba")


@pytest.mark.parametrize("option_set", sorted(OPTION_SETS["kingdoms"]))
def test_legal_actions_apply_and_values_match(option_set: str) -> None:
    """Every state of a few random games and every player's view of some of them (hidden
    tiles): the same legal actions, the same state after each decision and chance outcome
    (a sample of them), the same greedy evaluation, and the arrays' round trip."""
    game = game_for("kingdoms", option_set)
    accelerator = accelerator_for(game)
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
    assert_same_legal_actions(game, every)
    before, played = sampled_moves(game, every, 12, rng)
    after = accelerator.applied(before, played)
    for state, action, row in zip(before, played, after, strict=True):
        expected = game.apply(state, action)
        assert list(row) == list(accelerator.state_arrays(expected)), (state, action)
        assert accelerator.state_from_arrays(row) == expected._replace(placed=(), past=())
    assert_same_values(game, every, accelerator.evaluations(every))


@pytest.mark.parametrize("option_set", ["3p", "as-you-go-4p"])
def test_playouts_match_from_views(option_set: str) -> None:
    """From a view (hidden tiles), the kernel plays as the Python engine does; search bots
    resample first, so this is the engine's behaviour, kept the same."""
    game = game_for("kingdoms", option_set)
    for index, state in enumerate(sample_states(game_traces(game, 12, 23), 23)):
        view = game.view(state, index % game.num_players)
        for policy in ("random", "greedy"):
            assert_same_playouts(game, view, policy, index % game.num_players, 2, index)


def test_the_arrays_keep_a_state_whole() -> None:
    game = game_for("kingdoms", "4p")
    accelerator = accelerator_for(game)
    for state in game_traces(game, 1, 5)[0][::9]:
        st = accelerator.state_arrays(state)
        assert st.dtype == np.int64
        assert accelerator.state_from_arrays(st) == state._replace(placed=(), past=())
