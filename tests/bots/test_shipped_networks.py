"""The trained networks the package ships (bots/weights/): each loads, says in its header the
command and commits that made it, is named for the table it fits, stays a few MB, and plays
and analyses without `weights=`; a table none fits is refused in words."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from kingdomkit.bots import make_bot
from kingdomkit.bots.levels import LEVELS, level_spec
from kingdomkit.bots.network import SHIPPED, load_network, shipped_for
from kingdomkit.bots.neural import DEFAULT_MIX, NeuralBot
from kingdomkit.core.driver import play, replay_actions
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdomino import heuristics as kingdomino_heuristics
from kingdomkit.games.kingdomino.options import Setup
from kingdomkit.server.analysts import analyst_for
from kingdomkit.server.bots import choose, in_one_process

FILES = sorted(SHIPPED.glob("*.npz"))
MOST_BYTES = 4_000_000  # "a few MB at most", so that the package stays light
TABLES = {
    "kingdomino-2p.npz": ("kingdomino", {"players": 2}),
    "kingdomino-2p-mighty-duel.npz": ("kingdomino", {"players": 2, "mighty_duel": True}),
    "kingdomino-4p-middle-kingdom-harmony.npz": (
        "kingdomino",
        {"players": 4, "middle_kingdom": True, "harmony": True},
    ),
}
COMMIT = re.compile(r"[0-9a-f]{40}")


def test_the_package_ships_a_network_for_each_table_the_issue_names() -> None:
    """2-player Kingdomino, the Mighty Duel, and the paper's 4-player game."""
    assert [path.name for path in FILES] == sorted(TABLES)


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_a_shipped_network_says_what_made_it_and_fits_its_table(path: Path) -> None:
    assert path.stat().st_size < MOST_BYTES
    network = load_network(path)
    made = network.header["produced_by"]
    # A run resumed under later code keeps each of its commands and commits, in order.
    commands, commits = made["command"].split(" ; "), made["commit"].split(" ; ")
    assert all(command.startswith("python -m kingdomkit.learn ") for command in commands)
    assert all(COMMIT.fullmatch(commit) for commit in commits), made["commit"]
    name, options = TABLES[path.name]
    game = make_game(name, options)
    network.check(game)
    assert shipped_for(game).header == network.header


@pytest.mark.parametrize("table", sorted(TABLES), ids=sorted(TABLES))
def test_neural_without_weights_plays_the_shipped_network_with_half_playouts(
    table: str,
) -> None:
    name, options = TABLES[table]
    game = make_game(name, options)
    bot = make_bot("neural:playouts=8")
    assert isinstance(bot, NeuralBot) and bot.mix == DEFAULT_MIX == 0.5
    assert bot.unfit(game) is None
    assert bot.network_for(game).header == load_network(SHIPPED / table).header
    others = [make_bot("greedy") for _ in range(game.num_players - 1)]
    played = play(game, [bot, *others], seed=11)
    assert replay_actions(game, played.actions) == played.final_state


@pytest.mark.parametrize("table", sorted(TABLES), ids=sorted(TABLES))
def test_the_shipped_network_can_be_the_servers_analyst(table: str) -> None:
    name, options = TABLES[table]
    bot, used = analyst_for(make_game(name, options), "neural:playouts=4:confirm=2")
    try:
        assert used == "neural:playouts=4:confirm=2" and bot.name == "neural"
    finally:
        bot.close()


def test_a_table_with_no_shipped_network_is_refused_in_words() -> None:
    """Three players: no network is trained for them."""
    game = make_game("kingdomino", {"players": 3})
    bot = make_bot("neural:playouts=8")
    assert isinstance(bot, NeuralBot)
    assert "ships no trained network for kingdomino (players=3)" in str(bot.unfit(game))


def test_the_expert_level_is_the_learned_bot_only_where_it_was_measured_stronger(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """None yet (docs/strength.md section 8): every table keeps `mcts`. Once the 2-player
    table is listed, it plays the learned bot there, the server's worker in one process as
    with `mcts`; the Mighty Duel, 3 and 4 players and the variants keep `mcts`, as does a
    machine without numpy."""
    every = [
        {"players": 2},
        {"players": 2, "mighty_duel": True},
        {"players": 2, "harmony": True},
        {"players": 2, "dynasty": True},
        {"players": 3},
        {"players": 4, "middle_kingdom": True, "harmony": True},
    ]
    for options in every:
        assert level_spec("expert", make_game("kingdomino", options)) == LEVELS["expert"]
    monkeypatch.setattr(kingdomino_heuristics, "LEARNED_TABLES", (Setup(players=2),))
    two = make_game("kingdomino", {"players": 2})
    assert level_spec("expert", two) == kingdomino_heuristics.LEARNED_EXPERT
    assert in_one_process("expert", two) == "neural:time=2:batch=8"
    learned = make_bot(level_spec("expert", two))
    assert isinstance(learned, NeuralBot)
    try:
        assert learned.unfit(two) is None
    finally:
        learned.close()
    state, rng, moves = two.initial_state(), random.Random(4), []
    while two.is_chance(state):  # a new table's first decision
        moves.append(two.sample_chance(state, rng))
        state = two.apply(state, moves[-1])
    assert choose("kingdomino", {"players": 2}, moves, "expert", "s") in two.legal_actions(state)
    for options in every[1:]:
        assert level_spec("expert", make_game("kingdomino", options)) == LEVELS["expert"]
    monkeypatch.setattr(kingdomino_heuristics, "find_spec", lambda name: None)
    assert level_spec("expert", make_game("kingdomino", {"players": 2})) == LEVELS["expert"]
