"""Grading a finished (or unfinished) game move by move with an analysing bot.

For every decision with a real choice (two or more legal actions), the analyst searches the
position as the player to act saw it and estimates each legal action's expected final points
for that player. A decision is graded by the *expected points lost*: the most expected points
of any action minus those of the action played (0 when the played one is, or ties, the best).
This is what `kingdomkit analyze` prints and what hints and post-game reviews are made of.

"Points" are the game's score, in its own unit (`Game.score_unit`: gold in Kingdoms).

Each game's heuristics say, per player count, which search makes hints and reviews (the same
one for both, with a fixed number of playouts: a hint and a review of a position agree on any
machine) and from which loss a move is a mistake or a blunder (`Heuristics.grading`, a
`Grading` of grading.py): beyond the analyst's own noise, measured by `kingdomkit analyze
--noise` (bots/noise.py; the figures are in docs/bots.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kingdomkit.bots.analysis import most_points
from kingdomkit.bots.grading import UNMEASURED, Grading
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game


def grading_of(game: Game[Any]) -> Grading:
    """The analyst and thresholds of `game` as configured (its player count): its heuristics'
    measured grading, else UNMEASURED."""
    return heuristics(game).grading(game.num_players) or UNMEASURED


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
    def analyse(
        self, game: Game[Any], state: Any, rng: random.Random, focus: int | None = None
    ) -> Analysis:
        """Every legal action's estimate; `focus`, the move played, estimated as surely as
        the best one (a review grades it)."""
        ...


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


@dataclass(frozen=True)
class PlayerGrade:
    player: int
    decisions: int
    best_moves: int
    total_loss: float
    mistakes: int
    blunders: int

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0


def best_estimate(analysis: Analysis) -> ActionEstimate:
    """The analyst's best move, as a hint lists it first (analysis.py `most_points`)."""
    return most_points(analysis.actions)


def analysis_rng(seed: int | str, step: int) -> random.Random:
    """The random source of the analysis of the decision at `step`: hints and reviews of one
    game use the same, so that with one analyst they search a position identically."""
    return random.Random(f"kingdomkit/analyze/{seed}/{step}")


def grade_decision(
    game: Game[Any], state: Any, played: int, step: int, analysis: Analysis
) -> GradedDecision:
    """Grade `played` in `state` from the analyst's estimates of every legal action."""
    estimates = {entry.action: entry for entry in analysis.actions}
    if played not in estimates:
        raise ValueError(f"the analysis has no estimate of the action played ({played})")
    best = best_estimate(analysis)
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
    seed: int | str,
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
            analysis = analyst.analyse(game, state, analysis_rng(seed, step), focus=action)
            decision = grade_decision(game, state, action, step, analysis)
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


def player_grades(
    game: Game[Any], graded: Sequence[GradedDecision], grading: Grading | None = None
) -> list[PlayerGrade]:
    """Each player's totals over its graded decisions (mistakes and blunders by `grading`,
    by default the game's)."""
    grading = grading or grading_of(game)
    grades = []
    for player in range(game.num_players):
        own = [d for d in graded if d.player == player]
        kinds = [grading.grade(d.loss) for d in own]
        grades.append(
            PlayerGrade(
                player,
                len(own),
                sum(1 for d in own if d.loss == 0.0),
                sum(d.loss for d in own),
                kinds.count("mistake"),
                kinds.count("blunder"),
            )
        )
    return grades
