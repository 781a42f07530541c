"""The driver: plays any agents through the protocol, sampling chance from a seed.

The same game, seed and agents give the same game every time: chance is drawn from one
generator and each seat's agent gets its own generator, all derived from the seed, so adding
thinking to one agent never changes the dominoes another one sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kingdomkit.core.protocol import CHANCE, TERMINAL, Game


class Agent(Protocol):
    """Anything that picks a legal action for the player to act.

    An agent may also define `observe(game, player, action)`: drivers call it after every
    decision of any player (never for chance, whose outcomes may be secret), so that a search
    can keep its tree from one move to the next; `notify_decision` does the calling."""

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int: ...


def notify_decision(agents: Sequence[Any], game: Game[Any], player: int, action: int) -> None:
    """Tell every agent that has an `observe` method that `player` played `action`."""
    for agent in agents:
        observe = getattr(agent, "observe", None)
        if observe is not None:
            observe(game, player, action)


def chance_rng(seed: int) -> random.Random:
    """The generator of chance outcomes for a game played from `seed`."""
    return random.Random(f"kingdomkit/{seed}/chance")


def seat_rng(seed: int, seat: int) -> random.Random:
    """The generator handed to the agent in `seat` for a game played from `seed`."""
    return random.Random(f"kingdomkit/{seed}/seat/{seat}")


@dataclass(frozen=True)
class PlayedGame:
    """A finished (or stopped) game: its seed, every action from the start, the last state."""

    seed: int
    actions: tuple[int, ...]
    final_state: Any


StepHook = Callable[[Any, int, Any], None]


def play(
    game: Game[Any],
    agents: Sequence[Agent],
    seed: int,
    on_step: StepHook | None = None,
) -> PlayedGame:
    """Play one game from `seed` with one agent per seat; `on_step(before, action, after)`."""
    if len(agents) != game.num_players:
        raise ValueError(f"{game.num_players} agents needed, {len(agents)} given")
    chance = chance_rng(seed)
    seats = [seat_rng(seed, seat) for seat in range(game.num_players)]
    current_player = game.current_player
    state = game.initial_state()
    actions: list[int] = []
    while True:
        player = current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = game.sample_chance(state, chance)
        else:
            action = agents[player].act(game, state, seats[player])
            notify_decision(agents, game, player, action)
        after = game.apply(state, action)
        if on_step is not None:
            on_step(state, action, after)
        actions.append(action)
        state = after
    return PlayedGame(seed, tuple(actions), state)


def replay_actions(game: Game[Any], actions: Sequence[int], checked: bool = True) -> Any:
    """The state reached by playing `actions` from the initial state."""
    state = game.initial_state()
    apply = game.apply_checked if checked else game.apply
    for action in actions:
        state = apply(state, action)
    return state


Chooser = Callable[[Game[Any], Any, Any], int]


def random_choice(game: Game[Any], state: Any, rng: Any) -> int:
    """A legal action uniformly at random, from one uniform of `rng`."""
    legal = game.legal_actions(state)
    return legal[int(rng.random() * len(legal))]


def random_playout(
    game: Game[Any], rng: random.Random, state: Any = None, on_step: StepHook | None = None
) -> Any:
    """The terminal state reached from `state` (default: the start) with uniformly random
    decisions and chance drawn by its odds, all from `rng` (benchmarks and tests);
    `on_step(before, action, after)` sees every step."""
    start = game.initial_state() if state is None else state
    return play_out(game, start, random_choice, rng, on_step)


def play_out(
    game: Game[Any], state: Any, choose: Chooser, rng: Any, on_step: StepHook | None = None
) -> Any:
    """The terminal state reached from `state` with `choose(game, state, rng)` deciding for
    every player and chance drawn by its odds (`game.sample_chance`), all from `rng` (anything
    with a `random()` method); `on_step(before, action, after)` sees every step."""
    current_player = game.current_player
    while True:
        player = current_player(state)
        if player == TERMINAL:
            return state
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = choose(game, state, rng)
        after = game.apply(state, action)
        if on_step is not None:
            on_step(state, action, after)
        state = after
