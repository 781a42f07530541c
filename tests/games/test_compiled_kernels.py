"""What holds for every game's compiled kernel alike: the switch that turns it off, its
absence without numba, the policies it numbers as the bots do, its refusal of bad settings
and of other rules, a pickled game that leaves it behind, the search bots playing their
playouts on it, and its random games and playouts, the Python engine's from the same stream,
under every option set. (Each game's own tests: tests/games/<game>/test_*_compiled.py.)
"""

from __future__ import annotations

import importlib
import pickle
import random
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from kernel_reference import (
    OPTION_SETS,
    POLICIES,
    accelerator_for,
    assert_same_playouts,
    first_decision,
    game_for,
    sample_states,
    traces_of,
)
from kingdomkit.bots import TreeBot, make_bot
from kingdomkit.bots import playouts as bot_playouts
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.playouts import make_policy, playout
from kingdomkit.bots.rollout import Simulator
from kingdomkit.bots.tree import Search
from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import make_game
from kingdomkit.core.rng import SplitMix64
from kingdomkit.games.kingdomino import rules as kingdomino
from kingdomkit.games.kingdoms import rules as kingdoms
from kingdomkit.games.queendomino import rules as queendomino

pytest.importorskip("numba")

# Each game: where its kernel numbers the playout policies, and its rules' class.
KERNELS = {
    "kingdomino": ("kingdomkit.games.kingdomino.playouts", "Kingdomino"),
    "kingdoms": ("kingdomkit.games.kingdoms.kernel", "Kingdoms"),
    "queendomino": ("kingdomkit.games.queendomino.kernel", "Queendomino"),
}
GAMES = sorted(KERNELS)


@pytest.mark.parametrize("name", GAMES)
def test_off_switch_and_cache(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game(name, {"players": 4})
    assert compiled(game) is compiled(game) is not None
    monkeypatch.setenv("KINGDOMKIT_COMPILED", "0")
    assert compiled(make_game(name, {"players": 4})) is None


@pytest.mark.parametrize("name", GAMES)
def test_none_without_the_compiled_extra(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An ImportError (numba or numpy missing) gives None, not a failure."""
    monkeypatch.setitem(sys.modules, f"kingdomkit.games.{name}.accelerator", None)
    assert compiled(make_game(name, {"players": 3})) is None


@pytest.mark.parametrize("name", GAMES)
def test_the_kernel_numbers_the_bots_policies_by_their_place(name: str) -> None:
    """The compiled policies' codes are the places of their names in the bots' list, which
    is where the accelerator looks a name up."""
    kernel = importlib.import_module(KERNELS[name][0])
    codes = (kernel.RANDOM, kernel.GREEDY, kernel.EPSILON_GREEDY, kernel.PLAYER_GREEDY)
    assert [bot_playouts.POLICIES[code] for code in codes] == list(POLICIES)


@pytest.mark.parametrize("name", GAMES)
def test_bad_policy_settings(name: str) -> None:
    game = make_game(name, {"players": 4})
    accelerator: Any = compiled(game)
    state = game.initial_state()
    with pytest.raises(OptionError, match="unknown playout policy"):
        accelerator.playouts(state, "clever", 0, 0.25, 1, 0)
    with pytest.raises(OptionError, match="epsilon"):
        accelerator.playouts(state, "epsilon-greedy", 0, 1.5, 1, 0)


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_game_leaves_its_kernel_behind(name: str) -> None:
    game = make_game(name, {"players": 2})
    assert compiled(game) is not None
    copy = pickle.loads(pickle.dumps(game))
    assert "playouts" not in copy.__dict__.get("_capabilities", {})
    assert compiled(copy) is not None and copy.options == game.options


@pytest.mark.parametrize("name", GAMES)
def test_the_kernel_refuses_to_load_under_other_rules(name: str) -> None:
    """The kernel mirrors one rules version, checked when it is imported: rules changed
    without it stop it loading rather than let it play the old rules."""
    rules = KERNELS[name][1]
    version = type(make_game(name, {"players": 2})).version
    code = (
        f"from kingdomkit.games.{name}.rules import {rules}\n"
        f"{rules}.version += 1\n"
        f"import kingdomkit.games.{name}.kernel\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
    assert f"mirrors rules version {version}, not {version + 1}" in done.stderr


@pytest.mark.parametrize(
    ("name", "players"), [("kingdomino", 2), ("kingdoms", 3), ("queendomino", 2)]
)
def test_the_search_bots_play_out_on_the_kernel(
    name: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`mcts` and `flat-mc` find the kernel through the game's shape and play their
    playouts on it, to the end (no depth cut)."""
    game = make_game(name, {"players": players})
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
    state = first_decision(game, 2)
    for spec in ("mcts:playouts=12", "flat-mc:playouts=12"):
        before = len(calls)
        action = make_bot(spec).act(game, state, random.Random(1))
        assert action in game.legal_actions(state)
        assert len(calls) > before, spec


@dataclass(frozen=True)
class Plan:
    """How much of a game the differential tests below play: less where its engine is slow."""

    random_games: int  # whole random games
    phase_games: int  # games to take a state of each from, for random playouts
    phases: frozenset[int]  # the phases those states must meet
    policy_games: int  # games to take a later state of each from, for the other policies
    policy_from: float  # where in a game (a fraction) those later states begin
    policy_option_sets: tuple[str, ...] | None = None  # where those play out (None: everywhere)


PLANS = {  # in the order of Plan's fields
    "kingdomino": Plan(
        15,
        40,
        frozenset({kingdomino.DRAW, kingdomino.PLACE, kingdomino.CLAIM, kingdomino.OVER}),
        6,
        0.3,
    ),
    "kingdoms": Plan(12, 30, frozenset({kingdoms.OVER}), 4, 0.4),
    "queendomino": Plan(
        6, 12, frozenset({queendomino.OVER}), 3, 0.6, ("2p", "3p", "4p", "wedding-5p", "teams-6p")
    ),
}


def option_set_cases(option_sets: Mapping[str, Iterable[str]]) -> list[Any]:
    """The cases (game, option set id) of each game's option sets, by the ids `game-set`."""
    return [
        pytest.param(name, option_set, id=f"{name}-{option_set}")
        for name, sets in option_sets.items()
        for option_set in sets
    ]


EVERY_OPTION_SET = option_set_cases(OPTION_SETS)
POLICY_OPTION_SETS = option_set_cases(
    {name: plan.policy_option_sets or OPTION_SETS[name] for name, plan in PLANS.items()}
)
# Whole games from the first decision: every tie broken, and all of the rules met (Kingdomino's
# first-round claims, Kingdoms' epochs, Queendomino's buildings, Queen and Dragon).
FIRST_DECISIONS = [
    *(("kingdomino", "3p", policy) for policy in POLICIES[1:]),
    *(("kingdoms", option_set, "greedy") for option_set in ("2p", "4p", "no-luck-3p")),
    *(("queendomino", option_set, "greedy") for option_set in ("2p", "4p")),
]


@pytest.mark.parametrize(("name", "option_set"), EVERY_OPTION_SET)
def test_random_games_match(name: str, option_set: str) -> None:
    game = game_for(name, option_set)
    count = PLANS[name].random_games
    scores = accelerator_for(game).random_games(count, 2024)
    rng = SplitMix64(2024)
    policy = make_policy("random", 0)
    expected = [game.scores(playout(game, game.initial_state(), policy, rng)) for _ in range(count)]
    assert [tuple(row) for row in scores] == expected


@pytest.mark.parametrize(("name", "option_set"), EVERY_OPTION_SET)
def test_random_playouts_match_from_every_phase(name: str, option_set: str) -> None:
    game = game_for(name, option_set)
    states = sample_states(traces_of(name, option_set, PLANS[name].phase_games, 11), 11)
    states.append(traces_of(name, option_set, 1, 12)[0][-1])
    assert PLANS[name].phases <= {state.phase for state in states}
    for index, state in enumerate(states):
        assert_same_playouts(game, state, "random", index % game.num_players, 3, index)


@pytest.mark.parametrize("policy", POLICIES[1:])
@pytest.mark.parametrize(("name", "option_set"), POLICY_OPTION_SETS)
def test_policy_playouts_match(name: str, option_set: str, policy: str) -> None:
    """Greedy playouts are slow in Python: a few, from the later part of games."""
    game = game_for(name, option_set)
    plan = PLANS[name]
    traces = traces_of(name, option_set, plan.policy_games, 17)
    for index, state in enumerate(sample_states(traces, 17, plan.policy_from)):
        assert_same_playouts(game, state, policy, index % game.num_players, 2, 100 + index)


@pytest.mark.parametrize(("name", "option_set", "policy"), FIRST_DECISIONS)
def test_playouts_match_from_the_first_decision(name: str, option_set: str, policy: str) -> None:
    game = game_for(name, option_set)
    state = first_decision(game, 3)
    assert_same_playouts(game, state, policy, game.current_player(state), 1, 7)
