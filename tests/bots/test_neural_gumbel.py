"""Gumbel's root in the `neural` search (`gumbel=M`): the budget shared alike among the moves
it considers, halved round by round; sigma of the completed q as the paper defines it; an
improved policy over every legal move; the settings it cannot go with refused in words."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")


from kingdomkit.bots import make_bot  # noqa: E402
from kingdomkit.bots.budget import Budget  # noqa: E402
from kingdomkit.bots.network import random_network  # noqa: E402
from kingdomkit.bots.neural import NeuralBot, NeuralSearch  # noqa: E402
from kingdomkit.bots.tree import Node  # noqa: E402
from kingdomkit.core.driver import play, replay_actions  # noqa: E402
from kingdomkit.core.protocol import CHANCE, Game, OptionError  # noqa: E402
from kingdomkit.core.registry import make_game  # noqa: E402
from networks import SETUP_IDS, SETUPS, TINY, saved  # noqa: E402


def placement(game: Game[Any], seed: int) -> Any:
    """A decision with many legal moves, a few random moves into a game."""
    rng = random.Random(seed)
    state = game.initial_state()
    while True:
        while game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        if len(game.legal_actions(state)) >= 9:
            return state
        state = game.apply(state, rng.choice(game.legal_actions(state)))


def test_the_budget_goes_to_the_considered_moves_alike_and_halves_to_the_move() -> None:
    game = make_game("kingdomino", {"players": 2})
    state = placement(game, 2)
    player, legal = game.current_player(state), game.legal_actions(state)
    search = NeuralSearch(game, player, random_network(game, 1, TINY), 1.5, 0.0, None, gumbel=4)
    done = search.run(game.view(state, player), random.Random(3), Budget(playouts=40).start())
    assert done == search.root.visits == 40
    visits = {a: c.visits for a, c in search.root.children.items() if c.visits}
    assert len(visits) == 4  # the four considered, nothing else
    # round one: 40 // (2 rounds * 4 moves) = 5 each; round two: 10 each for the better two
    assert sorted(visits.values()) == [5, 5, 15, 15]
    assert search.chosen in visits and visits[search.chosen] == 15
    improved = search.improved
    assert improved is not None and set(improved) == set(legal)
    assert math.isclose(sum(improved.values()), 1.0) and min(improved.values()) > 0


def test_sigma_completes_unvisited_moves_with_the_mixed_value_and_rescales() -> None:
    game = make_game("kingdomino", {"players": 2})
    search = NeuralSearch(game, 0, random_network(game, 1, TINY), 1.5, 0.0, None, gumbel=4)
    root = search.root
    root.prior = dict.fromkeys(range(4), 0.25)
    for action, value in ((0, 0.8), (1, 0.2)):
        child = root.children[action] = Node(2)
        child.visits, child.values = 4, [4 * value, 4 * (1 - value)]
    search.root_value = 0.5
    # v_mix = (0.5 + 8 * (0.25 * 0.8 + 0.25 * 0.2) / 0.5) / 9 = 0.5; rescaled q: 1, 0, .5, .5
    scale = (50 + 4) * 0.1
    sigma = search.sigma([0, 1, 2, 3])
    assert sigma == pytest.approx({0: scale, 1: 0.0, 2: scale / 2, 3: scale / 2})
    assert search.sigma([2, 3]) == {2: 0.0, 3: 0.0}  # nothing visited: the prior alone


def test_it_plays_its_root_s_move_and_a_move_read_from_the_tree_has_no_target(
    tmp_path: Path,
) -> None:
    game = make_game("kingdomino", {"players": 2})
    bot = make_bot(f"neural:weights={saved(game, tmp_path / 'n.npz')}:playouts=24:gumbel=8")
    assert isinstance(bot, NeuralBot)
    searches = []
    search = bot._search

    def counted(*args: Any) -> Any:
        searches.append(search(*args))
        return searches[-1]

    bot._search = counted  # type: ignore[method-assign,assignment]
    rng = random.Random(5)
    state = game.initial_state()
    found: list[tuple[bool, bool]] = []  # (searched, improved) of each decision, every seat
    while len(found) < 12 and not game.is_terminal(state):
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        before = len(searches)
        action = bot.act(game, state, rng)
        found.append((len(searches) > before, bot.improved is not None))
        if len(searches) > before:
            assert action == searches[-1].chosen  # the move Gumbel's root left, played
        state = game.apply(state, action)
    # every search leaves an improved policy; a decision read from the last tree leaves none
    assert all(searched == improved for searched, improved in found)
    assert any(not searched for searched, _ in found) and any(searched for searched, _ in found)


@pytest.mark.parametrize("options", SETUPS, ids=SETUP_IDS)
def test_whole_legal_games_with_gumbel_s_root(options: dict[str, Any], tmp_path: Path) -> None:
    game = make_game("kingdomino", options)
    path = saved(game, tmp_path / "n.npz")
    results = []
    for _ in range(2):
        agents = [make_bot(f"neural:weights={path}:playouts=12:gumbel=16")]
        agents += [make_bot("greedy") for _ in range(game.num_players - 1)]
        played = play(game, agents, seed=4)
        assert replay_actions(game, played.actions) == played.final_state
        results.append(played.actions)
    assert results[0] == results[1]  # the draws come from the game's generator


def test_settings_gumbel_cannot_go_with_are_refused_in_words(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "n.npz")
    for wrong, words in (
        ("gumbel=8:time=1", "give playouts=N"),
        ("gumbel=8", "give playouts=N"),  # the default budget is 1 s
        ("gumbel=8:playouts=9:noise=0.25", "without noise= and batch="),
        ("gumbel=8:playouts=9:batch=8", "without noise= and batch="),
        ("gumbel=65:playouts=9", "gumbel is between 0 and 64"),
        ("gumbel=-1:playouts=9", "gumbel must be at least 0"),
    ):
        with pytest.raises(OptionError, match=words):
            make_bot(f"neural:weights={path}:{wrong}")
