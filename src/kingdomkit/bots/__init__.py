"""Bots, written once against the protocol; each works for every registered game.

A bot is an `Agent`: `act(game, state, rng) -> action`. `make_bot("greedy")` builds one from
a spec (spec.py: a name with `:key=value` settings); `BOTS` lists the names the command line
accepts, each with a factory that reads its settings.
"""

from __future__ import annotations

from collections.abc import Mapping

from kingdomkit.bots.flat_mc import FlatMonteCarloBot, flat_mc_factory
from kingdomkit.bots.greedy import GreedyBot, GreedyPlacementBot, greedy_factory
from kingdomkit.bots.levels import LEVELS, LevelBot
from kingdomkit.bots.mcts import TreeBot, mcts_factory
from kingdomkit.bots.neural import neural_factory
from kingdomkit.bots.random_bot import RandomBot
from kingdomkit.bots.spec import BotFactory, BotSpec, Settings, parse_spec
from kingdomkit.bots.uct import uct_factory, uct_pb_factory
from kingdomkit.core.driver import Agent
from kingdomkit.core.protocol import OptionError


def _plain(bot: type[RandomBot] | type[GreedyPlacementBot]) -> BotFactory:
    def factory(settings: Mapping[str, str]) -> Agent:
        Settings(bot.name, settings).done()
        return bot()

    return factory


BOTS: dict[str, BotFactory] = {
    "random": _plain(RandomBot),
    "greedy": greedy_factory,
    "greedy-placement": _plain(GreedyPlacementBot),
    "flat-mc": flat_mc_factory,
    "uct": uct_factory,
    "uct-pb": uct_pb_factory,
    "mcts": mcts_factory,
    "neural": neural_factory,
}


def _level(name: str) -> BotFactory:
    def factory(settings: Mapping[str, str]) -> Agent:
        Settings(name, settings).done()
        return LevelBot(name, make_bot)

    return factory


BOTS.update({name: _level(name) for name in LEVELS})


def make_bot(text: str) -> Agent:
    """The bot a spec names, e.g. `greedy` or `uct:playouts=500`; OptionError if unknown."""
    spec = parse_spec(text)
    try:
        factory = BOTS[spec.name]
    except KeyError:
        raise OptionError(f"unknown bot {spec.name!r} (known bots: {', '.join(BOTS)})") from None
    return factory(dict(spec.settings))


__all__ = [
    "BOTS",
    "BotSpec",
    "FlatMonteCarloBot",
    "GreedyBot",
    "GreedyPlacementBot",
    "RandomBot",
    "TreeBot",
    "make_bot",
    "parse_spec",
]
