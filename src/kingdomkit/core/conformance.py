"""The conformance checks every registered game must pass (OpenSpiel's RandomSimulation,
pgx's api_test, PettingZoo's api_test and seed_test, in one place).

`check_playouts` plays random games through the protocol. At every state it checks the cheap
invariants (who acts, sorted unique legal actions in range, chance distributions); on every
`deep_every`-th playout it also checks the expensive ones (purity, serialisation round trips,
the text codec, views, and resampled states: consistent with the view, and legal). At the end
of each playout it checks returns and scores, that replaying the actions gives the same state,
and that the record replays to it.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import Any

from kingdomkit.core.driver import chance_rng, replay_actions
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game
from kingdomkit.core.record import make_record, replay_record
from kingdomkit.core.registry import GAMES
from kingdomkit.core.shape import capability


class ConformanceError(AssertionError):
    """A game broke the protocol; the message says where."""


@dataclass
class PlayoutStats:
    playouts: int = 0
    states: int = 0
    decisions: int = 0
    chance_nodes: int = 0
    deep_states: int = 0


def _fail(game: Game[Any], where: str, message: str) -> None:
    raise ConformanceError(f"{game!r}, {where}: {message}")


def check_state(game: Game[Any], state: Any, where: str) -> int:
    """The cheap checks of one state; returns the player to act."""
    player = game.current_player(state)
    if not (player in (CHANCE, TERMINAL) or 0 <= player < game.num_players):
        _fail(game, where, f"current_player is {player}")
    legal = game.legal_actions(state)
    if player >= 0:
        if not isinstance(legal, tuple) or not legal:
            _fail(game, where, "a player must act but legal_actions is empty or not a tuple")
        if list(legal) != sorted(set(legal)):
            _fail(game, where, f"legal actions not sorted and unique: {legal}")
        if legal[0] < 0 or legal[-1] >= game.num_actions:
            _fail(game, where, f"legal actions out of [0, {game.num_actions}): {legal}")
    elif legal:
        _fail(game, where, f"no player acts but legal_actions is {legal}")
    if player == CHANCE:
        outcomes = game.chance_outcomes(state)
        values = [outcome for outcome, _ in outcomes]
        if not outcomes or values != sorted(set(values)):
            _fail(game, where, "chance outcomes empty, unsorted or repeated")
        if values[0] < 0 or values[-1] >= game.num_chance_outcomes:
            _fail(game, where, f"chance outcomes out of [0, {game.num_chance_outcomes})")
        if not math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9):
            _fail(game, where, "chance probabilities do not sum to 1")
        if any(p <= 0 for _, p in outcomes):
            _fail(game, where, "a chance outcome has probability <= 0")
    return player


def check_state_deeply(game: Game[Any], state: Any, rng: random.Random, where: str) -> None:
    """The expensive checks of one state."""
    snapshot = game.state_from_json(json.loads(json.dumps(game.state_to_json(state))))
    if snapshot != state:
        _fail(game, where, "state_to_json / state_from_json does not round-trip")
    if hash(snapshot) != hash(state):
        _fail(game, where, "equal states hash differently")
    player = game.current_player(state)
    if player >= 0:
        mask = game.legal_mask(state)
        if len(mask) != game.num_actions or [i for i, m in enumerate(mask) if m] != list(
            game.legal_actions(state)
        ):
            _fail(game, where, "legal_mask disagrees with legal_actions")
        for action in game.legal_actions(state):
            text = game.action_to_string(state, action)
            if game.parse_action(state, text) != action:
                _fail(game, where, f"parse_action({text!r}) is not action {action}")
            first, second = game.apply(state, action), game.apply(state, action)
            if first != second:
                _fail(game, where, f"apply is not deterministic for {text!r}")
    elif player == CHANCE:
        for outcome, _ in game.chance_outcomes(state):
            game.apply(state, outcome)
    if state != snapshot:
        _fail(game, where, "apply changed the state it was given")
    for viewer in [*range(game.num_players), None]:
        view = game.view(state, viewer)
        if viewer is not None:
            resampled = game.resample(state, viewer, rng)
            if game.view(resampled, viewer) != view:
                _fail(game, where, f"resample changes player {viewer}'s view")
            _check_resampled(game, state, resampled, viewer, f"{where}, resampled for {viewer}")
            _check_observation(game, state, resampled, viewer, where)


def _check_observation(
    game: Game[Any], state: Any, resampled: Any, viewer: int, where: str
) -> None:
    """The game's observer (its `observation` capability, kingdomkit.rl.observation) gives
    every array of its `spec`, with its shape, dtype and bounds, and only what the viewer
    sees: a resampled state (the hidden parts drawn anew) encodes the same. Skipped for games
    without an encoding, and without numpy (the `rl` extra). The core knows the observer by
    its shape's slot only, never importing the RL layer itself."""
    known = GAMES.get(game.name)  # a game checked before it is registered has no slots
    provider = known.capabilities.observation if known is not None else None
    if provider is None:
        return
    try:
        import numpy
    except ImportError:
        return
    observer = capability(game, "observation", provider)
    if observer is None:
        return
    spec = observer.spec()
    seen = observer.observe(state, viewer)
    if set(seen) != set(spec):
        _fail(game, where, f"observe gives {sorted(seen)}, the spec {sorted(spec)}")
    for name, (shape, dtype, low, high) in spec.items():
        array = seen[name]
        if array.shape != tuple(shape) or array.dtype != numpy.dtype(dtype):
            _fail(game, where, f"observation {name!r} is {array.shape} {array.dtype}")
        if array.size and (array.min() < low or array.max() > high):
            _fail(game, where, f"observation {name!r} leaves [{low}, {high}]")
    again = observer.observe(resampled, viewer)
    for name, array in seen.items():
        if not numpy.array_equal(array, again[name]):
            _fail(game, where, f"observation {name!r} of player {viewer} shows hidden parts")


def _check_resampled(game: Game[Any], state: Any, resampled: Any, viewer: int, where: str) -> None:
    """A resampled state is a legal full state: the same player acts, with the same choices
    when it is the viewer, and it survives the cheap checks, a round trip and one step."""
    player = check_state(game, resampled, where)
    if player != game.current_player(state):
        _fail(game, where, "another player acts")
    if player == viewer and game.legal_actions(resampled) != game.legal_actions(state):
        _fail(game, where, "the viewer's legal actions changed")
    if game.state_from_json(json.loads(json.dumps(game.state_to_json(resampled)))) != resampled:
        _fail(game, where, "state_to_json / state_from_json does not round-trip")
    if player == CHANCE:
        for outcome, _ in game.chance_outcomes(resampled):
            check_state(game, game.apply(resampled, outcome), where)
    elif player >= 0:
        for action in game.legal_actions(resampled):
            check_state(game, game.apply(resampled, action), where)


def check_playouts(
    game: Game[Any], playouts: int, seed: int = 0, deep_every: int = 10
) -> PlayoutStats:
    """Random playouts through the protocol with every check; raises ConformanceError."""
    stats = PlayoutStats()
    for index in range(playouts):
        game_seed = seed + index
        deep = deep_every > 0 and index % deep_every == 0
        rng = random.Random(game_seed)
        chance = chance_rng(game_seed)
        state = game.initial_state()
        actions: list[int] = []
        step = 0
        while True:
            where = f"playout {game_seed}, step {step}"
            player = check_state(game, state, where)
            if deep:
                check_state_deeply(game, state, rng, where)
                stats.deep_states += 1
            stats.states += 1
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = game.sample_chance(state, chance)
                if action not in [o for o, _ in game.chance_outcomes(state)]:
                    _fail(game, where, f"sample_chance gave impossible outcome {action}")
                stats.chance_nodes += 1
            else:
                legal = game.legal_actions(state)
                action = legal[rng.randrange(len(legal))]
                stats.decisions += 1
            state = game.apply(state, action)
            actions.append(action)
            step += 1
        _check_terminal(game, state, actions, f"playout {game_seed}", deep)
        stats.playouts += 1
    return stats


def _check_terminal(
    game: Game[Any], state: Any, actions: list[int], where: str, deep: bool
) -> None:
    returns = game.returns(state)
    if len(returns) != game.num_players or not all(0.0 <= r <= 1.0 for r in returns):
        _fail(game, where, f"returns {returns} not in [0, 1] for each player")
    if not math.isclose(sum(returns), 1.0):
        _fail(game, where, f"returns {returns} do not sum to 1")
    if len(game.scores(state)) != game.num_players:
        _fail(game, where, "scores has the wrong length")
    if replay_actions(game, actions, checked=deep) != state:
        _fail(game, where, "replaying the actions gives another state")
    if deep:
        record = json.loads(json.dumps(make_record(game, None, _names(game), actions)))
        replay = replay_record(record)
        if replay.final_state != state:
            _fail(game, where, "the record replays to another state")


def _names(game: Game[Any]) -> list[str]:
    return [f"p{seat}" for seat in range(game.num_players)]
