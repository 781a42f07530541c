"""The compiled Kingdomino kernel against the pure-Python engine, its reference: what only
Kingdomino has (its kept kingdom arrays, placement lists, kingdom scores, the order step and
a dynasty's second game). Its random games and playouts under every option set are checked
with the other games' in tests/games/test_compiled_kernels.py. Skipped without numba.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kernel_reference import (
    OPTION_SETS,
    accelerator_for,
    assert_same_arrays,
    assert_same_playouts,
    game_for,
    game_traces,
)
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES
from kingdomkit.games.kingdomino.rules import ORDER, PLACE

pytest.importorskip("numba")


@pytest.mark.parametrize("option_set", ["2p", "mighty-duel"])
def test_kingdoms_kept_for_the_next_ask_give_the_arrays_worked_out_afresh(
    option_set: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search asks for the same kingdoms again and again; the kept arrays are the ones
    a fresh accelerator works out, and writing into what was returned changes nothing kept
    (the kernel writes into its arrays)."""
    from kingdomkit.games.kingdomino import accelerator as module

    monkeypatch.setattr(module, "KEPT_KINGDOMS", 50)  # full, and forgotten, many times
    game = game_for("kingdomino", option_set)
    keeping = module.KingdominoAccelerator(game)
    states = [state for trace in game_traces(game, 6, 9) for state in trace]
    for round_ in range(2):  # the second time, most are kept
        for state in states:
            fresh = module.KingdominoAccelerator(game).state_arrays(state)
            kept = keeping.state_arrays(state)
            assert_same_arrays(kept, fresh, (round_, state))
            for array in kept:
                array.fill(-7)
    assert len(states) > 100 and 0 < len(keeping._kept) <= 50


@pytest.mark.parametrize("option_set", ["4p", "mighty-duel"])
def test_placement_lists_match(option_set: str) -> None:
    """Every kingdom met at a placement step, with its own domino and three others (so
    that symmetric dominoes and every terrain come up)."""
    game = game_for("kingdomino", option_set)
    rng = random.Random(5)
    kingdoms, numbers = [], []
    for trace in game_traces(game, 12, 5):
        for state in trace:
            if state.phase == PLACE:
                kingdom = state.kingdoms[game.current_player(state)]
                for number in (state.placing[state.turn], *rng.sample(range(1, 49), 3)):
                    kingdoms.append(kingdom)
                    numbers.append(number)
    accelerator = accelerator_for(game)
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


@pytest.mark.parametrize("option_set", ["4p", "middle-harmony", "dynasty", "mighty-duel"])
def test_kingdom_scores_match(option_set: str) -> None:
    """Score (bonuses in play), largest territory and crowns of kingdoms at every stage."""
    game = game_for("kingdomino", option_set)
    kingdoms = [
        kingdom
        for trace in game_traces(game, 10, 9)
        for state in trace[::7]
        for kingdom in state.kingdoms
    ]
    accelerator = accelerator_for(game)
    out = accelerator.kingdom_scores(accelerator.kingdom_arrays(kingdoms))
    for kingdom, (score, largest, crowns) in zip(kingdoms, out, strict=True):
        pad = game.kingdom_breakdown(kingdom)
        assert (score, largest, crowns) == (
            game.kingdom_score(kingdom),
            pad.largest_territory,
            pad.crowns,
        )
    assert any(kingdom.discarded for kingdom in kingdoms)


@pytest.mark.parametrize("option_set", sorted(OPTION_SETS["kingdomino"]))
def test_random_playouts_match_from_the_order_step(option_set: str) -> None:
    """The chance step that shuffles the kings (first line only), which a sample may miss."""
    game = game_for("kingdomino", option_set)
    order = next(state for state in game_traces(game, 1, 13)[0] if state.phase == ORDER)
    assert_same_playouts(game, order, "random", 0, 3, 99)


def test_dynasty_boundary_greedy() -> None:
    """Greedy's last placement of a dynasty's first game values the next game's empty
    kingdoms (a tie everywhere, broken by a uniform); the kernel must do the same."""
    game = game_for("kingdomino", "dynasty")
    for trace in game_traces(game, 2, 21):
        boundary = [s for s in trace if s.game_number == 0 and s.phase == PLACE and not s.line]
        assert boundary
        for offset, state in enumerate(boundary[-2:]):
            assert_same_playouts(game, state, "greedy", offset, 2, offset)
