"""The search bots (flat-mc, uct, uct-pb, mcts, levels): settings, legality in every game,
determinism, hidden information, and flat-mc finding an obviously best move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kingdomkit.bots import BOTS, TreeBot, make_bot
from kingdomkit.bots.compiled import compiled as kernel_of
from kingdomkit.bots.flat_mc import FlatMonteCarloBot
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.levels import LEVELS, level_spec
from kingdomkit.bots.outcome import Normaliser, relative, shares
from kingdomkit.bots.rollout import Simulator, turn_sequences
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game, OptionError
from kingdomkit.core.registry import make_game

SEARCH_BOTS = ("flat-mc", "uct", "uct-pb", "mcts")


def state_after(game: Game[Any], seed: int, decisions: int) -> Any:
    """A decision state reached by random play after about `decisions` decisions."""
    rng = random.Random(seed)
    state = game.initial_state()
    made = 0
    while True:
        player = game.current_player(state)
        if player == TERMINAL:
            raise AssertionError("the game ended before the wanted decision")
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        if made >= decisions:
            return state
        legal = game.legal_actions(state)
        state = game.apply(state, legal[int(rng.random() * len(legal))])
        made += 1


@pytest.mark.parametrize(
    "text",
    [
        "flat-mc:depth=3",
        "flat-mc:playout=smart",
        "flat-mc:score=margin",
        "flat-mc:time=1:playouts=10",
        "flat-mc:epsilon=1.5",
        "flat-mc:playouts=0",
        "uct:bias=1",
        "uct:c=-1",
        "uct-pb:bias=x",
        "mcts:workers=0",
        "mcts:reuse=maybe",
        "mcts:time=soon",
        "mcts:depth=-1",
        "hard:time=1",
        "easy:workers=2",
    ],
)
def test_bad_settings_are_refused(text: str) -> None:
    with pytest.raises(OptionError):
        make_bot(text)


def test_settings_are_read() -> None:
    bot = make_bot("flat-mc:playout=greedy:epsilon=0:score=wdl:playouts=7")
    assert isinstance(bot, FlatMonteCarloBot)
    assert (bot.playout, bot.epsilon, bot.score, bot.budget.playouts) == ("greedy", 0, "wdl", 7)
    tree = make_bot("mcts:c=1.5:bias=2:depth=4:leaf=3:workers=3:reuse=no:time=0.5s")
    assert isinstance(tree, TreeBot)
    assert (tree.config.c, tree.config.bias, tree.config.depth, tree.config.leaf) == (1.5, 2, 4, 3)
    assert tree.workers == 3 and tree.reuse is False
    assert tree.budget.seconds == 0.5
    uct, uct_pb = make_bot("uct"), make_bot("uct-pb")
    assert isinstance(uct, TreeBot) and isinstance(uct_pb, TreeBot)
    assert uct.config.bias == 0.0 and uct_pb.config.bias > 0.0
    for level in LEVELS:
        assert level in BOTS
        make_bot(level)


def test_a_level_plays_its_games_own_spec() -> None:
    """A level is one bot whatever the game; Kingdoms (no draft) has its own easy, a greedy
    bot that blunders, since the general one (greedy-placement) is greedy there."""
    kingdoms, kingdomino = make_game("kingdoms", {"players": 2}), make_game("kingdomino")
    assert level_spec("easy", kingdomino) == LEVELS["easy"] == "greedy-placement"
    assert level_spec("easy", kingdoms) == "greedy:epsilon=0.5"
    assert level_spec("medium", kingdoms) == LEVELS["medium"]
    bot = make_bot("easy")
    for game in (kingdoms, kingdomino):
        state = state_after(game, 5, 3)
        assert bot.act(game, state, random.Random(1)) in game.legal_actions(state)
    assert sorted(bot.agents) == ["greedy-placement", "greedy:epsilon=0.5"]  # type: ignore[attr-defined]


def test_greedy_with_epsilon_blunders_at_that_rate() -> None:
    game = make_game("kingdoms", {"players": 2})
    states = [state_after(game, seed, 6) for seed in range(40)]
    greedy, sometimes, always = (
        make_bot("greedy"),
        make_bot("greedy:epsilon=0.5"),
        make_bot("greedy:epsilon=1"),
    )
    differ = {
        name: sum(
            bot.act(game, state, random.Random(k)) != greedy.act(game, state, random.Random(k))
            for k, state in enumerate(states)
        )
        for name, bot in (("sometimes", sometimes), ("always", always))
    }
    assert 0 < differ["sometimes"] < differ["always"]
    for spec, message in (
        ("greedy:epsilon=1.5", "between 0 and 1"),
        ("greedy:epsilon=x", "is a number"),
        ("greedy:depth=2", "no setting 'depth'"),
    ):
        with pytest.raises(OptionError, match=message):
            make_bot(spec)


def test_scorers() -> None:
    assert relative([0.0, 0.0], [0.5, 0.5]) == [0.5, 0.5]
    assert relative([30.0, 10.0, 20.0], [1.0, 0.0, 0.0]) == [0.6, 0.25, 0.4]
    assert shares([3.0, 5.0, 5.0]) == [0.0, 0.5, 0.5]
    norm = Normaliser("points")
    norm.see([40.0, 10.0])
    assert norm(40.0) == 1.0 and norm(0.0) == 0.0 and norm(20.0) == 0.5
    assert Normaliser("wdl")(0.25) == 0.25


GAMES = [
    ("kingdomino", {"players": 2}),
    ("kingdomino", {"players": 4}),
    ("queendomino", {"players": 2}),
    ("kingdoms", {"players": 2}),
    ("kingdoms", {"players": 4}),
]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=lambda v: str(v))
@pytest.mark.parametrize("bot_name", SEARCH_BOTS)
def test_every_bot_plays_legal_actions(name: str, options: dict[str, Any], bot_name: str) -> None:
    game = make_game(name, options)
    for seed, decisions in ((1, 0), (2, 9), (3, 30)):
        state = state_after(game, seed, decisions)
        bot = make_bot(f"{bot_name}:playouts=6")
        rng = random.Random(seed)
        # the whole turn: its later micro-decisions come from the same search
        player = game.current_player(state)
        for _ in range(3):
            action = bot.act(game, state, rng)
            assert action in game.legal_actions(state)
            after = game.apply(state, action)
            if not heuristics(game).turn_continues(state, after):
                break
            state = after
        assert game.current_player(state) == player


@pytest.mark.parametrize("bot_name", SEARCH_BOTS)
def test_same_seed_and_playouts_same_action(bot_name: str) -> None:
    for name in ("kingdomino", "kingdoms"):
        game = make_game(name, {"players": 2})
        state = state_after(game, 5, 12)
        actions = {
            make_bot(f"{bot_name}:playouts=40").act(game, state, random.Random(9)) for _ in range(2)
        }
        assert len(actions) == 1


def _same_view_other_secret(game: Game[Any], state: Any, player: int) -> Any:
    """`state` with the opponent's secret starting tile swapped for another unseen tile."""
    other = 1 - player
    mine = state.starting[other]
    supply = list(state.supply)
    swap = next(t for t, n in enumerate(supply) if n and t != mine)
    supply[swap] -= 1
    supply[mine] += 1
    starting = list(state.starting)
    starting[other] = swap
    return state._replace(starting=tuple(starting), supply=tuple(supply))


@pytest.mark.parametrize("bot_name", SEARCH_BOTS)
def test_kingdoms_choices_depend_only_on_the_view(bot_name: str) -> None:
    game = make_game("kingdoms", {"players": 2})
    for seed in range(20):
        state = state_after(game, seed, 3)
        player = game.current_player(state)
        if state.starting[1 - player] >= 0:
            break
    twin = _same_view_other_secret(game, state, player)
    assert twin != state and game.view(twin, player) == game.view(state, player)
    chosen = {
        make_bot(f"{bot_name}:playouts=60").act(game, s, random.Random(4)) for s in (state, twin)
    }
    assert len(chosen) == 1


def _last_placement(game: Game[Any], seed: int) -> Any:
    """A player's very last placement (last round, no later domino of theirs) in a random
    game."""
    rng = random.Random(seed)
    state = game.initial_state()
    while True:
        player = game.current_player(state)
        if player >= 0 and not state.line and player not in state.placers[state.turn + 1 :]:
            return state
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            legal = game.legal_actions(state)
            state = game.apply(state, legal[int(rng.random() * len(legal))])


def test_flat_mc_finds_the_best_last_placement() -> None:
    """A placement of the last round: with own points as the score every playout of a
    candidate ends with the same own score, so a few playouts each find the best one."""
    game = make_game("kingdomino", {"players": 2})
    for seed in range(40):
        state = _last_placement(game, seed)
        player = game.current_player(state)
        values = {seq: game.scores(after)[player] for seq, after in turn_sequences(game, state)}
        ranked = sorted(values.values(), reverse=True)
        if len(ranked) > 2 and ranked[0] > ranked[1]:
            break
    else:
        pytest.fail("no last placement with a unique best move")
    best = max(values, key=lambda seq: values[seq])
    bot = make_bot(f"flat-mc:score=points:playouts={3 * len(values)}")
    assert bot.act(game, state, random.Random(0)) == best[0]
    assert isinstance(bot, FlatMonteCarloBot)
    assert bot.last_means[best][1] == 3
    assert bot.last_means[best][0] == values[best]


@pytest.mark.parametrize("bot_name", SEARCH_BOTS)
def test_with_and_without_the_compiled_kernel(
    bot_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = make_game("kingdomino", {"players": 2})
    if kernel_of(compiled) is None:
        pytest.skip("no compiled kernel here")
    monkeypatch.setenv("KINGDOMKIT_COMPILED", "0")
    plain = make_game("kingdomino", {"players": 2})
    assert kernel_of(plain) is None
    monkeypatch.delenv("KINGDOMKIT_COMPILED")
    state = state_after(compiled, 7, 6)
    for game in (compiled, plain):
        bot = make_bot(f"{bot_name}:playouts=24")
        assert bot.act(game, state, random.Random(3)) in game.legal_actions(state)
    sim = Simulator(compiled, 0, "greedy", 0.25, "points")
    assert sim.kernel is not None
    outcomes = sim.batch(state, random.Random(1), 5)
    assert len(outcomes) == 5 and all(len(points) == 2 for _, points in outcomes)
