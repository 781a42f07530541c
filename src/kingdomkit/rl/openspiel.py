"""Every registered game as an OpenSpiel Python game (the `openspiel` extra).

    import kingdomkit.rl.openspiel  # registers python_kingdomkit_<game> for each game
    game = pyspiel.load_game("python_kingdomkit_kingdomino", {"players": 3, "harmony": True})

Parameters: `players` (the game's default when absent), each on/off option of the game's
shape as a bool (off by default), each file option as a string ("" for none).

The game type, from the game's protocol: sequential, explicit chance (every draw is a chance
node whose outcomes the engine enumerates), terminal rewards. Perfect information unless the
game keeps secrets (it overrides `view`: Kingdoms' starting and drawn tiles), then imperfect.

Returns are the engine's `returns`: win shares, 1/k to each of k tied winners and 0 to the
others (a team's players share their side's win), so the game is constant-sum with sum 1.
The raw points are the engine's `scores` (`KingdomkitState.scores`).

Observations: the tensor is the game's encoder (`observer(game).observe(state, player)`, from
the player's view) flattened in the order of its `spec()`, float32; the observation string is
the game's text picture as the player sees it. The information-state tensor is the same
encoding: in these games what a player saw earlier tells nothing more about what is hidden or
to come than the view does (secrets are drawn from what the view counts as unseen, and every
placed tile, castle and claim stays on the table), so the view is a sufficient statistic.
Two histories with the same view share a tensor; the information-state string tells them
apart. The information state string is the game's
history as the player saw it (a chance outcome hidden from them written "?") with that
picture: it never holds another player's secret. `resample_from_infostate` draws a full state
the player cannot tell from this one (the game's `conceal` of the history, replayed), for
OpenSpiel's information-set MCTS.

A state holds the engine's frozen state: applying an action replaces it by the engine's `apply`
(copy-on-write), and a clone shares it (OpenSpiel copies the history it keeps in C++).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from kingdomkit.core.protocol import CHANCE, TERMINAL, Game
from kingdomkit.core.registry import GAMES, game_info, make_game
from kingdomkit.core.shape import GameShape
from kingdomkit.rl.observation import observer

PREFIX = "python_kingdomkit_"
# OpenSpiel needs a bound on a game's length; this one is for a game that declares none.
UNKNOWN_LENGTH = 100_000
HIDDEN = "?"


def short_name(game: str) -> str:
    """The name OpenSpiel loads the kingdomkit game `game` by."""
    return PREFIX + game


def _keeps_secrets(game: Game[Any]) -> bool:
    """Whether some player may not see the whole state (the game overrides `view`)."""
    return type(game).view is not Game.view


def _parameters(shape: GameShape) -> dict[str, Any]:
    """OpenSpiel's parameters of `shape` with their defaults (ints, bools and strings)."""
    parameters: dict[str, Any] = {"players": shape.default_players}
    parameters.update(dict.fromkeys(shape.option_names, False))
    parameters.update({name: "" for name, _ in shape.file_options})
    return parameters


def options_of(shape: GameShape, params: Mapping[str, Any]) -> dict[str, Any]:
    """Our options (as a record stores them) from OpenSpiel's parameters."""
    files = {name for name, _ in shape.file_options}
    options: dict[str, Any] = {"players": int(params.get("players", shape.default_players))}
    for name, value in params.items():
        if name in files and value:
            options[name] = str(value)
        elif name in shape.option_names and value:
            options[name] = True
    return options


def game_type(shape: GameShape) -> pyspiel.GameType:
    """The OpenSpiel game type of `shape`'s game."""
    rules = make_game(shape.name)
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(shape.name),
        long_name=f"kingdomkit {shape.title or shape.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.IMPERFECT_INFORMATION
        if _keeps_secrets(rules)
        else information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=type(rules).max_players,
        min_num_players=type(rules).min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(shape),
    )


class KingdomkitGame(pyspiel.Game):  # type: ignore[misc]
    """One kingdomkit game configured by OpenSpiel's parameters; `register` makes a subclass
    per game, with its `shape`."""

    shape: GameShape

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        shape = self.shape
        self.rules: Game[Any] = shape.rules(options_of(shape, params))
        self.secrets = _keeps_secrets(self.rules)
        length = self.rules.max_game_length()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_actions,
            max_chance_outcomes=self.rules.num_chance_outcomes,
            num_players=self.rules.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=UNKNOWN_LENGTH if length is None else length,
        )
        super().__init__(game_type(shape), info, params)

    def new_initial_state(self) -> KingdomkitState:
        return KingdomkitState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> KingdomkitObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KingdomkitObserver(self.rules, perfect_recall, params)


@dataclass(frozen=True, slots=True)
class Position:
    """Everything a state holds on the Python side, never changed (an action makes a new
    one): OpenSpiel clones a Python state by deep-copying its attributes, and a clone shares
    this whole (the engine's states are frozen values too)."""

    rules: Game[Any]
    secrets: bool  # whether some outcomes are hidden from some players
    state: Any  # the engine's state
    actions: tuple[int, ...]
    seen: tuple[tuple[str, ...], ...]  # each player's history as they saw it

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self


class KingdomkitState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's frozen state, the actions that led to it, and each
    player's history as they saw it (for information state strings)."""

    def __init__(self, game: KingdomkitGame) -> None:
        super().__init__(game)
        rules = game.rules
        start = rules.initial_state()
        self.position = Position(rules, game.secrets, start, (), ((),) * rules.num_players)

    @property
    def rules(self) -> Game[Any]:
        return self.position.rules

    @property
    def state(self) -> Any:
        """The engine's state."""
        return self.position.state

    @property
    def actions(self) -> tuple[int, ...]:
        return self.position.actions

    # -- OpenSpiel's state API ---------------------------------------------------------
    def current_player(self) -> int:
        player = self.rules.current_player(self.state)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.rules.legal_actions(self.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.rules.chance_outcomes(self.state))

    def _apply_action(self, action: int) -> None:
        now = self.position
        rules, before = now.rules, now.state
        after = rules.apply(before, action)
        text = rules.action_to_string(before, action)
        chance = now.secrets and rules.is_chance(before)
        seen = tuple(
            (*history, HIDDEN if chance and self._hidden(before, action, after, player) else text)
            for player, history in enumerate(now.seen)
        )
        self.position = Position(rules, now.secrets, after, (*now.actions, action), seen)

    def _hidden(self, before: Any, outcome: int, after: Any, player: int) -> bool:
        """Whether `player` cannot tell `outcome` from another outcome of this chance node."""
        rules = self.rules
        view = rules.view(after, player)
        return any(
            rules.view(rules.apply(before, other), player) == view
            for other, _ in rules.chance_outcomes(before)
            if other != outcome
        )

    def _action_to_string(self, player: int, action: int) -> str:
        return self.rules.action_to_string(self.state, action)

    def is_terminal(self) -> bool:
        return self.rules.is_terminal(self.state)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.rules.num_players
        return list(self.rules.returns(self.state))

    def scores(self) -> list[float]:
        """Each player's points (Kingdoms: gold) as the engine counts them."""
        return list(self.rules.scores(self.state))

    def information_state(self, player: int) -> str:
        """The history as `player` saw it, then the position as they see it."""
        history = " ".join(self.position.seen[player])
        return f"{history}\n{self.rules.render(self.state, player)}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KingdomkitState:
        """A state that `player_id` cannot tell from this one: the game's `conceal` of the
        history (its secrets drawn again), seeded from OpenSpiel's sampler."""
        rng = random.Random(int(probability_sampler() * 2**53))
        state = KingdomkitState(self.get_game())
        for action in self.rules.conceal(self.actions, player_id, rng):
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        return self.rules.render(self.state, None)


class KingdomkitObserver:
    """OpenSpiel's Python observer over the game's encoder (`tensor` and `dict` views)."""

    def __init__(
        self, rules: Game[Any], perfect_recall: bool, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {dict(params)}")
        self.encoder = observer(rules)
        self.rules = rules
        self.perfect_recall = perfect_recall
        spec = self.encoder.spec()
        self.tensor = np.zeros(sum(int(np.prod(s.shape)) for s in spec.values()), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        start = 0
        for name, array in spec.items():
            size = int(np.prod(array.shape))
            self.dict[name] = self.tensor[start : start + size].reshape(array.shape)
            start += size

    def set_from(self, state: KingdomkitState, player: int) -> None:
        for name, array in self.encoder.observe(state.state, player).items():
            self.dict[name][...] = array

    def string_from(self, state: KingdomkitState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        return self.rules.render(state.state, player)


def register(name: str) -> str:
    """Register the kingdomkit game `name` with OpenSpiel (once); its short name."""
    shape = game_info(name)
    short = short_name(name)
    if short not in pyspiel.registered_names():
        # A class, not a closure: OpenSpiel's registry keeps its factory until the process
        # ends, after Python has gone, and a closure freed then aborts the exit.
        title = (shape.title or shape.name).replace(" ", "")
        factory = type(f"{title}Game", (KingdomkitGame,), {"shape": shape})
        pyspiel.register_game(game_type(shape), factory)
    return short


def register_all() -> list[str]:
    """Register every game of the registry; their short names."""
    return [register(name) for name in sorted(GAMES)]


register_all()
