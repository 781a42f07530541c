"""Who makes hints and reviews (server/analysts.py): `--analyst [GAME=]SPEC` for every game or
per game, refused in words at the start when it cannot analyse, and each game's own analyst
standing in on a table a network does not fit."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdomkit.bots import RandomBot
from kingdomkit.bots.network import Sizes, random_network, save_network
from kingdomkit.bots.review import grading_of
from kingdomkit.cli.main import main
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.core.registry import make_game
from kingdomkit.server.analysts import ANALYST_ENV, Analysts, analyst_for
from kingdomkit.server.bots import review

TINY = Sizes(channels=4, reduced=2, hidden=8, trunk=16, value_hidden=8)


def network_file(tmp_path: Path, players: int) -> Path:
    """An untrained network for Kingdomino with `players` players (it fits those alone)."""
    path = tmp_path / f"kingdomino-{players}p.npz"
    network = random_network(make_game("kingdomino", {"players": players}), 1, TINY)
    save_network(path, network.header, network.arrays)
    return path


def test_a_spec_is_for_every_game_and_game_equals_spec_for_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ANALYST_ENV, raising=False)
    assert Analysts.read([]) == Analysts()
    found = Analysts.read(["mcts:playouts=50", "kingdoms=mcts:playouts=20:confirm=8"])
    assert found.spec("kingdomino") == "mcts:playouts=50"  # `=` inside a spec is no game
    assert found.spec("queendomino") == "mcts:playouts=50"
    assert found.spec("kingdoms") == "mcts:playouts=20:confirm=8"
    assert Analysts.read(["kingdoms=mcts:playouts=20"]).spec("kingdomino") is None
    monkeypatch.setenv(ANALYST_ENV, "queendomino=mcts:playouts=30")
    assert Analysts.read([]).spec("queendomino") == "mcts:playouts=30"
    assert Analysts.read(["mcts:playouts=9"]).spec("queendomino") == "mcts:playouts=9"


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        (["chess=mcts"], "no game called 'chess'"),
        (["kingdomino="], "no bot after kingdomino="),
        ([" "], "an empty spec"),
        (["mcts", "uct"], "two analysts for every game"),
        (["kingdoms=mcts", "kingdoms=uct"], "two analysts for kingdoms"),
        (["greedy"], "greedy cannot analyse positions"),
        (["kingdomino=mcts:playouts=x"], "--analyst 'mcts:playouts=x': mcts: playouts"),
        (["neural:weights=/nowhere.npz"], "no network file at '/nowhere.npz'"),
    ],
)
def test_an_analyst_that_cannot_be_is_refused_in_words(texts: list[str], message: str) -> None:
    with pytest.raises(KingdomkitError, match=message):
        Analysts.read(texts)


def test_a_network_analyses_the_tables_it_fits_and_the_games_own_the_others(
    tmp_path: Path,
) -> None:
    spec = f"neural:weights={network_file(tmp_path, 2)}:playouts=4:confirm=2"
    two, four = (make_game("kingdomino", {"players": n}) for n in (2, 4))
    bot, used = analyst_for(two, spec)
    assert used == spec and bot.name == "neural"
    bot.close()
    bot, used = analyst_for(four, spec)  # trained for 2 players: the game's own stands in
    assert used == grading_of(four).analyst and bot.name == "mcts"
    bot.close()
    gone = spec.replace("kingdomino-2p", "gone")  # a file removed since the start
    assert analyst_for(two, gone)[1] == grading_of(two).analyst
    assert analyst_for(two, None)[1] == grading_of(two).analyst


def test_an_analyst_searches_in_its_worker_process_alone() -> None:
    """An analyst's `workers=N` would start processes the scheduler does not count."""
    game = make_game("kingdomino", {"players": 2})
    bot, used = analyst_for(game, "mcts:playouts=20:workers=3")
    try:
        assert used == "mcts:playouts=20" and bot.workers == 1
    finally:
        bot.close()


def test_a_review_says_which_analyst_graded_it(tmp_path: Path) -> None:
    spec = f"neural:weights={network_file(tmp_path, 2)}:playouts=2:confirm=2"
    game = make_game("kingdomino", {"players": 2})
    played = play(game, [RandomBot(), RandomBot()], seed=4)
    graded = review("kingdomino", {"players": 2}, list(played.actions), spec, "4")
    assert graded["analyst"] == spec
    assert graded["decisions"] and all(d["loss"] >= 0 for d in graded["decisions"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--analyst", "chess=mcts"], "no game called 'chess'"),
        (
            ["worker", "--database", "postgresql+psycopg://nobody@nowhere/none", "--analyst",
             "greedy"],
            "greedy cannot analyse positions",
        ),
    ],
)  # fmt: skip
def test_serve_and_worker_refuse_a_bad_analyst_before_starting(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, *(["--data", str(tmp_path)] if argv[0] == "serve" else [])]) == 2
    assert message in capsys.readouterr().err
