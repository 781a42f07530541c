"""The shape of Queendomino: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.queendomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.queendomino.rules import Queendomino

if TYPE_CHECKING:
    from kingdomkit.cli.terminal.kit import Terminal


def terminal(game: Queendomino) -> Terminal:
    """Queendomino at a terminal, for `kingdomkit play`."""
    from kingdomkit.games.queendomino.terminal import TerminalUI

    return TerminalUI()


SHAPE = GameShape(
    name="queendomino",
    summary="Queendomino, 2-4 players; the Royal Wedding, 3-8 players or teams",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    rules=Queendomino,
    file_options=(("buildings", "a corrected building table (CSV, as the shipped one)"),),
    capabilities=Capabilities(terminal=terminal),
)
