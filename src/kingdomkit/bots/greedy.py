"""The greedy bot: the best value of `game.evaluate` for itself at the end of its own turn.

It tries every sequence of its own micro-actions within the turn (see `turn_continues`): in
Kingdomino, every placement with every claim, valued by the game's heuristic, which is the
classic "full greedy" baseline. Ties are broken at random, so greedy games still vary.
"""

from __future__ import annotations

import random
from typing import Any

from kingdomkit.core.protocol import Game


class GreedyBot:
    name = "greedy"

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        player = game.current_player(state)
        best_value = float("-inf")
        best: list[int] = []
        for action in game.legal_actions(state):
            value = self._value(game, state, game.apply(state, action), player)
            if value > best_value:
                best_value, best = value, [action]
            elif value == best_value:
                best.append(action)
        return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]

    def _value(self, game: Game[Any], before: Any, after: Any, player: int) -> float:
        if not game.turn_continues(before, after):
            return game.evaluate(after, player)
        return max(
            self._value(game, after, game.apply(after, action), player)
            for action in game.legal_actions(after)
        )
