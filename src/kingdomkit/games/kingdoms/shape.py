"""The shape of Kingdoms: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.kingdoms.options import FLAGS, TITLE, UNIT, VARIANTS
from kingdomkit.games.kingdoms.rules import Kingdoms

if TYPE_CHECKING:
    from kingdomkit.bots.heuristics import Heuristics


def heuristics(game: Kingdoms) -> Heuristics:
    """What the bots value (heuristics.py)."""
    from kingdomkit.games.kingdoms.heuristics import KingdomsHeuristics

    return KingdomsHeuristics(game)


SHAPE = GameShape(
    name="kingdoms",
    summary="Knizia's Kingdoms, 2-4 players, with its variants",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    unit=UNIT,
    rules=Kingdoms,
    capabilities=Capabilities(heuristics=heuristics),
)
