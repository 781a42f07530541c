"""The trained networks the package ships (bots/weights/): each loads, says in its header the
command and commit that made it, is named for the table it fits, stays a few MB, and plays
and analyses without `weights=`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from kingdomkit.bots import make_bot
from kingdomkit.bots.network import SHIPPED, load_network, shipped_for
from kingdomkit.bots.neural import DEFAULT_MIX, NeuralBot
from kingdomkit.core.driver import play, replay_actions
from kingdomkit.core.registry import make_game
from kingdomkit.server.analysts import analyst_for

FILES = sorted(SHIPPED.glob("*.npz"))
MOST_BYTES = 4_000_000  # "a few MB at most", so that the package stays light
TABLES = {"kingdomino-2p.npz": ("kingdomino", {"players": 2})}


def test_the_package_ships_the_two_player_kingdomino_network() -> None:
    assert [path.name for path in FILES] == sorted(TABLES)


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_a_shipped_network_says_what_made_it_and_fits_its_table(path: Path) -> None:
    assert path.stat().st_size < MOST_BYTES
    network = load_network(path)
    made = network.header["produced_by"]
    assert made["command"].startswith("python -m kingdomkit.learn ")
    assert re.fullmatch(r"[0-9a-f]{40}", made["commit"]), made["commit"]
    name, options = TABLES[path.name]
    game = make_game(name, options)
    network.check(game)
    assert shipped_for(game).header == network.header


def test_neural_without_weights_plays_the_shipped_network_with_half_playouts() -> None:
    game = make_game("kingdomino", {"players": 2})
    bot = make_bot("neural:playouts=8")
    assert isinstance(bot, NeuralBot) and bot.mix == DEFAULT_MIX == 0.5
    assert bot.unfit(game) is None
    played = play(game, [bot, make_bot("greedy")], seed=11)
    assert replay_actions(game, played.actions) == played.final_state


def test_the_shipped_network_can_be_the_servers_analyst() -> None:
    game = make_game("kingdomino", {"players": 2})
    bot, used = analyst_for(game, "neural:playouts=4:confirm=2")
    try:
        assert used == "neural:playouts=4:confirm=2" and bot.name == "neural"
    finally:
        bot.close()
