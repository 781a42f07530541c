"""The shape of Kingdomino: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.kingdomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.kingdomino.rules import Kingdomino

SHAPE = GameShape(
    name="kingdomino",
    summary="Kingdomino, 2-4 players, with every official variant",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    rules=Kingdomino,
    capabilities=Capabilities(),
)
