"""Outcome scorers: what a search maximises, from the end of a playout (`score=` setting).

    wdl        win/draw/loss: `game.returns` (1/k to each of k tied winners)       in [0, 1]
    points     own points (`game.scores`)                                          raw
    relative   own / (own + best opponent), 0.5 when both are 0 (clamped to [0, 1]) in [0, 1]

A playout cut short (a search's `depth=`) ends at a heuristic: the game's `forecast`
(heuristics.py) for every player stands in for the scores, and the players it rates highest
share the win.

UCB needs values in [0, 1]: `Normaliser` maps `points` by a running range, (v - low) /
(high - low) with low = min(0, least seen) and high = the most seen in this search (the
other two scorers are already in [0, 1] and pass through).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

SCORERS = ("wdl", "points", "relative")

Scorer = Callable[[Sequence[float], Sequence[float]], list[float]]


def wdl(scores: Sequence[float], returns: Sequence[float]) -> list[float]:
    return [float(r) for r in returns]


def points(scores: Sequence[float], returns: Sequence[float]) -> list[float]:
    return [float(s) for s in scores]


def relative(scores: Sequence[float], returns: Sequence[float]) -> list[float]:
    values = []
    for player, own in enumerate(scores):
        best = max((s for p, s in enumerate(scores) if p != player), default=0.0)
        total = own + best
        if total <= 0:
            values.append(0.5 if own == best else (1.0 if own > best else 0.0))
        else:
            values.append(min(1.0, max(0.0, own / total)))
    return values


def make_scorer(name: str) -> Scorer:
    """The scorer called `name` (one of SCORERS; the caller has checked it)."""
    return {"wdl": wdl, "points": points, "relative": relative}[name]


def shares(values: Sequence[float]) -> list[float]:
    """Win shares of the players valued highest: 1/k to each of k tied leaders."""
    best = max(values)
    leaders = sum(1 for v in values if v == best)
    return [1.0 / leaders if v == best else 0.0 for v in values]


class Normaliser:
    """Maps raw values of one scorer into [0, 1] for UCB (see the card)."""

    def __init__(self, scorer: str) -> None:
        self.bounded = scorer != "points"
        self.low = 0.0
        self.high = 1.0

    def see(self, values: Sequence[float]) -> None:
        if not self.bounded:
            for v in values:
                if v > self.high:
                    self.high = v
                elif v < self.low:
                    self.low = v

    def __call__(self, value: float) -> float:
        if self.bounded:
            return value
        return (value - self.low) / (self.high - self.low)
