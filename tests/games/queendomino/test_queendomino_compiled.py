"""The compiled Queendomino kernel against the pure-Python engine, its reference, on what only
Queendomino has: the states of whole random games (2, 3 and 4 players, the Royal Wedding with
3 to 8, and its teams) must give the same legal actions, the same states after every decision
and chance outcome, the same greedy values and actions and the same score pads, under the
shipped building table and under another one. Its random games and playouts under every
option set are checked with the other games' in tests/games/test_compiled_kernels.py.
Skipped without numba.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from kernel_reference import (
    OPTION_SETS,
    accelerator_for,
    assert_same_arrays,
    assert_same_legal_actions,
    assert_same_playouts,
    assert_same_values,
    game_for,
    game_traces,
    sampled_moves,
    traces_of,
)
from kingdomkit.bots.greedy import greedy_action
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
)

pytest.importorskip("numba")


def assert_same_states_after(game: Any, before: Sequence[Any], played: Sequence[int]) -> None:
    """The kernel's state after each move is the engine's, array for array."""
    accelerator = accelerator_for(game)
    after = accelerator.applied(before, played)
    for state, action, arrays in zip(before, played, after, strict=True):
        expected = accelerator.state_arrays(game.apply(state, action))
        assert_same_arrays(arrays, expected, (state, action))


def assert_same_greedy_actions(game: Any, states: Sequence[Any], seed: int) -> None:
    """The kernel's greedy action of each state is the bots', ties broken from one stream."""
    stream = SplitMix64(seed)
    expected = [greedy_action(game, state, stream) for state in states]
    assert accelerator_for(game).greedy_actions(states, seed) == expected


@pytest.mark.parametrize("option_set", sorted(OPTION_SETS["queendomino"]))
def test_legal_actions_apply_and_values_match(option_set: str) -> None:
    """Every state of a few random games: the same legal actions, the same state after each
    decision and chance outcome (a sample of them), the same greedy evaluation, and at the
    end the same scores and win shares."""
    game = game_for("queendomino", option_set)
    states = [state for trace in traces_of("queendomino", option_set, 3, 17) for state in trace]
    phases = {state.phase for state in states}
    assert {BOARD, DRAW, ORDER, CLAIM, PLACE, TAX, BUILD, SITE, DRAGON, OVER} <= phases
    assert_same_legal_actions(game, states)
    assert_same_states_after(game, *sampled_moves(game, states, 6, random.Random(31)))
    values, results = accelerator_for(game).evaluations(states)
    assert_same_values(game, states, values)
    players = game.num_players
    for state, result in zip(states, results, strict=True):
        assert tuple(result[:players]) == game.scores(state)
        if state.phase == OVER:
            assert tuple(result[players:]) == game.returns(state)


@pytest.mark.parametrize("option_set", sorted(OPTION_SETS["queendomino"]))
def test_greedy_actions_match(option_set: str) -> None:
    """The greedy action of every decision of a random game (through the rest of the
    turn: knights after a placement, a square after a building), ties from one stream."""
    game = game_for("queendomino", option_set)
    trace = traces_of("queendomino", option_set, 1, 5)[0]
    assert_same_greedy_actions(game, [s for s in trace if game.current_player(s) >= 0], 99)


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
        states = game_traces(game, 1, players)[0]
        assert any(realm.towers for realm in states[-1].realms)
        decisions = [state for state in states if game.current_player(state) >= 0]
        assert_same_legal_actions(game, decisions)
        assert_same_states_after(game, decisions, [game.legal_actions(s)[0] for s in decisions])
        assert_same_greedy_actions(game, decisions, 5)
        assert_same_playouts(game, decisions[len(decisions) // 2], "greedy", 0, 2, 9)
