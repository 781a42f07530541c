"""Queendomino (Bruno Cathala, Blue Orange), with the Royal Wedding (both boxes together).

The rules are rules.py; the declaration of everything the game provides is shape.py."""

from kingdomkit.games.queendomino.rules import Queendomino, QueendominoState

__all__ = ["Queendomino", "QueendominoState"]
