"""The uniform random bot: the baseline every other bot must beat."""

from __future__ import annotations

import random
from typing import Any

from kingdomkit.core.protocol import Game, check_decision


class RandomBot:
    """Picks a legal action uniformly at random."""

    name = "random"

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        check_decision(game, state, self.name)
        legal = game.legal_actions(state)
        return legal[int(rng.random() * len(legal))]
