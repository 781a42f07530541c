"""The shape of Queendomino: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.queendomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.queendomino.rules import Queendomino

if TYPE_CHECKING:
    from kingdomkit.bots.heuristics import Heuristics


def heuristics(game: Queendomino) -> Heuristics:
    """What the bots value (heuristics.py)."""
    from kingdomkit.games.queendomino.heuristics import QueendominoHeuristics

    return QueendominoHeuristics(game)


SHAPE = GameShape(
    name="queendomino",
    summary="Queendomino, 2-4 players; the Royal Wedding, 3-8 players or teams",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    rules=Queendomino,
    file_options=(("buildings", "a corrected building table (CSV, as the shipped one)"),),
    capabilities=Capabilities(heuristics=heuristics),
)
