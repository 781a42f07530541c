"""The analyst's own noise: how much it disagrees with itself, the yardstick of the grades.

A search is a sample: the same analyst with another seed ranks the moves of a position a little
differently. A review grades a move by the points it loses against the analyst's best, so a
loss within that noise says nothing about the move. This module measures it, as
`kingdomkit analyze --noise` prints it (docs/bots.md has the figures behind the thresholds
in bots/review.py `GRADINGS`):

    positions   decisions with a choice, taken along bot games from a seed (greedy moves,
                a quarter of them random, so the positions are varied but plausible)
    runs        the analyst searches each position `runs` times, each with its own seed
    loss        for every ordered pair of runs (a, b): what b says a's best move loses
                against b's best: what a review would grade a hint made with another seed
    spread      per position, the standard deviation over the runs of the best move's
                expected points (the noise of the analyst's value estimate)

The suggested thresholds: a mistake loses more than the 99th percentile of the losses (rounded
up to half a point), a blunder more than twice that.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kingdomkit.bots.greedy import greedy_action
from kingdomkit.bots.review import Analysis, Analyst, best_estimate
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game

RANDOM_SHARE = 0.25  # of the moves of the games the positions come from


@dataclass(frozen=True)
class Noise:
    """What `measure_noise` found, in the game's unit."""

    positions: int
    runs: int
    losses: tuple[float, ...]  # one per ordered pair of runs of a position
    spreads: tuple[float, ...]  # one per position
    seconds: float  # mean time of one analysis on this machine

    def loss_quantile(self, q: float) -> float:
        return quantile(self.losses, q)

    @property
    def disagreements(self) -> float:
        """The share of pairs of runs whose best moves differ in value (loss > 0)."""
        return sum(1 for loss in self.losses if loss > 0) / len(self.losses) if self.losses else 0.0

    @property
    def mistake(self) -> float:
        """The suggested mistake threshold: the 99th percentile of the losses, rounded up."""
        return math.ceil(self.loss_quantile(0.99) * 2) / 2

    @property
    def blunder(self) -> float:
        return 2 * self.mistake


def quantile(values: Sequence[float], q: float) -> float:
    """The `q` quantile of `values` (linear between order statistics); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def sample_positions(game: Game[Any], count: int, seed: int) -> list[Any]:
    """`count` decisions with a choice, spread along bot games played from `seed`."""
    rng = random.Random(f"kingdomkit/noise/positions/{seed}")
    found: list[Any] = []
    while len(found) < count:
        states = _decisions_of_one_game(game, rng)
        wanted = min(count - len(found), max(1, count // 3))
        stride = max(1, len(states) // wanted)
        found.extend(states[rng.randrange(stride) :: stride][:wanted])
    return found


def _decisions_of_one_game(game: Game[Any], rng: random.Random) -> list[Any]:
    states = []
    state = game.initial_state()
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal_actions(state)
            if len(legal) > 1:
                states.append(state)
            if rng.random() < RANDOM_SHARE:
                action = rng.choice(legal)
            else:
                action = greedy_action(game, state, rng)
        state = game.apply(state, action)
    return states


def measure_noise(
    game: Game[Any],
    analyst: Callable[[], Analyst],
    positions: int,
    runs: int,
    seed: int = 0,
    on_position: Callable[[], None] | None = None,
) -> Noise:
    """Search each of `positions` positions `runs` times with fresh analysts and seeds (see
    the module card); `on_position` hears each position done."""
    if runs < 2:
        raise ValueError("the noise needs two runs or more per position")
    losses: list[float] = []
    spreads: list[float] = []
    spent = 0.0
    for index, state in enumerate(sample_positions(game, positions, seed)):
        analyses: list[Analysis] = []
        for run in range(runs):
            searcher = analyst()
            started = time.perf_counter()
            rng = random.Random(f"kingdomkit/noise/{seed}/{index}/{run}")
            try:
                analyses.append(searcher.analyse(game, state, rng))
            finally:
                close = getattr(searcher, "close", None)
                if close is not None:
                    close()
            spent += time.perf_counter() - started
        losses.extend(_pair_losses(analyses))
        spreads.append(statistics.pstdev(best_estimate(a).points for a in analyses))
        if on_position is not None:
            on_position()
    return Noise(positions, runs, tuple(losses), tuple(spreads), spent / (positions * runs))


def _pair_losses(analyses: Sequence[Analysis]) -> list[float]:
    """For every ordered pair (a, b): the points b says a's best move loses."""
    losses = []
    for a in analyses:
        chosen = best_estimate(a).action
        for b in analyses:
            if b is a:
                continue
            points = {entry.action: entry.points for entry in b.actions}
            losses.append(max(0.0, best_estimate(b).points - points[chosen]))
    return losses
