"""The analyst's own noise: how much it disagrees with itself, the yardstick of the grades.

A search is a sample: the same analyst with another seed ranks the moves of a position a little
differently. A review grades a move by the points it loses against the analyst's best, so a
loss within that noise says nothing about the move. This module measures it, as
`kingdomkit analyze --noise` prints it (docs/bots.md has the figures behind the thresholds
in each game's `Heuristics.grading`):

    positions   decisions with a choice, taken along bot games from a seed (greedy moves,
                a quarter of them random, so the positions are varied but plausible)
    runs        the analyst searches each position `runs` times, each with its own seed:
                the first as a hint does, the others as a review of the hint's best move
                does (with it as the move played, `focus`)
    loss        per review run: the points it says the hint's best move loses against its
                own best: what a player who followed a hint made with another seed would
                be graded (the server gives a hint and its review the same seed; this is
                the noise left in every other grade)
    spread      per position, the standard deviation over the runs of the best move's
                expected points (the noise of the analyst's value estimate)

The suggested thresholds: a mistake loses more than the 99th percentile of the losses (rounded
up to half a point, and at least MIN_MISTAKE: an analyst that never disagrees with itself on a
sample still has some noise, and less than a point is not worth a word), a blunder more than
twice that.
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
MIN_MISTAKE = 1.0  # the least loss (in the game's unit) ever called a mistake


@dataclass(frozen=True)
class Noise:
    """What `measure_noise` found, in the game's unit."""

    positions: int
    runs: int
    losses: tuple[float, ...]  # one per review run of a position
    spreads: tuple[float, ...]  # one per position
    seconds: float  # mean time of one analysis on this machine

    def loss_quantile(self, q: float) -> float:
        return quantile(self.losses, q)

    @property
    def disagreements(self) -> float:
        """The share of review runs that find the hint's best move loses something."""
        return sum(1 for loss in self.losses if loss > 0) / len(self.losses) if self.losses else 0.0

    @property
    def mistake(self) -> float:
        """The suggested mistake threshold: the 99th percentile of the losses, rounded up."""
        return max(MIN_MISTAKE, math.ceil(self.loss_quantile(0.99) * 2) / 2)

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
            focus = best_estimate(analyses[0]).action if analyses else None
            try:
                analyses.append(searcher.analyse(game, state, rng, focus=focus))
            finally:
                close = getattr(searcher, "close", None)
                if close is not None:
                    close()
            spent += time.perf_counter() - started
        hinted = best_estimate(analyses[0]).action
        losses.extend(_loss(review, hinted) for review in analyses[1:])
        spreads.append(statistics.pstdev(best_estimate(a).points for a in analyses))
        if on_position is not None:
            on_position()
    return Noise(positions, runs, tuple(losses), tuple(spreads), spent / (positions * runs))


def _loss(review: Analysis, played: int) -> float:
    """The points `review` says `played` loses against its best move."""
    points = {entry.action: entry.points for entry in review.actions}
    return max(0.0, best_estimate(review).points - points[played])
