"""Kingdomino (Bruno Cathala, Blue Orange), every official variant.

The rules are rules.py; the declaration of everything the game provides is shape.py."""

from kingdomkit.games.kingdomino.rules import Kingdomino, KingdominoState

__all__ = ["Kingdomino", "KingdominoState"]
