"""Playout policies: how the rest of a game is played out from a state during a search.

Each policy picks an action for the player to act, written once against the protocol:

    random          uniform among the legal actions (one uniform drawn)
    greedy          the full greedy bot's move (`greedy_action`; a uniform only to break ties)
    epsilon-greedy  one uniform u: u < epsilon plays random (a second uniform), else greedy
    player-greedy   greedy for the searching player, random for everybody else

Chance is drawn with `game.sample_chance(state, rng)`. This order of draws is a contract:
a game's compiled playouts (compiled.py) must consume the same uniforms in the
same order, so that both make the same choices from the same stream (tests check it with
`kingdomkit.core.rng.SplitMix64`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kingdomkit.bots.greedy import greedy_action
from kingdomkit.core.driver import play_out, random_choice
from kingdomkit.core.protocol import Game, OptionError

Uniforms = Any  # anything with a `random() -> float` method (random.Random, SplitMix64)
Policy = Callable[[Game[Any], Any, Uniforms], int]

POLICIES = ("random", "greedy", "epsilon-greedy", "player-greedy")
DEFAULT_EPSILON = 0.25


random_policy: Policy = random_choice


def greedy_policy(game: Game[Any], state: Any, rng: Uniforms) -> int:
    return greedy_action(game, state, rng)


def epsilon_greedy_policy(epsilon: float) -> Policy:
    def policy(game: Game[Any], state: Any, rng: Uniforms) -> int:
        if rng.random() < epsilon:
            return random_policy(game, state, rng)
        return greedy_action(game, state, rng)

    return policy


def player_greedy_policy(player: int) -> Policy:
    def policy(game: Game[Any], state: Any, rng: Uniforms) -> int:
        if game.current_player(state) == player:
            return greedy_action(game, state, rng)
        return random_policy(game, state, rng)

    return policy


def make_policy(name: str, player: int, epsilon: float = DEFAULT_EPSILON) -> Policy:
    """The policy called `name`; `player` is the searching player (for player-greedy)."""
    if name == "random":
        return random_policy
    if name == "greedy":
        return greedy_policy
    if name == "epsilon-greedy":
        if not 0.0 <= epsilon <= 1.0:
            raise OptionError(f"epsilon is a probability between 0 and 1, not {epsilon}")
        return epsilon_greedy_policy(epsilon)
    if name == "player-greedy":
        return player_greedy_policy(player)
    raise OptionError(f"unknown playout policy {name!r} (known: {', '.join(POLICIES)})")


def playout(game: Game[Any], state: Any, policy: Policy, rng: Uniforms | random.Random) -> Any:
    """The terminal state reached from `state` with `policy` deciding and chance drawn by its
    odds, all from `rng`."""
    return play_out(game, state, policy, rng)
