"""The compiled Kingdomino kernel against the pure-Python engine, its reference.

Differential tests: the same positions and the same SplitMix64 stream must give the same
placement lists, the same scores and the same playouts (scores and win shares) for every
policy and option set. Skipped when numba is not installed.
"""

from __future__ import annotations

import pickle
import random
import sys
from functools import cache
from typing import Any

import numpy as np
import pytest

from kingdomkit.bots import playouts as bot_playouts
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.playouts import make_policy, playout
from kingdomkit.core.driver import random_playout
from kingdomkit.core.protocol import OptionError
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
POLICIES = ("random", "greedy", "epsilon-greedy", "player-greedy")


@cache
def game_for(name: str) -> Kingdomino:
    return Kingdomino(OPTION_SETS[name])


def accelerator_for(name: str) -> Any:
    accelerator = compiled(game_for(name))
    assert accelerator is not None
    return accelerator


def game_traces(game: Kingdomino, games: int, seed: int) -> list[list[KingdominoState]]:
    """Every state met (the final one included) in `games` random games."""
    rng = random.Random(seed)
    traces = []
    for _ in range(games):
        trace: list[KingdominoState] = []

        def keep(before: KingdominoState, _action: int, _after: KingdominoState) -> None:
            trace.append(before)  # noqa: B023  (used before the loop moves on)

        final = random_playout(game, rng, on_step=keep)
        traces.append([*trace, final])
    return traces


def sample_states(
    game: Kingdomino, count: int, seed: int, start: float = 0.0
) -> list[KingdominoState]:
    """`count` states from random games, each picked from `start` (a fraction) of its game on."""
    rng = random.Random(seed)
    states = []
    for trace in game_traces(game, count, seed):
        states.append(rng.choice(trace[int(start * len(trace)) :]))
    return states


def python_playouts(
    game: Kingdomino, state: KingdominoState, policy: str, player: int, count: int, seed: int
) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """The reference: `count` playouts from one SplitMix64 stream."""
    rng = SplitMix64(seed)
    scores, returns = [], []
    for _ in range(count):
        final = playout(game, state, make_policy(policy, player, 0.25), rng)
        scores.append(game.scores(final))
        returns.append(game.returns(final))
    return scores, returns


def assert_same_playouts(
    name: str, state: KingdominoState, policy: str, player: int, count: int, seed: int
) -> None:
    game = game_for(name)
    scores, returns = accelerator_for(name).playouts(state, policy, player, 0.25, count, seed)
    expected_scores, expected_returns = python_playouts(game, state, policy, player, count, seed)
    assert [tuple(row) for row in scores] == expected_scores
    assert [tuple(row) for row in returns] == expected_returns


def test_off_switch_and_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Kingdomino({"players": 4})
    assert compiled(game) is compiled(game) is not None
    monkeypatch.setenv("KINGDOMKIT_COMPILED", "0")
    assert compiled(Kingdomino({"players": 4})) is None


def test_none_without_the_compiled_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """An ImportError (numba or numpy missing) gives None, not a failure."""
    monkeypatch.setitem(sys.modules, "kingdomkit.games.kingdomino.accelerator", None)
    assert compiled(Kingdomino({"players": 3})) is None


def test_the_kernel_numbers_the_bots_policies_by_their_place() -> None:
    """The compiled policies' codes are the places of their names in the bots' list, which
    is where the accelerator looks a name up."""
    from kingdomkit.games.kingdomino import playouts as kp

    codes = (kp.RANDOM, kp.GREEDY, kp.EPSILON_GREEDY, kp.PLAYER_GREEDY)
    assert [bot_playouts.POLICIES[code] for code in codes] == list(POLICIES)


def test_bad_policy_settings() -> None:
    game = game_for("4p")
    with pytest.raises(OptionError, match="unknown playout policy"):
        accelerator_for("4p").playouts(game.initial_state(), "clever", 0, 0.25, 1, 0)
    with pytest.raises(OptionError, match="epsilon"):
        accelerator_for("4p").playouts(game.initial_state(), "epsilon-greedy", 0, 1.5, 1, 0)


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
    states = sample_states(game, 40, 11)
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
    for index, state in enumerate(sample_states(game, 6, 17, 0.3)):
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


def test_a_pickled_game_leaves_its_kernel_behind() -> None:
    game = Kingdomino({"players": 2})
    assert compiled(game) is not None
    copy = pickle.loads(pickle.dumps(game))
    assert "playouts" not in copy.__dict__.get("_capabilities", {})
    assert compiled(copy) is not None and copy.options == game.options


def test_the_kernel_refuses_to_load_under_other_rules() -> None:
    """The kernel mirrors one rules version, checked when it is imported: rules changed
    without it stop it loading rather than let it play the old rules."""
    import subprocess
    import sys

    code = (
        "from kingdomkit.games.kingdomino.rules import Kingdomino\n"
        "Kingdomino.version += 1\n"
        "import kingdomkit.games.kingdomino.kernel\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
    assert "mirrors rules version 1, not 2" in done.stderr
