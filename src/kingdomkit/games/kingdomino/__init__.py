"""Kingdomino (Bruno Cathala, Blue Orange), every official variant."""

from kingdomkit.core.registry import GameInfo, register
from kingdomkit.games.kingdomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.kingdomino.rules import Kingdomino, KingdominoState

register(
    GameInfo(
        name="kingdomino",
        summary="Kingdomino, 2-4 players, with every official variant",
        option_names=FLAGS,
        default_players=4,
        title=TITLE,
        variants=VARIANTS,
        factory=Kingdomino,
    )
)

__all__ = ["Kingdomino", "KingdominoState"]
