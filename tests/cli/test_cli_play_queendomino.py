"""`kingdomkit play queendomino`: whole games typed at the prompt (two players, a Royal Wedding,
teams), bad input at every step, records that replay, and the Queendomino terminal UI's reader
of moves on a scripted turn."""

from __future__ import annotations

import builtins
import random
import re
from collections.abc import Callable
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
from kingdomkit.core.protocol import CHANCE, IllegalActionError
from kingdomkit.core.record import read_record, replay_record
from kingdomkit.games.queendomino.rules import (
    BUILD,
    CLAIM,
    DRAGON,
    PLACE,
    SITE,
    TAX,
    Queendomino,
    QueendominoState,
)
from kingdomkit.games.queendomino.terminal import TerminalUI, move_text

UI = TerminalUI()
OPTIONAL_STEPS = ("knight", "build", "burn")


def run_play(monkeypatch: pytest.MonkeyPatch, person: Callable[[object], str], *args: str) -> int:
    monkeypatch.setattr(builtins, "input", person)
    return main(["play", "queendomino", *args])


def typed_moves_are_played(record: dict[str, Any], person: Person, seat: int = 0) -> None:
    """Walk the record's game: each action of `seat` is the move the person typed (forced moves,
    played on Enter, show as "")."""
    replayed = replay_record(record)
    game = replayed.game
    assert isinstance(game, Queendomino)
    state = game.initial_state()
    played = []
    for action in replayed.actions:
        if game.current_player(state) == seat:
            played.append(move_text(game, state, action))
        state = game.apply(state, action)
    typed = [move for _, move in person.chosen]
    assert len(typed) == len(played) > 0
    for move, action_text in zip(typed, played, strict=True):
        assert move in ("", action_text), (move, action_text)


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
    for words in ("Builders' Board", "the Dragon", "(unverified)", "Order of play", "New line"):
        assert words in transcript
    for words in ("wealth", "town", "Queen", "buildings", "total"):
        assert words in transcript.split("Game over")[-1]
    assert "Record of the finished game saved to" in transcript
    # Every kind of step came up and was answered from the ? list.
    kinds = {prompt.split()[0] for prompt, _ in person.chosen}
    assert {"place", "knight", "build", "site", "burn", "claim"} <= kinds

    record = read_record(path)
    assert record["players"] == ["you", "random"]
    replayed = replay_record(record)
    game = replayed.game
    assert game.is_terminal(replayed.final_state)
    scores = [int(s) for s in game.scores(replayed.final_state)]
    assert record["result"]["scores"] == scores
    winner = re.search(r"Winners?[^:]*: .*?, (\d+) points? \(", transcript)
    assert winner is not None and int(winner.group(1)) == max(scores)
    typed_moves_are_played(record, person)

    assert main(["replay", str(path), "--quiet"]) == 0
    assert "The record is valid" in capsys.readouterr().out


def test_passing_every_optional_step(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys, stop_after=60)
    choose = person._answer

    def passing(prompt: str, printed: str) -> str:
        if prompt.split()[0] in OPTIONAL_STEPS:
            person.chosen.append((prompt, "pass"))
            return "pass"
        return choose(prompt, printed)

    monkeypatch.setattr(person, "_answer", passing)
    args = ("--players", "2", "--bots", "random", "--seed", "9", "--record", str(path))
    assert run_play(monkeypatch, person, *args) == 0  # input ends after 60 answers
    record = read_record(path)
    mine = [e for e in record["events"] if e.get("player") == 0]
    assert {e["type"] for e in mine} <= {"claim", "place", "discard", "pass"}
    assert any(e["type"] == "pass" for e in mine)
    typed_moves_are_played(record, person)


def test_a_royal_wedding_shows_which_box_each_line_comes_from(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "wedding.json"
    person = Person(capsys, stop_after=16)
    args = ("--players", "3", "--option", "royal_wedding", "--bots", "random", "--seed", "2")
    assert run_play(monkeypatch, person, *args, "--record", str(path)) == 0
    transcript = person.transcript
    assert "Royal Wedding" in transcript
    assert "New line (from the Queendomino box): Q" in transcript
    assert "New line (from the Kingdomino box): K" in transcript
    claims = [move for prompt, move in person.chosen if prompt.startswith("claim")]
    assert claims and all(re.fullmatch(r"[QK]\d+", move) for move in claims)
    replayed = replay_record(read_record(path))
    assert replayed.actions and not replayed.game.is_terminal(replayed.final_state)


def test_teams_share_a_realm(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    person = Person(capsys, stop_after=6)
    args = ("--players", "6", "--option", "royal_wedding", "--option", "teams", "--name", "ann")
    assert run_play(monkeypatch, person, *args, "--bots", "random", "--seed", "4") == 0
    transcript = person.transcript
    assert "Royal Wedding in teams" in transcript
    assert "Team 1 (ann & random (seat 1))" in transcript
    assert "Team 3 (random (seat 4) & random (seat 5))" in transcript
    assert "the realm you share" in transcript
    assert "Traceback" not in transcript


# -- bad input -----------------------------------------------------------------------------------
BAD_INPUT = {
    "place": {
        "garbage": "cannot read 'garbage'",
        "z9 z8": "there is no square z9: columns a to m, rows 1 to 13",
        "g7 g6": "g7 is your castle",
        "99": "domino 99 is not yours to place",
        "discard": "may not be discarded",
        "pass": "this step is not optional",
    },
    "knight": {"a1": "a1 is not a square of the domino just placed", "3": "cannot read '3'"},
    "build": {"B99": "no building 'B99' on the Builders' Board", "g7": "first choose the building"},
    "burn": {"nothing": "no building 'nothing' on the Builders' Board"},
    "claim": {"99": "domino 99 is not in the new line", "": "Type a move"},
}


def test_bad_input_gets_a_one_line_message_and_the_same_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    scripted = {kind: list(bad) for kind, bad in BAD_INPUT.items()}
    person = Person(capsys, scripted)
    assert run_play(monkeypatch, person, "--players", "2", "--bots", "random", "--seed", "3") == 0
    assert_refused_in_one_line(person, BAD_INPUT)


def test_end_of_real_stdin_is_clean(tmp_path: Path) -> None:
    out = play_from_real_stdin("queendomino", tmp_path, "?\nhelp\n")
    assert "?" in out


# -- a scripted turn -------------------------------------------------------------------------------
GAME = Queendomino({"players": 2})
# Builders' Board, prices 0 to 5: B09 Magic School, B15 Training Camp, B01 and B02 Bakery,
# B21 Guardtower, B27 Statue.
BOARD = (8, 14, 0, 1, 20, 26)
TOP = 2  # B03, face up on the pile: the next building to come
FIRST_LINE = (28, 45, 46, 47)  # printed 29 (T|S), 46, 47, 48 (T|T)
SECOND_LINE = (0, 4, 16, 33)  # printed 1, 5, 17, 34


def scripted_start() -> QueendominoState:
    """Player 0 starts and claims 29 and 46, player 1 claims 47 and 48; the second line is
    drawn and player 0 is to place 29 (town | swamp) first."""
    state = GAME.initial_state()
    for action in (*BOARD, TOP, *FIRST_LINE, 0):
        assert GAME.current_player(state) == CHANCE
        state = GAME.apply(state, action)
    for slot in (0, 2, 3, 1):  # kings in the order 0, 1, 1, 0
        state = GAME.apply(state, slot)
    for action in SECOND_LINE:
        state = GAME.apply(state, action)
    return state


def typed(state: QueendominoState, *moves: str) -> QueendominoState:
    for move in moves:
        state = GAME.apply(state, UI.parse(GAME, state, move))
    return state


PLACING = scripted_start()
TAXING = typed(PLACING, "g6 g5")
BUILDING = typed(TAXING, "pass")
SITING = typed(BUILDING, "B09")
BURNING = typed(BUILDING, "pass")
CLAIMING = typed(BURNING, "pass")


def test_the_scripted_turn() -> None:
    assert [s.phase for s in (PLACING, TAXING, BUILDING, SITING, BURNING, CLAIMING)] == [
        PLACE, TAX, BUILD, SITE, DRAGON, CLAIM
    ]  # fmt: skip
    assert {GAME.current_player(s) for s in (PLACING, TAXING, SITING, CLAIMING)} == {0}
    assert UI.prompt(GAME, PLACING) == "place 29 > "
    assert UI.prompt(GAME, SITING) == "site for B09 > "
    assert [UI.prompt(GAME, s) for s in (TAXING, BUILDING, BURNING, CLAIMING)] == [
        "knight > ", "build > ", "burn > ", "claim > "
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["g6 g5", "g6g5", "g6-g5", "G6 G5", " g6  g5 ", "g6 up", "g6 u", "g6u", "place g6 g5",
     "29 g6 g5", "place 29 g6 up", "place 29 0,-1 0,-2", "place 0,-1 0,-2"],
)  # fmt: skip
def test_every_form_of_a_placement_reads_the_same(text: str) -> None:
    assert UI.parse(GAME, PLACING, text) == UI.parse(GAME, PLACING, "g6 g5")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("banana", "cannot read 'banana': type where it goes"),
        ("n1 n2", "there is no square n1: columns a to m, rows 1 to 13"),
        ("g1 up", "square 2 would be off the board"),
        ("g6 g6", "side by side"),
        ("g6 h5", "side by side"),
        ("g7 g6", "g7 is your castle"),
        ("a1 a2", "connection rules"),
        ("30 g6 g5", "the domino to place is 29, not 30"),
        ("29", "domino 29 is the one to place"),
        ("46", "domino 46 comes later: place domino 29 first"),
        ("34", "first place domino 29; you choose from the new line"),
        ("7", "domino 7 is not yours to place"),
        ("discard", "domino 29 can be placed, so it may not be discarded (rulebook, A:"),
        ("pass", "this step is not optional"),
        ("place 29 0,0 0,1", "already taken"),
    ],
)
def test_bad_placements_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        UI.parse(GAME, PLACING, text)


def test_a_taken_square_is_named_with_its_terrain() -> None:
    state = typed(CLAIMING, "34")
    assert state.phase == PLACE and UI.prompt(GAME, state) == "place 46 > "
    with pytest.raises(IllegalActionError, match=re.escape("g6 is already taken (town)")):
        UI.parse(GAME, state, "g6 f6")


@pytest.mark.parametrize(
    ("text", "square"),
    [("1", 0), ("2", 1), ("g6", 0), ("G5", 1), ("knight g6", 0), ("knight 2", 1),
     ("square 1", 0), ("knight 0,-2", 1)],
)  # fmt: skip
def test_a_knight_goes_on_square_1_or_2_of_the_domino_just_placed(text: str, square: int) -> None:
    assert UI.parse(GAME, TAXING, text) == GAME.knight_base + square


def test_bad_knights_say_what_is_wrong() -> None:
    with pytest.raises(IllegalActionError, match="g4 is not a square of the domino just placed"):
        UI.parse(GAME, TAXING, "g4")
    with pytest.raises(IllegalActionError, match="cannot read '3'"):
        UI.parse(GAME, TAXING, "3")
    knighted = TAXING._replace(knighted=1)
    with pytest.raises(IllegalActionError, match=re.escape("square 1 (g6) already has a knight")):
        UI.parse(GAME, knighted, "1")
    assert UI.parse(GAME, TAXING, "pass") == GAME.pass_action


@pytest.mark.parametrize("text", ["B09", "b09", "b9", "build B09", "Magic School", "0"])
def test_a_building_by_tile_name_or_price(text: str) -> None:
    assert UI.parse(GAME, BUILDING, text) == GAME.build_base + 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bakery", "'bakery' could be B01 for 2, B02 for 3: type the tile id"),
        ("B30", "no building 'B30' on the Builders' Board"),
        ("9", "no building on the Builders' Board costs 9 for you"),
        ("burn B09", "the Dragon comes after building"),
        ("g6", "first choose the building"),
    ],
)
def test_bad_buildings_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        UI.parse(GAME, BUILDING, text)


def test_a_building_too_dear_names_its_price() -> None:
    realms = BUILDING.realms
    poor = BUILDING._replace(realms=(realms[0]._replace(coins=3), realms[1]))
    with pytest.raises(IllegalActionError, match="B21 costs 4 coins; you have 3"):
        UI.parse(GAME, poor, "guardtower")


def test_the_queen_takes_a_coin_off_and_prices_are_read_for_her_host() -> None:
    hosted = BUILDING._replace(queen=0)
    assert UI.parse(GAME, hosted, "B01") == GAME.build_base + 2
    assert UI.parse(GAME, hosted, "1") == GAME.build_base + 2  # B01 costs 1 with the Queen
    with pytest.raises(IllegalActionError, match="could be B09 for 0, B15 for 0"):
        UI.parse(GAME, hosted, "0")


def test_the_site_is_an_empty_town_square() -> None:
    site = GAME.site_base + GAME.geo.cell(0, -1)
    for text in ("g6", "at g6", "on G6", "at 0,-1"):
        assert UI.parse(GAME, SITING, text) == site
    for text, message in [
        ("g5", "g5 is swamp: buildings go on town squares"),
        ("g7", "g7 is your castle, not a town square"),
        ("a1", "a1 is empty, not a town square"),
        ("1", "cannot read '1'"),
        ("pass", "this step is not optional"),
    ]:
        with pytest.raises(IllegalActionError, match=re.escape(message)):
            UI.parse(GAME, SITING, text)


def test_a_building_goes_on_a_knights_square_and_not_on_another_building() -> None:
    # Rules note: a building may stand on a town square with a knight; buildings do not stack.
    built = typed(TAXING, "1", "B09", "g6")
    realm = built.realms[0]
    site = GAME.geo.cell(0, -1)
    assert realm.knights == realm.sites == 1 << site
    state = typed(built, "34", "f6 f5")  # claim, then place 46 (town | town) by g6
    assert state.phase == TAX  # Magic School brought a knight
    state = typed(state, "pass", "B15")
    with pytest.raises(IllegalActionError, match="g6 already holds B09 Magic School"):
        UI.parse(GAME, state, "g6")
    assert UI.parse(GAME, state, "f5") == GAME.site_base + GAME.geo.cell(-1, -2)


def test_the_dragon_burns_by_tile_name_or_price() -> None:
    for text in ("B21", "guardtower", "4", "burn b21"):
        assert UI.parse(GAME, BURNING, text) == GAME.burn_base + 4
    with pytest.raises(IllegalActionError, match="you can no longer build this turn"):
        UI.parse(GAME, BURNING, "build B21")
    assert UI.parse(GAME, BURNING, "pass") == GAME.pass_action


def test_claims_by_number() -> None:
    assert UI.parse(GAME, CLAIMING, "34") == 3
    assert UI.parse(GAME, CLAIMING, "claim 5") == 1
    for text, message in [
        ("6", "domino 6 is not in the new line"),
        ("g6 g5", "now choose a domino of the new line"),
        ("hello", "cannot read 'hello'"),
        ("pass", "this step is not optional"),
    ]:
        with pytest.raises(IllegalActionError, match=re.escape(message)):
            UI.parse(GAME, CLAIMING, text)
    claimed = typed(CLAIMING, "34", "f6 f5")
    while claimed.phase != CLAIM:
        claimed = typed(claimed, "pass")
    with pytest.raises(IllegalActionError, match="domino 34 already has a king on it"):
        UI.parse(GAME, claimed, "34")


STATES = [PLACING, TAXING, BUILDING, SITING, BURNING, CLAIMING]


@pytest.mark.parametrize("state", STATES, ids=lambda s: UI.prompt(GAME, s).split()[0])
def test_the_moves_list_reads_back_to_every_legal_action(state: QueendominoState) -> None:
    moves = UI.moves_help(GAME, state)
    assert sorted(UI.parse(GAME, state, move) for move in moves) == sorted(
        GAME.legal_actions(state)
    )


MOVE_LIKE = st.text(alphabet="abcdgkmqrtu0123456789 -,?.é٣²", max_size=14)


@settings(max_examples=300, deadline=None)
@given(st.one_of(MOVE_LIKE, st.text(max_size=20)), st.sampled_from(STATES))
def test_any_text_reads_as_a_legal_move_or_a_clear_refusal(text: str, state: Any) -> None:
    try:
        action = UI.parse(GAME, state, text)
    except IllegalActionError as error:
        message = str(error)
        assert message and "\n" not in message
    else:
        assert action in GAME.legal_actions(state)


def test_the_only_town_square_is_forced() -> None:
    message = UI.forced(GAME, SITING, ["you", "bot"])
    assert message == "B09 Magic School goes on g6, your only empty town square."
    assert UI.forced(GAME, BUILDING, ["you", "bot"]) is None


def test_a_domino_that_fits_nowhere_is_forced_and_discard_reads() -> None:
    # Random play soon leaves someone a domino that fits nowhere (this seed: beside a free
    # square, so that typing a placement there is refused for the right reason).
    state = GAME.initial_state()
    rng = random.Random(1)
    bot = make_bot("random")
    while not (state.phase == PLACE and GAME.legal_actions(state) == (GAME.discard_action,)):
        assert not GAME.is_terminal(state), "no forced discard in this game; change the seed"
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, bot.act(GAME, state, rng))
    message = UI.forced(GAME, state, ["you", "bot"])
    assert message is not None and "fits nowhere" in message and "must be discarded" in message
    assert UI.parse(GAME, state, "discard") == GAME.discard_action
    assert UI.moves_help(GAME, state) == ["discard"]
    refusals = set()
    reach = GAME.geo.reach
    for column in "abcdefghijklm":
        for row in range(1, 2 * reach + 1):
            with pytest.raises(IllegalActionError) as refused:
                UI.parse(GAME, state, f"{column}{row} {column}{row + 1}")
            refusals.add(str(refused.value).split(": ", 1)[1])
    assert f"domino {state.placing[state.turn] + 1} fits nowhere and must be discarded" in refusals


def test_the_log_tells_each_step() -> None:
    names = ["you", "bot"]

    def logged(state: QueendominoState, move: str) -> str | None:
        action = UI.parse(GAME, state, move)
        return UI.describe(GAME, state, action, GAME.apply(state, action), names)

    assert logged(PLACING, "g6 g5") == "placed 29 on g6 g5"
    assert logged(TAXING, "1") == "sent a knight to g6 (+1 coin)"
    assert logged(BUILDING, "B09") is None  # told with its square
    assert logged(SITING, "g6") == (
        "built B09 Magic School on g6 for 0 coins (+1 knight, +1 tower); the Queen moves to you"
    )
    assert logged(BURNING, "B21") == "paid the Dragon 1 coin to burn B21 Guardtower"
    assert logged(BURNING, "pass") is None
    assert logged(CLAIMING, "34") == "claimed 34"
    start = GAME.initial_state()
    entries = []
    state = start
    for action in (*BOARD, TOP, *FIRST_LINE, 0):
        after = GAME.apply(state, action)
        entries.append(UI.describe(GAME, state, action, after, names))
        state = after
    assert [e for e in entries if e] == [
        "Builders' Board: B09 B15 B01 B02 B21 B27",
        "New line: 29, 46, 47, 48",
        "The kings choose in this order: you, bot, bot, you",
    ]


def drawn(
    state: QueendominoState, game: Queendomino = GAME, width: int = 200, seat: int = 0
) -> str:
    console = Console(width=width, record=True)
    names = [f"bot {player}" for player in range(game.num_players)]
    names[seat] = "you"
    UI.draw(console, game, state, seat, names, ["a log line"])
    return console.export_text()


def test_the_table_shows_realms_board_lines_and_what_to_do() -> None:
    built = typed(TAXING, "1", "B09", "g6")  # a knight and a building on g6; the Queen comes
    out = drawn(typed(built, "34", "f6 f5"))  # the second turn: 46 (town | town) by g6
    assert re.search(r"a +b +c +d +e +f +g +h +i +j +k +l +m", out)
    assert re.search(r"^\W*13 ", out, re.MULTILINE)
    assert "♞⌂" in out  # g6: a knight and a building on the town square
    assert "you ♛ hosts the Queen" in out
    assert "8 coins · ♞ 1 in the guard, 1 placed · 1 tower" in out
    assert "built: B09 Magic School on g6" in out
    assert "the Dragon: in its cave" in out and "burnt: none" in out
    assert "(unverified)" in out
    assert re.search(r"price +tile +building +effects", out)
    assert re.search(r"B15 +Training Camp +\+1 knight; 1/knight", out)
    assert re.search(r"^ +0 \(♛1\) +B15", out, re.MULTILINE)  # the Queen's discount
    assert "Order of play" in out and "◀ now: knights" in out
    assert "New line" in out and "a log line" in out
    assert "collect tax" in out and "1 = f5 (town, +3 coins) or 2 = f6 (town, +3 coins)" in out


def test_the_dragon_leaves_its_cave_for_the_round() -> None:
    out = drawn(typed(BURNING, "B21"))
    assert "the Dragon: used this round" in out and "burnt: B21" in out
    assert re.search(r"^ +4 +— +empty", out, re.MULTILINE)


@pytest.mark.parametrize("state", STATES, ids=lambda s: UI.prompt(GAME, s).split()[0])
def test_each_step_says_what_to_type(state: QueendominoState) -> None:
    out = drawn(state, width=80)
    headline = out[out.index("▶ Your turn") :]
    expected = {
        PLACE: "e.g. ",
        TAX: "or pass",
        BUILD: "Type a tile id",
        SITE: "Type an empty town square",
        DRAGON: "Type its tile id, name or price; or pass",
        CLAIM: "type its number",
    }[state.phase]
    assert expected in headline


def test_a_royal_wedding_labels_dominoes_by_box() -> None:
    game = Queendomino({"players": 3, "royal_wedding": True})
    state = game.initial_state()
    while game.current_player(state) == CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    moves = UI.moves_help(game, state)
    assert all(move.startswith("Q") for move in moves)
    number = moves[0][1:]
    assert UI.parse(game, state, moves[0]) == UI.parse(game, state, number)
    assert UI.parse(game, state, f"claim {moves[0].lower()}") == UI.parse(game, state, number)
    out = drawn(state, game, seat=game.current_player(state))
    assert "New line (from the Queendomino box)" in out


def test_the_final_screen_shows_every_realms_score_pad() -> None:
    game = Queendomino({"players": 6, "royal_wedding": True, "teams": True})
    state = play(game, [make_bot("random")] * 6, 2).final_state
    console = Console(width=200, record=True)
    names = ["ann", "bob", "cy", "di", "ed", "flo"]
    UI.final(console, game, state, names)
    out = console.export_text()
    for team in ("Team 1 (ann & bob)", "Team 2 (cy & di)", "Team 3 (ed & flo)"):
        assert team in out
    for row in ("wealth", "wheat", "town", "Queen", "buildings", "total"):
        assert row in out
    realms, rule = game.winning_realms(state)
    total = game.breakdown(state, realms[0]).total
    assert re.search(rf"Winners?[^:]*: Team {realms[0] + 1} .*, {total} points \(", out)
    totals = [str(game.breakdown(state, r).total) for r in range(3)]
    assert re.search(rf"total\W+{totals[0]}\W", out)
    assert rule == "score" and "(highest score)" in out


@pytest.mark.parametrize(
    ("realms", "rule", "words"),
    [
        ((0,), "largest_territory", "Winner: you, "),
        ((0, 1), "shared", "Winners, sharing the victory: you and bot, "),
    ],
)
def test_a_tie_names_the_rule_that_broke_it(
    monkeypatch: pytest.MonkeyPatch, realms: tuple[int, ...], rule: str, words: str
) -> None:
    game = Queendomino({"players": 2})
    state = play(game, [make_bot("random")] * 2, 1).final_state
    monkeypatch.setattr(game, "winning_realms", lambda _: (realms, rule))
    console = Console(width=200, record=True)
    UI.final(console, game, state, ["you", "bot"])
    out = console.export_text()
    largest = game.breakdown(state, realms[0]).largest_territory
    assert words in out
    expected = {
        "largest_territory": f"tie on points, broken by the largest territory ({largest} squares)",
        "shared": f"tie on points and on the largest territory ({largest} squares)",
    }[rule]
    assert expected in out


def test_the_interface_is_found_by_the_games_name() -> None:
    interface: Terminal = load_interface(GAME)
    assert isinstance(interface, TerminalUI)


def test_the_builders_board_shows_the_piles_face_up_top(capsys: pytest.CaptureFixture[str]) -> None:
    # Rulebook "Set up": the pile lies "grey face up": its top is the next building to come.
    console = Console(width=200)
    UI.draw(console, GAME, PLACING, 0, ["you", "bot"], [])
    out = capsys.readouterr().out
    top = GAME.table[PLACING.top]
    assert PLACING.top == TOP
    assert re.search(rf"next\s+{top.tile}\s+{top.name}", out), out
    words = " ".join(out.split())  # the caption may wrap
    assert f"{GAME.pile_size(PLACING)} tiles in the pile (next: its face-up top)" in words
