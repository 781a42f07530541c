"""Domino Duel's one declaration: its facts and its rules, with none of the optional
capabilities (each layer's plain default stands in)."""

from __future__ import annotations

from dominoduel.rules import DominoDuel
from kingdomkit.core.shape import GameShape

SHAPE = GameShape(
    name="dominoduel",
    summary="Domino Duel, a two-player drafting toy (tests only)",
    rules=DominoDuel,
    option_names=(),
    default_players=2,
    title="Domino Duel",
)
