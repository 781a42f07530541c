"""The plain text terminal: a game whose shape declares no terminal interface is played with
it, whole, in the game's notation; its log names no chance outcome; its end shows every
score and the winners."""

from __future__ import annotations

import builtins
import dataclasses
import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from test_cli_play import Person

from kingdomkit.bots import make_bot
from kingdomkit.cli.main import main
from kingdomkit.cli.play import load_interface
from kingdomkit.cli.terminal.plain import PlainTerminal
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import IllegalActionError
from kingdomkit.core.record import read_record, replay_record
from kingdomkit.core.registry import GAMES, make_game, register

NAMES = ("kingdomino", "queendomino", "kingdoms")


@pytest.fixture
def no_terminals() -> Iterator[None]:
    """The three games as if their shapes declared no terminal interface."""
    shapes = [GAMES[name] for name in NAMES]
    for shape in shapes:
        plain = dataclasses.replace(shape.capabilities, terminal=None)
        register(dataclasses.replace(shape, capabilities=plain))
    try:
        yield
    finally:
        for shape in shapes:
            register(shape)


@pytest.mark.usefixtures("no_terminals")
def test_a_game_without_a_terminal_interface_gets_the_plain_one() -> None:
    for name in NAMES:
        assert isinstance(load_interface(make_game(name)), PlainTerminal)


def test_a_game_with_one_gets_its_own() -> None:
    for name in NAMES:
        interface = load_interface(make_game(name))
        assert not isinstance(interface, PlainTerminal)
        assert type(interface).__module__ == f"kingdomkit.games.{name}.terminal"


@pytest.mark.usefixtures("no_terminals")
@pytest.mark.parametrize("name", NAMES)
def test_a_whole_game_is_played_in_the_notation(
    name: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys, scripted={"move": ["banana", "help"]})
    monkeypatch.setattr(builtins, "input", person)
    args = ["play", name, "--players", "2", "--seed", "5", "--record", str(path)]
    assert main(args) == 0
    transcript = person.transcript
    assert "Game over" in transcript and "Winner" in transcript
    assert "✗ cannot read 'banana'" in transcript or "✗ " in person.exchanges[0][2]
    assert f"typed in {name}'s notation" in person.exchanges[1][2]
    game = make_game(name, {"players": 2})
    replay = replay_record(read_record(path))
    assert game.is_terminal(replay.final_state)
    # Every move the person typed (or was forced to play) is the notation of the action played.
    state, mine = game.initial_state(), []
    for action in replay.actions:
        if game.current_player(state) == 0:
            mine.append(game.action_to_string(state, action))
        state = game.apply(state, action)
    assert len(mine) == len(person.chosen)
    typed = [(move, played) for (_, move), played in zip(person.chosen, mine, strict=True) if move]
    assert typed and all(move == played for move, played in typed)


def test_the_log_names_no_chance_outcome() -> None:
    plain = PlainTerminal()
    game = make_game("kingdoms", {"players": 2})
    names = ["you", "bot"]
    rng = random.Random(3)
    state = game.initial_state()
    told = 0
    for _ in range(40):
        if game.is_chance(state):
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        after = game.apply(state, action)
        entry = plain.describe(game, state, action, after, names, 0)
        if game.is_chance(state):
            assert entry is None
        else:
            assert entry == f"played {game.action_to_string(state, action)}"
            told += 1
        state = after
    assert told


def test_moves_read_back_and_bad_ones_are_refused() -> None:
    plain = PlainTerminal()
    game = make_game("kingdomino", {"players": 2})
    state = game.initial_state()
    rng = random.Random(1)
    while game.is_chance(state):
        state = game.apply(state, game.sample_chance(state, rng))
    moves = plain.moves_help(game, state)
    assert [plain.parse(game, state, move) for move in moves] == list(game.legal_actions(state))
    with pytest.raises(IllegalActionError):
        plain.parse(game, state, "x" * 100_000)
    console = Console(width=120, record=True, file=io.StringIO())
    plain.draw(console, game, state, game.current_player(state), ["you", "bot"], ["played a"])
    out = console.export_text()
    assert game.render(state, game.current_player(state)).splitlines()[0] in out
    assert "played a" in out and "Your turn" in out


def test_the_end_shows_every_score_and_the_winners() -> None:
    game = make_game("kingdoms", {"players": 3})
    final = play(game, [make_bot("random")] * 3, 2).final_state
    console = Console(width=120, record=True, file=io.StringIO())
    PlainTerminal().final(console, game, final, ["ann", "bob", "cy"])
    out = console.export_text()
    for name, score in zip(["ann", "bob", "cy"], game.scores(final), strict=True):
        assert name in out and str(int(score)) in out
    winners = " and ".join(["ann", "bob", "cy"][p] for p in game.winners(final))
    assert winners in out and "gold" in out
