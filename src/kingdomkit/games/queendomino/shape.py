"""The shape of Queendomino: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.queendomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.queendomino.rules import Queendomino

if TYPE_CHECKING:
    from kingdomkit.games.queendomino.state import QueendominoState
    from kingdomkit.rl.observation import Observer


def observation(game: Queendomino) -> Observer[QueendominoState]:
    """Queendomino's observation encoding (encoding.py, which needs numpy, imported only here); its
    symmetries are the 8 rotations and reflections of the kingdoms."""
    from kingdomkit.games.queendomino.encoding import QueendominoEncoder

    return QueendominoEncoder(game)


SHAPE = GameShape(
    name="queendomino",
    summary="Queendomino, 2-4 players; the Royal Wedding, 3-8 players or teams",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    rules=Queendomino,
    file_options=(("buildings", "a corrected building table (CSV, as the shipped one)"),),
    capabilities=Capabilities(observation=observation),
)
