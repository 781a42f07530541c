"""Greedy bots: the best value of the game's `evaluate` (its heuristics, heuristics.py) for
the player once its move is made.

`greedy` tries every sequence of its own micro-actions within the turn (see `turn_continues`):
in Kingdomino, every placement with every claim, valued by the game's heuristic, which is the
classic "full greedy" baseline. `greedy-placement` is the paper's "greedy placement, random
draft": random at draft decisions (`is_draft`), and otherwise the best value after that
one decision. Ties are broken at random, so greedy games still vary; a uniform is drawn only
when there is a tie (playout kernels mirror this, see playouts.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdomkit.bots.heuristics import Heuristics, heuristics
from kingdomkit.bots.spec import Settings
from kingdomkit.core.protocol import Game, OptionError, check_decision


def greedy_action(game: Game[Any], state: Any, rng: Any, whole_turn: bool = True) -> int:
    """The action whose outcome the game's `evaluate` values most for the player to act,
    looking through the rest of the turn when `whole_turn`; ties broken with one uniform of
    `rng`."""
    known = heuristics(game)
    player = game.current_player(state)
    best_value = float("-inf")
    best: list[int] = []
    for action in game.legal_actions(state):
        after = game.apply(state, action)
        if whole_turn:
            value = _turn_value(game, known, state, after, player)
        else:
            value = known.evaluate(after, player)
        if value > best_value:
            best_value, best = value, [action]
        elif value == best_value:
            best.append(action)
    return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]


def _turn_value(game: Game[Any], known: Heuristics, before: Any, after: Any, player: int) -> float:
    if not known.turn_continues(before, after):
        return known.evaluate(after, player)
    return max(
        _turn_value(game, known, after, game.apply(after, action), player)
        for action in game.legal_actions(after)
    )


class GreedyBot:
    """Full greedy: the best value at the end of its own turn; with `epsilon` > 0, a random
    legal action instead at that share of its decisions (one uniform per decision, then a
    second for the random action), the blunders of a beginner's level."""

    name = "greedy"

    def __init__(self, epsilon: float = 0.0) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise OptionError(f"greedy: epsilon is a probability between 0 and 1, not {epsilon}")
        self.epsilon = epsilon

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        check_decision(game, state, self.name)
        if self.epsilon and rng.random() < self.epsilon:
            legal = game.legal_actions(state)
            return legal[int(rng.random() * len(legal))]
        return greedy_action(game, state, rng)


def greedy_factory(settings: Mapping[str, str]) -> GreedyBot:
    """`greedy` or `greedy:epsilon=0.3`."""
    read = Settings("greedy", settings)
    epsilon = read.number("epsilon", None, low=-1.0)
    read.done()
    return GreedyBot(0.0 if epsilon is None else epsilon)


class GreedyPlacementBot:
    """Greedy placement with random draft (Gedda et al. 2018): random at draft decisions,
    otherwise the best value after the single decision."""

    name = "greedy-placement"

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        check_decision(game, state, self.name)
        if heuristics(game).is_draft(state):
            legal = game.legal_actions(state)
            return legal[int(rng.random() * len(legal))]
        return greedy_action(game, state, rng, whole_turn=False)
