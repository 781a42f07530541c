"""Search budgets: how long a search bot thinks about one turn.

A bot is given either `time=SECONDS` or `playouts=N` (never both); the budget is per turn: the
search at the first decision of a turn spends it, and the turn's later micro-decisions (see
the game's `turn_continues`, heuristics.py) are read from that search at once. A playout
budget makes a bot deterministic for a given seed; a time budget makes it as strong as the
machine allows.

Seconds are wall-clock seconds, unless `KINGDOMKIT_CLOCK=cpu` says to count the searching
process's own CPU seconds (`counting`): on a machine shared with other work, a wall-clock
budget buys fewer playouts than on a quiet one, and measuring time-budgeted bots there would
measure the load. Each helper process of a parallel search counts its own.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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

CLOCK_VARIABLE = "KINGDOMKIT_CLOCK"
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def clock_kind(kind: str | None = None) -> str:
    """`kind`, else the environment's (`wall` when unset), checked."""
    if kind is None:
        kind = os.environ.get(CLOCK_VARIABLE) or "wall"
    if kind not in CLOCKS:
        raise OptionError(f"{CLOCK_VARIABLE} is wall or cpu, not {kind!r}")
    return kind


@contextmanager
def counting(kind: str) -> Iterator[None]:
    """Time budgets inside count `kind` seconds, here and in the helper processes started
    inside (they inherit the environment)."""
    kind = clock_kind(kind)
    before = os.environ.get(CLOCK_VARIABLE)
    os.environ[CLOCK_VARIABLE] = kind
    try:
        yield
    finally:
        if before is None:
            del os.environ[CLOCK_VARIABLE]
        else:
            os.environ[CLOCK_VARIABLE] = before


class Clock:
    """A running budget: `more(done)` says whether another playout fits."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.now = CLOCKS[clock_kind()]
        self.started = self.now()
        self.deadline = None if budget.seconds is None else self.started + budget.seconds

    def more(self, done: int) -> bool:
        if self.deadline is not None:
            return self.now() < self.deadline
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
