"""Tiny untrained networks, and the tables they are made for, for the tests of the `neural`
bot and of training."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kingdomkit.bots.network import Sizes, random_network, save_network
from kingdomkit.core.protocol import Game

TINY = Sizes(channels=4, reduced=2, hidden=8, trunk=16, value_hidden=8)
# The Kingdomino tables a network is made for, each with its own inputs, actions or seats.
SETUPS = [{"players": 2}, {"players": 2, "mighty_duel": True}, {"players": 4}]
SETUP_IDS = ["2p", "mighty-duel", "4p"]


def saved(game: Game[Any], path: Path, seed: int = 0) -> Path:
    """A file at `path` of an untrained TINY network for `game`."""
    network = random_network(game, seed, TINY)
    save_network(path, network.header, network.arrays)
    return path
