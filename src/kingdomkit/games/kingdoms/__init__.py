"""Knizia's Kingdoms (2010 edition, with the Wizard), with its hidden information."""

from kingdomkit.core.registry import GameInfo, register
from kingdomkit.games.kingdoms.options import FLAGS, TITLE, UNIT, VARIANTS
from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState

register(
    GameInfo(
        name="kingdoms",
        summary="Knizia's Kingdoms, 2-4 players, with its variants",
        option_names=FLAGS,
        default_players=4,
        title=TITLE,
        variants=VARIANTS,
        unit=UNIT,
        factory=Kingdoms,
    )
)

__all__ = ["Kingdoms", "KingdomsState"]
