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
from typing import Any

from kingdomkit.bots.heuristics import Heuristics, heuristics
from kingdomkit.core.protocol import Game


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
    """Full greedy: the best value at the end of its own turn."""

    name = "greedy"

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        return greedy_action(game, state, rng)


class GreedyPlacementBot:
    """Greedy placement with random draft (Gedda et al. 2018): random at draft decisions,
    otherwise the best value after the single decision."""

    name = "greedy-placement"

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        if heuristics(game).is_draft(state):
            legal = game.legal_actions(state)
            return legal[int(rng.random() * len(legal))]
        return greedy_action(game, state, rng, whole_turn=False)
