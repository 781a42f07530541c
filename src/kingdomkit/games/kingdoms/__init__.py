"""Knizia's Kingdoms (2010 edition, with the Wizard), with its hidden information.

The rules are rules.py; the declaration of everything the game provides is shape.py."""

from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState

__all__ = ["Kingdoms", "KingdomsState"]
