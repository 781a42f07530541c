"""The `neural` bot and its numpy network: whole legal games with an untrained network, the
prior's move at playouts=1, network files that do not fit refused in words, batched searches
that spend their budget and take back their virtual losses."""

from __future__ import annotations

import pickle
import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from kingdomkit.bots import make_bot  # noqa: E402
from kingdomkit.bots.analysis import most_points  # noqa: E402
from kingdomkit.bots.budget import Budget  # noqa: E402
from kingdomkit.bots.network import (  # noqa: E402
    Network,
    Sizes,
    load_network,
    observer_of,
    random_network,
    save_network,
)
from kingdomkit.bots.neural import DEFAULT_BATCH, NeuralBot, NeuralSearch  # noqa: E402
from kingdomkit.bots.tree import Node  # noqa: E402
from kingdomkit.core.driver import play, replay_actions  # noqa: E402
from kingdomkit.core.protocol import CHANCE, Game, OptionError  # noqa: E402
from kingdomkit.core.registry import make_game  # noqa: E402
from networks import SETUP_IDS, SETUPS, TINY, saved  # noqa: E402


def decision(game: Game[Any], seed: int, steps: int) -> Any:
    """A decision a few random moves into a game."""
    rng = random.Random(seed)
    state = game.initial_state()
    while True:
        while game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        if steps == 0:
            return state
        state = game.apply(state, rng.choice(game.legal_actions(state)))
        steps -= 1


@pytest.mark.parametrize("options", SETUPS, ids=SETUP_IDS)
def test_whole_legal_games_with_an_untrained_network(
    options: dict[str, Any], tmp_path: Path
) -> None:
    game = make_game("kingdomino", options)
    path = saved(game, tmp_path / "net.npz")
    agents = [make_bot(f"neural:weights={path}:playouts=4")]
    agents += [make_bot("greedy") for _ in range(game.num_players - 1)]
    played = play(game, agents, seed=5)
    assert game.is_terminal(played.final_state)
    # every decision was legal: the record replays through the checked path
    assert replay_actions(game, played.actions) == played.final_state


def test_at_one_playout_it_plays_the_move_its_policy_is_forced_to(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    state = decision(game, 3, 5)
    legal = game.legal_actions(state)
    assert len(legal) > 2
    for forced in (legal[-1], legal[len(legal) // 2]):
        network = random_network(game, 1, TINY)
        arrays = dict(network.arrays)
        arrays["policy.weight"] = np.zeros_like(arrays["policy.weight"])
        arrays["policy.bias"] = np.full_like(arrays["policy.bias"], -20.0)
        arrays["policy.bias"][forced] = 20.0
        path = tmp_path / f"forced-{forced}.npz"
        save_network(path, network.header, arrays)
        bot = make_bot(f"neural:weights={path}:playouts=1")
        assert isinstance(bot, NeuralBot)
        assert bot.act(game, state, random.Random(0)) == forced
        assert bot.root is not None and bot.root.children[forced].visits == 1


def test_the_search_spends_its_playouts_and_reads_the_turn_from_one_tree(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "net.npz")
    bot = make_bot(f"neural:weights={path}:playouts=30")
    assert isinstance(bot, NeuralBot)
    state = decision(game, 4, 2)  # a placement: the claim follows in the same turn
    action = bot.act(game, state, random.Random(1))
    root = bot.root
    assert root is not None and root.visits == 30
    assert sum(child.visits for child in root.children.values()) == 30
    after = game.apply(state, action)
    if game.current_player(after) == game.current_player(state):
        bot.act(game, after, random.Random(2))
        assert bot.root is root.children[action]


def test_two_workers_search_with_the_network_and_merge_their_trees(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "net.npz")
    bot = make_bot(f"neural:weights={path}:playouts=30:batch=4:workers=2")
    assert isinstance(bot, NeuralBot)
    state = decision(game, 4, 2)
    # what a helper is sent, and makes, is this bot's network-guided search
    sent = pickle.loads(pickle.dumps(partial(bot.searcher(game, 0), None)))()
    assert isinstance(sent, NeuralSearch) and sent.batch == 4
    try:
        action = bot.act(game, state, random.Random(1))
        assert action in game.legal_actions(state)
        root = bot.root
        assert root is not None and root.visits == 60  # 30 here, 30 in the helper
        # the helper ships the nodes it visited twice or more
        assert 30 < sum(child.visits for child in root.children.values()) <= 60
        played = play(game, [bot, make_bot("greedy")], seed=6)
        assert replay_actions(game, played.actions) == played.final_state
    finally:
        bot.close()
    assert bot.pool is None


def test_the_workers_setting_is_checked(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "net.npz")
    for wrong in ("0", "65", "two"):
        with pytest.raises(OptionError, match="workers"):
            make_bot(f"neural:weights={path}:workers={wrong}")
    with pytest.raises(OptionError, match="workers is between 1 and 64, not 65"):
        make_bot("mcts:workers=65")
    with pytest.raises(OptionError, match="without workers="):
        make_bot(f"neural:weights={path}:playouts=8:gumbel=4:workers=2")


def test_the_network_evaluates_batches_with_priors_on_the_legal_actions_only() -> None:
    game = make_game("kingdomino", {"players": 4})
    network = random_network(game, 2, TINY)
    encoder = observer_of(game)
    states = [decision(game, seed, seed) for seed in range(3)]
    observations = [encoder.observe(s, game.current_player(s)) for s in states]
    masks = np.array([game.legal_mask(s) for s in states], bool)
    found = network.evaluate(observations, masks)
    assert found.priors.shape == (3, game.num_actions)
    assert np.allclose(found.priors.sum(axis=1), 1.0)
    assert not found.priors[~masks].any()
    assert found.values.shape == found.points.shape == (3, 4)
    assert ((found.values > 0) & (found.values < 1)).all()
    one = network.evaluate(observations[1:2], masks[1:2])
    assert np.allclose(one.priors, found.priors[1:2], atol=1e-6)


def test_a_network_for_other_options_or_another_game_is_refused_in_words(tmp_path: Path) -> None:
    two = make_game("kingdomino", {"players": 2})
    path = saved(two, tmp_path / "two.npz")
    bot = make_bot(f"neural:weights={path}:playouts=2")
    four = make_game("kingdomino", {"players": 4})
    with pytest.raises(OptionError, match=r"number of players|options"):
        bot.act(four, decision(four, 1, 0), random.Random(0))
    duel = make_game("kingdomino", {"players": 2, "mighty_duel": True})
    with pytest.raises(OptionError, match="options"):
        bot.act(duel, decision(duel, 1, 0), random.Random(0))
    queendomino = make_game("queendomino", {"players": 2})
    with pytest.raises(OptionError, match="plays kingdomino, not queendomino"):
        load_network(path).check(queendomino)


def test_missing_broken_or_foreign_weights_are_refused_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kingdomkit.bots import network as networks

    monkeypatch.setattr(networks, "SHIPPED", tmp_path / "nothing shipped")
    with pytest.raises(OptionError, match="needs weights=PATH"):
        make_bot("neural:playouts=5")
    with pytest.raises(OptionError, match="no network file"):
        make_bot(f"neural:weights={tmp_path / 'absent.npz'}")
    junk = tmp_path / "junk.npz"
    junk.write_text("not a network")
    with pytest.raises(OptionError, match=r"not a network file \(\.npz\)"):
        make_bot(f"neural:weights={junk}")
    plain = tmp_path / "plain.npz"
    np.savez(plain, weights=np.zeros(3))
    with pytest.raises(OptionError, match="no network header"):
        make_bot(f"neural:weights={plain}")
    game = make_game("kingdomino", {"players": 2})
    network = random_network(game, 0, TINY)
    arrays = dict(network.arrays)
    arrays["trunk.weight"] = arrays["trunk.weight"][:, :-1]
    with pytest.raises(OptionError, match=r"trunk\.weight"):
        Network(network.header, arrays)
    with pytest.raises(OptionError, match="mix is between 0 and 1"):
        make_bot(f"neural:weights={plain}:mix=2")


def test_a_saved_network_loads_back_the_same(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    network = random_network(game, 7, TINY, command="test")
    path = tmp_path / "net.npz"
    save_network(path, network.header, network.arrays)
    loaded = load_network(path)
    assert loaded.header == network.header
    assert loaded.header["produced_by"]["command"] == "test"
    for name, array in network.arrays.items():
        assert np.array_equal(loaded.arrays[name], array)


def test_mixed_leaves_play_a_legal_game(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "net.npz")
    agents = [make_bot(f"neural:weights={path}:playouts=3:mix=0.5"), make_bot("random")]
    played = play(game, agents, seed=9)
    assert replay_actions(game, played.actions) == played.final_state


def test_a_leaf_averages_its_rollouts(tmp_path: Path) -> None:
    """`rollouts=N`: a leaf's playout share is the mean of N greedy playouts, drawn as one
    compiled call draws them; N out of 1..64 is refused in words."""
    game = make_game("kingdomino", {"players": 2})
    network = load_network(saved(game, tmp_path / "net.npz"))
    state = decision(game, 6, 5)
    search = NeuralSearch(game, 0, network, 1.5, 1.0, None, rollouts=4)
    assert search.sim is not None
    runs = search.sim.batch(state, random.Random(8), 4)
    values, points = search.played(state, random.Random(8))
    assert np.allclose(values, np.mean([v for v, _ in runs], axis=0))
    assert np.allclose(points, np.mean([p for _, p in runs], axis=0))
    assert len({tuple(p) for _, p in runs}) > 1  # four playouts, not one four times
    path = tmp_path / "net.npz"
    agents = [make_bot(f"neural:weights={path}:playouts=3:rollouts=4"), make_bot("random")]
    played = play(game, agents, seed=9)
    assert replay_actions(game, played.actions) == played.final_state
    for wrong in ("0", "65", "x"):
        with pytest.raises(OptionError, match="rollouts"):
            make_bot(f"neural:weights={path}:rollouts={wrong}")


def test_an_analysis_covers_every_legal_action_with_expected_points(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "net.npz")
    bot = make_bot(f"neural:weights={path}:playouts=10:confirm=4")
    assert isinstance(bot, NeuralBot)
    state = decision(game, 6, 4)
    analysis = bot.analyse(game, state, random.Random(3))
    assert sorted(e.action for e in analysis.actions) == list(game.legal_actions(state))
    assert all(e.visits >= 1 for e in analysis.actions)
    assert most_points(analysis.actions).visits >= 4  # the best is confirmed


def test_root_noise_keeps_a_distribution_and_plays_legal_games(tmp_path: Path) -> None:
    from kingdomkit.bots.neural import noisy

    prior = {3: 0.7, 5: 0.2, 9: 0.1}
    mixed = noisy(prior, 0.25, random.Random(1))
    assert mixed == noisy(prior, 0.25, random.Random(1))  # from the bot's generator
    assert mixed != prior and set(mixed) == set(prior)
    assert abs(sum(mixed.values()) - 1.0) < 1e-9
    assert all(v >= 0.75 * prior[a] for a, v in mixed.items())
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "net.npz")
    agents = [make_bot(f"neural:weights={path}:playouts=3:noise=0.25"), make_bot("greedy")]
    played = play(game, agents, seed=2)
    assert replay_actions(game, played.actions) == played.final_state
    with pytest.raises(OptionError, match="noise is between 0 and 1"):
        make_bot(f"neural:weights={path}:noise=1.5")


def test_kingdomkit_analyze_grades_a_game_with_the_neural_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from kingdomkit.cli.main import main
    from kingdomkit.core.record import make_record, write_record

    game = make_game("kingdomino", {"players": 2})
    played = play(game, [make_bot("random"), make_bot("greedy")], seed=4)
    record = tmp_path / "game.json"
    write_record(record, make_record(game, 4, ["ann", "bob"], list(played.actions)))
    network = saved(game, tmp_path / "net.npz")
    spec = f"neural:weights={network}:playouts=2:confirm=2"
    assert main(["analyze", str(record), "--bot", spec, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["decisions"]) > 10
    assert all(d["points_lost"] >= 0 for d in data["decisions"])


class CountingSearch(NeuralSearch):
    """A search that counts the iterations ending at each node (its own evaluations)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ends: dict[int, int] = {}

    def backup(self, path: list[Node], outcome: Any) -> None:
        self.ends[id(path[-1])] = self.ends.get(id(path[-1]), 0) + 1
        super().backup(path, outcome)


def nodes(node: Node) -> list[Node]:
    found = [node]
    for child in node.children.values():
        found += nodes(child)
    return found


@pytest.mark.parametrize("options", SETUPS, ids=SETUP_IDS)
@pytest.mark.parametrize("batch", [1, 3, 8])
def test_a_batched_search_spends_its_budget_and_takes_back_every_virtual_loss(
    options: dict[str, Any], batch: int
) -> None:
    game = make_game("kingdomino", options)
    network = random_network(game, 1, TINY)
    state = decision(game, 2, 6)
    player = game.current_player(state)
    search = CountingSearch(game, player, network, 1.5, 0.0, None, batch=batch)
    done = search.run(game.view(state, player), random.Random(4), Budget(playouts=45).start())
    assert done == search.iterations == search.root.visits == 45
    everything = nodes(search.root)
    assert len(everything) > 10  # the batches went down different paths
    for node in everything:
        # no visit of a virtual loss is left: a node's visits are its children's plus the
        # iterations that ended at it
        assert node.visits == sum(c.visits for c in node.children.values()) + search.ends.get(
            id(node), 0
        )
        assert node.visits == node.avail
        assert node is search.root or node.visits >= 1


def searched_placement(playouts: int, seed: int, **settings: Any) -> NeuralSearch:
    """A search of `playouts` iterations (an untrained network) at a placement of 12 moves."""
    game = make_game("kingdomino", {"players": 2})
    network = random_network(game, 1, TINY)
    state = decision(game, 2, 6)
    player = game.current_player(state)
    assert len(game.legal_actions(state)) == 12
    search = NeuralSearch(game, player, network, 1.5, 0.0, None, **settings)
    search.run(game.view(state, player), random.Random(seed), Budget(playouts=playouts).start())
    assert search.root.visits == playouts
    return search


def test_virtual_losses_spread_one_batch_over_the_roots_children() -> None:
    # a first iteration alone (it gives q its range), then one batch of eight descents:
    # without virtual losses they would all go down the same path (two children at most)
    search = searched_placement(9, 0, batch=8)
    assert len(search.root.children) >= 6


def test_evaluating_a_batch_gives_what_evaluating_each_position_gives() -> None:
    for options in SETUPS:
        game = make_game("kingdomino", options)
        search = NeuralSearch(game, 0, random_network(game, 5), 1.5, 0.0, None)
        states = [decision(game, seed, 3 * seed) for seed in range(6)]
        rng = random.Random(0)
        together = search.evaluate_many(states, rng)
        for state, (priors, (values, points)) in zip(states, together, strict=True):
            alone, (values1, points1) = search.evaluate(state, rng)
            assert list(priors) == list(alone) == list(game.legal_actions(state))
            assert np.allclose(list(priors.values()), list(alone.values()), atol=1e-6)
            assert np.allclose(values, values1, atol=1e-6)
            assert np.allclose(points, points1, atol=1e-4)


def test_the_batch_setting_is_checked(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "net.npz")
    bot = make_bot(f"neural:weights={path}:playouts=5:batch=4")
    assert isinstance(bot, NeuralBot) and bot.batch == 4
    assert make_bot(f"neural:weights={path}").batch == DEFAULT_BATCH  # type: ignore[attr-defined]
    for wrong in ("0", "257", "two"):
        with pytest.raises(OptionError, match="batch"):
            make_bot(f"neural:weights={path}:batch={wrong}")


def test_a_first_play_reduction_keeps_the_search_on_fewer_moves() -> None:
    # An untried move is presumed worth less than its parent once some of the prior is
    # tried: the same budget goes to fewer of a placement's many moves, each searched deeper.
    tried = {}
    for fpu in (0.0, 0.5, 1.0):
        search = searched_placement(200, 3, fpu=fpu)
        tried[fpu] = sum(1 for child in search.root.children.values() if child.visits)
    assert tried[0.0] > tried[0.5] > tried[1.0] >= 1


def test_the_fpu_setting_is_checked(tmp_path: Path) -> None:
    path = saved(make_game("kingdomino", {"players": 2}), tmp_path / "net.npz")
    assert make_bot(f"neural:weights={path}:fpu=0.3").fpu == 0.3  # type: ignore[attr-defined]
    assert make_bot(f"neural:weights={path}").fpu == 0.0  # type: ignore[attr-defined]
    for wrong in ("-0.1", "1.5", "much"):
        with pytest.raises(OptionError, match="fpu"):
            make_bot(f"neural:weights={path}:fpu={wrong}")


@pytest.mark.parametrize("options", SETUPS, ids=SETUP_IDS)
def test_batched_searches_play_whole_legal_games(options: dict[str, Any], tmp_path: Path) -> None:
    game = make_game("kingdomino", options)
    path = saved(game, tmp_path / "net.npz")
    agents = [make_bot(f"neural:weights={path}:playouts=12:batch=8")]
    agents += [make_bot("greedy") for _ in range(game.num_players - 1)]
    played = play(game, agents, seed=3)
    assert replay_actions(game, played.actions) == played.final_state


def test_without_weights_the_network_shipped_for_the_table_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`neural` without weights= takes the package's network of each game's table (the
    file's header says which); a table it ships none for is refused in words."""
    from kingdomkit.bots import network as networks

    two = make_game("kingdomino", {"players": 2})
    shipped = random_network(two, 0, TINY)
    save_network(tmp_path / "kingdomino-2p.npz", shipped.header, shipped.arrays)
    monkeypatch.setattr(networks, "SHIPPED", tmp_path)
    bot = make_bot("neural:playouts=2")
    assert isinstance(bot, NeuralBot) and bot.unfit(two) is None
    played = play(two, [bot, make_bot("random")], seed=5)
    assert replay_actions(two, played.actions) == played.final_state
    four = make_game("kingdomino", {"players": 4})
    assert "ships no trained network for kingdomino (players=4)" in str(bot.unfit(four))
    rng = random.Random(1)
    state = four.initial_state()
    while four.is_chance(state):
        state = four.apply(state, four.sample_chance(state, rng))
    with pytest.raises(OptionError, match="ships no trained network"):
        bot.act(four, state, rng)
    monkeypatch.setattr(networks, "SHIPPED", tmp_path / "none")
    with pytest.raises(OptionError, match="needs weights=PATH"):
        make_bot("neural:playouts=2")


@pytest.mark.parametrize("options", SETUPS[:2], ids=["2p", "mighty-duel"])
def test_the_board_policy_turns_with_the_kingdom(options: dict[str, Any]) -> None:
    """Board features made cell by cell (the convolutions' centre taps alone) and one logit a
    cell whatever the facing make a placement's logit its first square's: turning the
    position then turns the logits with the placements, which holds only if each action's
    cell is where the planes put its square."""
    from kingdomkit.games.kingdomino.encoding import acting_domino_alike
    from kingdomkit.games.kingdomino.state import PLACE

    game = make_game("kingdomino", options)
    sizes = Sizes(channels=4, reduced=2, hidden=8, trunk=16, value_hidden=8, board_policy=1)
    untrained = random_network(game, 2, sizes)
    arrays = dict(untrained.arrays)
    for name in ("conv1.weight", "conv2.weight"):
        centre = arrays[name][:, :, 1, 1].copy()
        arrays[name] = np.zeros_like(arrays[name])
        arrays[name][:, :, 1, 1] = centre
    arrays["board_policy.weight"] = np.repeat(arrays["board_policy.weight"][:1], 4, axis=0)
    arrays["policy.weight"] = np.zeros_like(arrays["policy.weight"])
    network = Network(untrained.header, arrays)
    encoder = observer_of(game)
    on = np.flatnonzero(np.array(network.layout.action_cells) >= 0)
    rng = random.Random(4)
    state, checked = game.initial_state(), 0
    while not game.is_terminal(state) and checked < 3:
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        observation = encoder.observe(state, game.current_player(state))
        placing = int(np.argmax(observation["counters"][:5])) == PLACE
        if placing and not acting_domino_alike(observation["kings"], game.num_players, 6):
            mask = np.array(game.legal_mask(state), bool)
            logits, _, _ = network.forward(*network.inputs([observation]))
            assert np.ptp(logits[0, on]) > 1e-3  # the cells' logits differ
            for image in encoder.symmetries(observation, mask):
                turned, _, _ = network.forward(*network.inputs([image.observation]))
                assert np.allclose(turned[0, image.actions[on]], logits[0, on], atol=1e-5)
            checked += 1
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    assert checked == 3


def evaluated_past_a_draw(game: Game[Any], state: Any, node: Node, rng: random.Random) -> int:
    """How many of the tree's evaluated nodes lie past a draw, walking it from `state` (each
    draw sampled; the tree is open-loop, so its actions apply whatever is drawn)."""
    found = 0
    for action, child in node.children.items():
        after, drawn = game.apply(state, action), False
        while game.current_player(after) == CHANCE:
            after, drawn = game.apply(after, game.sample_chance(after, rng)), True
        if child.prior is not None and not game.is_terminal(after):
            found += drawn + evaluated_past_a_draw(game, after, child, rng)
    return found


@pytest.mark.parametrize("horizon", ["draw", "none"])
def test_the_horizon_says_whether_the_tree_goes_on_past_a_draw(
    horizon: str, tmp_path: Path
) -> None:
    # At a round's last placement every move is followed by the round's last claim, then
    # the draw of the next line: with horizon=draw (the default) each iteration stops there
    # and the network judges the position it drew; with horizon=none the tree grows past it.
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "net.npz")
    state = decision(game, 4, 10)  # the first round's last placement, 16 moves
    placed = game.apply(state, game.legal_actions(state)[0])
    assert len(game.legal_actions(state)) == 16 and len(game.legal_actions(placed)) == 1
    assert game.current_player(game.apply(placed, game.legal_actions(placed)[0])) == CHANCE
    suffix = "" if horizon == "draw" else f":horizon={horizon}"
    bot = make_bot(f"neural:weights={path}:playouts=60:reuse=no{suffix}")
    assert isinstance(bot, NeuralBot) and bot.past_draws == (horizon == "none")
    search = bot._search(
        game, game.view(state, 0), game.current_player(state), random.Random(2), None
    )
    past = evaluated_past_a_draw(game, state, search.root, random.Random(3))
    assert search.root.visits == 60
    assert (past == 0) if horizon == "draw" else (past >= 10)
    with pytest.raises(OptionError, match="horizon"):
        make_bot(f"neural:weights={path}:horizon=deep")
