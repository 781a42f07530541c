"""The compiled Kingdomino kernel against the pure-Python engine, its reference.

Differential tests: the same positions and the same SplitMix64 stream must give the same
placement lists, the same scores and the same playouts (scores and win shares) for every
policy and option set. Skipped when numba is not installed.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest

import kernel_reference as reference
from kernel_reference import POLICIES, game_traces, sample_states
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.playouts import make_policy, playout
from kingdomkit.core.rng import SplitMix64
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES
from kingdomkit.games.kingdomino.rules import (
    CLAIM,
    DRAW,
    ORDER,
    OVER,
    PLACE,
    Kingdomino,
    KingdominoState,
)

pytest.importorskip("numba")

OPTION_SETS: dict[str, dict[str, Any]] = {
    "2p": {"players": 2},
    "3p": {"players": 3},
    "3p-draw-four": {"players": 3, "draw_four": True},
    "4p": {"players": 4},
    "mighty-duel": {"players": 2, "mighty_duel": True},
    "middle-harmony": {"players": 4, "middle_kingdom": True, "harmony": True},
    "dynasty": {"players": 2, "dynasty": True, "middle_kingdom": True, "harmony": True},
}


@cache
def game_for(name: str) -> Kingdomino:
    return Kingdomino(OPTION_SETS[name])


def accelerator_for(name: str) -> Any:
    accelerator = compiled(game_for(name))
    assert accelerator is not None
    return accelerator


def assert_same_playouts(
    name: str, state: KingdominoState, policy: str, player: int, count: int, seed: int
) -> None:
    reference.assert_same_playouts(
        game_for(name), accelerator_for(name), state, policy, player, count, seed
    )


@pytest.mark.parametrize("name", ["2p", "mighty-duel"])
def test_kingdoms_kept_for_the_next_ask_give_the_arrays_worked_out_afresh(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search asks for the same kingdoms again and again; the kept arrays are the ones
    a fresh accelerator works out, and writing into what was returned changes nothing kept
    (the kernel writes into its arrays)."""
    from kingdomkit.games.kingdomino import accelerator as module

    monkeypatch.setattr(module, "KEPT_KINGDOMS", 50)  # full, and forgotten, many times
    game = game_for(name)
    keeping = module.KingdominoAccelerator(game)
    states = [state for trace in game_traces(game, 6, 9) for state in trace]
    for round_ in range(2):  # the second time, most are kept
        for state in states:
            fresh = module.KingdominoAccelerator(game).state_arrays(state)
            kept = keeping.state_arrays(state)
            for mine, theirs in zip(kept, fresh, strict=True):
                assert np.array_equal(mine, theirs), (round_, state)
            for array in kept:
                array.fill(-7)
    assert len(states) > 100 and 0 < len(keeping._kept) <= 50


@pytest.mark.parametrize("name", ["4p", "mighty-duel"])
def test_placement_lists_match(name: str) -> None:
    """Every kingdom met at a placement step, with its own domino and three others (so
    that symmetric dominoes and every terrain come up)."""
    game = game_for(name)
    rng = random.Random(5)
    kingdoms, numbers = [], []
    for trace in game_traces(game, 12, 5):
        for state in trace:
            if state.phase == PLACE:
                kingdom = state.kingdoms[game.current_player(state)]
                for number in (state.placing[state.turn], *rng.sample(range(1, 49), 3)):
                    kingdoms.append(kingdom)
                    numbers.append(number)
    accelerator = accelerator_for(name)
    out = accelerator.placement_lists(
        accelerator.kingdom_arrays(kingdoms), np.array(numbers, np.int64)
    )
    empty = 0
    for kingdom, number, row in zip(kingdoms, numbers, out, strict=True):
        expected = kd.legal_placements(game.geo, kingdom, DOMINOES[number - 1])
        assert list(row[1 : 1 + row[0]]) == expected
        empty += not expected
    assert len(kingdoms) > 1_000 and empty > 0
    assert accelerator.placements(kingdoms[-1], numbers[-1]) == kd.legal_placements(
        game.geo, kingdoms[-1], DOMINOES[numbers[-1] - 1]
    )


@pytest.mark.parametrize("name", ["4p", "middle-harmony", "dynasty", "mighty-duel"])
def test_kingdom_scores_match(name: str) -> None:
    """Score (bonuses in play), largest territory and crowns of kingdoms at every stage."""
    game = game_for(name)
    kingdoms = [
        kingdom
        for trace in game_traces(game, 10, 9)
        for state in trace[::7]
        for kingdom in state.kingdoms
    ]
    out = accelerator_for(name).kingdom_scores(accelerator_for(name).kingdom_arrays(kingdoms))
    for kingdom, (score, largest, crowns) in zip(kingdoms, out, strict=True):
        pad = game.kingdom_breakdown(kingdom)
        assert (score, largest, crowns) == (
            game.kingdom_score(kingdom),
            pad.largest_territory,
            pad.crowns,
        )
    assert any(kingdom.discarded for kingdom in kingdoms)


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_random_games_match(name: str) -> None:
    game = game_for(name)
    scores = accelerator_for(name).random_games(15, 2024)
    rng = SplitMix64(2024)
    policy = make_policy("random", 0)
    expected = [game.scores(playout(game, game.initial_state(), policy, rng)) for _ in range(15)]
    assert [tuple(row) for row in scores] == expected


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_random_playouts_match_from_every_phase(name: str) -> None:
    game = game_for(name)
    states = sample_states(game_traces(game, 40, 11), 11)
    states.append(game_traces(game, 1, 12)[0][-1])
    phases = {state.phase for state in states}
    assert {DRAW, PLACE, CLAIM, OVER} <= phases
    for index, state in enumerate(states):
        assert_same_playouts(name, state, "random", index % game.num_players, 3, index)
    order = next(state for state in game_traces(game, 1, 13)[0] if state.phase == ORDER)
    assert_same_playouts(name, order, "random", 0, 3, 99)


@pytest.mark.parametrize("policy", POLICIES[1:])
@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_policy_playouts_match(name: str, policy: str) -> None:
    """Greedy playouts are slow in Python: a few, from the later part of games."""
    game = game_for(name)
    for index, state in enumerate(sample_states(game_traces(game, 6, 17), 17, 0.3)):
        assert_same_playouts(name, state, policy, index % game.num_players, 2, 100 + index)


@pytest.mark.parametrize("policy", POLICIES[1:])
def test_policy_playouts_match_from_the_first_decision(policy: str) -> None:
    """The whole game, first-round claims included, in a 3-player game."""
    game = game_for("3p")
    rng = random.Random(3)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.sample_chance(state, rng))
    assert_same_playouts("3p", state, policy, game.current_player(state), 1, 7)


def test_dynasty_boundary_greedy() -> None:
    """Greedy's last placement of a dynasty's first game values the next game's empty
    kingdoms (a tie everywhere, broken by a uniform); the kernel must do the same."""
    game = game_for("dynasty")
    for trace in game_traces(game, 2, 21):
        boundary = [s for s in trace if s.game_number == 0 and s.phase == PLACE and not s.line]
        assert boundary
        for offset, state in enumerate(boundary[-2:]):
            assert_same_playouts("dynasty", state, "greedy", offset, 2, offset)
