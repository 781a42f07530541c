"""Every game as an OpenSpiel game (kingdomkit.rl.openspiel): OpenSpiel's own random-simulation
checks on every player count and the variants, the same game played through OpenSpiel and
through the engine step by step, OpenSpiel's MCTS playing whole games, and for Kingdoms its
information-set MCTS and information states that keep the other players' secrets."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from kingdomkit.core.protocol import CHANCE, TERMINAL, OptionError
from kingdomkit.core.registry import GAMES, game_info, make_game
from kingdomkit.rl.observation import observer
from kingdomkit.rl.openspiel import HIDDEN, short_name


def configurations() -> list[tuple[str, dict[str, Any]]]:
    """For each game and player count, the options without variants (or the first variant
    that allows that count); then each variant alone, each pair and all of them together, at
    the first player count that allows them."""
    found: list[tuple[str, dict[str, Any]]] = []
    for name in sorted(GAMES):
        flags = game_info(name).option_names
        rules = type(make_game(name))
        counts = range(rules.min_players, rules.max_players + 1)
        alone = [(), *((flag,) for flag in flags)]
        for players in counts:
            chosen = next((c for c in alone if _allowed(name, players, c)), None)
            if chosen is not None:
                found.append((name, _params(players, chosen)))
        covered = {(n, frozenset(p) - {"players"}) for n, p in found}
        for chosen in [*alone[1:], *combinations(flags, 2), flags]:
            if (name, frozenset(chosen)) in covered:
                continue
            covered.add((name, frozenset(chosen)))
            first = next((p for p in counts if _allowed(name, p, chosen)), None)
            if first is not None:
                found.append((name, _params(first, chosen)))
    return found


def _params(players: int, flags: tuple[str, ...]) -> dict[str, Any]:
    return {"players": players, **dict.fromkeys(flags, True)}


def _allowed(name: str, players: int, flags: tuple[str, ...]) -> bool:
    try:
        make_game(name, _params(players, flags))
    except OptionError:
        return False
    return True


# Set-ups the walk above does not reach: the Royal Wedding on 7x7 kingdoms, teams of 8.
EXTRA = [
    ("queendomino", {"players": 3, "royal_wedding": True}),
    ("queendomino", {"players": 8, "royal_wedding": True, "teams": True}),
]
CONFIGURATIONS = configurations() + [c for c in EXTRA if c[0] in GAMES]
IDS = [
    f"{name}-" + "-".join(f"{k}={v}" for k, v in params.items()) for name, params in CONFIGURATIONS
]


def load(name: str, params: dict[str, Any]) -> Any:
    return pyspiel.load_game(short_name(name), params)


def test_every_game_is_registered_with_its_type() -> None:
    for name in GAMES:
        game = load(name, {})
        kind = game.get_type()
        rules = make_game(name)
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
        secret = pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert (kind.information == secret) == (name == "kingdoms")
        assert game.num_players() == rules.num_players
        assert game.num_distinct_actions() == rules.num_actions
        assert game.max_chance_outcomes() == rules.num_chance_outcomes
    with pytest.raises(OptionError):
        load("kingdomino", {"players": 3, "mighty_duel": True})


@pytest.mark.parametrize(("name", "params"), CONFIGURATIONS, ids=IDS)
def test_random_simulation(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's own checks (basic_tests RandomSimulation): legal actions, chance outcomes
    summing to 1, returns within bounds and summing to 1, the game's length within its
    bound, clones, serialisation, observation tensors and strings, information states."""
    pyspiel.random_sim_test(load(name, params), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_games_stay_within_the_length_bound(name: str) -> None:
    """`Game.max_game_length` (OpenSpiel's `max_game_length`) bounds random games of every
    set-up; Kingdomino's is exact."""
    rng = random.Random(5)
    for game_name, params in CONFIGURATIONS:
        if game_name != name:
            continue
        rules = make_game(name, params)
        bound = rules.max_game_length()
        assert bound is not None
        for _ in range(3):
            state, length = rules.initial_state(), 0
            while not rules.is_terminal(state):
                if rules.is_chance(state):
                    action = rules.sample_chance(state, rng)
                else:
                    action = rng.choice(rules.legal_actions(state))
                state, length = rules.apply(state, action), length + 1
            assert length <= bound
            if name == "kingdomino":
                assert length == bound


@pytest.mark.parametrize(
    ("name", "params"),
    [(name, params) for name, params in CONFIGURATIONS if params["players"] <= 4],
    ids=[i for i, (_, params) in zip(IDS, CONFIGURATIONS, strict=True) if params["players"] <= 4],
)
def test_the_engine_and_openspiel_agree(name: str, params: dict[str, Any]) -> None:
    """A random game played through OpenSpiel and through the engine side by side: the same
    player, legal actions, chance outcomes, observation tensors, returns and scores."""
    game = load(name, params)
    rules = make_game(name, params)
    encoder = observer(rules)
    rng = random.Random(7)
    state, engine = game.new_initial_state(), rules.initial_state()
    while not state.is_terminal():
        player = rules.current_player(engine)
        if player == CHANCE:
            assert state.is_chance_node()
            assert state.chance_outcomes() == list(rules.chance_outcomes(engine))
            action = rules.sample_chance(engine, rng)
        else:
            assert state.current_player() == player
            assert state.legal_actions() == list(rules.legal_actions(engine))
            for seat in range(rules.num_players):
                arrays = encoder.observe(engine, seat)
                flat = np.concatenate([arrays[key].ravel() for key in encoder.spec()])
                assert np.array_equal(np.asarray(state.observation_tensor(seat)), flat)
            action = rng.choice(rules.legal_actions(engine))
            assert state.action_to_string(player, action) == rules.action_to_string(engine, action)
        if len(state.history()) % 25 == 0:  # a clone goes its own way
            clone = state.clone()
            clone.apply_action(action)
            assert clone.state == rules.apply(engine, action)
            assert state.state == engine
            assert clone.history() == [*state.history(), action]
        state.apply_action(action)
        engine = rules.apply(engine, action)
    assert rules.current_player(engine) == TERMINAL
    assert state.returns() == list(rules.returns(engine))
    assert state.scores() == list(rules.scores(engine))
    assert sum(state.returns()) == pytest.approx(1.0)
    winners = [p for p, share in enumerate(state.returns()) if share > 0]
    assert winners == list(rules.winners(engine))
    assert state.history() == state.clone().history()


def play(game: Any, bots: list[Any], seed: int) -> Any:
    """A whole game of `bots` (one per seat), chance drawn with numpy from `seed`."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_openspiel_mcts_plays_a_whole_game(name: str) -> None:
    game = load(name, {"players": 2})
    bots = [
        mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=3,
            evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seat)),
            random_state=np.random.RandomState(seat),
        )
        for seat in range(2)
    ]
    state = play(game, bots, seed=1)
    rules = make_game(name, {"players": 2})
    engine = rules.initial_state()
    for action in state.history():
        engine = rules.apply(engine, action)
    assert state.returns() == list(rules.returns(engine))


def deal(game: Any, tiles: tuple[int, int]) -> Any:
    """A 2-player Kingdoms game after the first player (B) and the starting tiles of A and B."""
    state = game.new_initial_state()
    for action in (1, *tiles):
        state.apply_action(action)
    assert state.current_player() == 1
    return state


def test_kingdoms_information_states_keep_the_other_players_secret() -> None:
    game = load("kingdoms", {"players": 2})
    one, other = deal(game, (3, 5)), deal(game, (3, 7))
    assert one.information_state_string(0) == other.information_state_string(0)
    assert one.information_state_string(1) != other.information_state_string(1)
    assert HIDDEN in one.information_state_string(0).split()
    # Player 0 knows their own tile: a different one is another information state.
    assert deal(game, (4, 5)).information_state_string(0) != one.information_state_string(0)
    # B places their starting tile: everyone sees it from then on.
    start = next(a for a in one.legal_actions() if 121 <= a <= 150)
    one.apply_action(start)
    assert HIDDEN in one.information_state_string(0)
    played = deal(game, (3, 7))
    played.apply_action(start)
    assert one.information_state_string(0) != played.information_state_string(0)


def test_kingdoms_information_state_tensors_keep_the_secret_too() -> None:
    """The information-state tensor is the view's encoding: the same for two deals a player
    cannot tell apart, different for the player whose own tile differs."""
    game = load("kingdoms", {"players": 2})
    assert game.get_type().provides_information_state_tensor
    one, other = deal(game, (3, 5)), deal(game, (3, 7))
    for state in (one, other):
        for seat in (0, 1):
            assert state.information_state_tensor(seat) == state.observation_tensor(seat)
    assert one.information_state_tensor(0) == other.information_state_tensor(0)
    assert one.information_state_tensor(1) != other.information_state_tensor(1)


def test_kingdoms_resampling_keeps_the_information_state() -> None:
    game = load("kingdoms", {"players": 3})
    rng = random.Random(3)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    tiles_seen = set()
    while not state.is_terminal() and len(state.history()) < 60:
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        for _ in range(5):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.legal_actions() == state.legal_actions()
            tiles_seen.add(tuple(sample.state.starting))
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(tiles_seen) > 1  # the hidden tiles were drawn again, not copied


def test_openspiel_ismcts_plays_a_whole_game_of_kingdoms() -> None:
    game = load("kingdoms", {"players": 2})
    bots = [
        ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seat)),
            uct_c=2.0,
            max_simulations=3,
            random_state=np.random.RandomState(seat),
        )
        for seat in range(2)
    ]
    state = play(game, bots, seed=2)
    rules = make_game("kingdoms", {"players": 2})
    engine = rules.initial_state()
    for action in state.history():
        engine = rules.apply(engine, action)
    assert state.returns() == list(rules.returns(engine))
    assert state.scores() == list(rules.scores(engine))
