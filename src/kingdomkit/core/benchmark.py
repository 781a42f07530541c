"""Throughput measurement: run a piece of real work several times, report the median rate.

Timing never appears in tests (machines are noisy); this is for `kingdomkit bench` and
docs/benchmarks.md.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Benchmark:
    """`work()` does a fixed amount of real work and returns how many items it did."""

    name: str
    unit: str
    work: Callable[[], int]
    target: float | None = None  # items per second the project aims for, if any


@dataclass(frozen=True)
class BenchResult:
    name: str
    unit: str
    rates: tuple[float, ...]
    target: float | None

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "unit": self.unit,
            "median_per_second": round(self.median, 1),
            "runs_per_second": [round(r, 1) for r in self.rates],
            "target_per_second": self.target,
        }


CLOCKS: dict[str, Callable[[], float]] = {
    "wall": time.perf_counter,
    # The process's CPU seconds, every thread's: on a shared machine a rate per CPU second
    # moves far less with the load than one per wall second.
    "cpu": time.process_time,
}


def measure(benchmark: Benchmark, repeats: int, clock: str = "wall") -> BenchResult:
    """Run `benchmark` once to warm up, then `repeats` times; the rates of the timed runs,
    in items per second of `clock` (a name in `CLOCKS`)."""
    now = CLOCKS[clock]
    benchmark.work()
    rates = []
    for _ in range(repeats):
        started = now()
        items = benchmark.work()
        rates.append(items / (now() - started))
    return BenchResult(benchmark.name, benchmark.unit, tuple(rates), benchmark.target)
