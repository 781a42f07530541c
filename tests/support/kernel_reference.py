"""What the tests of every game's compiled kernel share: the option sets they run under, the
states of random games, and the kernel's outputs checked against the Python engine's, the
reference (legal actions, greedy values, and playouts from the same SplitMix64 stream)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.playouts import make_policy, playout
from kingdomkit.core.driver import random_playout
from kingdomkit.core.protocol import CHANCE, Game
from kingdomkit.core.registry import make_game
from kingdomkit.core.rng import SplitMix64

POLICIES = ("random", "greedy", "epsilon-greedy", "player-greedy")  # the kernels' order


def by_players(prefix: str, counts: Sequence[int], **options: Any) -> dict[str, dict[str, Any]]:
    """`options` with each number of players in `counts`, by the ids `<prefix><count>p`."""
    return {f"{prefix}{count}p": {"players": count, **options} for count in counts}


# Each game's option sets, by an id: every player count, and every option alone and combined.
OPTION_SETS: dict[str, dict[str, dict[str, Any]]] = {
    "kingdomino": {
        **by_players("", (2, 3, 4)),
        "3p-draw-four": {"players": 3, "draw_four": True},
        "mighty-duel": {"players": 2, "mighty_duel": True},
        "middle-harmony": {"players": 4, "middle_kingdom": True, "harmony": True},
        "dynasty": {"players": 2, "dynasty": True, "middle_kingdom": True, "harmony": True},
    },
    "kingdoms": {
        **by_players("", (2, 3, 4)),
        **by_players("last-castle-", (2, 4), down_to_the_last_castle=True),
        **by_players("no-luck-", (3, 4), no_luck=True),
        **by_players("as-you-go-", (2, 4), score_as_you_go=True),
        **by_players(
            "all-", (2, 3), down_to_the_last_castle=True, no_luck=True, score_as_you_go=True
        ),
    },
    "queendomino": {
        **by_players("", (2, 3, 4)),
        **by_players("wedding-", (3, 4, 5, 8), royal_wedding=True),
        **by_players("teams-", (6, 8), royal_wedding=True, teams=True),
    },
}


@cache
def game_for(name: str, option_set: str) -> Any:
    """The game `name` under its option set `option_set`, one object (and kernel) for all."""
    return make_game(name, OPTION_SETS[name][option_set])


def accelerator_for(game: Game[Any]) -> Any:
    """The game's compiled kernel, which must be there (the tests skip without numba)."""
    accelerator = compiled(game)
    assert accelerator is not None
    return accelerator


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


@cache
def traces_of(name: str, option_set: str, games: int, seed: int) -> tuple[tuple[Any, ...], ...]:
    """`game_traces` of `game_for(name, option_set)`, kept: some games are slow to play."""
    return tuple(tuple(trace) for trace in game_traces(game_for(name, option_set), games, seed))


def sample_states(traces: Sequence[Sequence[Any]], seed: int, start: float = 0.0) -> list[Any]:
    """A state of each trace, picked from `start` (a fraction) of its game on."""
    rng = random.Random(seed)
    return [rng.choice(trace[int(start * len(trace)) :]) for trace in traces]


def first_decision(game: Game[Any], seed: int) -> Any:
    """The state of a game's first decision, chance's outcomes drawn from `seed`."""
    rng = random.Random(seed)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.sample_chance(state, rng))
    return state


def moves(game: Game[Any], state: Any) -> list[int]:
    """The decisions or the chance outcomes of `state`."""
    if game.current_player(state) == CHANCE:
        return [outcome for outcome, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def sampled_moves(
    game: Game[Any], states: Sequence[Any], most: int, rng: random.Random
) -> tuple[list[Any], list[int]]:
    """Up to `most` moves of each state, picked by `rng`: the states (each once a move) and
    the moves, to apply in a batch."""
    before, played = [], []
    for state in states:
        options = moves(game, state)
        for action in rng.sample(options, min(len(options), most)):
            before.append(state)
            played.append(action)
    return before, played


def assert_same_legal_actions(game: Game[Any], states: Sequence[Any]) -> None:
    """The kernel's legal actions of each state are the engine's (none where no one decides)."""
    legal = accelerator_for(game).legal_lists(states)
    for state, actions in zip(states, legal, strict=True):
        assert actions == (game.legal_actions(state) if game.current_player(state) >= 0 else ())


def assert_same_values(game: Game[Any], states: Sequence[Any], values: Sequence[Any]) -> None:
    """The kernel's greedy values, a row a state, are the heuristic's for every player."""
    evaluate = heuristics(game).evaluate
    for state, row in zip(states, values, strict=True):
        assert list(row) == [evaluate(state, p) for p in range(game.num_players)]


def assert_same_arrays(got: Sequence[Any], expected: Sequence[Any], why: Any) -> None:
    """The same arrays, part for part."""
    for part, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert np.array_equal(mine, theirs), (part, why)


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
    game: Game[Any], state: Any, policy: str, player: int, count: int, seed: int
) -> None:
    """The kernel's playouts from `state` are the reference's, score for score."""
    accelerator = accelerator_for(game)
    scores, returns = accelerator.playouts(state, policy, player, 0.25, count, seed)
    expected_scores, expected_returns = python_playouts(game, state, policy, player, count, seed)
    assert [tuple(row) for row in scores] == expected_scores
    assert [tuple(row) for row in returns] == expected_returns
