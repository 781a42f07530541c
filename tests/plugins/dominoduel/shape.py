"""Domino Duel's one declaration: its facts, its rules and one capability, observations for
learners; for everything else each layer's plain default stands in (no board: the text board;
no heuristics: the score; no terminal interface: the plain one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dominoduel.rules import DominoDuel, DuelState
from kingdomkit.core.shape import Capabilities, GameShape

if TYPE_CHECKING:
    from kingdomkit.rl.observation import Observer


def observation(game: DominoDuel) -> Observer[DuelState]:
    """Where each domino is, as arrays (encoding.py, which needs numpy)."""
    from dominoduel.encoding import DuelObserver

    return DuelObserver(game)


SHAPE = GameShape(
    name="dominoduel",
    summary="Domino Duel, a two-player drafting toy (tests only)",
    rules=DominoDuel,
    option_names=(),
    default_players=2,
    title="Domino Duel",
    capabilities=Capabilities(observation=observation),
)
