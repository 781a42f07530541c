"""The shape of Kingdomino: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.kingdomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.kingdomino.rules import Kingdomino

if TYPE_CHECKING:
    from kingdomkit.cli.terminal.kit import Terminal


def terminal(game: Kingdomino) -> Terminal:
    """Kingdomino at a terminal, for `kingdomkit play`."""
    from kingdomkit.games.kingdomino.terminal import TerminalUI

    return TerminalUI()


SHAPE = GameShape(
    name="kingdomino",
    summary="Kingdomino, 2-4 players, with every official variant",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    rules=Kingdomino,
    capabilities=Capabilities(terminal=terminal),
)
