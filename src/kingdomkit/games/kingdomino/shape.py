"""The shape of Kingdomino: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.kingdomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.kingdomino.rules import Kingdomino

if TYPE_CHECKING:
    from kingdomkit.bots.compiled import CompiledPlayouts
    from kingdomkit.bots.heuristics import Heuristics


def heuristics(game: Kingdomino) -> Heuristics:
    """What the bots value (heuristics.py)."""
    from kingdomkit.games.kingdomino.heuristics import KingdominoHeuristics

    return KingdominoHeuristics(game)


def compiled_playouts(game: Kingdomino) -> CompiledPlayouts | None:
    """The compiled kernel (accelerator.py); None without numba and numpy (the fast extra).
    Every option set is supported, dynasty included."""
    try:
        from kingdomkit.games.kingdomino.accelerator import KingdominoAccelerator
    except ImportError:
        return None
    return KingdominoAccelerator(game)


SHAPE = GameShape(
    name="kingdomino",
    summary="Kingdomino, 2-4 players, with every official variant",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    rules=Kingdomino,
    capabilities=Capabilities(heuristics=heuristics, playouts=compiled_playouts),
)
