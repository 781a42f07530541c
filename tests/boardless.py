"""A game whose shape provides no board (kingdomkit.server.board): Kingdomino's rules under
another name, for the tests that play it through the server and in a browser with the text
board. Its entry point, for a `kingdomkit serve` of its own: `boardless = boardless:SHAPE`."""

from __future__ import annotations

from pathlib import Path

from kingdomkit.core.shape import GameShape
from kingdomkit.games.kingdomino.options import FLAGS
from kingdomkit.games.kingdomino.rules import Kingdomino


class BoardlessKingdomino(Kingdomino):
    """Kingdomino's rules under another name."""

    name = "boardless"


SHAPE = GameShape(
    name="boardless",
    summary="Kingdomino's rules with no board",
    rules=BoardlessKingdomino,
    option_names=FLAGS,
    default_players=2,
)


def installed(folder: Path) -> Path:
    """`folder` made a place on a PYTHONPATH where the game is installed: the smallest
    distribution that declares its `kingdomkit.games` entry point (the module stays here)."""
    found = folder / "boardless-0.dist-info"
    found.mkdir(parents=True, exist_ok=True)
    (found / "METADATA").write_text("Metadata-Version: 2.1\nName: boardless\nVersion: 0\n")
    (found / "entry_points.txt").write_text("[kingdomkit.games]\nboardless = boardless:SHAPE\n")
    return folder
