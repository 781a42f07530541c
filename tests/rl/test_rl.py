"""The reinforcement-learning interface: PettingZoo's checkers on every game, the observation
encodings decoded back and compared with the engine's state, their symmetries checked against
the rules, and determinism from seeds."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from pettingzoo.test.api_test import api_test
from pettingzoo.test.seed_test import seed_test

import kingdomkit.rl as rl
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.core.protocol import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    KingdomkitError,
    OptionError,
)
from kingdomkit.core.registry import GAMES, make_game
from kingdomkit.core.shape import Capabilities
from kingdomkit.games.kingdomino import encoding as kingdomino_encoding
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.geometry import Geometry
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms import encoding as kingdoms_encoding
from kingdomkit.games.kingdoms.state import HIDDEN
from kingdomkit.games.queendomino import encoding as queendomino_encoding
from kingdomkit.games.queendomino import state as qd
from kingdomkit.rl import observation as rl_observation
from kingdomkit.rl.observation import observer as observer_of
from kingdomkit.rl.observation import symmetries as symmetries_of
from kingdoms_oracle import MODES as KINGDOMS_MODES
from queendomino_oracle import MODES as QUEENDOMINO_MODES

CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("kingdomino", {"players": 2}),
    ("kingdomino", {"players": 3}),
    ("kingdomino", {"players": 4}),
    ("kingdomino", {"players": 3, "draw_four": True}),
    ("kingdomino", {"players": 2, "mighty_duel": True, "middle_kingdom": True}),
    ("kingdomino", {"players": 4, "harmony": True, "dynasty": True}),
    *(("queendomino", options) for options in QUEENDOMINO_MODES),
    *(("kingdoms", options) for options in KINGDOMS_MODES),
]
IDS = [f"{name}-{options}" for name, options in CONFIGURATIONS]


# PettingZoo's checker warns about dict observations, which are what we mean to give (its own
# board games give their action masks the same way); any other warning still shows.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
]


def test_every_game_has_an_encoding() -> None:
    assert {name for name, _ in CONFIGURATIONS} == set(GAMES)
    versions = {
        "kingdomino": kingdomino_encoding.VERSION,
        "queendomino": queendomino_encoding.VERSION,
        "kingdoms": kingdoms_encoding.VERSION,
    }
    for name in GAMES:
        assert observer_of(make_game(name)).version == versions[name] >= 1


# -- PettingZoo's own checkers --------------------------------------------------------------
@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_api(name: str, options: dict[str, Any]) -> None:
    # num_cycles large enough for a whole game: the checker stops when every agent is done
    api_test(rl.env(name, **options), num_cycles=1000)  # type: ignore[no-untyped-call]


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_seed(name: str, options: dict[str, Any]) -> None:
    seed_test(lambda: rl.env(name, **options), num_cycles=1000)  # type: ignore[no-untyped-call]


# -- playing whole games ----------------------------------------------------------------------
def play_env(env: rl.KingdomkitAECEnv, seed: int) -> tuple[list[Any], dict[str, float]]:
    """A whole game with random legal actions from `seed`: every observation in order, and
    the reward each agent collected."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    seen = []
    collected: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        assert observation is not None
        collected[agent] += reward
        seen.append(observation)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(list(legal))))
    return seen, collected


@pytest.mark.parametrize("name", sorted(GAMES))
def test_rewards_come_at_the_end(name: str) -> None:
    options: dict[str, Any] = {"players": 3}
    for reward in ("wdl", "margin"):
        env = rl.env(name, reward=reward, **options)
        _, collected = play_env(env, seed=5)
        game, state = env.game, env.state
        assert game.current_player(state) == TERMINAL and not env.agents
        rewards = [collected[f"player_{p}"] for p in range(game.num_players)]
        winners = game.winners(state)
        scores = game.scores(state)
        if reward == "wdl":
            share = 1.0 / len(winners)
            assert rewards == [2 * share - 1 if p in winners else -1.0 for p in range(3)]
        else:
            best = max(scores)
            for player in range(3):
                if player not in winners:
                    assert rewards[player] == scores[player] - best
                else:
                    assert rewards[player] >= 0


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS[:1] + CONFIGURATIONS[6:7], ids=str)
def test_same_seed_same_game(name: str, options: dict[str, Any]) -> None:
    first = play_env(rl.env(name, **options), seed=11)
    again = play_env(rl.env(name, **options), seed=11)
    other = play_env(rl.env(name, **options), seed=12)
    assert first[1] == again[1]
    assert len(first[0]) == len(again[0])
    for one, two in zip(first[0], again[0], strict=True):
        assert one.keys() == two.keys()
        for key in one["observation"]:
            assert np.array_equal(one["observation"][key], two["observation"][key])
        assert np.array_equal(one["action_mask"], two["action_mask"])
    assert len(first[0]) != len(other[0]) or any(
        not np.array_equal(a["observation"]["unseen"], b["observation"]["unseen"])
        for a, b in zip(first[0], other[0], strict=False)
    )


def test_bad_settings_and_illegal_actions_are_refused() -> None:
    with pytest.raises(OptionError, match="reward"):
        rl.env("kingdomino", reward="points")
    with pytest.raises(OptionError, match="render mode"):
        rl.env("kingdomino", render_mode="human")
    with pytest.raises(OptionError, match="players"):
        rl.env("kingdomino", players=7)
    env = rl.env("kingdomino", players=2, render_mode="ansi")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    text = env.render()
    assert isinstance(text, str) and "player 0" in text


# -- encodings against the engine's state ---------------------------------------------------
def random_states(game: Game[Any], seed: int, games: int = 2, every: int = 3) -> Iterator[Any]:
    """Decision states (and the terminal one) of random games, one in `every`."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.initial_state()
        step = 0
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                yield state
                break
            if player == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            if step % every == 0:
                yield state
            step += 1
            state = game.apply(state, rng.choice(game.legal_actions(state)))


def check_spec(game: Game[Any], observation: dict[str, Any]) -> None:
    spec = observer_of(game).spec()
    assert observation.keys() == spec.keys()
    for key, (shape, dtype, low, high) in spec.items():
        array = observation[key]
        assert array.shape == shape and array.dtype == np.dtype(dtype), key
        assert array.min() >= low and array.max() <= high, key


def plane(planes: Any, geo: Geometry, cell: int) -> Any:
    """The values of every plane at a kingdom's cell."""
    x, y = geo.xy(cell)
    return planes[:, y + geo.reach, x + geo.reach]


def real_cells(geo: Geometry) -> list[int]:
    return [c for c in range(geo.cells) if geo.xs[c] <= geo.reach]


def check_kingdom_planes(
    geo: Geometry, planes: Any, kingdom: kd.Kingdom, terrains: int, crown_plane: int
) -> None:
    """Every cell of the planes says what the engine's kingdom holds there."""
    room = kingdomino_encoding.room(geo, kingdom)
    for cell in real_cells(geo):
        values = plane(planes, geo, cell)
        square = kd.square(kingdom, cell)
        if square is None:
            assert not values[:terrains].any() and values[crown_plane] == 0
        else:
            terrain, crowns = square
            assert list(np.flatnonzero(values[:terrains])) == [terrain]
            assert values[crown_plane] == crowns
        assert values[crown_plane + 1] == (cell == geo.castle)
        assert values[crown_plane + 2] == (room >> cell & 1)


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 2, "mighty_duel": True}], ids=str)
def test_kingdomino_encoding_matches_the_state(options: dict[str, Any]) -> None:
    game = make_game("kingdomino", options)
    p = game.num_players
    geo = game.geo  # type: ignore[attr-defined]
    width = kingdomino_encoding.DOMINO_WIDTH
    for state in random_states(game, seed=3):
        for observer in range(p):
            observation = observer_of(game).observe(state, observer)
            check_spec(game, observation)
            kingdoms = observation["kingdoms"].reshape(
                p, kingdomino_encoding.PLANES, *(observation["kingdoms"].shape[1:])
            )
            for seat in range(p):
                player = (observer + seat) % p
                check_kingdom_planes(geo, kingdoms[seat], state.kingdoms[player], 6, 6)
                row = observation["seats"][seat]
                assert row[0] == game.kingdom_score(state.kingdoms[player])  # type: ignore[attr-defined]
                assert row[2] == len(state.kingdoms[player].discarded)
            line = observation["line"]
            assert list(line[:, 0]) == [1] * len(state.line) + [0] * (4 - len(state.line))
            assert [int(n) for n in line[: len(state.line), width]] == list(state.line)
            for slot, owner in enumerate(state.claims):
                claimed = list(np.flatnonzero(line[slot, 1 + width :]))
                assert claimed == ([] if owner < 0 else [(owner - observer) % p])
            deck = [n + 1 for n in np.flatnonzero(observation["unseen"])]
            assert deck == [n + 1 for n in range(48) if state.deck >> n & 1]
            kings = observation["kings"]
            if state.placers:
                owners = [int(np.flatnonzero(k[1 : 1 + p])[0]) for k in kings if k[0]]
                assert owners == [(o - observer) % p for o in state.placers]
                placing = [int(k[-1]) for k in kings if k[0]]
                assert placing == list(state.placing)
            acting = game.current_player(state)
            if acting >= 0:
                (now,) = np.flatnonzero(kings[:, p + 2])
                assert int(np.flatnonzero(kings[now, 1 : 1 + p])[0]) == (acting - observer) % p


def test_queendomino_encoding_matches_the_state() -> None:
    for options in ({"players": 2}, {"players": 6, "royal_wedding": True, "teams": True}):
        game: Any = make_game("queendomino", options)
        geo, realms = game.geo, game.num_realms
        for state in random_states(game, seed=4, games=1, every=7):
            for observer in (0, game.num_players - 1):
                observation = observer_of(game).observe(state, observer)
                check_spec(game, observation)
                planes = observation["kingdoms"]
                planes = planes.reshape(realms, queendomino_encoding.PLANES, *planes.shape[1:])
                own = game.realm_of[observer]
                for seat in range(realms):
                    realm = state.realms[(own + seat) % realms]
                    check_kingdom_planes(geo, planes[seat], realm.kingdom, 7, 7)
                    for cell in real_cells(geo):
                        values = plane(planes[seat], geo, cell)
                        assert values[10] == (realm.knights >> cell & 1)
                        assert values[11] == (realm.sites >> cell & 1)
                    row = observation["realms"][seat]
                    assert list(row[:4]) == [
                        realm.coins,
                        realm.guard,
                        realm.knights.bit_count(),
                        realm.towers,
                    ]
                    assert row[5] == game.breakdown(state, (own + seat) % realms).total
                board = observation["board"]
                assert [bool(row[0]) for row in board] == [b >= 0 for b in state.board]
                pile = list(np.flatnonzero(observation["pile"]))
                assert pile == [b for b in range(len(game.table)) if state.pile >> b & 1]
                seats = observation["seats"]
                for seat in range(game.num_players):
                    player = (observer + seat) % game.num_players
                    assert seats[seat].argmax() == (game.realm_of[player] - own) % realms


@pytest.mark.parametrize("options", KINGDOMS_MODES[:1] + KINGDOMS_MODES[5:6], ids=str)
def test_kingdoms_encoding_shows_only_what_the_player_sees(options: dict[str, Any]) -> None:
    game: Any = make_game("kingdoms", options)
    p = game.num_players
    rng = random.Random(9)
    for state in random_states(game, seed=6, every=2):
        for observer in range(p):
            observation = observer_of(game).observe(state, observer)
            check_spec(game, observation)
            # Whatever the hidden tiles are, the observation is the same.
            for _ in range(2):
                other = observer_of(game).observe(game.resample(state, observer, rng), observer)
                for key, array in observation.items():
                    assert np.array_equal(array, other[key]), key
            tiles = observation["tiles"]
            own = state.starting[observer]
            assert list(np.flatnonzero(tiles[0])) == ([] if own < 0 else [own])
            assert list(tiles[2]) == list(game.view(state, observer).supply)
            board = observation["board"]
            for space, square in enumerate(state.board):
                row, column = divmod(space, bd.COLUMNS)
                values = board[:, row, column]
                if square == bd.EMPTY:
                    assert values[16 + 4 * p] == 1 and not values[:16].any()
                elif bd.is_castle(square):
                    seat = (bd.castle_owner(square) - observer) % p
                    assert values[16 + 4 * seat + bd.castle_rank(square) - 1] == 1
                    assert values[18 + 4 * p] == bd.rank_at(state.board, space)
                else:
                    assert list(np.flatnonzero(values[:16])) == [square]
            gold = [int(g) for g in observation["seats"][:, 0]]
            assert gold == [state.gold[(observer + i) % p] for i in range(p)]


def test_a_secret_tile_never_shows() -> None:
    """The other players' starting tiles differ in two states that one player cannot tell
    apart: that player's observations are equal."""
    game: Any = make_game("kingdoms", {"players": 2})
    for state in random_states(game, seed=8, games=1, every=1):
        if state.starting[1] >= 0 and state.starting[0] >= 0:
            break
    swapped = state._replace(starting=(state.starting[0], (state.starting[1] + 1) % 12))
    assert game.view(state, 0) != game.view(swapped, 1)
    mine, theirs = observer_of(game).observe(state, 0), observer_of(game).observe(swapped, 0)
    view = game.view(state, 0)
    assert view.starting[1] == HIDDEN
    assert np.array_equal(mine["board"], theirs["board"])
    assert np.array_equal(mine["tiles"][0], theirs["tiles"][0])


# -- symmetries ---------------------------------------------------------------------------------
def turned_kingdom(geo: Geometry, kingdom: kd.Kingdom, matrix: tuple[int, ...]) -> kd.Kingdom:
    """The kingdom with every square moved by `matrix` (encoding.DIHEDRAL), rebuilt by the
    engine's own placing."""
    from kingdomkit.games.kingdomino.dominoes import DOMINOES

    def moved(cell: int) -> int:
        return geo.cell(*kingdomino_encoding.turn(matrix, *geo.xy(cell)))  # type: ignore[arg-type]

    turned = kd.empty_kingdom(geo)
    for number, cell1, cell2 in kingdom.placed:
        turned = kd.place(geo, turned, DOMINOES[number - 1], moved(cell1), moved(cell2))
    return turned._replace(discarded=kingdom.discarded)


def test_kingdomino_symmetries_are_symmetries_of_the_rules() -> None:
    game: Any = make_game("kingdomino", {"players": 2})
    geo = game.geo
    checked = 0
    for state in random_states(game, seed=10, games=2, every=2):
        player = game.current_player(state)
        if player < 0:
            continue
        observation = observer_of(game).observe(state, player)
        mask = np.array(game.legal_mask(state), np.int8)
        images = symmetries_of(game, observation, mask)
        assert len(images) == 8
        assert np.array_equal(images[0].observation["kingdoms"], observation["kingdoms"])
        for matrix, image in zip(kingdomino_encoding.DIHEDRAL, images, strict=True):
            assert sorted(image.actions) == list(range(game.num_actions))
            kingdoms = tuple(turned_kingdom(geo, k, matrix) for k in state.kingdoms)
            moved = state._replace(kingdoms=kingdoms)
            expected = observer_of(game).observe(moved, player)
            for key, array in expected.items():
                assert np.array_equal(image.observation[key], array), key
            assert list(np.flatnonzero(image.action_mask)) == list(game.legal_actions(moved))
            checked += 1
    assert checked > 100


def test_kingdoms_mirrors_are_symmetries_of_the_rules() -> None:
    game: Any = make_game("kingdoms", {"players": 3, "score_as_you_go": True})
    for state in random_states(game, seed=12, games=1, every=3):
        player = game.current_player(state)
        if player < 0:
            continue
        observation = observer_of(game).observe(state, player)
        mask = np.array(game.legal_mask(state), np.int8)
        images = symmetries_of(game, observation, mask)
        for (rows, columns), image in zip(kingdoms_encoding.MIRRORS, images, strict=True):
            board = [bd.EMPTY] * bd.SPACES
            for space, square in enumerate(state.board):
                row, column = divmod(space, bd.COLUMNS)
                row = bd.ROWS - 1 - row if rows else row
                column = bd.COLUMNS - 1 - column if columns else column
                board[bd.space(row, column)] = square
            lines = kingdoms_encoding.mirror_lines((rows, columns))
            scored = sum(1 << int(lines[line]) for line in range(11) if state.scored >> line & 1)
            moved = state._replace(board=tuple(board), scored=scored)
            expected = observer_of(game).observe(moved, player)
            for key, array in expected.items():
                assert np.array_equal(image.observation[key], array), key
            assert list(np.flatnonzero(image.action_mask)) == list(game.legal_actions(moved))
            # a mirrored board scores the same
            value = heuristics(game).evaluate
            assert value(moved, player) == value(state, player)


# -- the Gymnasium environment ------------------------------------------------------------------
GYM_CASES = [
    ("kingdomkit/Kingdomino-v0", {"players": 2}),
    ("kingdomkit/Kingdomino-v0", {"players": 4, "opponents": "greedy", "seat": None}),
    ("kingdomkit/Queendomino-v0", {"players": 3, "opponents": ["random", "greedy"]}),
    ("kingdomkit/Kingdoms-v0", {"players": 3, "seat": 2, "reward": "margin"}),
]


@pytest.mark.parametrize(("env_id", "kwargs"), GYM_CASES, ids=str)
def test_gymnasium_checker(env_id: str, kwargs: dict[str, Any]) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    assert set(rl.ENV_IDS.values()) <= set(gymnasium.registry)
    check_env(gymnasium.make(env_id, **kwargs).unwrapped)


def play_gym(env: Any, seed: int) -> tuple[list[Any], float, int]:
    """One episode with random legal actions: the observations, the last reward, the seat."""
    rng = random.Random(seed)
    observation, info = env.reset(seed=seed)
    seen = [observation]
    while True:
        mask = observation["action_mask"]
        assert np.array_equal(mask, info["action_mask"]) and mask.any()
        observation, reward, terminated, truncated, info = env.step(
            int(rng.choice(list(np.flatnonzero(mask))))
        )
        seen.append(observation)
        assert not truncated
        if terminated:
            return seen, float(reward), info["seat"]
        assert reward == 0.0


@pytest.mark.parametrize(("env_id", "kwargs"), GYM_CASES, ids=str)
def test_gymnasium_episodes(env_id: str, kwargs: dict[str, Any]) -> None:
    import gymnasium

    env = gymnasium.make(env_id, **kwargs).unwrapped
    assert isinstance(env, rl.KingdomkitGymEnv)
    seen, reward, seat = play_gym(env, seed=3)
    game, state = env.game, env.state
    assert game.current_player(state) == TERMINAL
    assert not seen[-1]["action_mask"].any()
    expected = rl.adapter.final_rewards(game, state, kwargs.get("reward", "wdl"))[seat]
    assert reward == expected
    again, reward_again, _ = play_gym(env, seed=3)
    assert reward_again == reward and len(again) == len(seen)
    for one, two in zip(seen, again, strict=True):
        for key, array in one["observation"].items():
            assert np.array_equal(array, two["observation"][key])


def test_gymnasium_refuses_bad_settings_and_ends_on_illegal_actions() -> None:
    import gymnasium

    with pytest.raises(OptionError, match="unknown bot"):
        gymnasium.make("kingdomkit/Kingdomino-v0", opponents="nobody")
    with pytest.raises(OptionError, match="opponents"):
        gymnasium.make("kingdomkit/Kingdomino-v0", players=3, opponents=["random"])
    with pytest.raises(OptionError, match="seat"):
        gymnasium.make("kingdomkit/Kingdomino-v0", players=2, seat=2)
    env = gymnasium.make("kingdomkit/Kingdomino-v0", players=2, illegal_reward=-5).unwrapped
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -5 and info["illegal_action"]
    with pytest.raises(KingdomkitError, match="reset"):
        env.step(0)


def test_symmetries_helper_takes_an_environment_observation() -> None:
    env = rl.env("kingdomino", players=2)
    env.reset(seed=2)
    observation = env.observe(env.agent_selection)
    images = rl.symmetries(env.game, observation)
    assert len(images) == 8
    assert images[0].action_mask.sum() == observation["action_mask"].sum()
    queendomino = rl.env("queendomino", players=2)
    queendomino.reset(seed=2)
    assert len(rl.symmetries(queendomino.game, queendomino.observe("player_0"))) == 8


def test_a_game_without_an_encoding_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("kingdoms")
    plain = dataclasses.replace(GAMES["kingdoms"], capabilities=Capabilities())
    monkeypatch.setattr(rl_observation, "shape_of", lambda _game: plain)
    with pytest.raises(KingdomkitError, match="kingdoms has no observation encoding"):
        observer_of(game)
    mask = np.ones(game.num_actions, np.int8)
    [identity] = symmetries_of(game, {}, mask)
    assert identity.actions.tolist() == list(range(game.num_actions))
    assert identity.action_mask is mask


def test_a_pickled_game_leaves_its_observer_behind() -> None:
    game = make_game("kingdomino", {"players": 2})
    first = observer_of(game)
    assert first.version == kingdomino_encoding.VERSION and observer_of(game) is first
    copy = pickle.loads(pickle.dumps(game))
    assert "_capabilities" in game.__dict__ and "_capabilities" not in copy.__dict__
    state = next(random_states(game, seed=3, games=1, every=5))
    again = observer_of(copy)
    assert again is not first
    for name, array in first.observe(state, 0).items():
        assert np.array_equal(again.observe(state, 0)[name], array)


def test_queendomino_symmetries_are_symmetries_of_the_rules() -> None:
    game: Any = make_game("queendomino", {"players": 3})
    geo = game.geo
    checked: set[int] = set()
    for state in random_states(game, seed=13, games=1, every=1):
        player = game.current_player(state)
        if player < 0:
            continue
        observation = observer_of(game).observe(state, player)
        mask = np.array(game.legal_mask(state), np.int8)
        images = symmetries_of(game, observation, mask)
        for matrix, image in zip(kingdomino_encoding.DIHEDRAL, images, strict=True):

            def moved(cell: int, matrix: tuple[int, int, int, int] = matrix) -> int:
                image: int = geo.cell(*kingdomino_encoding.turn(matrix, *geo.xy(cell)))
                return image

            data = game.state_to_json(state)
            for realm in data["realms"]:
                realm["placed"] = [[d, moved(c1), moved(c2)] for d, c1, c2 in realm["placed"]]
                realm["knights"] = [moved(c) for c in realm["knights"]]
                realm["buildings"] = [[b, moved(c)] for b, c in realm["buildings"]]
            turned = game.state_from_json(data)
            expected = observer_of(game).observe(turned, player)
            for key, array in expected.items():
                assert np.array_equal(image.observation[key], array), key
            assert list(np.flatnonzero(image.action_mask)) == list(game.legal_actions(turned))
        checked.add(state.phase)
    assert {qd.PLACE, qd.TAX, qd.BUILD, qd.SITE} <= checked
