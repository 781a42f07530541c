"""How a game's hints and reviews grade a move: which search analyses it, and from which loss a
move is a mistake or a blunder. Each game declares its measured gradings with its heuristics
(`Heuristics.grading`); a game or player count not measured gets UNMEASURED.

The thresholds are measured with `kingdomkit analyze --noise GAME --players N --positions 12
--runs 3` (bots/noise.py; the figures and the machine are in docs/bots.md, "How sure the
analyst is"): `mistake` is the 99th percentile of the loss a review with another seed gives
the hint's best move, rounded up to half a point (at least 1), `blunder` twice that. The
budgets are fixed playouts (not seconds, so that a hint and a review agree on any machine),
about a second's search on an idle core. Measure again after changing an analyst.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Grading:
    """The analyst of a game's hints and reviews, and the losses (in the game's unit) above
    which a move is a mistake or a blunder."""

    analyst: str
    mistake: float
    blunder: float

    def grade(self, loss: float) -> str:
        """`best` (nothing lost), `good` (within the analyst's noise), `mistake` or `blunder`."""
        if loss <= 0.0:
            return "best"
        if loss > self.blunder:
            return "blunder"
        return "mistake" if loss > self.mistake else "good"


# A game or player count not measured yet: a middling search, and wide margins.
UNMEASURED = Grading("mcts:playouts=1000", 10.0, 20.0)
