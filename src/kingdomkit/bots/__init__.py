"""Bots, written once against the protocol; each works for every registered game.

A bot is an `Agent`: `act(game, state, rng) -> action`. `make_bot("greedy")` builds one by
name; `BOTS` lists the names the command line accepts.
"""

from __future__ import annotations

from collections.abc import Callable

from kingdomkit.bots.greedy import GreedyBot
from kingdomkit.bots.random_bot import RandomBot
from kingdomkit.core.driver import Agent
from kingdomkit.core.protocol import OptionError

BOTS: dict[str, Callable[[], Agent]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str) -> Agent:
    try:
        return BOTS[name]()
    except KeyError:
        raise OptionError(f"unknown bot {name!r} (known bots: {', '.join(BOTS)})") from None


__all__ = ["BOTS", "GreedyBot", "RandomBot", "make_bot"]
