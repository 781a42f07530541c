"""The mcts bot: the turn read from one search, tree reuse through `observe`, root
parallelism over helper processes, analysis of every legal action, and a strength check."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kingdomkit.bots import TreeBot, make_bot
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.tree import Node, Search, TreeConfig
from kingdomkit.core.driver import notify_decision, play
from kingdomkit.core.protocol import CHANCE, Game, OptionError
from kingdomkit.core.registry import make_game


def tree_bot(text: str) -> TreeBot:
    bot = make_bot(text)
    assert isinstance(bot, TreeBot)
    return bot


def next_decision(game: Game[Any], state: Any, rng: random.Random) -> Any:
    while game.current_player(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, rng))
    return state


def first_placement(game: Game[Any], rng: random.Random) -> Any:
    """The first PLACE decision of a Kingdomino game (after random first claims)."""
    state = next_decision(game, game.initial_state(), rng)
    while heuristics(game).is_draft(state):
        legal = game.legal_actions(state)
        state = next_decision(game, game.apply(state, legal[0]), rng)
    return state


def test_the_claim_is_read_from_the_placement_search() -> None:
    game = make_game("kingdomino", {"players": 2})
    rng = random.Random(1)
    state = first_placement(game, rng)
    bot = tree_bot("uct:playouts=60")
    place = bot.act(game, state, rng)
    root = bot.root
    assert root is not None and root.visits == 60
    after = game.apply(state, place)
    assert heuristics(game).turn_continues(state, after)
    claim = bot.act(game, after, rng)
    assert bot.root is root.children[place]  # no new search: the same tree, one level down
    assert claim == root.children[place].best_action(game.legal_actions(after), 0)


def test_observed_decisions_advance_the_root_and_a_draw_or_a_mismatch_starts_afresh() -> None:
    game = make_game("kingdomino", {"players": 2})
    rng = random.Random(2)
    bot = tree_bot("mcts:playouts=80")
    other = make_bot("random")
    agents = [bot, other]
    state = next_decision(game, game.initial_state(), rng)
    path: list[int] = []  # every decision since the bot's last one (its own included)
    drawn = False  # a chance event since the bot's last decision
    last: Any = None
    reused = fresh_after_draw = 0
    while reused < 2 or not fresh_after_draw:
        player = game.current_player(state)
        if player == 0:
            expected = None if drawn else bot.root
            for step in path:
                expected = None if expected is None else expected.children.get(step)
            advanced = bot.advanced(game, state)
            assert advanced is expected
            continuing = last is not None and heuristics(game).turn_continues(last, state)
            visits = 0 if advanced is None else advanced.visits
            searched = 0 if len(game.legal_actions(state)) == 1 else 80  # one choice: none
            action = bot.act(game, state, rng)
            if advanced is not None and not continuing:
                assert bot.root is advanced and advanced.visits == visits + searched
                reused += 1
            fresh_after_draw += drawn and bot.root is not None and bot.root.visits == searched
            last, path, drawn = state, [], False
        else:
            action = other.act(game, state, rng)
        notify_decision(agents, game, player, action)
        path.append(action)
        state = game.apply(state, action)
        drawn = drawn or game.current_player(state) == CHANCE
        state = next_decision(game, state, rng)
    # a decision the tree cannot have: the next search starts from a fresh tree
    while game.current_player(state) != 0:
        action = other.act(game, state, rng)
        notify_decision(agents, game, game.current_player(state), action)
        state = next_decision(game, game.apply(state, action), rng)
    bot.observe(game, 1, 10_000)
    assert bot.advanced(game, state) is None
    bot.act(game, state, rng)
    searched = 0 if len(game.legal_actions(state)) == 1 else 80
    assert bot.root is not None and bot.root.visits == searched
    # another game object: never reused
    assert bot.advanced(make_game("kingdomino", {"players": 2}), state) is None


def test_without_observe_calls_the_bot_still_plays_whole_games() -> None:
    game = make_game("kingdoms", {"players": 2})
    played = play(game, [tree_bot("mcts:playouts=15"), make_bot("random")], seed=3)
    assert game.is_terminal(played.final_state)


def test_two_workers_merge_their_visits() -> None:
    for name in ("kingdoms", "kingdomino"):
        game = make_game(name, {"players": 2})
        rng = random.Random(4)
        state = next_decision(game, game.initial_state(), rng)
        bot = tree_bot("mcts:playouts=30:workers=2")
        try:
            action = bot.act(game, state, rng)
            assert action in game.legal_actions(state)
            assert bot.root is not None and bot.root.visits == 60
            # the helper ships the nodes it visited twice or more
            assert 30 < sum(c.visits for c in bot.root.children.values()) <= 60
        finally:
            bot.close()
        assert bot.pool is None


def test_analysis_covers_every_legal_action() -> None:
    for name in ("kingdomino", "kingdoms"):
        game = make_game(name, {"players": 2})
        rng = random.Random(5)
        state = next_decision(game, game.initial_state(), rng)
        if name == "kingdomino":
            state = first_placement(game, rng)
        bot = tree_bot("mcts:playouts=40")
        analysis = bot.analyse(game, state, random.Random(6))
        legal = game.legal_actions(state)
        assert sorted(e.action for e in analysis.actions) == list(legal)
        assert all(e.visits >= 4 for e in analysis.actions)
        assert analysis.best == analysis.actions[0].action
        assert analysis.player == game.current_player(state)
        assert [e.visits for e in analysis.actions] == sorted(
            (e.visits for e in analysis.actions), reverse=True
        )
        assert all(e.points > 0 for e in analysis.actions)


def test_mcts_beats_random_at_kingdomino() -> None:
    game = make_game("kingdomino", {"players": 2})
    wins = 0.0
    for seed in range(6):
        seat = seed % 2
        agents = [make_bot("random"), make_bot("random")]
        agents[seat] = make_bot("mcts:playouts=40")
        played = play(game, agents, seed)
        wins += game.returns(played.final_state)[seat]
    assert wins >= 5


def test_depth_auto_plays_out_with_a_kernel_and_as_the_game_says_without() -> None:
    config = tree_bot("mcts:playouts=5").config
    kingdoms = make_game("kingdoms", {"players": 2})
    kernel = compiled(kingdoms) is not None  # without it: heuristic leaves
    assert Search(kingdoms, 0, config, None).sim.depth == (None if kernel else 0)
    for players, depth in ((2, 0), (3, None), (4, None)):
        queendomino = make_game("queendomino", {"players": players})
        search = Search(queendomino, 0, config, None)
        played_out = None if compiled(queendomino) is not None else depth
        assert (search.sim.depth, search.sim.policy_name) == (played_out, "greedy")
    kingdomino = make_game("kingdomino", {"players": 2})
    with_kernel = compiled(kingdomino) is not None
    assert Search(kingdomino, 0, config, None).sim.depth == (None if with_kernel else 0)
    assert tree_bot("mcts:depth=end").config.depth is None
    assert tree_bot("mcts:depth=3").config.depth == 3
    for bad in ("mcts:depth=-2", "mcts:depth=deep"):
        with pytest.raises(OptionError):
            make_bot(bad)


@pytest.mark.parametrize("kernel", [False, True])
def test_queendomino_leaves_are_playouts_with_four_players_and_forecasts_with_two(
    monkeypatch: pytest.MonkeyPatch, kernel: bool
) -> None:
    """In Python; with the compiled kernel, every leaf is a playout to the end."""
    if not kernel:
        monkeypatch.setenv("KINGDOMKIT_COMPILED", "0")
    elif compiled(make_game("queendomino", {"players": 2})) is None:
        pytest.skip("no compiled kernel here (the fast extra)")
    for players, forecasts in ((4, False), (2, not kernel)):
        game = make_game("queendomino", {"players": players})
        calls: list[int] = []

        def forecast(state: Any, player: int, calls: list[int] = calls) -> float:
            calls.append(player)
            return 0.0

        monkeypatch.setattr(heuristics(game), "forecast", forecast)
        rng = random.Random(3)
        state = next_decision(game, game.initial_state(), rng)
        bot = tree_bot("mcts:playouts=6:bias=0")  # no priors: only leaves could ask
        bot.act(game, state, rng)
        assert bot.last_iterations == 6
        assert bool(calls) == forecasts


def test_scaled_ucb_weighs_a_small_difference_of_means_against_exploration() -> None:
    game = make_game("kingdoms", {"players": 2})
    rng = random.Random(8)
    state = next_decision(game, game.initial_state(), rng)
    a, b = game.legal_actions(state)[:2]
    chosen = {}
    for scaled in (True, False):
        config = TreeConfig(c=0.6, widen=0.05, scaled=scaled)
        search = Search(game, 0, config, None)
        search.root.visits = 100
        for action, visits, mean in ((a, 80, 0.52), (b, 20, 0.50)):
            child = search.root.children[action] = Node(2)
            child.visits, child.avail = visits, 99
            child.values = [mean * visits, (1 - mean) * visits]
        for value in (0.45, 0.55) * 20:  # outcomes spread by 0.05 around 0.5
            search.spread.see([value, 1 - value])
        chosen[scaled] = search.select(search.root, state, 0, rng)[0]
    # unscaled, 0.02 is nothing next to the exploration term; scaled, it is 0.4 deviations
    assert chosen == {True: a, False: b}


def test_a_single_legal_action_is_played_without_a_search() -> None:
    game = make_game("queendomino", {"players": 2})
    rng = random.Random(4)
    bot = tree_bot("mcts:playouts=30")
    state = next_decision(game, game.initial_state(), rng)
    while len(game.legal_actions(state)) > 1:  # the last claim of the first line is forced
        state = next_decision(game, game.apply(state, game.legal_actions(state)[0]), rng)
    assert bot.act(game, state, rng) == game.legal_actions(state)[0]
    assert bot.root is not None and bot.root.visits == 0 and bot.last_iterations == 0


def nodes_by_depth(root: Node) -> list[tuple[int, Node]]:
    found, stack = [], [(0, root)]
    while stack:
        depth, node = stack.pop()
        found.append((depth, node))
        stack.extend((depth + 1, child) for child in node.children.values())
    return found


def test_past_the_searched_turn_a_node_gets_children_only_after_expand_playouts() -> None:
    game = make_game("kingdomino", {"players": 2})
    state = first_placement(game, random.Random(6))
    for expand, early in ((24, False), (0, True)):
        bot = tree_bot(f"mcts:playouts=1200:expand={expand}")
        bot.act(game, state, random.Random(7))
        assert bot.root is not None
        # depth 0 is the placement, 1 the claim: the turn; past it, the threshold applies
        branching = [node.visits for depth, node in nodes_by_depth(bot.root) if node.children]
        past_turn = [
            node.visits for depth, node in nodes_by_depth(bot.root) if depth >= 2 and node.children
        ]
        assert len(branching) > len(past_turn) > 0
        assert (min(past_turn) < 24) is early


def branching_past_a_draw(game: Game[Any], state: Any, root: Node) -> int:
    """How many nodes reached through a chance event have children (Kingdomino: whether a
    draw comes between two decisions does not depend on what is drawn)."""
    rng = random.Random(0)
    found, stack = 0, [(state, root, False)]
    while stack:
        at, node, drawn = stack.pop()
        found += drawn and bool(node.children)
        for action, child in node.children.items():
            after = game.apply(at, action)
            passed = game.current_player(after) == CHANCE
            stack.append((next_decision(game, after, rng), child, drawn or passed))
    return found


def last_turn_of_a_round(game: Game[Any], rng: random.Random) -> Any:
    """A Kingdomino placement whose claim ends the round (the next line is drawn after it)."""
    state = first_placement(game, rng)
    while True:
        claim = game.apply(state, game.legal_actions(state)[0])
        after = game.apply(claim, game.legal_actions(claim)[0])
        if game.current_player(after) == CHANCE:
            return state
        state = next_decision(game, after, rng)


def test_horizon_draw_grows_the_tree_only_until_the_next_draw() -> None:
    game = make_game("kingdomino", {"players": 2})
    state = last_turn_of_a_round(game, random.Random(6))
    counts = {}
    for horizon in ("draw", "none"):
        bot = tree_bot(f"mcts:playouts=1500:horizon={horizon}")
        bot.act(game, state, random.Random(7))
        assert bot.root is not None
        counts[horizon] = branching_past_a_draw(game, state, bot.root)
    assert counts["draw"] == 0 < counts["none"]


def test_expand_defaults_to_two_leaves_with_a_kernel_and_to_none_without() -> None:
    for name in ("kingdomino", "queendomino", "kingdoms"):
        game = make_game(name, {"players": 2})
        search = Search(game, 0, TreeConfig(expand=None, playout="greedy"), None)
        assert search.expand == (16 if compiled(game) is not None else 0)
        assert Search(game, 0, TreeConfig(expand=5), None).expand == 5
