"""The `fast` extra alone (numpy, no Gymnasium or PettingZoo): the games' observation encoders
still load, so the `neural` bot plays its shipped network, and asking for an environment says
which extra it needs. Run in a fresh interpreter in which those two libraries cannot import."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("numpy")

WITHOUT = """
import sys
sys.modules["gymnasium"] = None
sys.modules["pettingzoo"] = None
from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.registry import make_game
game = make_game("kingdomino", {"players": 2})
played = play(game, [make_bot("neural:playouts=4"), make_bot("greedy")], seed=2)
assert game.is_terminal(played.final_state)
try:
    from kingdomkit.rl import env
except ModuleNotFoundError as error:
    print(error)
else:
    raise SystemExit("the environment imported without gymnasium")
"""


def test_neural_plays_without_the_environments_libraries() -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "kingdomkit.rl.env needs gymnasium: pip install 'kingdomkit[rl]'" in done.stdout
