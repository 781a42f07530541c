"""`kingdomkit play`: whole games typed through the text interface, bad input, early stops,
bad options, and the Kingdomino terminal UI's reader of moves."""

from __future__ import annotations

import builtins
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from kingdomkit.bots import make_bot
from kingdomkit.cli.main import main
from kingdomkit.cli.play import load_interface
from kingdomkit.cli.terminal.kit import Terminal
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import CHANCE, IllegalActionError
from kingdomkit.core.record import read_record, replay_record
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdomino.dominoes import DOMINOES
from kingdomkit.games.kingdomino.rules import CLAIM, PLACE, Kingdomino, KingdominoState
from kingdomkit.games.kingdomino.terminal import TerminalUI, cell_name
from paths import EXAMPLES

UI = TerminalUI()
MOVES_HEADER = re.compile(r"^(\d+) legal moves:$", re.MULTILINE)


class Person:
    """Answers each prompt as a careful person would: first `?`, then one of the listed moves
    (picked with its own generator). Scripted inputs for a kind of prompt ("place", "claim")
    go first; `stop_after` ends input (EOF) or interrupts after that many answers."""

    def __init__(
        self,
        capsys: pytest.CaptureFixture[str],
        scripted: dict[str, list[str]] | None = None,
        stop_after: int | None = None,
        stop_with: type[BaseException] = EOFError,
    ) -> None:
        self.capsys = capsys
        self.scripted = {kind: list(texts) for kind, texts in (scripted or {}).items()}
        self.stop_after = stop_after
        self.stop_with = stop_with
        self.rng = random.Random(1)
        self.asked = False
        self.out: list[str] = []  # everything printed, in order
        self.exchanges: list[tuple[str, str, str]] = []  # (prompt, answer, what it printed)
        self.chosen: list[tuple[str, str]] = []  # (prompt, move) picked from the ? list

    def __call__(self, prompt: object = "") -> str:
        printed = self.capsys.readouterr().out
        self.out.append(printed)
        if self.exchanges:
            last_prompt, last_answer, _ = self.exchanges[-1]
            self.exchanges[-1] = (last_prompt, last_answer, printed)
        text = str(prompt)
        if self.stop_after is not None and len(self.exchanges) >= self.stop_after:
            raise self.stop_with
        answer = self._answer(text, printed)
        self.exchanges.append((text, answer, ""))
        return answer

    def _answer(self, prompt: str, printed: str) -> str:
        if prompt.startswith("Press Enter"):
            self.chosen.append((prompt, ""))  # a forced move
            return ""
        kind = prompt.split()[0]
        if self.scripted.get(kind):
            return self.scripted[kind].pop(0)
        if not self.asked:
            self.asked = True
            return "?"
        self.asked = False
        move = self.rng.choice(listed_moves(printed))
        self.chosen.append((prompt, move))
        return move

    @property
    def transcript(self) -> str:
        self.out.append(self.capsys.readouterr().out)
        return "".join(self.out)


def listed_moves(printed: str) -> list[str]:
    """The moves that `?` printed, checked against the count it announced."""
    header = MOVES_HEADER.search(printed)
    assert header is not None, printed
    body = printed[header.end() :]
    moves = [m for line in body.splitlines() for m in re.split(r"\s{2,}", line.strip()) if m]
    assert len(moves) == int(header.group(1)), printed
    return moves


def run_play(monkeypatch: pytest.MonkeyPatch, person: Callable[[object], str], *args: str) -> int:
    monkeypatch.setattr(builtins, "input", person)
    return main(["play", "kingdomino", *args])


def point(name: str, reach: int = 4) -> list[int]:
    return [ord(name[0]) - ord("a") - reach, int(name[1:]) - 1 - reach]


# -- whole games ---------------------------------------------------------------------------------
def test_a_whole_two_player_game_typed_at_the_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys)
    status = run_play(monkeypatch, person, "--players", "2", "--seed", "11", "--record", str(path))
    transcript = person.transcript
    assert status == 0
    assert "Game over" in transcript
    assert "Traceback" not in transcript
    assert "territory" in transcript and "total" in transcript
    assert "Record of the finished game saved to" in transcript

    record = read_record(path)
    assert record["players"] == ["you", "greedy"]
    assert record["seed"] == 11
    replayed = replay_record(record)
    game = replayed.game
    assert game.is_terminal(replayed.final_state)
    scores = [int(s) for s in game.scores(replayed.final_state)]
    assert record["result"]["scores"] == scores
    winner = re.search(r"Winners?[^:]*: .*?, (\d+) points? \(", transcript)
    assert winner is not None and int(winner.group(1)) == max(scores)

    # Every move the person typed is the one the record holds.
    typed = [move for prompt, move in person.chosen]
    events = [e for e in record["events"] if e["type"] != "line" and e.get("player") == 0]
    assert len(typed) == len(events) > 0
    for move, event in zip(typed, events, strict=True):
        if not move:
            continue  # forced: the only legal move, played on Enter
        if event["type"] == "claim":
            assert move == str(event["domino"])
        elif event["type"] == "discard":
            assert move == "discard"
        else:
            cells = [point(name) for name in move.split()]
            if DOMINOES[event["domino"] - 1].symmetric:
                assert sorted(cells) == sorted(event["cells"])
            else:
                assert cells == event["cells"]


def test_the_person_can_sit_in_another_seat_with_mixed_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys)
    status = run_play(
        monkeypatch,
        person,
        *("--players", "3", "--seat", "1", "--bots", "random,greedy", "--name", "ann"),
        *("--seed", "4", "--record", str(path), "--option", "harmony"),
    )
    assert status == 0
    record = read_record(path)
    assert record["players"] == ["random", "ann", "greedy"]
    assert record["options"] == {"players": 3, "harmony": True}
    assert "Harmony" in person.transcript
    replayed = replay_record(record)
    assert replayed.game.is_terminal(replayed.final_state)


def test_a_dynasty_pauses_between_games_and_totals_at_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "dynasty.json"
    person = Person(capsys)
    status = run_play(
        monkeypatch,
        person,
        *("--players", "2", "--option", "dynasty", "--seed", "12", "--record", str(path)),
    )
    assert status == 0
    transcript = person.transcript
    for number in (1, 2):
        assert f"Game {number} of 3 is over" in transcript
    assert "Dynasty: the three games" in transcript
    pauses = [prompt for prompt, _, _ in person.exchanges if prompt.startswith("Press Enter")]
    assert len(pauses) >= 2
    replayed = replay_record(read_record(path))
    game, final = replayed.game, replayed.final_state
    assert game.is_terminal(final)
    totals = [str(int(s)) for s in game.scores(final)]
    assert re.search(rf"total\W+{totals[0]}\W+{totals[1]}", transcript)


SEED_SHOWN = re.compile(r"seed \d", re.IGNORECASE)


def test_the_seed_is_secret_until_the_end_then_deals_the_game_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys)
    assert run_play(monkeypatch, person, "--players", "2", "--record", str(path)) == 0
    before, end = person.transcript.split("Game over")
    # Every line is drawn from the seed: shown before the end it would give them all away.
    assert not SEED_SHOWN.search(before), before
    seed = re.search(r"Seed (\d+) \(--seed \1 gives the same draws again\)", end)
    assert seed is not None
    assert read_record(path)["seed"] == int(seed.group(1))
    lines = re.findall(r"New line: ([\d, ]+)", before)
    again = Person(capsys, stop_after=0)
    assert run_play(monkeypatch, again, "--players", "2", "--seed", seed.group(1)) == 0
    assert re.findall(r"New line: ([\d, ]+)", again.transcript) == lines[:1]


def stopped_record(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    path: Path,
    answers: int,
    *args: str,
) -> tuple[dict[str, Any], str]:
    """The record saved when the person stops after `answers` answers, and the transcript."""
    person = Person(capsys, stop_after=answers)
    assert run_play(monkeypatch, person, "--players", "2", "--record", str(path), *args) == 0
    assert "Input ended" in person.transcript
    return read_record(path), person.transcript


def line_events(record: dict[str, Any]) -> list[list[int]]:
    return [e["dominoes"] for e in record["events"] if e["type"] == "line"]


def test_a_stopped_game_is_saved_without_its_seed_and_resumed_with_fresh_draws(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    saved, transcript = stopped_record(monkeypatch, capsys, path, 12, "--seed", "8")
    assert saved["seed"] is None and not SEED_SHOWN.search(transcript)
    assert f"go on with --resume {path}" in transcript
    assert not replay_record(saved).game.is_terminal(replay_record(saved).final_state)
    drawn = len(line_events(saved))
    # Played on from the seed, the next line is the seed's; resumed, it is a fresh draw.
    seeded, _ = stopped_record(monkeypatch, capsys, tmp_path / "seeded.json", 40, "--seed", "8")
    assert seeded["events"][: len(saved["events"])] == saved["events"]
    next_lines = [line_events(seeded)[drawn]]
    for fresh in (1, 2):
        monkeypatch.setattr(random, "SystemRandom", lambda fresh=fresh: random.Random(fresh))
        resumed_path = tmp_path / f"resumed-{fresh}.json"
        resumed_path.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        person = Person(capsys, stop_after=28)
        args = ("--resume", str(resumed_path), "--record", str(resumed_path))
        assert run_play(monkeypatch, person, *args) == 0
        assert not SEED_SHOWN.search(person.transcript)
        resumed = read_record(resumed_path)
        assert resumed["events"][: len(saved["events"])] == saved["events"]
        replay_record(resumed)
        next_lines.append(line_events(resumed)[drawn])
    assert len({tuple(line) for line in next_lines}) == 3, next_lines


def test_a_finished_game_played_from_a_resume_has_no_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    stopped_record(monkeypatch, capsys, path, 6, "--seed", "4")
    person = Person(capsys)
    assert run_play(monkeypatch, person, "--resume", str(path), "--record", str(path)) == 0
    assert "Game over" in person.transcript and not SEED_SHOWN.search(person.transcript)
    record = read_record(path)
    assert record["seed"] is None
    replayed = replay_record(record)
    assert replayed.game.is_terminal(replayed.final_state)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--seed", "3"], "--resume draws from a fresh secret seed"),
        (["--players", "3"], "--resume plays with the record's options"),
    ],
)
def test_resume_refuses_what_would_change_the_game(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    extra: list[str],
    message: str,
) -> None:
    path = tmp_path / "game.json"
    stopped_record(monkeypatch, capsys, path, 6, "--seed", "4")
    assert run_play(monkeypatch, Person(capsys), "--resume", str(path), *extra) == 2
    assert message in capsys.readouterr().err


def test_resume_refuses_a_finished_game_and_another_games_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    finished = str(EXAMPLES / "record-2p.json")
    assert run_play(monkeypatch, Person(capsys), "--resume", finished) == 2
    assert "is a finished game" in capsys.readouterr().err
    other = str(EXAMPLES / "kingdoms-record-3p.json")
    assert run_play(monkeypatch, Person(capsys), "--resume", other) == 2
    assert "is a game of kingdoms, not of kingdomino" in capsys.readouterr().err


# -- bad input -----------------------------------------------------------------------------------
BAD_PLACEMENTS = {
    "garbage": "cannot read 'garbage'",
    "z9 z8": "there is no square z9",
    "e5 e4": "e5 is your castle",
    "a1 a2": "connection rules",
    "e4 g4": "side by side",
    "discard": "may not be discarded",
    "99": "domino 99 is not yours to place",
}
BAD_CLAIMS = {
    "99": "domino 99 is not in the new line",
    "e4 e3": "now choose a domino of the new line",
    "hello": "cannot read 'hello'",
    "": "Type a move",
}


def test_bad_input_gets_a_clear_message_and_a_new_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys, {"place": [*BAD_PLACEMENTS], "claim": [*BAD_CLAIMS]})
    status = run_play(monkeypatch, person, "--players", "2", "--seed", "3", "--record", str(path))
    assert status == 0
    replies: dict[tuple[str, str], tuple[str, str]] = {}
    for prompt, answer, printed in person.exchanges:
        replies.setdefault((prompt.split()[0], answer), (prompt, printed))
    for kind, bad in (("place", BAD_PLACEMENTS), ("claim", BAD_CLAIMS)):
        for answer, message in bad.items():
            prompt, printed = replies[(kind, answer)]
            assert message in printed, (answer, printed)
            assert len(printed.strip().splitlines()) == 1, printed
            # The same question is asked again: the next prompt is the same.
            index = [e[:2] for e in person.exchanges].index((prompt, answer))
            assert person.exchanges[index + 1][0] == prompt
    assert "Traceback" not in person.transcript
    assert replay_record(read_record(path)).game.is_terminal(
        replay_record(read_record(path)).final_state
    )


def test_discard_is_refused_with_the_rule_quoted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    person = Person(capsys, {"place": ["discard"]}, stop_after=8)
    run_play(monkeypatch, person, "--players", "2", "--seed", "3")
    refusal = next(p for _, a, p in person.exchanges if a == "discard")
    assert "If you can't add a domino to your kingdom" in refusal


def test_quit_asks_first_then_saves_the_unfinished_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    answers = iter(["quit", "n", "quit", "yes"])
    person = Person(capsys)
    monkeypatch.setattr(person, "_answer", lambda prompt, printed: next(answers))
    assert (
        run_play(monkeypatch, person, "--players", "2", "--seed", "5", "--record", str(path)) == 0
    )
    assert "Carry on." in person.transcript
    assert "Game stopped." in person.transcript
    assert f"Record of the unfinished game saved to {path}" in person.transcript
    replayed = replay_record(read_record(path))
    assert not replayed.game.is_terminal(replayed.final_state)


# -- early ends keep the record ------------------------------------------------------------------
def test_end_of_input_mid_game_saves_the_record_and_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys, stop_after=10)
    assert (
        run_play(monkeypatch, person, "--players", "2", "--seed", "8", "--record", str(path)) == 0
    )
    assert "Input ended" in person.transcript
    record = read_record(path)
    replayed = replay_record(record)
    assert not replayed.game.is_terminal(replayed.final_state)
    mine = [e for e in record["events"] if e.get("player") == 0]
    assert len(mine) == len(person.chosen) > 0


def test_ctrl_c_saves_the_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    person = Person(capsys, stop_after=6, stop_with=KeyboardInterrupt)
    assert (
        run_play(monkeypatch, person, "--players", "2", "--seed", "8", "--record", str(path)) == 130
    )
    assert "saved to" in person.transcript
    assert replay_record(read_record(path)).actions


def play_from_real_stdin(game: str, tmp_path: Path, typed: str) -> str:
    """`kingdomkit play GAME` in a subprocess that reads `typed` and then the end of its
    input: it must stop cleanly, without colour codes (stdout is no terminal), and save a
    record that replays. Returns what it printed."""
    path = tmp_path / "game.json"
    command = [sys.executable, "-m", "kingdomkit", "play", game, "--players", "2"]
    result = subprocess.run(
        [*command, "--seed", "2", "--record", str(path)],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "Input ended" in result.stdout
    assert "\x1b[" not in result.stdout
    replay_record(read_record(path))
    return result.stdout


def assert_refused_in_one_line(person: Person, bad_input: dict[str, dict[str, str]]) -> None:
    """Each bad answer of `bad_input` (prompt word -> answer -> message) got its message in
    one line, and the same prompt again; the game went on to its end."""
    replies: dict[tuple[str, str], int] = {}
    for index, (prompt, answer, _) in enumerate(person.exchanges):
        replies.setdefault((prompt.split()[0], answer), index)
    for kind, bad in bad_input.items():
        for answer, message in bad.items():
            index = replies[(kind, answer)]
            prompt, _, printed = person.exchanges[index]
            assert message in printed, (answer, printed)
            assert len(printed.strip().splitlines()) == 1, printed
            assert person.exchanges[index + 1][0] == prompt
    assert "Game over" in person.transcript and "Traceback" not in person.transcript


def test_end_of_real_stdin_is_clean(tmp_path: Path) -> None:
    play_from_real_stdin("kingdomino", tmp_path, "?\nhelp\n")


# -- bad options -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "nope"], "unknown option 'nope'"),
        (["--players", "5"], "2 to 4 players"),
        (["--bots", "wizard"], "unknown bot 'wizard'"),
        (["--players", "3", "--bots", "greedy,random,greedy"], "--bots needs 2 names"),
        (["--bots", ","], "--bots needs 3 names"),
        (["--name", " "], "--name must not be empty"),
        (["--players", "2", "--seat", "2"], "--seat must be 0 to 1"),
        (["--record", "/no/such/folder/game.json"], "cannot write the record"),
        (["--option", "mighty_duel"], "mighty_duel is a 2-player variant"),
    ],
)
def test_bad_options_exit_2_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    def no_input(prompt: object = "") -> str:
        raise AssertionError("asked for input before checking the options")

    assert run_play(monkeypatch, no_input, *args) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert "Traceback" not in captured.err


def test_a_folder_as_record_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_play(monkeypatch, Person(capsys), "--record", str(tmp_path)) == 2
    assert "it is a folder" in capsys.readouterr().err


# -- the Kingdomino terminal UI --------------------------------------------------------------------
def state_with(lines: list[list[int]], game: Kingdomino | None = None) -> KingdominoState:
    """A 2-player state after drawing `lines` (kings in order 0, 0, 1, 1, each king claiming the
    next free domino of the line), stopped at the first placement."""
    game = game or Kingdomino({"players": 2})
    state = game.initial_state()
    for line in lines:
        for number in line:
            state = game.apply(state, number - 1)
        if game.current_player(state) == CHANCE:
            state = game.apply(state, 0)  # the first order: 0, 0, 1, 1
        while state.phase == CLAIM:
            state = game.apply(state, game.legal_actions(state)[0])
        if state.phase == PLACE:
            break
    return state


GAME = Kingdomino({"players": 2})
# Player 0 holds 20 (W1|L) and 28 (F1|L); the new line is 5, 24, 41, 46.
PLACING = state_with([[20, 28, 36, 47], [5, 24, 41, 46]])


def test_the_state_of_the_parse_tests() -> None:
    assert PLACING.phase == PLACE
    assert GAME.acting_domino(PLACING).number == 20
    assert GAME.current_player(PLACING) == 0


@pytest.mark.parametrize(
    "text",
    [
        "e4 e3",
        "e4e3",
        "e4-e3",
        "E4 E3",
        "  e4   e3 ",
        "e4 up",
        "e4 u",
        "e4u",
        "e4up",
        "E4 UP",
        "place e4 e3",
        "20 e4 e3",
        "place 20 e4 up",
        "place 20 0,-1 0,-2",
    ],
)
def test_every_form_of_a_placement_reads_the_same(text: str) -> None:
    expected = GAME.placement_action(PLACING, (0, -1), (0, -2))
    assert UI.parse(GAME, PLACING, text) == expected


@pytest.mark.parametrize(
    ("text", "second"),
    [("f5 right", (2, 0)), ("f5r", (2, 0)), ("e6 d", (0, 2)), ("e6 down", (0, 2)),
     ("d5 l", (-2, 0)), ("d5 left", (-2, 0)), ("d5 c5", (-2, 0))],
)  # fmt: skip
def test_each_direction(text: str, second: tuple[int, int]) -> None:
    first = (ord(text[0]) - ord("e"), int(text[1]) - 5)
    assert UI.parse(GAME, PLACING, text) == GAME.placement_action(PLACING, first, second)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "cannot read"),
        ("banana", "cannot read 'banana'"),
        ("e4", "cannot read"),
        ("j1 j2", "there is no square j1: columns a to i, rows 1 to 9"),
        ("e10 e9", "there is no square e10"),
        ("e1 up", "e1 up puts square 2 off the board"),
        ("e4 e4", "side by side"),
        ("e4 f3", "side by side"),
        ("e5 e4", "e5 is your castle"),
        ("a1 a2", "connection rules"),
        ("21 e4 e3", "the domino to place is 20, not 21"),
        ("20", "domino 20 is the one to place"),
        ("24", "first place domino 20; you choose from the new line right after"),
        ("7", "domino 7 is not yours to place"),
        ("discard", "may not be discarded"),
        ("claim 24", "first place domino 20"),
    ],
)
def test_bad_placements_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        UI.parse(GAME, PLACING, text)


def test_taken_places_and_the_frame_limit() -> None:
    state = GAME.apply(PLACING, UI.parse(GAME, PLACING, "e4 e3"))
    state = GAME.apply(state, UI.parse(GAME, state, "5"))  # claim 5
    while GAME.current_player(state) != 0:  # player 1 places 36 and claims
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    assert GAME.acting_domino(state).number == 28
    with pytest.raises(IllegalActionError, match="e3 is already taken \\(lake\\)"):
        UI.parse(GAME, state, "e3 e2")
    # The kingdom spans rows 3 to 5, so row 8 would make it 6 tall.
    with pytest.raises(IllegalActionError, match="would not fit in 5x5"):
        UI.parse(GAME, state, "a8 a7")


def test_claims_by_number() -> None:
    state = GAME.apply(PLACING, UI.parse(GAME, PLACING, "e4 e3"))
    assert state.phase == CLAIM and state.line == (5, 24, 41, 46)
    assert UI.parse(GAME, state, "41") == 2
    assert UI.parse(GAME, state, "claim 41") == 2
    assert UI.parse(GAME, state, " 5 ") == 0
    with pytest.raises(IllegalActionError, match="domino 6 is not in the new line"):
        UI.parse(GAME, state, "6")
    with pytest.raises(IllegalActionError, match="now choose a domino"):
        UI.parse(GAME, state, "discard")
    claimed = GAME.apply(state, 2)
    while GAME.current_player(claimed) != 0 or claimed.phase != CLAIM:
        claimed = GAME.apply(claimed, GAME.legal_actions(claimed)[0])
    taken = next(n for n, owner in zip(claimed.line, claimed.claims, strict=True) if owner >= 0)
    with pytest.raises(IllegalActionError, match=f"domino {taken} already has a king on it"):
        UI.parse(GAME, claimed, str(taken))


CLAIMING = GAME.apply(PLACING, GAME.placement_action(PLACING, (0, -1), (0, -2)))
MOVE_LIKE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 -,udlr?.#é٣", max_size=14)


@settings(max_examples=300, deadline=None)
@given(st.one_of(MOVE_LIKE, st.text(max_size=20)), st.sampled_from([PLACING, CLAIMING]))
def test_any_text_reads_as_a_legal_move_or_a_clear_refusal(text: str, state: Any) -> None:
    try:
        action = UI.parse(GAME, state, text)
    except IllegalActionError as error:
        message = str(error)
        # the text typed may itself read "Traceback": look for Python's own
        assert message and "\n" not in message and "most recent call last" not in message
    else:
        assert action in GAME.legal_actions(state)


def test_the_moves_list_reads_back_to_every_legal_action() -> None:
    for state in (PLACING, GAME.apply(PLACING, GAME.legal_actions(PLACING)[0])):
        moves = UI.moves_help(GAME, state)
        assert sorted(UI.parse(GAME, state, move) for move in moves) == sorted(
            GAME.legal_actions(state)
        )


def test_a_domino_that_fits_nowhere_is_forced_and_discard_reads() -> None:
    # Random play soon leaves someone a domino that fits nowhere.
    game = Kingdomino({"players": 2})
    state = game.initial_state()
    rng = random.Random(0)
    bot = make_bot("random")
    while True:
        player = game.current_player(state)
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        elif state.phase == PLACE and game.legal_actions(state) == (game.discard_action,):
            break
        else:
            state = game.apply(state, bot.act(game, state, rng))
        assert not game.is_terminal(state), "no forced discard in this game; change the seed"
    message = UI.forced(game, state, ["you", "bot"])
    assert message is not None and "fits nowhere" in message
    assert UI.parse(game, state, "discard") == game.discard_action
    assert UI.moves_help(game, state) == ["discard"]


def test_the_board_names_every_square_of_a_mighty_duel(capsys: pytest.CaptureFixture[str]) -> None:
    game = Kingdomino({"players": 2, "mighty_duel": True})
    state = play(game, [make_bot("random")] * 2, 3).final_state
    console = Console(width=200)
    UI.draw(console, game, state, 0, ["you", "bot"], ["a log line"])
    out = capsys.readouterr().out
    assert re.search(r"a +b +c +d +e +f +g +h +i +j +k +l +m", out)
    assert re.search(r"^\W*13 ", out, re.MULTILINE)
    assert cell_name(game, (0, 0)) == "g7"
    assert "a log line" in out


def test_the_final_screen_shows_score_pads_bonuses_and_dynasty_totals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    options: dict[str, Any] = {
        "players": 2, "middle_kingdom": True, "harmony": True, "dynasty": True
    }  # fmt: skip
    game = make_game("kingdomino", options)
    state = play(game, [make_bot("random")] * 2, 6).final_state
    UI.final(Console(width=120), game, state, ["ann", "bob"])
    out = capsys.readouterr().out
    assert "Middle Kingdom" in out and "Harmony" in out
    assert "game 1" in out and "game 3" in out
    totals = [str(int(s)) for s in game.scores(state)]
    assert re.search(rf"total\W+{totals[0]}\W+{totals[1]}", out)
    assert "highest total of the three games" in out


def test_the_interface_is_found_by_the_games_name() -> None:
    interface: Terminal = load_interface(GAME)
    assert isinstance(interface, TerminalUI)


@pytest.mark.parametrize(
    ("seed", "reason"),
    [
        (7, "tie on points, broken by the largest territory (5 squares)"),
        (163, "tie on points and largest territory, broken by the most crowns (10)"),
    ],
)
def test_a_tie_names_the_rule_that_broke_it(
    capsys: pytest.CaptureFixture[str], seed: int, reason: str
) -> None:
    # Random 2-player games from these seeds end in ties (checked first, in case bots change).
    game = Kingdomino({"players": 2})
    state = play(game, [make_bot("random")] * 2, seed).final_state
    scores = game.scores(state)
    assert scores[0] == scores[1]
    UI.final(Console(width=200), game, state, ["ann", "bob"])
    out = capsys.readouterr().out
    assert reason in out
    assert "Winner: " in out
