"""Search budgets: how long a search bot thinks about one turn.

A bot is given either `time=SECONDS` or `playouts=N` (never both); the budget is per turn: the
search at the first decision of a turn spends it, and the turn's later micro-decisions (see
the game's `turn_continues`, heuristics.py) are read from that search at once. A playout
budget makes a bot deterministic for a given seed; a time budget makes it as strong as the
machine allows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from kingdomkit.bots.spec import Settings
from kingdomkit.core.protocol import OptionError


@dataclass(frozen=True)
class Budget:
    """`seconds` of thinking, or `playouts` simulations (exactly one of them is set)."""

    seconds: float | None = None
    playouts: int | None = None

    def start(self) -> Clock:
        return Clock(self)

    def describe(self) -> str:
        return f"time={self.seconds:g}" if self.seconds is not None else f"playouts={self.playouts}"


DEFAULT_BUDGET = Budget(seconds=1.0)


class Clock:
    """A running budget: `more(done)` says whether another playout fits."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.started = time.perf_counter()
        self.deadline = None if budget.seconds is None else self.started + budget.seconds

    def more(self, done: int) -> bool:
        if self.deadline is not None:
            return time.perf_counter() < self.deadline
        return done < (self.budget.playouts or 0)

    def left(self, done: int) -> int:
        """Playouts left in a playout budget (a large number under a time budget)."""
        if self.budget.playouts is None:
            return 1 << 30
        return max(0, self.budget.playouts - done)


def read_budget(settings: Settings, default: Budget) -> Budget:
    """The budget in `settings` (`time=` or `playouts=`), else `default`."""
    seconds = settings.number("time", None)
    playouts = settings.integer("playouts", None)
    if seconds is not None and playouts is not None:
        raise OptionError(f"{settings.bot}: give time= or playouts=, not both")
    if seconds is not None:
        return Budget(seconds=seconds)
    if playouts is not None:
        return Budget(playouts=playouts)
    return default
