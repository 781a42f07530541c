"""`uct` and `uct-pb`: the tree searches of Gedda, Lagerkvist and Butler (2018), for every game.

Both are open-loop UCT over micro-actions (tree.py): chance is sampled on every iteration, so
unseen dominoes are re-drawn in every playout and no sampled future is reused; untried actions
are expanded first, in random order. `uct-pb` adds the progressive (win) bias of Nijssen and
Winands, W * H / (n * (1 - q) + 1), H being the game's heuristic after the action normalised
over its siblings (default W = 1). Like every bot here they answer the later micro-decisions
of a turn from the turn's tree (mcts.TreeBot).

Settings: `playout=` (default random), `epsilon=` (0.25), `score=` (relative), `c=` (0.6),
`time=` (default 1 s) or `playouts=`, and for `uct-pb` `bias=` (1).
"""

from __future__ import annotations

from collections.abc import Mapping

from kingdomkit.bots.budget import Budget, read_budget
from kingdomkit.bots.mcts import TreeBot
from kingdomkit.bots.rollout import read_simulation
from kingdomkit.bots.spec import Settings
from kingdomkit.bots.tree import TreeConfig
from kingdomkit.core.driver import Agent

DEFAULT_C = 0.6
DEFAULT_BIAS = 1.0


def _factory(name: str, with_bias: bool, settings: Mapping[str, str]) -> TreeBot:
    read = Settings(name, settings)
    playout, epsilon, score = read_simulation(read, "random", "relative")
    budget = read_budget(read, Budget(seconds=1.0))
    c = read.number("c", DEFAULT_C, low=-1e-12)
    bias = read.number("bias", DEFAULT_BIAS, low=-1e-12) if with_bias else 0.0
    read.done()
    config = TreeConfig(c=c or 0.0, bias=bias or 0.0, playout=playout, epsilon=epsilon, score=score)
    return TreeBot(name, config, budget)


def uct_factory(settings: Mapping[str, str]) -> Agent:
    return _factory("uct", False, settings)


def uct_pb_factory(settings: Mapping[str, str]) -> Agent:
    return _factory("uct-pb", True, settings)
