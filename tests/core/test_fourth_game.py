"""A fourth game, Domino Duel (tests/plugins/dominoduel), plugs in with one declaration, its
shape, and no other change: it passes the conformance checks, plays through `simulate`, with
every bot, through the PettingZoo and Gymnasium environments, at the terminal on the plain
interface, and a whole game on a real server with the browser's text board. The server and
the command line find it as an installed game is found, through its `kingdomkit.games` entry
point: tests/plugins holds its package (on the tests' path), tests/plugins/installed its
metadata, which only the processes started here see (as if it were installed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from pettingzoo.test.api_test import api_test
from pettingzoo.test.seed_test import seed_test

from dominoduel.shape import SHAPE
from kingdomkit.bots import BOTS, make_bot
from kingdomkit.core.conformance import check_playouts
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import OptionError
from kingdomkit.core.record import make_record, replay_record
from kingdomkit.core.registry import GAMES, make_game, register, unregister
from paths import with_plugins
from serving import ServeProcess

# Each bot quick: a few playouts, not a time budget.
QUICK = {"flat-mc": "flat-mc:playouts=60", "uct": "uct:playouts=60", "uct-pb": "uct-pb:playouts=60"}
QUICK |= {"mcts": "mcts:playouts=60", "hard": "mcts:playouts=60", "expert": "mcts:playouts=60"}


@pytest.fixture
def registered() -> Iterator[None]:
    register(SHAPE)
    try:
        yield
    finally:
        unregister(SHAPE.name)


def test_one_declaration_registers_it(registered: None) -> None:
    assert GAMES["dominoduel"] is SHAPE
    assert make_game("dominoduel").num_players == 2


def test_it_conforms(registered: None) -> None:
    stats = check_playouts(make_game("dominoduel"), 300, seed=7, deep_every=10)
    assert stats.playouts == 300 and stats.decisions == 300 * 8 and stats.chance_nodes == 300 * 12


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_plays_it(registered: None, bot: str) -> None:
    game = make_game("dominoduel")
    if bot == "neural":
        # The network reads a board as image planes; Domino Duel's observation has none, so
        # no network can be made for it, and that is said in words.
        from kingdomkit.bots.network import random_network

        with pytest.raises(OptionError, match="observation planes"):
            random_network(game, 3)
        return
    played = play(game, [make_bot(QUICK.get(bot, bot)), make_bot("random")], seed=3)
    assert game.is_terminal(played.final_state)
    record = make_record(game, played.seed, ["bot", "random"], played.actions)
    assert replay_record(record).final_state == played.final_state


# PettingZoo's checker warns about dict observations, which are what we mean to give.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
def test_the_pettingzoo_environment_plays_it(registered: None) -> None:
    import kingdomkit.rl as rl

    api_test(rl.env("dominoduel"), num_cycles=200)  # type: ignore[no-untyped-call]
    seed_test(lambda: rl.env("dominoduel"), num_cycles=200)  # type: ignore[no-untyped-call]
    playing = rl.env("dominoduel")
    playing.reset(seed=1)
    rewards: dict[str, float] = {}
    for agent in playing.agent_iter():
        observation, reward, terminated, truncated, _ = playing.last()
        assert observation is not None
        rewards[agent] = rewards.get(agent, 0.0) + float(reward)
        assert observation["observation"]["dominoes"].sum() == 12  # each domino in one place
        legal = observation["action_mask"].nonzero()[0]
        playing.step(None if terminated or truncated else int(legal[0]))
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])  # a win and a loss, or a tie


def test_gymnasium_has_an_id_for_it(registered: None) -> None:
    import gymnasium

    from kingdomkit.rl.gym import register_envs

    register_envs()
    env = gymnasium.make("kingdomkit/DominoDuel-v0", opponents="greedy").unwrapped
    observation, _ = env.reset(seed=2)
    assert observation["observation"]["dominoes"].shape == (12, 5)


def test_simulate_finds_and_plays_it() -> None:
    command = [sys.executable, "-m", "kingdomkit", "simulate", "dominoduel"]
    command += ["--bots", "greedy,random", "--games", "20", "--json"]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": with_plugins()},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 20


def test_it_is_played_at_the_terminal_on_the_plain_interface(
    registered: None, tmp_path: Path
) -> None:
    """Typed moves, refused while the domino is not on offer, until one is: a whole game."""
    typed = "".join(f"take {domino}\n" for domino in range(1, 13)) * 8
    record = tmp_path / "duel.json"
    command = [sys.executable, "-m", "kingdomkit", "play", "dominoduel", "--bots", "greedy"]
    done = subprocess.run(
        [*command, "--seed", "4", "--record", str(record)],
        input=typed,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": with_plugins(), "COLUMNS": "100"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "On offer:" in done.stdout and "not on offer" in done.stdout
    assert "Game over" in done.stdout
    replayed = replay_record(json.loads(record.read_text()))
    assert replayed.game.is_terminal(replayed.final_state)


def test_a_whole_game_on_the_server_with_the_text_board(tmp_path: Path) -> None:
    served = ServeProcess(tmp_path, env={"PYTHONPATH": with_plugins()})
    served.start()
    try:
        with httpx2.Client(base_url=served.url, timeout=30) as ann:
            games = ann.get("/api/games").json()
            assert "dominoduel" in [entry["game"] for entry in games]
            seats = [{"kind": "human"}, {"kind": "bot", "bot": "medium"}]
            made = ann.post(
                "/api/tables", json={"game": "dominoduel", "seats": seats, "name": "Ann"}
            )
            assert made.status_code == 201, made.text
            table = made.json()["table"]
            while True:
                view = ann.get(f"/api/tables/{table}").json()
                if view["status"] == "finished":
                    break
                if view["to_act"] != 0:
                    time.sleep(0.05)  # the bot is moving
                    continue
                assert "On offer:" in view["board"]  # the text board: the game's own picture
                move = view["legal"][0]
                assert move["label"].startswith("take ")
                sent = ann.post(
                    f"/api/tables/{table}/actions",
                    json={"action": move["id"], "version": view["version"]},
                )
                assert sent.status_code == 200, sent.text
            record = ann.get(f"/api/tables/{table}/record").json()
            assert record["game"] == "dominoduel" and len(record["events"]) == 20
            assert view["result"]["scores"] == record["result"]["scores"]
    finally:
        served.stop()
