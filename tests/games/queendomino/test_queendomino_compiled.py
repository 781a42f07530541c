"""The compiled Queendomino kernel against the pure-Python engine, its reference.

Differential tests: the states of whole random games (2, 3 and 4 players, the Royal Wedding
with 3 to 8, and its teams) must give the same legal actions, the same states after every
decision and chance outcome, the same greedy values and actions, the same score pads, and
the same playouts (scores and win shares) from the same SplitMix64 stream, for every policy.
Skipped when numba is not installed.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest

import kernel_reference as reference
from kernel_reference import POLICIES, game_traces, moves, python_playouts, sample_states
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.greedy import greedy_action
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.playouts import make_policy, playout
from kingdomkit.core.driver import random_playout
from kingdomkit.core.rng import SplitMix64
from kingdomkit.games.queendomino.rules import (
    BOARD,
    BUILD,
    CLAIM,
    DRAGON,
    DRAW,
    ORDER,
    OVER,
    PLACE,
    SITE,
    TAX,
    Queendomino,
    QueendominoState,
)

pytest.importorskip("numba")

OPTION_SETS: dict[str, dict[str, Any]] = {
    "2p": {"players": 2},
    "3p": {"players": 3},
    "4p": {"players": 4},
    "wedding-3p": {"players": 3, "royal_wedding": True},
    "wedding-4p": {"players": 4, "royal_wedding": True},
    "wedding-5p": {"players": 5, "royal_wedding": True},
    "wedding-8p": {"players": 8, "royal_wedding": True},
    "teams-6p": {"players": 6, "royal_wedding": True, "teams": True},
    "teams-8p": {"players": 8, "royal_wedding": True, "teams": True},
}


@cache
def game_for(name: str) -> Queendomino:
    return Queendomino(OPTION_SETS[name])


def accelerator_for(name: str) -> Any:
    accelerator = compiled(game_for(name))
    assert accelerator is not None
    return accelerator


@cache
def traces_of(name: str, games: int, seed: int) -> tuple[tuple[QueendominoState, ...], ...]:
    """Every state met in `games` random games (kept: Queendomino's are slow to play)."""
    return tuple(tuple(trace) for trace in game_traces(game_for(name), games, seed))


def assert_same_playouts(
    name: str, state: QueendominoState, policy: str, player: int, count: int, seed: int
) -> None:
    reference.assert_same_playouts(
        game_for(name), accelerator_for(name), state, policy, player, count, seed
    )


def assert_same_arrays(got: Any, expected: Any, why: Any) -> None:
    for part, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert np.array_equal(mine, theirs), (part, why)


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_legal_actions_apply_and_values_match(name: str) -> None:
    """Every state of a few random games: the same legal actions, the same state after each
    decision and chance outcome (a sample of them), the same greedy evaluation, and at the
    end the same scores and win shares."""
    game = game_for(name)
    accelerator = accelerator_for(name)
    rng = random.Random(31)
    states = [state for trace in traces_of(name, 3, 17) for state in trace]
    phases = {state.phase for state in states}
    assert {BOARD, DRAW, ORDER, CLAIM, PLACE, TAX, BUILD, SITE, DRAGON, OVER} <= phases
    legal = accelerator.legal_lists(states)
    for state, actions in zip(states, legal, strict=True):
        assert actions == (game.legal_actions(state) if game.current_player(state) >= 0 else ())
    before, played = [], []
    for state in states:
        options = moves(game, state)
        for action in rng.sample(options, min(len(options), 6)):
            before.append(state)
            played.append(action)
    after = accelerator.applied(before, played)
    for state, action, arrays in zip(before, played, after, strict=True):
        expected = accelerator.state_arrays(game.apply(state, action))
        assert_same_arrays(arrays, expected, (state, action))
    values, results = accelerator.evaluations(states)
    evaluate = heuristics(game).evaluate
    players = game.num_players
    for state, row, result in zip(states, values, results, strict=True):
        assert list(row) == [evaluate(state, p) for p in range(players)]
        assert tuple(result[:players]) == game.scores(state)
        if state.phase == OVER:
            assert tuple(result[players:]) == game.returns(state)


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_greedy_actions_match(name: str) -> None:
    """The greedy action of every decision of a random game (through the rest of the
    turn: knights after a placement, a square after a building), ties from one stream."""
    game = game_for(name)
    states = [state for state in traces_of(name, 1, 5)[0] if game.current_player(state) >= 0]
    rng = SplitMix64(99)
    expected = [greedy_action(game, state, rng) for state in states]
    assert accelerator_for(name).greedy_actions(states, 99) == expected


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_random_games_match(name: str) -> None:
    game = game_for(name)
    scores = accelerator_for(name).random_games(6, 2024)
    rng = SplitMix64(2024)
    policy = make_policy("random", 0)
    expected = [game.scores(playout(game, game.initial_state(), policy, rng)) for _ in range(6)]
    assert [tuple(row) for row in scores] == expected


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_random_playouts_match_from_every_phase(name: str) -> None:
    game = game_for(name)
    states = sample_states(traces_of(name, 12, 11), 11)
    states.append(traces_of(name, 1, 12)[0][-1])
    assert OVER in {state.phase for state in states}
    for index, state in enumerate(states):
        assert_same_playouts(name, state, "random", index % game.num_players, 3, index)


@pytest.mark.parametrize("policy", POLICIES[1:])
@pytest.mark.parametrize("name", ["2p", "3p", "4p", "wedding-5p", "teams-6p"])
def test_policy_playouts_match(name: str, policy: str) -> None:
    """Greedy playouts are slow in Python: a few, from the later part of games."""
    game = game_for(name)
    for index, state in enumerate(sample_states(traces_of(name, 3, 17), 17, 0.6)):
        assert_same_playouts(name, state, policy, index % game.num_players, 2, 100 + index)


@pytest.mark.parametrize("name", ["2p", "4p"])
def test_greedy_playouts_match_from_the_first_decision(name: str) -> None:
    """Whole greedy games: every tie broken, every building, the Queen and the Dragon."""
    game = game_for(name)
    rng = random.Random(3)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.sample_chance(state, rng))
    assert_same_playouts(name, state, "greedy", game.current_player(state), 1, 7)


def test_a_given_building_table(tmp_path: Any) -> None:
    """A table with other effects (crowns, knights, towers, both ongoing bonuses, every
    endgame kind) plays the same: the kernel reads the table it is given."""
    from kingdomkit.games.queendomino.buildings import shipped_buildings

    rows = [
        "tile,name,crowns,immediate_knights,immediate_towers,immediate_status,ongoing,"
        "ongoing_status,endgame,endgame_points,endgame_terrain"
    ]
    effects = [
        "2,2,1,established,coin_per_knight,established,per_tower,2,",
        "3,0,2,established,coin_per_tower,established,per_knight,1,",
        "1,1,1,established,none,established,per_separate_territory,3,town",
        "0,3,0,established,none,established,fixed,4,",
    ]
    for index, building in enumerate(shipped_buildings().buildings):
        rows.append(f"{building.tile},{building.name},{effects[index % len(effects)]}")
    table = tmp_path / "buildings.csv"
    table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    for players in (2, 4):
        game = Queendomino({"players": players, "buildings": str(table)})
        accelerator: Any = compiled(game)
        assert accelerator is not None
        rng = random.Random(players)
        states: list[QueendominoState] = []

        def keep(before: QueendominoState, _action: int, _after: QueendominoState) -> None:
            states.append(before)  # noqa: B023  (used before the loop moves on)

        final = random_playout(game, rng, on_step=keep)
        states.append(final)
        assert any(realm.towers for realm in final.realms)
        decisions = [state for state in states if game.current_player(state) >= 0]
        assert accelerator.legal_lists(decisions) == [game.legal_actions(s) for s in decisions]
        moves_played = [game.legal_actions(state)[0] for state in decisions]
        for arrays, state, action in zip(
            accelerator.applied(decisions, moves_played), decisions, moves_played, strict=True
        ):
            assert_same_arrays(arrays, accelerator.state_arrays(game.apply(state, action)), action)
        stream = SplitMix64(5)
        expected = [greedy_action(game, state, stream) for state in decisions]
        assert accelerator.greedy_actions(decisions, 5) == expected
        scores, _ = accelerator.playouts(decisions[len(decisions) // 2], "greedy", 0, 0.25, 2, 9)
        in_python, _ = python_playouts(game, decisions[len(decisions) // 2], "greedy", 0, 2, 9)
        assert [tuple(row) for row in scores] == in_python
