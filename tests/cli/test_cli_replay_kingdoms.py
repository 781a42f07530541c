"""`kingdomkit replay` of Kingdoms records: every event in plain words, the board and where the
game stands, and tampered records refused with the event that broke the rules."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from test_cli_replay import refused, run, write

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import Game
from kingdomkit.core.record import make_record, replay_record
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdoms.actions import DRAW_ACTION
from kingdomkit.games.kingdoms.report import describe_event, describe_position
from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState
from kingdomkit.games.kingdoms.state import FIRST
from kingdomkit.games.kingdoms.tiles import LABELS, tile_type
from paths import EXAMPLES

Record = dict[str, Any]
NAMES = ("ann", "bob", "cid", "dee")


def kingdoms(options: dict[str, Any]) -> Kingdoms:
    game = make_game("kingdoms", options)
    assert isinstance(game, Kingdoms)
    return game


def played_record(options: dict[str, Any], seed: int, plies: int | None = None) -> Record:
    """The record of a game between random bots (of its first `plies` actions if given)."""
    game = kingdoms(options)
    actions = play(game, [make_bot("random")] * game.num_players, seed).actions
    return make_record(game, seed, list(NAMES[: game.num_players]), actions[:plies])


def numbered(out: str) -> list[str]:
    """The event lines of the output, without their numbers."""
    found = []
    for line in out.splitlines():
        number, dot, text = line.strip().partition(". ")
        if dot and number.isdigit():
            found.append(text)
    return found


def where(event: Record) -> str:
    return f"row {event['row']}, column {event['column']}"


def tile(label: str) -> str:
    kind = tile_type(label)
    assert kind is not None
    return kind.describe()


def expected_text(game: Kingdoms, event: Record, names: Sequence[str]) -> str:
    """How each event starts in words."""
    kind = event["type"]
    who = names[event["player"]] if "player" in event else ""
    if kind == "epoch":
        of = "" if game.setup.down_to_the_last_castle else " of 3"
        return f"Epoch {event['epoch']}{of} begins; {names[event['first']]} plays first"
    if kind == "starting_tile":
        return f"{who} is dealt a starting tile, {tile(event['tile'])}: secret, face down"
    if kind == "draw":
        if game.setup.no_luck:
            return f"{who} takes {tile(event['tile'])} from the face-up tiles"
        return f"{who} draws {tile(event['tile'])} from the supply"
    if kind == "tile" and event["from"] == "starting":
        return f"{who} reveals their starting tile, {tile(event['tile'])}, on {where(event)}"
    if kind == "tile":
        return f"{who} places {tile(event['tile'])} on {where(event)}"
    if kind == "castle":
        return f"{who} places a rank-{event['rank']} castle on {where(event)}"
    if kind == "pass":
        return f"{who} passes: no castle, tile or starting tile left to play"
    if kind == "score":
        return f"{event['line'].capitalize()} scores"
    assert kind == "epoch_end"
    return f"Epoch {event['epoch']} ends"


def money(gold: int) -> str:
    if gold > 0:
        return f"collects {gold} gold"
    return f"pays {-gold} gold" if gold else "scores nothing"


def check_every_line(game: Kingdoms, record: Record, out: str) -> None:
    """Each event of the record has its line, in words, in the output of the replay."""
    events = record["events"]
    names = record["players"]
    lines = numbered(out)
    assert len(lines) == len(events)
    for event, text in zip(events, lines, strict=True):
        assert text.startswith(expected_text(game, event, names)), (event, text)
        if event["type"] == "score":
            parts = event["parts"]
            bases = " | ".join(f"{p['base']:+d}" if p["base"] else "0" for p in parts)
            assert (f"base {bases}: " if len(parts) == 1 else f"parts, bases {bases}: ") in text
            for player, gold in enumerate(event["gold"]):
                ranks = [part["ranks"][player] for part in parts]
                if any(ranks):
                    assert f"{names[player]} {money(gold)} (rank" in text, text
                else:
                    assert names[player] not in text
        if event["type"] == "epoch_end":
            gold = ", ".join(f"{names[p]} {g}" for p, g in enumerate(event["gold"]))
            assert text.endswith(f". Gold: {gold}")


# -- showing a game ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"players": 2, "no_luck": True},
        {"players": 4, "down_to_the_last_castle": True, "score_as_you_go": True},
    ],
    ids=str,
)
def test_every_event_reads_in_plain_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: dict[str, Any]
) -> None:
    record = played_record(options, 1)
    game = kingdoms(options)
    status, out, err = run(capsys, str(write(tmp_path, record)))
    assert (status, err) == (0, "")
    check_every_line(game, record, out)
    events = record["events"]
    assert f"The record is valid: {len(events)} events." in out
    epochs = record["result"]["epochs"]
    assert f"The game is over after epoch {epochs}." in out
    players = game.num_players
    legend = ", ".join(f"{'ABCD'[p]} {NAMES[p]}" for p in range(players))
    assert f"Board ({legend}):" in out
    scores = record["result"]["scores"]
    shown = ", ".join(f"{NAMES[p]} {scores[p]}" for p in range(players))
    assert f"Gold: {shown}" in out and f"Final scores: {shown}" in out
    # What the last board paid is the sum of the last epoch's score events; with Score as
    # You Go a line paid when it was filled, so the last board is not shown as paying.
    last = max(i for i, e in enumerate(events) if e["type"] == "epoch")
    paid = [0] * players
    for event in events[last:]:
        if event["type"] == "score":
            paid = [p + g for p, g in zip(paid, event["gold"], strict=True)]
    shown = ", ".join(f"{NAMES[p]} {g:+d}" if g else f"{NAMES[p]} 0" for p, g in enumerate(paid))
    assert (f"The last board paid: {shown}\n" in out) == (not game.setup.score_as_you_go)
    assert ("The last board paid" in out) == (not game.setup.score_as_you_go)
    assert "Castles in hand" not in out  # the game is over


def test_the_example_record_reads_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / "kingdoms-record-3p.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    status, out, err = run(capsys, str(path))
    assert (status, err) == (0, "")
    check_every_line(kingdoms(record["options"]), record, out)


class Builder:
    """Places castles first (everyone in the first epoch), or else tiles first: players who
    keep their castles while one player runs out make that player pass once the supply is
    empty (Down to the Last Castle)."""

    def __init__(self, castles_first: bool) -> None:
        self.castles_first = castles_first

    def act(self, game: Game[Any], state: KingdomsState, rng: random.Random) -> int:
        legal = game.legal_actions(state)
        castles = [a for a in legal if a < DRAW_ACTION]
        tiles = [a for a in legal if a >= DRAW_ACTION]
        prefer = castles if state.epoch == 0 or self.castles_first else tiles
        return rng.choice(prefer or legal)


def test_a_game_with_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    options = {"players": 4, "down_to_the_last_castle": True}
    game = kingdoms(options)
    agents = [Builder(False)] * 3 + [Builder(True)]
    record = make_record(game, 1, list(NAMES), play(game, agents, 1).actions)
    passes = [e for e in record["events"] if e["type"] == "pass"]
    assert passes and record["result"]["epochs"] == 2
    status, out, _ = run(capsys, str(write(tmp_path, record)))
    assert status == 0
    check_every_line(game, record, out)
    assert "Epoch 2 begins; " in out  # no count of epochs in this variant
    assert "dee passes: no castle, tile or starting tile left to play" in out


def test_json_summary_has_the_board_and_the_hands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 3}, 2)
    status, out, _ = run(capsys, str(write(tmp_path, record)), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["valid"] is True and data["finished"] is True
    assert data["result"] == record["result"]
    assert data["events"] == len(data["log"]) == len(record["events"])
    position = data["position"]
    assert position["epoch"] == 3 and position["phase"] == "over"
    assert len(position["board"]) == 5 and "." not in " ".join(position["board"]).split()
    assert position["gold"] == record["result"]["scores"]
    assert len(position["castles"]) == 3 and all(len(hand) == 4 for hand in position["castles"])
    assert position["held"] is None and len(position["scored"]) == 11


def test_an_unfinished_game_shows_where_it_stands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 3}, 3, plies=20)
    state = replay_record(record).final_state
    status, out, _ = run(capsys, str(write(tmp_path, record)))
    assert status == 0
    assert "The game stands at epoch 1 of 3: " in out
    assert "Castles in hand: ann " in out and "; bob " in out
    starting = next(line for line in out.splitlines() if line.startswith("Starting tiles"))
    for player, held in enumerate(state.starting):
        shown = "none" if held < 0 else tile(LABELS[held])
        assert f"{NAMES[player]} {shown}" in starting
    assert f"Supply: {sum(state.supply)} tiles face down" in out
    assert "Lines not scored yet, if the epoch ended now: ann " in out
    assert "Scores so far:" in out and "Winner" not in out
    data = json.loads(run(capsys, str(write(tmp_path, record)), "--json")[1])
    assert data["position"]["supply"] == sum(state.supply)
    assert data["position"]["castles"] == [list(hand) for hand in state.castles]


def test_no_luck_shows_the_face_up_tiles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 2, "no_luck": True}, 4, plies=30)
    status, out, _ = run(capsys, str(write(tmp_path, record)))
    assert status == 0
    assert "Face-up tiles: " in out and "Starting tiles" not in out


def test_a_tie_for_the_most_gold_is_drawn_among_the_tied() -> None:
    game = kingdoms({"players": 3})
    tied = game.initial_state()._replace(phase=FIRST, epoch=1, gold=(80, 80, 60))
    event = {"type": "epoch", "epoch": 2, "first": 1}
    text = describe_event(game, event, tied, NAMES)
    assert text == (
        "Epoch 2 of 3 begins; bob plays first, drawn among the richest (ann and bob, 80 gold each)"
    )
    alone = tied._replace(gold=(80, 90, 60))
    assert describe_event(game, event, alone, NAMES).endswith(
        "bob plays first, with the most gold (90)"
    )


def test_a_view_shows_hidden_starting_tiles_as_hidden() -> None:
    game = kingdoms({"players": 2})
    record = played_record({"players": 2}, 5, plies=3)  # who starts, two deals
    state = replay_record(record).final_state
    text = describe_position(game, game.view(state, 0), NAMES)
    assert "bob hidden" in text and "ann hidden" not in text


# -- refusing tampered records ------------------------------------------------------------------
def index_of(record: Record, wanted: Callable[[Record], bool]) -> int:
    return next(i for i, event in enumerate(record["events"]) if wanted(event))


def test_wrong_gold_in_a_score_event_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 3}, 6)
    index = index_of(record, lambda e: e["type"] == "score" and any(e["gold"]))
    true = json.dumps(record["events"][index])
    record["events"][index]["gold"][0] += 1
    path = write(tmp_path, record)
    err = refused(capsys, path)
    assert f"{path}: event {index + 1} {json.dumps(record['events'][index])}: " in err
    assert f"the rules give {true} here" in err


def test_a_castle_on_a_taken_space_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 3}, 7)
    events = record["events"]
    first = index_of(record, lambda e: e["type"] in ("castle", "tile"))
    later = next(i for i, e in enumerate(events) if e["type"] == "castle" and i > first)
    assert "epoch_end" not in [e["type"] for e in events[first:later]]
    taken = events[first]
    record["events"][later].update(row=taken["row"], column=taken["column"])
    err = refused(capsys, write(tmp_path, record))
    assert f"event {later + 1} {json.dumps(record['events'][later])}: " in err
    assert f"{where(taken)} is taken" in err


def test_a_castle_of_a_rank_no_longer_in_hand_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each player has one rank-4 castle, and it leaves the game after its epoch."""
    record = played_record({"players": 2}, 8)
    events = record["events"]
    castles = [i for i, e in enumerate(events) if e["type"] == "castle" and e["player"] == 0]
    used = next(i for i in castles if events[i]["rank"] == 4)
    later = next(i for i in castles if i > used)
    record["events"][later]["rank"] = 4
    err = refused(capsys, write(tmp_path, record))
    assert f"event {later + 1} {json.dumps(record['events'][later])}: " in err
    assert "you have no castle of rank 4 left" in err


def test_a_pass_when_a_move_was_possible_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 3}, 9)
    index = index_of(record, lambda e: e["type"] == "castle")
    player = record["events"][index]["player"]
    record["events"][index] = {"type": "pass", "player": player}
    err = refused(capsys, write(tmp_path, record))
    assert f"event {index + 1} {json.dumps(record['events'][index])}: " in err
    assert "you may pass only when you can do nothing else" in err


def test_a_missing_score_event_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 2, "score_as_you_go": True}, 10)
    index = index_of(record, lambda e: e["type"] == "score")
    missing = record["events"].pop(index)
    err = refused(capsys, write(tmp_path, record))
    assert f"event {index + 1} " in err and f"the rules give {json.dumps(missing)} here" in err
