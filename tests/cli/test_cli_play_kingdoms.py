"""`kingdomkit play kingdoms`: whole games typed at the prompt, bad input, the variants, records
that replay, what the person may see (never an opponent's secret tile, on the table or in the
log), and the Kingdoms terminal UI's reader of moves on hand-made positions."""

from __future__ import annotations

import builtins
import io
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from test_cli_play import Person, assert_refused_in_one_line, play_from_real_stdin

from kingdomkit.bots import make_bot
from kingdomkit.cli.main import main
from kingdomkit.cli.play import load_interface
from kingdomkit.cli.terminal.kit import Terminal
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import CHANCE, Game, IllegalActionError
from kingdomkit.core.record import read_record, replay_record
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.actions import (
    DRAW_ACTION,
    PASS_ACTION,
    PLACE_BASE,
    START_BASE,
    TAKE_BASE,
    castle_action,
)
from kingdomkit.games.kingdoms.options import START_GOLD
from kingdomkit.games.kingdoms.rules import DEAL, DRAW, OVER, PLACE, PLAY, Kingdoms
from kingdomkit.games.kingdoms.state import NO_TILE, KingdomsState
from kingdomkit.games.kingdoms.terminal import (
    TerminalUI,
    labelled_space,
    move_text,
    space_label,
)
from kingdomkit.games.kingdoms.tiles import LABELS, TYPES

UI = TerminalUI()
GAME = Kingdoms({"players": 2})
NAMES = ["you", "bot (seat 1)"]  # as `kingdomkit play` labels the seats
TROLL, TOWN, WIZARD = (LABELS.index(label) for label in ("-6", "+3", "WIZ"))
# How the log tells the other players' draws.
SECRET_DRAWS = ("drew a face-down starting tile", "drew a tile from the supply")


def run_play(monkeypatch: pytest.MonkeyPatch, person: Callable[[object], str], *args: str) -> int:
    monkeypatch.setattr(builtins, "input", person)
    return main(["play", "kingdoms", *args])


def typed_moves_are_played(
    record: dict[str, Any], person: Person, scripted: Sequence[str] = ()
) -> None:
    """Walk the record's game: each move the person typed (the `scripted` legal ones first,
    then those picked from the ? list) is the action played; the moves played on Enter are the
    forced ones, and the other Enters are the pauses between epochs."""
    seat = 0
    replayed = replay_record(record)
    game = replayed.game
    state = game.initial_state()
    chosen, forced = [], 0
    for action in replayed.actions:
        if game.current_player(state) == seat:
            if len(game.legal_actions(state)) == 1:
                forced += 1
            else:
                chosen.append(move_text(state, action))
        state = game.apply(state, action)
    typed = [*scripted, *(move for _, move in person.chosen if move)]
    assert typed == chosen and chosen
    pauses = sum(1 for event in record["events"] if event["type"] == "epoch_end")
    enters = sum(1 for _, move in person.chosen if not move)
    # A game stopped at the pause after an epoch has that pause unanswered.
    stopped_at_a_pause = not game.is_terminal(state) and enters == forced + pauses - 1
    assert enters == forced + pauses or stopped_at_a_pause


def epoch_gold(record: dict[str, Any]) -> list[list[int]]:
    return [event["gold"] for event in record["events"] if event["type"] == "epoch_end"]


# -- whole games ---------------------------------------------------------------------------------
def test_a_whole_two_player_game_typed_at_the_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys)
    args = ("--players", "2", "--bots", "random", "--seed", "5", "--record", str(path))
    assert run_play(monkeypatch, person, *args) == 0
    transcript = person.transcript
    assert "Game over" in transcript and "Traceback" not in transcript
    assert "Record of the finished game saved to" in transcript
    for words in ("epoch 1 of 3", "epoch 3 of 3", "supply: ", "castles in hand", "Recent moves"):
        assert words in transcript
    kinds = {move.split()[0] for _, move in person.chosen if move and " " in move}
    assert {"castle", "start"} <= kinds
    assert "draw" in [move for _, move in person.chosen]

    record = read_record(path)
    assert record["players"] == ["you", "random"]
    replayed = replay_record(record)
    game, final = replayed.game, replayed.final_state
    assert game.is_terminal(final)
    typed_moves_are_played(record, person)
    # Each epoch pauses on its score sheet, with the gold the record holds.
    golds = epoch_gold(record)
    assert len(golds) == 3
    for epoch, gold in enumerate(golds, start=1):
        assert f"Epoch {epoch} is over" in transcript
        assert f"Gold now: A you {gold[0]}, B random (seat 1) {gold[1]}" in transcript
    sheet = transcript.split("Epoch 1 is over")[1]
    for line in (*bd.LINE_NAMES, "rows", "columns", "Scores of the epoch"):
        assert line in sheet
    # The end: the gold of each epoch, the total, the winners.
    end = transcript.split("Game over")[-1]
    assert re.search(rf"gold\W+{final.gold[0]}\W+{final.gold[1]}\W", end)
    winners = game.winners(final)
    if len(winners) == 1:
        assert f"Winner: {'AB'[winners[0]]} " in end
    else:
        assert "Winners, sharing the victory on equal gold: A you and B random" in end
    assert f"with {max(final.gold)} gold" in end

    assert main(["replay", str(path), "--quiet"]) == 0
    assert "The record is valid" in capsys.readouterr().out


def test_no_seed_is_shown_while_the_game_is_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The seed gives every starting tile and the whole supply order away.
    person = Person(capsys, stop_after=4)
    assert run_play(monkeypatch, person, "--players", "3", "--bots", "random") == 0
    assert "you drew" in person.transcript
    assert not re.search(r"seed \d", person.transcript, re.IGNORECASE), person.transcript


def starting_tiles(record: dict[str, Any]) -> dict[int, int]:
    return {e["player"]: e["tile"] for e in record["events"] if e["type"] == "starting_tile"}


def test_a_stopped_game_keeps_no_secret_the_person_has_not_seen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ("--players", "3", "--bots", "random", "--seed", "6")
    saved: list[dict[str, Any]] = []
    for fresh in range(4):
        monkeypatch.setattr(random, "SystemRandom", lambda fresh=fresh: random.Random(fresh))
        path = tmp_path / f"stopped-{fresh}.json"
        person = Person(capsys, stop_after=3)
        assert run_play(monkeypatch, person, *args, "--record", str(path)) == 0
        record = read_record(path)
        assert record["seed"] is None
        replay_record(record)
        saved.append(record)
    tiles = [starting_tiles(record) for record in saved]
    # The person's own tile is kept; the others' were never shown, so they are drawn again.
    assert len({t[0] for t in tiles}) == 1
    assert len({(t[1], t[2]) for t in tiles}) > 1, tiles
    # Resumed, the game goes on from the position the person saw.
    person = Person(capsys, stop_after=6)
    path = tmp_path / "stopped-0.json"
    assert run_play(monkeypatch, person, "--resume", str(path), "--record", str(path)) == 0
    resumed = read_record(path)
    assert seen_events(resumed)[: len(seen_events(saved[0]))] == seen_events(saved[0])
    assert len(resumed["events"]) > len(saved[0]["events"])


def seen_events(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The events the person in seat 0 saw (not the others' starting tiles, which a record
    saved again draws afresh)."""
    return [e for e in record["events"] if e["type"] != "starting_tile" or e["player"] == 0]


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 2, "score_as_you_go": True}])
def test_conceal_redraws_only_what_the_player_has_not_seen(options: dict[str, Any]) -> None:
    game = Kingdoms(options)
    actions = list(play(game, [make_bot("random")] * game.num_players, 3).actions)
    rng = random.Random(5)
    for stop in range(0, len(actions), 7):
        for seat in range(game.num_players):
            concealed = game.conceal(actions[:stop], seat, rng)
            state = other = game.initial_state()
            for action, redrawn in zip(actions[:stop], concealed, strict=True):
                state, other = game.apply(state, action), game.apply_checked(other, redrawn)
                # Every position the seat saw is the same in the concealed history.
                assert game.view(state, seat) == game.view(other, seat)
                if not game.is_chance(state):
                    assert game.legal_actions(state) == game.legal_actions(other) or (
                        game.current_player(state) != seat
                    )


# -- the variants --------------------------------------------------------------------------------
def test_no_luck_shows_the_face_up_tiles_and_takes_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    bad = {
        "draw": "No Luck: the tiles lie face up; take one",
        "start b3": "No Luck deals no starting tiles",
        "take +9": "no tile '+9'",
    }
    person = Person(capsys, {"move": [*bad, "take town"]}, stop_after=30)
    args = ("--players", "2", "--option", "no_luck", "--bots", "random", "--seed", "4")
    assert run_play(monkeypatch, person, *args, "--record", str(path)) == 0
    transcript = person.transcript
    assert "No Luck: tiles face up" in transcript and "Face up, to take:" in transcript
    assert "castles in hand" in transcript and "starting tile\n" not in transcript
    assert "drew a face-down starting tile" not in transcript
    replies = {answer: printed for _, answer, printed in person.exchanges}
    for answer, message in bad.items():
        assert message in replies[answer] and len(replies[answer].strip().splitlines()) == 1
    prompts = [prompt for prompt, _, _ in person.exchanges]
    assert prompts[prompts.index("move > ") + len(bad) + 1] == "place +3 > "
    assert "you took +3 Town and placed it on " in transcript
    record = read_record(path)
    assert record["options"] == {"players": 2, "no_luck": True}
    mine = [e for e in record["events"] if e.get("player") == 0 and e["type"] == "draw"]
    assert mine[0]["tile"] == "+3"
    typed_moves_are_played(record, person, ["take +3"])


@pytest.mark.parametrize(
    ("option", "words"),
    [
        ("down_to_the_last_castle", "epoch 1 (Down to the Last Castle)"),
        ("score_as_you_go", "Score as You Go"),
    ],
)
def test_each_variant_starts_and_draws(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    option: str,
    words: str,
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys, {"move": ["draw"]}, stop_after=12)
    args = ("--players", "3", "--option", option, "--bots", "random", "--seed", "6")
    assert run_play(monkeypatch, person, *args, "--record", str(path)) == 0
    transcript = person.transcript
    assert words in transcript and "Traceback" not in transcript
    assert re.search(r"you drew .* from the supply", transcript)
    if option == "down_to_the_last_castle":
        assert "♜1x4 ♜2x3 ♜3x2 ♜4x1" in transcript  # every castle of the colour
    record = read_record(path)
    assert record["options"] == {"players": 3, option: True}
    typed_moves_are_played(record, person, ["draw"])


def test_a_whole_game_of_all_three_variants(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys)
    options = ("down_to_the_last_castle", "no_luck", "score_as_you_go")
    args = [arg for option in options for arg in ("--option", option)]
    assert run_play(monkeypatch, person, *args, "--players", "2", "--bots", "random",
                    "--seed", "3", "--record", str(path)) == 0  # fmt: skip
    transcript = person.transcript
    assert "Game over" in transcript and "Traceback" not in transcript
    assert re.search(r"(row|column) \d scores", transcript)  # a line scored when it filled
    assert "✓" in transcript  # and is ticked on the board
    record = read_record(path)
    replayed = replay_record(record)
    assert replayed.game.is_terminal(replayed.final_state)
    for epoch, gold in enumerate(epoch_gold(record), start=1):
        assert f"Epoch {epoch} is over" in transcript
        assert f"Gold now: A you {gold[0]}, B random (seat 1) {gold[1]}" in transcript
    typed_moves_are_played(record, person)


# -- bad input -----------------------------------------------------------------------------------
BAD_INPUT = {
    "move": {
        "garbage": "cannot read 'garbage': type castle 4 ",
        "castle 5 b3": "a castle's rank is 1 to 4, not 5",
        "castle 2 z9": "there is no space z9: columns a to f, rows 1 to 5",
        "c1 a7": "there is no space a7",
        "b3": "say what goes there",
        "take +3": "take is for the No Luck variant",
        "pass": "you may pass only when you can do nothing else",
        "castle 1 9,9": "off the board",
        "": "Type a move",
    },
    "place": {
        "castle 1 b3": "first place the tile you hold",
        "draw": "first place the tile you hold",
        "z1": "there is no space z1",
        "2,2": "place the tile you drew: write 'place row,column'",
    },
}


def test_bad_input_gets_a_one_line_message_and_the_same_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    scripted = {kind: list(bad) for kind, bad in BAD_INPUT.items()}
    scripted["move"].append("draw")
    person = Person(capsys, scripted)
    assert run_play(monkeypatch, person, "--players", "2", "--bots", "random", "--seed", "3") == 0
    assert_refused_in_one_line(person, BAD_INPUT)


def test_end_of_real_stdin_is_clean(tmp_path: Path) -> None:
    out = play_from_real_stdin("kingdoms", tmp_path, "?\nhelp\ndraw\n")
    assert "?" in out
    assert "columns a to f, rows 1 to 5" in out  # the help


# -- what the person may see ----------------------------------------------------------------------
def screen(game: Game[Any], state: Any, seat: int = 0, log: Sequence[str] = ()) -> str:
    console = Console(width=160, record=True, file=io.StringIO())
    names = [f"bot (seat {p})" for p in range(game.num_players)]
    names[seat] = "you"
    UI.draw(console, game, state, seat, names, log)
    return console.export_text()


def secrets(game: Kingdoms, state: KingdomsState, seat: int) -> list[int]:
    """The tiles `seat` may not see: the others' starting tiles, a tile another holds."""
    hidden = [tile for p, tile in enumerate(state.starting) if p != seat and tile >= 0]
    if state.phase == PLACE and state.turn != seat and not game.setup.no_luck:
        hidden.append(state.held)
    return hidden


def test_the_table_shows_nothing_secret_in_a_whole_game() -> None:
    # At steps of a 3-player game's first epoch, the picture a seat gets is the same whatever
    # the others' secret tiles are (states resampled from the seat's view): nothing leaks.
    game = Kingdoms({"players": 3})
    bot = make_bot("random")
    rng = random.Random(7)
    checked = 0
    state = game.initial_state()
    while not game.is_terminal(state):
        if state.phase in (PLAY, PLACE) and state.epoch == 0 and rng.random() < 0.4:
            seat = rng.randrange(3)
            others = [game.resample(state, seat, random.Random(n)) for n in range(2)]
            if any(secrets(game, o, seat) != secrets(game, state, seat) for o in others):
                checked += 1
            pictures = {screen(game, s, seat) for s in (state, *others)}
            assert len(pictures) == 1
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = bot.act(game, state, rng)
        state = game.apply(state, action)
    assert checked > 3


def test_an_opponents_starting_tile_and_drawn_tile_stay_face_down() -> None:
    state = dealt(GAME, tiles=(TOWN, TROLL))  # you: +3 Town; the bot: -6 Troll
    out = screen(GAME, state)
    assert "+3  Town (yours; face down to the others)" in out
    assert re.search(r"B bot \(seat 1\) .* \?  face down", out)
    assert "Troll" not in out
    assert "-6" in out  # among the tiles you have not seen, as any unseen tile
    # The bot's turn: it draws the Wizard, which stays hidden until it is placed.
    bots_turn = GAME.apply(state, UI.parse(GAME, state, "castle 1 a1"))
    holding = GAME.apply(GAME.apply(bots_turn, DRAW_ACTION), WIZARD)
    out = screen(GAME, holding)
    assert "is placing the tile they drew (you see it when it is placed)" in out
    others = [GAME.resample(holding, 0, random.Random(n)) for n in range(4)]
    assert {other.held for other in others} - {WIZARD}
    assert {screen(GAME, other) for other in others} == {out}
    placed = GAME.apply(holding, PLACE_BASE + labelled_space("f", "5"))
    assert re.search(r"^\W*5 +(· +){5}WIZ ", screen(GAME, placed), re.MULTILINE)  # f5
    # The bot itself sees its tile.
    assert "-6  Troll (yours" in screen(GAME, state, seat=1)


def log_of(
    game: Kingdoms, actions: Sequence[int], names: Sequence[str], seat: int | None = 0
) -> list[tuple[Any, str]]:
    """Each (state before, log entry) of a game, as the play loop asks for them."""
    entries = []
    state = game.initial_state()
    for action in actions:
        after = game.apply(state, action)
        entry = UI.describe(game, state, action, after, names, seat)
        if entry:
            entries.append((state, entry))
        state = after
    return entries


def test_the_log_names_no_opponents_secret_tile() -> None:
    game = Kingdoms({"players": 3})
    played = play(game, [make_bot("random")] * 3, 11)
    names = ["you", "bot (seat 1)", "bot (seat 2)"]
    tile_words = [word for t in TYPES for word in (t.label, t.name) if word]
    seen_own = 0
    for state, entry in log_of(game, played.actions, names):
        if state.phase not in (DEAL, DRAW):
            continue
        who = state.turn
        if who == 0:
            seen_own += 1
            assert entry.startswith("you drew ") and any(w in entry for w in tile_words)
            continue
        assert entry in (f"{names[who]} {words}" for words in SECRET_DRAWS)
    assert seen_own > 3
    # A log that is nobody's (a spectator's): nobody's tile is named.
    for state, entry in log_of(game, played.actions, ["ann", "bob", "cy"], None):
        if state.phase in (DEAL, DRAW):
            assert entry.endswith(SECRET_DRAWS)


def test_a_game_at_the_prompt_never_shows_an_opponents_secret(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Spy on every table drawn during a 3-player game: the same picture for every state the
    # person cannot tell from the real one, and the opponents' tiles are not named on it
    # unless they are already in sight (the board, the log, the person's own tile).
    original = TerminalUI.draw
    drawn: list[int] = []

    def spying(
        self: TerminalUI,
        console: Console,
        game: Game[Any],
        state: Any,
        seat: int,
        names: Sequence[str],
        log: Sequence[str],
    ) -> None:
        assert isinstance(game, Kingdoms) and isinstance(state, KingdomsState)

        def picture(shown: KingdomsState) -> str:
            recorder = Console(width=160, record=True, file=io.StringIO())
            original(self, recorder, game, shown, seat, names, log)
            return recorder.export_text()

        out = picture(state)
        others = [game.resample(state, seat, random.Random(n)) for n in range(2)]
        assert {picture(other) for other in others} == {out}
        in_sight = " ".join(log) + " ".join(
            TYPES[t].describe() for t in (state.starting[seat], *state.board) if 0 <= t < 16
        )
        for tile in secrets(game, state, seat):
            name = TYPES[tile].name
            if name and name not in in_sight:
                assert name not in out
                drawn.append(tile)
        for line in log:
            if " drew " in line and line.split(" drew ")[0] != names[seat]:
                assert line.endswith(SECRET_DRAWS)
        original(self, console, game, state, seat, names, log)

    monkeypatch.setattr(TerminalUI, "draw", spying)
    person = Person(capsys, stop_after=24)
    args = ("--players", "3", "--bots", "random", "--seed", "21")
    assert run_play(monkeypatch, person, *args) == 0
    assert drawn  # some opponent's named tile was secret while the table was drawn


# -- hand-made positions --------------------------------------------------------------------------
def dealt(game: Kingdoms, first: int = 0, tiles: Sequence[int] = (TOWN, TROLL)) -> KingdomsState:
    """The first epoch after `first` is drawn to start and the starting tiles are dealt."""
    state = game.apply(game.initial_state(), first)
    if not game.setup.no_luck:
        for tile in tiles:
            state = game.apply(state, tile)
    assert state.phase == PLAY
    return state


def typed(state: KingdomsState, *moves: str, game: Kingdoms = GAME) -> KingdomsState:
    for move in moves:
        action = UI.parse(game, state, move)
        assert action in game.legal_actions(state), move
        state = game.apply(state, action)
    return state


START = dealt(GAME)
PLAYING = typed(START, "castle 4 b3", "c1 c3")  # you: rank 4 on b3; the bot: rank 1 on c3
DRAWING = GAME.apply(typed(PLAYING, "draw"), TOWN)
NO_LUCK = Kingdoms({"players": 2, "no_luck": True})
TAKING = dealt(NO_LUCK)
LAST_CASTLE = Kingdoms({"players": 2, "down_to_the_last_castle": True})
STUCK = dealt(LAST_CASTLE)._replace(
    castles=((0, 0, 0, 0), (1, 0, 0, 0)), starting=(NO_TILE, NO_TILE), supply=(0,) * len(TYPES)
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("castle 2 a1", castle_action(2, 0)),
        ("c2 a1", castle_action(2, 0)),
        ("C2A1", castle_action(2, 0)),
        ("castle 3 on f5", castle_action(3, 29)),
        ("castle 2 1,1", castle_action(2, 0)),
        ("start e5", START_BASE + 28),
        ("start 5,5", START_BASE + 28),
        ("draw", DRAW_ACTION),
        (" DRAW ", DRAW_ACTION),
    ],
)
def test_moves_on_your_turn(text: str, action: int) -> None:
    assert UI.parse(GAME, PLAYING, text) == action


def test_b3_is_row_3_column_2_as_the_engine_counts() -> None:
    assert labelled_space("b", "3") == bd.space(2, 1) == 13
    assert space_label(13) == "b3"
    assert GAME.action_to_string(PLAYING, UI.parse(GAME, PLAYING, "c2 b1")) == "castle 2 1,2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("castle 4 d3", "you have no castle of rank 4 left (ranks in hand: 1, 2, 3)"),
        ("castle 1 b3", "b3 is taken (A's rank-4 castle)"),
        ("c1 c3", "c3 is taken (B's rank-1 castle)"),
        ("castle 0 a1", "a castle's rank is 1 to 4, not 0"),
        ("castle 2 g1", "there is no space g1: columns a to f, rows 1 to 5"),
        ("castle 2 a6", "there is no space a6"),
        ("a1", "'a1': say what goes there, e.g. castle 3 a1; to put a tile there, draw first"),
        ("take +3", "take is for the No Luck variant: type draw"),
        ("pass", "you may pass only when you can do nothing else (rulebook, Play:"),
        ("start b3", "b3 is taken"),
        ("garbage", "cannot read 'garbage': type castle 3 "),
        ("castle 4 3,4", "you have no castle of rank 4 left"),
    ],
)
def test_bad_moves_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        UI.parse(GAME, PLAYING, text)


def test_the_starting_tile_is_placed_once() -> None:
    started = typed(PLAYING, "start a1", "castle 1 a2")
    assert started.board[0] == TOWN
    with pytest.raises(IllegalActionError, match="you have placed your starting tile already"):
        UI.parse(GAME, started, "start a3")
    assert not any(move.startswith("start") for move in UI.moves_help(GAME, started))


def test_a_drawn_tile_goes_on_an_empty_space() -> None:
    assert UI.prompt(GAME, PLAYING) == "move > "
    assert UI.prompt(GAME, DRAWING) == "place +3 > "
    for text in ("a1", "A1", "place a1", "at a1", "place 1,1"):
        assert UI.parse(GAME, DRAWING, text) == PLACE_BASE
    for text, message in [
        ("b3", "b3 is taken (A's rank-4 castle)"),
        ("draw", "first place the tile you hold, +3 Town: type an empty space for +3"),
        ("castle 1 a1", "first place the tile you hold"),
        ("pass", "you may pass only when"),
        ("f6", "there is no space f6"),
        ("hello", "cannot read 'hello'"),
    ]:
        with pytest.raises(IllegalActionError, match=re.escape(message)):
            UI.parse(GAME, DRAWING, text)


@pytest.mark.parametrize("text", ["take +3", "take town", "TAKE  Town", "take +3 "])
def test_no_luck_takes_a_face_up_tile_by_label_or_name(text: str) -> None:
    assert UI.parse(NO_LUCK, TAKING, text) == TAKE_BASE + TOWN
    assert UI.parse(NO_LUCK, TAKING, "take gold mine") == TAKE_BASE + LABELS.index("GLD")
    assert UI.parse(NO_LUCK, TAKING, "take wiz") == TAKE_BASE + WIZARD


def test_no_luck_refusals() -> None:
    gone = TAKING._replace(supply=tuple(0 if t == TOWN else n for t, n in enumerate(TAKING.supply)))
    for state, text, message in [
        (gone, "take +3", "no +3 tile is left face up"),
        (TAKING, "take +9", "no tile '+9' (+1..+6, -1..-6, MTN, DRG, GLD, WIZ, or a name"),
        (TAKING, "draw", "No Luck: the tiles lie face up; take one, type castle 4 "),
        (TAKING, "start a1", "No Luck deals no starting tiles"),
        (TAKING, "a1", "to put a tile there, take a tile first"),
    ]:
        with pytest.raises(IllegalActionError, match=re.escape(message)):
            UI.parse(NO_LUCK, state, text)
    taken = typed(TAKING, "take troll", game=NO_LUCK)
    assert UI.prompt(NO_LUCK, taken) == "place -6 > "


def test_pass_only_when_nothing_else_is_possible() -> None:
    assert LAST_CASTLE.legal_actions(STUCK) == (PASS_ACTION,)
    message = UI.forced(LAST_CASTLE, STUCK, NAMES)
    assert message is not None
    assert message.startswith("You have no castle, no starting tile and no tile to draw: you pass")
    assert UI.parse(LAST_CASTLE, STUCK, "pass") == PASS_ACTION
    assert UI.moves_help(LAST_CASTLE, STUCK) == ["pass"]
    assert "you can do nothing but pass" in screen(LAST_CASTLE, STUCK)
    assert UI.forced(GAME, PLAYING, NAMES) is None


def test_the_last_empty_space_is_forced() -> None:
    full = tuple(bd.castle(1, 1) if s else bd.EMPTY for s in range(bd.SPACES))
    state = DRAWING._replace(board=full)
    assert UI.forced(GAME, state, NAMES) == "+3 Town goes on a1, the last empty space."


STATES = [PLAYING, DRAWING, STUCK, TAKING, START]


@pytest.mark.parametrize("state", STATES, ids=lambda s: f"phase{s.phase}")
def test_the_moves_list_reads_back_to_every_legal_action(state: KingdomsState) -> None:
    game = LAST_CASTLE if state is STUCK else NO_LUCK if state is TAKING else GAME
    moves = UI.moves_help(game, state)
    assert [UI.parse(game, state, move) for move in moves] == list(game.legal_actions(state))


MOVE_LIKE = st.text(alphabet="abcdefgstaklrwx0123456789 +-,?.é٣²", max_size=14)


@settings(max_examples=300, deadline=None)
@given(st.one_of(MOVE_LIKE, st.text(max_size=20)), st.sampled_from([0, 1, 3]))
def test_any_text_reads_as_a_legal_move_or_a_clear_refusal(text: str, which: int) -> None:
    state = STATES[which]
    game = NO_LUCK if state is TAKING else GAME
    try:
        action = UI.parse(game, state, text)
    except IllegalActionError as error:
        message = str(error)
        assert message and "\n" not in message
    else:
        assert action in game.legal_actions(state)


# -- the table, the log, the end -------------------------------------------------------------------
def test_the_table_shows_board_players_and_what_to_do() -> None:
    state = typed(PLAYING, "start b2")._replace(gold=(61, 38))
    wizard = state._replace(board=(*state.board[:12], WIZARD, *state.board[13:]))  # at a3
    out = screen(GAME, wizard, log=["a log line"])
    assert re.search(r"a +b +c +d +e +f +base", out)
    assert re.search(r"^\W*5 +· +· +· +· +· +· +0\W", out, re.MULTILINE)
    assert "A♜4+" in out  # b3, beside the wizard: one rank more
    assert "B♜1" in out
    assert re.search(r"^\W*2 +· +\+3 +· +· +· +· +3\W", out, re.MULTILINE)  # row 2's base
    assert re.search(r"A you +61 +♜1x4 ♜2x3 ♜3x2 ♜4x0 +— ", out)
    assert re.search(r"B bot \(seat 1\) +38 +♜1x3 ♜2x3 ♜3x2 ♜4x1 +\? +face down", out)
    assert "epoch 1 of 3 · supply: 21 tiles face down · A you started the epoch" in out
    assert "a log line" in out and "Recent moves" in out
    assert "WIZ  +1 rank beside it" in out
    assert "▶ Your turn" not in out  # the bot's turn
    out = screen(GAME, state, seat=1)
    assert "▶ Your turn: place a castle (castle 4 " in out
    assert ", draw a tile (draw) or place your starting tile -6 Troll (start " in out


def test_a_mountain_splits_a_lines_base_value() -> None:
    row = [TOWN, LABELS.index("MTN"), LABELS.index("+6"), TROLL, bd.EMPTY, bd.EMPTY]
    state = PLAYING._replace(board=(*row, *PLAYING.board[6:]))
    assert re.search(r"^\W*1 +\+3 +MTN +\+6 +-6 +· +· +3/0\W", screen(GAME, state), re.MULTILINE)


def test_the_log_tells_each_move() -> None:
    def logged(
        state: KingdomsState, action: int, game: Kingdoms = GAME, names: Sequence[str] = NAMES
    ) -> str | None:
        return UI.describe(game, state, action, game.apply(state, action), names, 0)

    first = GAME.initial_state()
    assert logged(first, 1) == "Epoch 1 begins; first to play: bot (seat 1) (drawn at random)"
    deal = GAME.apply(first, 1)
    assert logged(deal, TROLL) == "you drew -6 Troll as a starting tile (face down to the others)"
    assert logged(GAME.apply(deal, TROLL), TROLL) == "bot (seat 1) drew a face-down starting tile"
    assert logged(PLAYING, castle_action(2, 0)) == "placed a rank-2 castle on a1"
    assert logged(PLAYING, DRAW_ACTION) is None  # told when the tile comes
    assert logged(typed(PLAYING, "draw"), TOWN) == "you drew +3 Town from the supply"
    bots_draw = typed(PLAYING, "castle 1 a1", "draw")
    assert logged(bots_draw, TOWN) == "bot (seat 1) drew a tile from the supply"
    assert logged(DRAWING, PLACE_BASE) == "placed +3 Town on a1"
    assert logged(PLAYING, START_BASE + 29) == "placed a starting tile, +3 Town, on f5"
    assert logged(STUCK, PASS_ACTION, LAST_CASTLE) == "passed (nothing left to do)"
    assert logged(TAKING, TAKE_BASE + TOWN, NO_LUCK) == "took +3 Town"
    taken = NO_LUCK.apply(TAKING, TAKE_BASE + TOWN)
    assert logged(taken, PLACE_BASE, NO_LUCK) == "placed it on a1"


def test_who_starts_the_later_epochs() -> None:
    later = GAME.initial_state()._replace(epoch=1, gold=(40, 72))
    assert UI.describe(GAME, later, 1, GAME.apply(later, 1), NAMES) == (
        "Epoch 2 begins; first to play: bot (seat 1), with the most gold (72)"
    )
    tied = later._replace(gold=(60, 60))
    assert UI.describe(GAME, tied, 0, GAME.apply(tied, 0), NAMES) == (
        "Epoch 2 begins; first to play: you, drawn between you and bot (seat 1) (equal on 60 gold)"
    )


def test_score_as_you_go_tells_each_line_as_it_fills() -> None:
    game = Kingdoms({"players": 2, "score_as_you_go": True})
    state = dealt(game)
    row = (TOWN, bd.castle(0, 2), TROLL, bd.castle(1, 1), LABELS.index("+6"), bd.EMPTY)
    state = state._replace(board=(*row, *state.board[6:]))
    entry = UI.describe(game, state, castle_action(1, 5), typed(state, "c1 f1", game=game), NAMES)
    # Row 1: +3 - 6 + 6 = 3; you hold ranks 2 + 1, the bot 1.
    assert entry == "placed a rank-1 castle on f1; row 1 scores (you +9, bot (seat 1) +3)"
    assert re.search(r"^\W*1 .* 3✓", screen(game, typed(state, "c1 f1", game=game)), re.MULTILINE)


def test_an_epoch_ends_with_its_score_sheet() -> None:
    # Each epoch's sheet adds up to the gold it brought, with Score as You Go too (its lines
    # score one by one during the epoch).
    for options in ({"players": 3}, {"players": 2, "score_as_you_go": True}):
        game = Kingdoms(options)
        ui = TerminalUI()
        names = ["you", "bot (seat 1)", "bot (seat 2)"][: game.num_players]
        sheets = []

        def on_step(before: Any, action: int, after: Any) -> None:
            console = Console(width=200, record=True, file=io.StringIO())
            if ui.interlude(console, game, before, action, after, names):  # noqa: B023
                sheets.append((console.export_text(), after.gold))  # noqa: B023

        final = play(game, [make_bot("random")] * game.num_players, 8, on_step).final_state
        assert len(sheets) == 3
        before = (START_GOLD,) * game.num_players
        for epoch, (out, after) in enumerate(sheets, start=1):
            assert f"Epoch {epoch} is over" in out and "Scores of the epoch" in out
            for line in bd.LINE_NAMES:
                assert re.search(rf"│ {line} +│", out), line
            totals = re.search(r"│ epoch +│ +│" + "│".join([r" +([+-]?\d+) "] * len(names)), out)
            assert totals is not None
            assert [int(g) for g in totals.groups()] == [
                a - b for a, b in zip(after, before, strict=True)
            ]
            before = after
        console = Console(width=200, record=True, file=io.StringIO())
        ui.final(console, game, final, names)
        out = console.export_text()
        assert re.search(r"start\W+50\W", out) and "epoch 3" in out


def test_the_final_screen_shares_a_victory_on_equal_gold() -> None:
    over = PLAYING._replace(phase=OVER, epoch=2)
    for gold, words in [
        ((90, 70), "Winner: A you, with 90 gold"),
        ((80, 80), "Winners, sharing the victory on equal gold: A you and B bot (seat 1), with 80 "
                   "gold each"),
    ]:  # fmt: skip
        console = Console(width=200, record=True, file=io.StringIO())
        TerminalUI().final(console, GAME, over._replace(gold=gold), NAMES)
        out = console.export_text()
        assert words in out
        assert re.search(rf"gold\W+{gold[0]}\W+{gold[1]}\W", out)


def test_help_explains_the_moves_and_the_scoring() -> None:
    text = UI.help_text(GAME, PLAYING)
    for words in ("castle 4 b3", "draw", "start b3", "MTN", "wizard", "3 epochs"):
        assert words in text
    assert "take +3" in UI.help_text(NO_LUCK, TAKING)
    assert "last castle" in UI.help_text(LAST_CASTLE, STUCK)


def test_the_interface_is_found_by_the_games_name() -> None:
    interface: Terminal = load_interface(GAME)
    assert isinstance(interface, TerminalUI)
