"""The board (kingdomkit.server.board) of a game that has one, for the tests of its view
model and its words."""

from __future__ import annotations

from typing import Any

from kingdomkit.core.protocol import Game
from kingdomkit.server.board import Board, board


def drawn(game: Game[Any]) -> Board[Any]:
    """`game`'s board; fails the test when it has none."""
    found = board(game)
    assert found is not None, f"{game.name} has no board"
    return found
