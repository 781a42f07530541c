"""Levels for people: `easy`, `medium`, `hard` and `expert`, each a spec of a bot.

The mapping is data so that it can be calibrated by measured strength (the arena) without
touching any bot; docs/strength.md section 7 has the calibration (2-player Kingdomino: each
level beats the one below, about +400, +400 and +140 Elo). A game whose play breaks that
order gives its own spec for a level (its heuristics' `levels`): in Kingdoms, which has no
draft, `greedy-placement` is `greedy`, so its `easy` is a greedy bot that blunders; and
Kingdomino's `expert` is the learned bot at the tables where it was measured stronger (its
`LEARNED_TABLES`, none yet). A level is
registered in `BOTS` under its name, accepts no settings, and picks its spec from the game
it is asked to play (`LevelBot`).
"""

from __future__ import annotations

import random
from typing import Any

from kingdomkit.bots.heuristics import heuristics
from kingdomkit.core.driver import Agent
from kingdomkit.core.protocol import Game

LEVELS: dict[str, str] = {
    "easy": "greedy-placement",
    "medium": "greedy",
    "hard": "mcts:time=0.3",
    "expert": "mcts:time=2:workers=2",
}


def level_spec(level: str, game: Game[Any]) -> str:
    """The spec `level` stands for in `game` (the game's own, else the general one)."""
    return heuristics(game).levels().get(level, LEVELS[level])


class LevelBot:
    """A level: the bot of its spec for the game it is asked to play (made once per spec,
    so that a search keeps its tree and its pool from one move to the next)."""

    def __init__(self, level: str, make: Any) -> None:
        self.name = level
        self.make = make  # bots.make_bot (passed in: bots/__init__ imports this module)
        self.agents: dict[str, Agent] = {}

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        spec = level_spec(self.name, game)
        agent = self.agents.get(spec)
        if agent is None:
            agent = self.agents[spec] = self.make(spec)
        return agent.act(game, state, rng)

    def close(self) -> None:
        """Closes the searches' pools (the expert level's workers)."""
        for agent in self.agents.values():
            close = getattr(agent, "close", None)
            if close is not None:
                close()
