"""What holds for every game's compiled kernel alike: the switch that turns it off, its
absence without numba, the policies it numbers as the bots do, its refusal of bad settings
and of other rules, a pickled game that leaves it behind, and the search bots playing their
playouts on it. (Each game's own differential tests: tests/games/<game>/test_*_compiled.py.)
"""

from __future__ import annotations

import importlib
import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

from kernel_reference import POLICIES
from kingdomkit.bots import TreeBot, make_bot
from kingdomkit.bots import playouts as bot_playouts
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.rollout import Simulator
from kingdomkit.bots.tree import Search
from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import make_game

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
    rng = random.Random(2)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.sample_chance(state, rng))
    for spec in ("mcts:playouts=12", "flat-mc:playouts=12"):
        before = len(calls)
        action = make_bot(spec).act(game, state, random.Random(1))
        assert action in game.legal_actions(state)
        assert len(calls) > before, spec
