"""Simulations for the search bots: one playout (or a batch) from a state to a valued end.

A `Simulator` plays a state out with a policy of playouts.py (or, when the game offers them
and the playout runs to the end, its compiled playouts, compiled.py, seeded from the bot's
generator) and turns the end into per-player values with a scorer (outcome.py) and the
players' points. The policy `auto` is greedy (random playouts are too noisy to beat the
greedy bot; without a kernel, how far to play is the game's `playout_depth`). With `depth=D`
a playout stops after D decisions and the game's heuristic (`forecast`, heuristics.py)
values the position instead (never through the kernel); a cut in the middle of a turn
(`turn_continues`) first ends the turn greedily, so that the heuristic always compares whole
turns (Queendomino: a placement before its build and its claim).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.greedy import greedy_action
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.outcome import SCORERS, Scorer, make_scorer, shares
from kingdomkit.bots.playouts import DEFAULT_EPSILON, POLICIES, make_policy
from kingdomkit.bots.spec import Settings
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game, OptionError

AUTO = "auto"  # greedy playouts (the `mcts` default)
Outcome = tuple[list[float], list[float]]  # (scorer values, points) per player


class Simulator:
    """Plays states out for `player`'s search and values the ends for everybody."""

    def __init__(
        self,
        game: Game[Any],
        player: int,
        policy: str,
        epsilon: float,
        scorer: str,
        depth: int | None = None,
        accelerate: bool = True,
    ) -> None:
        self.game = game
        self.player = player
        self.heuristics = heuristics(game)
        kernel = compiled(game) if accelerate and depth is None else None
        if policy == AUTO:
            policy = "greedy"
        self.policy_name = policy
        self.epsilon = epsilon
        self.policy = make_policy(policy, player, epsilon)
        self.scorer: Scorer = make_scorer(scorer)
        self.depth = depth
        self.kernel = kernel

    def terminal(self, state: Any) -> Outcome:
        """The values and points of a finished game."""
        game = self.game
        scores = game.scores(state)
        return self.scorer(scores, game.returns(state)), list(scores)

    def heuristic(self, state: Any) -> Outcome:
        """The values and points the game's heuristic gives an unfinished position."""
        forecast = self.heuristics.forecast
        estimates = [forecast(state, p) for p in range(self.game.num_players)]
        return self.scorer(estimates, shares(estimates)), estimates

    def run(self, state: Any, rng: random.Random, before: Any = None) -> Outcome:
        """One playout from `state` (reached from the decision `before`, if given), valued."""
        if self.kernel is not None and self.game.current_player(state) != TERMINAL:
            return self.batch(state, rng, 1)[0]
        game = self.game
        current_player = game.current_player
        policy = self.policy
        left = self.depth
        while True:
            player = current_player(state)
            if player == TERMINAL:
                return self.terminal(state)
            if player == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                if left is not None:
                    if left <= 0:
                        return self.heuristic(self._turn_ended(before, state, rng))
                    left -= 1
                action = policy(game, state, rng)
                before = state
            state = game.apply(state, action)

    def _turn_ended(self, before: Any, state: Any, rng: random.Random) -> Any:
        """`state`, or, when it is the middle of a turn begun at `before`, the end of that turn
        played greedily: the heuristic compares whole turns, as the greedy bot does."""
        game = self.game
        while before is not None and self.heuristics.turn_continues(before, state):
            before, state = state, game.apply(state, greedy_action(game, state, rng))
        return state

    def batch(self, state: Any, rng: random.Random, count: int) -> list[Outcome]:
        """`count` playouts from `state` (one call of the compiled kernel when there is one)."""
        if self.kernel is None or self.game.current_player(state) == TERMINAL:
            return [self.run(state, rng) for _ in range(count)]
        scores, returns = self.kernel.playouts(
            state, self.policy_name, self.player, self.epsilon, count, rng.getrandbits(64)
        )
        return [self._row(scores[i], returns[i]) for i in range(count)]

    def _row(self, scores: Sequence[float], returns: Sequence[float]) -> Outcome:
        own = [float(s) for s in scores]
        return self.scorer(own, [float(r) for r in returns]), own


def turn_sequences(game: Game[Any], state: Any) -> list[tuple[tuple[int, ...], Any]]:
    """Every sequence of the acting player's micro-actions to the end of the turn (as the
    greedy bot enumerates them, see `turn_continues`), with the state it leads to."""
    found: list[tuple[tuple[int, ...], Any]] = []
    turn_continues = heuristics(game).turn_continues

    def walk(before: Any, prefix: tuple[int, ...]) -> None:
        for action in game.legal_actions(before):
            after = game.apply(before, action)
            if turn_continues(before, after):
                walk(after, (*prefix, action))
            else:
                found.append(((*prefix, action), after))

    walk(state, ())
    return found


def first_actions(sequences: Sequence[tuple[int, ...]]) -> list[int]:
    """The distinct first actions of `sequences`, in order."""
    return list(dict.fromkeys(seq[0] for seq in sequences))


def read_simulation(read: Settings, playout: str, score: str) -> tuple[str, float, str]:
    """The `playout=`, `epsilon=` and `score=` settings of a search bot, with its defaults."""
    policy = read.text("playout", playout, (AUTO, *POLICIES) if playout == AUTO else POLICIES)
    epsilon = read.number("epsilon", DEFAULT_EPSILON, low=-1e-12)
    if epsilon is None or not 0.0 <= epsilon <= 1.0:
        raise OptionError(f"{read.bot}: epsilon is a probability between 0 and 1, not {epsilon}")
    return policy, epsilon, read.text("score", score, SCORERS)
