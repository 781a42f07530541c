"""What the tests of every game's compiled kernel share: the states of random games, and the
kernel's playouts checked against the Python engine's, the reference, from the same
SplitMix64 stream."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kingdomkit.bots.playouts import make_policy, playout
from kingdomkit.core.driver import random_playout
from kingdomkit.core.protocol import CHANCE, Game
from kingdomkit.core.rng import SplitMix64

POLICIES = ("random", "greedy", "epsilon-greedy", "player-greedy")  # the kernels' order


def game_traces(game: Game[Any], games: int, seed: int) -> list[list[Any]]:
    """Every state met (the final one included) in `games` random games."""
    rng = random.Random(seed)
    traces = []
    for _ in range(games):
        trace: list[Any] = []

        def keep(before: Any, _action: int, _after: Any) -> None:
            trace.append(before)  # noqa: B023  (used before the loop moves on)

        final = random_playout(game, rng, on_step=keep)
        traces.append([*trace, final])
    return traces


def sample_states(traces: Sequence[Sequence[Any]], seed: int, start: float = 0.0) -> list[Any]:
    """A state of each trace, picked from `start` (a fraction) of its game on."""
    rng = random.Random(seed)
    return [rng.choice(trace[int(start * len(trace)) :]) for trace in traces]


def moves(game: Game[Any], state: Any) -> list[int]:
    """The decisions or the chance outcomes of `state`."""
    if game.current_player(state) == CHANCE:
        return [outcome for outcome, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def python_playouts(
    game: Game[Any], state: Any, policy: str, player: int, count: int, seed: int
) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """The reference: `count` playouts from one SplitMix64 stream (epsilon 0.25)."""
    rng = SplitMix64(seed)
    scores, returns = [], []
    for _ in range(count):
        final = playout(game, state, make_policy(policy, player, 0.25), rng)
        scores.append(game.scores(final))
        returns.append(game.returns(final))
    return scores, returns


def assert_same_playouts(
    game: Game[Any],
    accelerator: Any,
    state: Any,
    policy: str,
    player: int,
    count: int,
    seed: int,
) -> None:
    """The kernel's playouts from `state` are the reference's, score for score."""
    scores, returns = accelerator.playouts(state, policy, player, 0.25, count, seed)
    expected_scores, expected_returns = python_playouts(game, state, policy, player, count, seed)
    assert [tuple(row) for row in scores] == expected_scores
    assert [tuple(row) for row in returns] == expected_returns
