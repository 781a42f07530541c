"""The compiled Queendomino kernel against the pure-Python engine, its reference.

Differential tests: the states of whole random games (2, 3 and 4 players, the Royal Wedding
with 3 to 8, and its teams) must give the same legal actions, the same states after every
decision and chance outcome, the same greedy values and actions, the same score pads, and
the same playouts (scores and win shares) from the same SplitMix64 stream, for every policy.
Skipped when numba is not installed.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from functools import cache
from typing import Any

import numpy as np
import pytest

from kingdomkit.bots import TreeBot, make_bot
from kingdomkit.bots import playouts as bot_playouts
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.greedy import greedy_action
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.playouts import make_policy, playout
from kingdomkit.bots.rollout import Simulator
from kingdomkit.bots.tree import Search
from kingdomkit.core.driver import random_playout
from kingdomkit.core.protocol import CHANCE, OptionError
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
POLICIES = ("random", "greedy", "epsilon-greedy", "player-greedy")


@cache
def game_for(name: str) -> Queendomino:
    return Queendomino(OPTION_SETS[name])


def accelerator_for(name: str) -> Any:
    accelerator = compiled(game_for(name))
    assert accelerator is not None
    return accelerator


@cache
def game_traces(name: str, games: int, seed: int) -> tuple[tuple[QueendominoState, ...], ...]:
    """Every state met (the final one included) in `games` random games."""
    game = game_for(name)
    rng = random.Random(seed)
    traces = []
    for _ in range(games):
        trace: list[QueendominoState] = []

        def keep(before: QueendominoState, _action: int, _after: QueendominoState) -> None:
            trace.append(before)  # noqa: B023  (used before the loop moves on)

        final = random_playout(game, rng, on_step=keep)
        traces.append((*trace, final))
    return tuple(traces)


def sample_states(name: str, count: int, seed: int, start: float = 0.0) -> list[QueendominoState]:
    """`count` states from random games, each picked from `start` (a fraction) of its game on."""
    rng = random.Random(seed)
    return [
        rng.choice(trace[int(start * len(trace)) :]) for trace in game_traces(name, count, seed)
    ]


def moves(game: Queendomino, state: QueendominoState) -> list[int]:
    """The decisions or the chance outcomes of `state`."""
    if game.current_player(state) == CHANCE:
        return [outcome for outcome, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def python_playouts(
    game: Queendomino, state: QueendominoState, policy: str, player: int, count: int, seed: int
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
    name: str, state: QueendominoState, policy: str, player: int, count: int, seed: int
) -> None:
    game = game_for(name)
    scores, returns = accelerator_for(name).playouts(state, policy, player, 0.25, count, seed)
    expected_scores, expected_returns = python_playouts(game, state, policy, player, count, seed)
    assert [tuple(row) for row in scores] == expected_scores
    assert [tuple(row) for row in returns] == expected_returns


def test_off_switch_and_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Queendomino({"players": 4})
    assert compiled(game) is compiled(game) is not None
    monkeypatch.setenv("KINGDOMKIT_COMPILED", "0")
    assert compiled(Queendomino({"players": 4})) is None


def test_none_without_the_compiled_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """An ImportError (numba or numpy missing) gives None, not a failure."""
    monkeypatch.setitem(sys.modules, "kingdomkit.games.queendomino.accelerator", None)
    assert compiled(Queendomino({"players": 3})) is None


def test_the_kernel_numbers_the_bots_policies_by_their_place() -> None:
    from kingdomkit.games.queendomino import kernel as kn

    codes = (kn.RANDOM, kn.GREEDY, kn.EPSILON_GREEDY, kn.PLAYER_GREEDY)
    assert [bot_playouts.POLICIES[code] for code in codes] == list(POLICIES)


def test_bad_policy_settings() -> None:
    state = game_for("4p").initial_state()
    with pytest.raises(OptionError, match="unknown playout policy"):
        accelerator_for("4p").playouts(state, "clever", 0, 0.25, 1, 0)
    with pytest.raises(OptionError, match="epsilon"):
        accelerator_for("4p").playouts(state, "epsilon-greedy", 0, 1.5, 1, 0)


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
    states = [state for trace in game_traces(name, 3, 17) for state in trace]
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
    states = [state for state in game_traces(name, 1, 5)[0] if game.current_player(state) >= 0]
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
    states = sample_states(name, 12, 11)
    states.append(game_traces(name, 1, 12)[0][-1])
    assert OVER in {state.phase for state in states}
    for index, state in enumerate(states):
        assert_same_playouts(name, state, "random", index % game.num_players, 3, index)


@pytest.mark.parametrize("policy", POLICIES[1:])
@pytest.mark.parametrize("name", ["2p", "3p", "4p", "wedding-5p", "teams-6p"])
def test_policy_playouts_match(name: str, policy: str) -> None:
    """Greedy playouts are slow in Python: a few, from the later part of games."""
    game = game_for(name)
    for index, state in enumerate(sample_states(name, 3, 17, 0.6)):
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


def test_the_search_bots_play_out_on_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """`mcts` and `flat-mc` find the kernel through the game's shape and play their
    playouts on it, to the end (no depth cut), with 2 players too."""
    game = Queendomino({"players": 2})
    kernel = compiled(game)
    assert kernel is not None
    assert Simulator(game, 0, "auto", 0.25, "wdl").kernel is kernel
    bot = make_bot("mcts:playouts=5")
    assert isinstance(bot, TreeBot)
    search = Search(game, 0, bot.config, None)
    assert search.sim.kernel is kernel and search.sim.depth is None
    calls: list[int] = []
    original = type(kernel).playouts

    def counted(self: Any, state: Any, *args: Any) -> Any:
        calls.append(1)
        return original(self, state, *args)

    monkeypatch.setattr(type(kernel), "playouts", counted)
    rng = random.Random(2)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.sample_chance(state, rng))
    for spec in ("mcts:playouts=12", "flat-mc:playouts=12"):
        before = len(calls)
        action = make_bot(spec).act(game, state, random.Random(1))
        assert action in game.legal_actions(state)
        assert len(calls) > before, spec


def test_a_pickled_game_leaves_its_kernel_behind() -> None:
    game = Queendomino({"players": 2})
    assert compiled(game) is not None
    copy = pickle.loads(pickle.dumps(game))
    assert "playouts" not in copy.__dict__.get("_capabilities", {})
    assert compiled(copy) is not None and copy.options == game.options


def test_the_kernel_refuses_to_load_under_other_rules() -> None:
    code = (
        "from kingdomkit.games.queendomino.rules import Queendomino\n"
        "Queendomino.version += 1\n"
        "import kingdomkit.games.queendomino.kernel\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
    assert "mirrors rules version 2, not 3" in done.stderr


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
        reference, _ = python_playouts(game, decisions[len(decisions) // 2], "greedy", 0, 2, 9)
        assert [tuple(row) for row in scores] == reference
