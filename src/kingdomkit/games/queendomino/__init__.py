"""Queendomino (Bruno Cathala, Blue Orange), with the Royal Wedding (both boxes together)."""

from kingdomkit.core.registry import GameInfo, register
from kingdomkit.games.queendomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.queendomino.rules import Queendomino, QueendominoState

register(
    GameInfo(
        name="queendomino",
        summary="Queendomino, 2-4 players; the Royal Wedding, 3-8 players or teams",
        option_names=FLAGS,
        default_players=4,
        title=TITLE,
        variants=VARIANTS,
        factory=Queendomino,
        file_options=(("buildings", "a corrected building table (CSV, as the shipped one)"),),
    )
)

__all__ = ["Queendomino", "QueendominoState"]
