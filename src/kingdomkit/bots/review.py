"""Grading a finished (or unfinished) game move by move with an analysing bot.

For every decision with a real choice (two or more legal actions), the analyst searches the
position as the player to act saw it and estimates each legal action's expected final points
for that player. A decision is graded by the *expected points lost*: the most expected points
of any action minus those of the action played (0 when the played one is, or ties, the best).
This is what `kingdomkit analyze` prints and what hints and post-game reviews are made of.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kingdomkit.core.protocol import CHANCE, TERMINAL, Game

BLUNDER_POINTS = 5.0  # a decision losing this many expected points or more is a blunder


class ActionEstimate(Protocol):
    @property
    def action(self) -> int: ...

    @property
    def points(self) -> float: ...

    @property
    def visits(self) -> int: ...


class Analysis(Protocol):
    @property
    def actions(self) -> Sequence[ActionEstimate]: ...


class Analyst(Protocol):
    def analyse(self, game: Game[Any], state: Any, rng: random.Random) -> Analysis: ...


@dataclass(frozen=True)
class GradedDecision:
    """One decision: who, what was played, what was best, and the expected points lost."""

    step: int  # index of the action in the game's list of actions
    player: int
    choices: int
    played: int
    best: int
    played_points: float
    best_points: float
    played_visits: int

    @property
    def loss(self) -> float:
        return max(0.0, self.best_points - self.played_points)

    @property
    def blunder(self) -> bool:
        return self.loss >= BLUNDER_POINTS


@dataclass(frozen=True)
class PlayerGrade:
    player: int
    decisions: int
    best_moves: int
    total_loss: float
    blunders: int

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0


def grade_decision(
    game: Game[Any], state: Any, played: int, step: int, analysis: Analysis
) -> GradedDecision:
    """Grade `played` in `state` from the analyst's estimates of every legal action."""
    estimates = {entry.action: entry for entry in analysis.actions}
    if played not in estimates:
        raise ValueError(f"the analysis has no estimate of the action played ({played})")
    best = max(estimates.values(), key=lambda entry: (entry.points, entry.visits))
    return GradedDecision(
        step,
        game.current_player(state),
        len(game.legal_actions(state)),
        played,
        best.action,
        estimates[played].points,
        best.points,
        estimates[played].visits,
    )


def review_game(
    game: Game[Any],
    actions: Sequence[int],
    analyst: Analyst,
    seed: int,
    players: Iterable[int] | None = None,
    on_decision: Callable[[GradedDecision | None], None] | None = None,
) -> list[GradedDecision]:
    """Grade every decision with a choice of `players` (default all) in the game that
    `actions` play; `on_decision` hears each graded one (None for a step skipped)."""
    wanted = set(range(game.num_players) if players is None else players)
    graded: list[GradedDecision] = []
    state = game.initial_state()
    for step, action in enumerate(actions):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        decision = None
        if player != CHANCE and player in wanted and len(game.legal_actions(state)) > 1:
            rng = random.Random(f"kingdomkit/analyze/{seed}/{step}")
            decision = grade_decision(game, state, action, step, analyst.analyse(game, state, rng))
            graded.append(decision)
        if on_decision is not None:
            on_decision(decision)
        state = game.apply(state, action)
    return graded


def decisions_to_grade(game: Game[Any], actions: Sequence[int], players: Iterable[int]) -> int:
    """How many decisions `review_game` will grade (for a progress bar)."""
    wanted = set(players)
    count = 0
    state = game.initial_state()
    for action in actions:
        player = game.current_player(state)
        if player in wanted and len(game.legal_actions(state)) > 1:
            count += 1
        state = game.apply(state, action)
    return count


def player_grades(game: Game[Any], graded: Sequence[GradedDecision]) -> list[PlayerGrade]:
    """Each player's totals over its graded decisions."""
    grades = []
    for player in range(game.num_players):
        own = [d for d in graded if d.player == player]
        grades.append(
            PlayerGrade(
                player,
                len(own),
                sum(1 for d in own if d.loss == 0.0),
                sum(d.loss for d in own),
                sum(1 for d in own if d.blunder),
            )
        )
    return grades
