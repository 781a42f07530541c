"""Game records: the public format of docs/records.md, exact round trips, and refusals.

A record written from a played game, turned into JSON text and read back, must replay to the
same final state and result; a record changed in any way that breaks a rule must be refused
with the number and JSON of the event that broke it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import PlayedGame, play
from kingdomkit.core.protocol import IllegalActionError, RecordError
from kingdomkit.core.record import FORMAT, make_record, replay_record
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdomino.dominoes import DOMINOES, square_text
from kingdomkit.games.kingdomino.notation import square_at
from kingdomkit.games.kingdomino.options import FLAGS
from kingdomkit.games.kingdomino.rules import Kingdomino, KingdominoState
from paths import DOCS, EXAMPLES

Record = dict[str, Any]

CONFIGURATIONS: list[tuple[dict[str, Any], str]] = [
    ({"players": 2}, "random"),
    ({"players": 2}, "greedy"),
    ({"players": 3}, "random"),
    ({"players": 3}, "greedy"),
    ({"players": 4}, "random"),
    ({"players": 4}, "greedy"),
    ({"players": 3, "draw_four": True}, "random"),
    ({"players": 3, "draw_four": True, "harmony": True}, "greedy"),
    ({"players": 2, "mighty_duel": True}, "random"),
    ({"players": 2, "mighty_duel": True, "middle_kingdom": True, "harmony": True}, "random"),
    ({"players": 4, "middle_kingdom": True, "harmony": True}, "greedy"),
    ({"players": 2, "dynasty": True}, "random"),
    ({"players": 4, "dynasty": True, "harmony": True}, "random"),
    ({"players": 3, "dynasty": True, "draw_four": True}, "greedy"),
]
SEEDS = (3, 4)
EVENT_KEYS = {
    "order": {"type", "kings"},
    "line": {"type", "dominoes"},
    "claim": {"type", "player", "domino"},
    "place": {"type", "player", "domino", "cells"},
    "discard": {"type", "player", "domino"},
}


def kingdomino(options: dict[str, Any]) -> Kingdomino:
    game = make_game("kingdomino", options)
    assert isinstance(game, Kingdomino)
    return game


def played_record(
    options: dict[str, Any], seed: int, bot: str = "random", plies: int | None = None
) -> tuple[Kingdomino, PlayedGame, Record]:
    """A game played from `seed`, and its record (of the first `plies` actions if given)."""
    game = kingdomino(options)
    played = play(game, [make_bot(bot)] * game.num_players, seed)
    actions = played.actions if plies is None else played.actions[:plies]
    names = [f"{bot}-{seat}" for seat in range(game.num_players)]
    return game, played, make_record(game, seed, names, actions)


def through_json(record: Record) -> Record:
    data: Record = json.loads(json.dumps(record))
    return data


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_public_format(record: Record, game: Kingdomino, finished: bool) -> None:
    """The record is what the issue and docs/records.md promise, field by field."""
    players = game.num_players
    assert record["format"] == FORMAT == "kingdomkit-record/1"
    assert record["game"] == "kingdomino"
    options = record["options"]
    assert options["players"] == players
    assert set(options) <= {"players", *FLAGS}
    assert all(options[flag] is True for flag in options if flag != "players")
    assert is_int(record["seed"])
    assert isinstance(record["players"], list) and len(record["players"]) == players
    assert all(isinstance(name, str) for name in record["players"])
    if "games" in record:
        assert options.get("dynasty") is True and "events" not in record
        for game_record in record["games"]:
            assert game_record["players"] == record["players"]
            single = {k: v for k, v in options.items() if k != "dynasty"}
            assert game_record["options"] == single
            check_public_format(game_record, kingdomino(single), "result" in game_record)
    else:
        check_events(record["events"], game)
    assert ("result" in record) == finished
    if finished:
        scores = record["result"]["scores"]
        assert len(scores) == players and all(is_int(s) for s in scores)
        winners = record["result"]["winners"]
        assert winners and all(scores[w] == max(scores) for w in winners)


def check_events(events: list[dict[str, Any]], game: Kingdomino) -> None:
    """Every event has exactly its fields, with values of the right kind, in a sane order."""
    setup = game.setup
    drawn: set[int] = set()
    assert events[0]["type"] == "line" and events[1]["type"] == "order"
    for event in events:
        kind = event["type"]
        assert set(event) == EVENT_KEYS[kind], event
        if kind == "order":
            assert sorted(event["kings"]) == sorted(k % setup.players for k in range(setup.kings))
        elif kind == "line":
            line = event["dominoes"]
            assert len(line) == setup.line_size and line == sorted(line)
            assert all(is_int(n) and 1 <= n <= 48 for n in line)
            assert drawn.isdisjoint(line)
            drawn.update(line)
        else:
            assert is_int(event["player"]) and 0 <= event["player"] < setup.players
            assert event["domino"] in drawn
        if kind == "place":
            (x1, y1), (x2, y2) = event["cells"]
            assert all(is_int(v) for v in (x1, y1, x2, y2))
            assert abs(x1 - x2) + abs(y1 - y2) == 1
            if DOMINOES[event["domino"] - 1].symmetric:
                # The engine writes a domino with two like squares facing right or down.
                assert (x2 - x1, y2 - y1) in ((1, 0), (0, 1))
    kinds = [event["type"] for event in events]
    assert kinds.count("order") == 1
    assert kinds.count("line") <= setup.lines
    placed = kinds.count("place") + kinds.count("discard")
    assert placed <= kinds.count("claim") <= setup.lines * setup.kings


# -- round trips -----------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "bot"), CONFIGURATIONS, ids=str)
def test_record_round_trips_through_json(options: dict[str, Any], bot: str) -> None:
    for seed in SEEDS:
        game, played, record = played_record(options, seed, bot)
        text = json.dumps(record)
        replay = replay_record(json.loads(text))
        assert replay.final_state == played.final_state
        assert game.is_terminal(replay.final_state)
        assert record["result"] == game.result(played.final_state)
        assert record["result"]["scores"] == [int(s) for s in game.scores(played.final_state)]
        check_public_format(through_json(record), game, finished=True)
        # The actions found by the replay write the very same record again.
        again = make_record(game, seed, record["players"], replay.actions)
        assert json.dumps(again) == text


@pytest.mark.parametrize(("options", "bot"), CONFIGURATIONS[::3], ids=str)
def test_unfinished_records_replay_to_where_the_game_stands(
    options: dict[str, Any], bot: str
) -> None:
    game, played, _ = played_record(options, 5, bot)
    for plies in (0, 1, 7, len(played.actions) // 2, len(played.actions) - 1):
        _, _, record = played_record(options, 5, bot, plies)
        assert "result" not in record
        if plies > len(played.actions) // 3:
            check_public_format(through_json(record), game, finished=False)
        replay = replay_record(through_json(record))
        # The draws of a line that is not complete make no event yet: the replay stands
        # after the last action that made one.
        state = expected = game.initial_state()
        for action in played.actions[:plies]:
            after = game.apply(state, action)
            if game.events(state, action, after):
                expected = after
            state = after
        assert replay.final_state == expected
        assert not game.is_terminal(replay.final_state)


def test_place_events_put_square_one_on_the_first_cell() -> None:
    """Cells are castle-relative (x right, y down); square 1 of the dominoes CSV goes first."""
    game, _, record = played_record({"players": 4}, 8)
    replay = replay_record(record)
    for event, after in replay.steps:
        if event["type"] != "place":
            continue
        domino = DOMINOES[event["domino"] - 1]
        kingdom = after.kingdoms[event["player"]]
        (x1, y1), (x2, y2) = event["cells"]
        assert square_at(game.geo, kingdom, x1, y1) == square_text(domino.terrain1, domino.crowns1)
        assert square_at(game.geo, kingdom, x2, y2) == square_text(domino.terrain2, domino.crowns2)


def test_dynasty_games_each_replay_on_their_own() -> None:
    for options in ({"players": 2, "dynasty": True}, {"players": 3, "dynasty": True}):
        game, played, record = played_record(options, 9)
        games = record["games"]
        assert len(games) == 3
        totals = [0] * game.num_players
        final: KingdominoState | None = None
        for number, game_record in enumerate(games, start=1):
            assert game_record["dynasty_game"] == number
            replay = replay_record(through_json(game_record))
            assert replay.game.is_terminal(replay.final_state)
            assert game_record["result"] == replay.game.result(replay.final_state)
            totals = [t + s for t, s in zip(totals, game_record["result"]["scores"], strict=True)]
            final = replay.final_state
        assert record["result"]["scores"] == totals
        assert final is not None and final.kingdoms == played.final_state.kingdoms
        assert played.final_state.past_scores == tuple(
            tuple(g["result"]["scores"]) for g in games[:2]
        )


def test_unfinished_dynasty_record_has_finished_and_open_games() -> None:
    game, played, _ = played_record({"players": 2, "dynasty": True}, 10)
    first_game = len(played.actions) // 3
    _, _, record = played_record({"players": 2, "dynasty": True}, 10, plies=first_game + 20)
    games = record["games"]
    assert len(games) == 2 and "result" in games[0] and "result" not in games[1]
    assert "result" not in record
    replay = replay_record(through_json(record))
    assert replay.final_state.game_number == 1 and not game.is_terminal(replay.final_state)


# -- refusals --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def finished() -> tuple[Kingdomino, Record]:
    game, _, record = played_record({"players": 2}, 6, "greedy")
    return game, record


def first(record: Record, kind: str, after: int = 0) -> int:
    """The index of the first event of `kind` at or after index `after`."""
    return next(i for i, e in enumerate(record["events"]) if e["type"] == kind and i >= after)


def refused(record: Record, change: Callable[[Record], Any], index: int | None = None) -> str:
    """The message refusing `record` once changed; with `index`, checked to start with that
    event's number and its JSON as it stands in the changed record."""
    changed = copy.deepcopy(record)
    change(changed)
    with pytest.raises(RecordError) as error:
        replay_record(through_json(changed))
    message = str(error.value)
    if index is not None:
        assert message.startswith(f"event {index + 1} {json.dumps(changed['events'][index])}: ")
    return message


def test_wrong_player_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    index = first(record, "claim", 8)
    event = record["events"][index]
    message = refused(
        record, lambda r: r["events"][index].update(player=1 - event["player"]), index
    )
    assert f"it is player {event['player']}'s turn" in message


def test_claiming_a_domino_not_in_the_line_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    old_line = record["events"][0]["dominoes"]
    index = first(record, "claim", 8)
    message = refused(record, lambda r: r["events"][index].update(domino=old_line[0]), index)
    assert f"domino {old_line[0]} is not in the line" in message


def test_placing_another_domino_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    index = first(record, "place")
    domino = record["events"][index]["domino"]
    other = next(n for n in record["events"][0]["dominoes"] if n != domino)
    message = refused(record, lambda r: r["events"][index].update(domino=other), index)
    assert f"must place domino {domino}" in message


def unconnected_cells(
    game: Kingdomino, state: KingdominoState
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two free cells, side by side and inside the frame, that the connection rule forbids."""
    reach = game.geo.reach
    for y in range(-reach, reach + 1):
        for x in range(-reach, reach):
            try:
                game.placement_action(state, (x, y), (x + 1, y))
            except IllegalActionError as error:
                if "connection rules" in str(error):
                    return (x, y), (x + 1, y)
    raise AssertionError("no unconnected placement found")


def test_placement_breaking_the_connection_rule_is_refused(
    finished: tuple[Kingdomino, Record],
) -> None:
    game, record = finished
    replay = replay_record(record)
    index = first(record, "place", 30)
    before = replay.steps[index - 1][1]
    first_cell, second_cell = unconnected_cells(game, before)
    cells = [list(first_cell), list(second_cell)]
    message = refused(record, lambda r: r["events"][index].update(cells=cells), index)
    assert "connection rules" in message


def test_placement_on_a_taken_square_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    index = first(record, "place", 30)
    message = refused(record, lambda r: r["events"][index].update(cells=[[0, 0], [1, 0]]), index)
    assert "already taken" in message


def test_discard_when_a_placement_exists_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    index = first(record, "place")

    def to_discard(r: Record) -> None:
        event = r["events"][index]
        event["type"] = "discard"
        del event["cells"]

    message = refused(record, to_discard, index)
    assert "can be placed, so it may not be discarded" in message


def test_line_not_ascending_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    index = first(record, "line", 1)
    message = refused(record, lambda r: r["events"][index]["dominoes"].reverse(), index)
    assert "ascending" in message


def test_line_with_an_already_drawn_domino_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    index = first(record, "line", 1)
    line = record["events"][index]["dominoes"]
    again = sorted([record["events"][0]["dominoes"][0], *line[1:]])
    message = refused(record, lambda r: r["events"][index].update(dominoes=again), index)
    assert f"domino {record['events'][0]['dominoes'][0]} cannot be drawn" in message


def test_line_of_the_wrong_size_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    message = refused(record, lambda r: r["events"][0]["dominoes"].pop())
    assert message.startswith("event 1 ") and "a line holds 4 dominoes, not 3" in message


def test_order_that_is_not_an_order_of_the_kings_is_refused(
    finished: tuple[Kingdomino, Record],
) -> None:
    _, record = finished
    message = refused(record, lambda r: r["events"][1].update(kings=[0, 0, 0, 1]))
    assert message.startswith("event 2 ") and "is not an order of the kings" in message


def test_events_out_of_turn_are_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    index = first(record, "claim")
    message = refused(record, lambda r: r["events"].insert(index, r["events"][0]))
    assert message.startswith(f"event {index + 1} ") and "a claim event is due" in message
    message = refused(record, lambda r: r["events"].append(r["events"][-1]))
    assert message.startswith(f"event {len(record['events']) + 1} ")
    assert "already over" in message


def test_wrong_result_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    scores = record["result"]["scores"]
    message = refused(record, lambda r: r["result"]["scores"].__setitem__(0, scores[0] + 1))
    assert "result.scores" in message and json.dumps(scores) in message
    loser = 1 - record["result"]["winners"][0]
    message = refused(record, lambda r: r["result"].update(winners=[loser]))
    assert "result.winners" in message


def test_result_of_an_unfinished_game_is_refused(finished: tuple[Kingdomino, Record]) -> None:
    _, record = finished
    message = refused(record, lambda r: r["events"].pop())
    assert "the record has a result but its events do not finish the game" in message


@pytest.mark.parametrize(
    ("field", "why"),
    [
        ("format", "no 'format' field"),
        ("game", "no 'game' field"),
        ("options", "no 'options' field"),
        ("players", "no 'players' field"),
        ("events", "no list of 'events'"),
    ],
)
def test_missing_fields_are_refused(
    finished: tuple[Kingdomino, Record], field: str, why: str
) -> None:
    _, record = finished
    assert why in refused(record, lambda r: r.pop(field))


@pytest.mark.parametrize(
    ("kind", "field", "why"),
    [
        ("line", "dominoes", "'dominoes' must be a list of domino numbers"),
        ("order", "kings", "None is not an order of the kings"),
        ("claim", "player", "turn, not None's"),
        ("claim", "domino", "domino None is not in the line"),
        ("place", "cells", "'cells' must be two [x, y] pairs"),
        ("place", "domino", "not None"),
        ("claim", "type", "a claim event is due, not None"),
    ],
)
def test_events_missing_a_field_are_refused(
    finished: tuple[Kingdomino, Record], kind: str, field: str, why: str
) -> None:
    _, record = finished
    index = first(record, kind)
    message = refused(record, lambda r: r["events"][index].pop(field), index)
    assert why in message


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"format": "kingdomkit-record/2"}, "unknown record format 'kingdomkit-record/2'"),
        ({"format": 1}, "'format' field has the wrong type"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"options": {"players": 2, "queen": True}}, "unknown Kingdomino option 'queen'"),
        ({"options": {"players": 5}}, "2 to 4 players, not 5"),
        ({"options": {"players": 2, "harmony": "yes"}}, "on or off"),
        ({"options": {"players": 4, "mighty_duel": True}}, "2-player variant"),
        ({"players": ["ann"]}, "'players' must list 2 names"),
        ({"players": ["ann", 7]}, "'players' must list 2 names"),
        ({"events": {}}, "no list of 'events'"),
    ],
)
def test_bad_headers_are_refused(
    finished: tuple[Kingdomino, Record], change: dict[str, Any], why: str
) -> None:
    _, record = finished
    assert why in refused(record, lambda r: r.update(change))


def test_a_record_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError, match="a record is a JSON object"):
        replay_record([])  # type: ignore[arg-type]


def test_dynasty_record_breaking_a_rule_names_the_event() -> None:
    _, _, record = played_record({"players": 2, "dynasty": True}, 11)
    changed = copy.deepcopy(record)
    second = changed["games"][1]["events"]
    index = next(i for i, e in enumerate(second) if e["type"] == "place")
    second[index]["cells"] = [[0, 0], [1, 0]]
    with pytest.raises(RecordError, match="already taken"):
        replay_record(changed)
    with pytest.raises(RecordError, match=rf"^event {index + 1} .*already taken"):
        replay_record(changed["games"][1])


# -- two spellings of one move; dynasty games checked one by one ------------------------------
def test_symmetric_domino_may_be_written_either_way_round(
    finished: tuple[Kingdomino, Record],
) -> None:
    _, record = finished
    index = next(
        i
        for i, e in enumerate(record["events"])
        if e["type"] == "place" and DOMINOES[e["domino"] - 1].symmetric
    )
    changed = copy.deepcopy(record)
    changed["events"][index]["cells"].reverse()
    assert replay_record(changed).final_state == replay_record(record).final_state


def test_dynasty_game_with_a_wrong_result_is_refused() -> None:
    _, _, record = played_record({"players": 2, "dynasty": True}, 12)
    changed = copy.deepcopy(record)
    changed["games"][0]["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match=r"result\.scores"):
        replay_record(changed["games"][0])  # each game alone: refused
    with pytest.raises(RecordError):
        replay_record(changed)  # the dynasty as a whole: refused too


def test_the_events_in_docs_records_md_come_from_the_example_record() -> None:
    docs = (DOCS / "records.md").read_text(encoding="utf-8")
    example = (EXAMPLES / "record-2p.json").read_text(encoding="utf-8")
    shown = [line.rstrip(",") for line in docs.splitlines() if line.startswith('{"type": ')]
    assert len(shown) >= 10
    lines = [line.strip().rstrip(",") for line in example.splitlines()]
    assert all(event in lines for event in shown)
    events = load_example_events(EXAMPLES / "record-2p.json")
    assert [json.loads(event) for event in shown[:9]] == events[:9]


def load_example_events(path: Path) -> list[dict[str, Any]]:
    record: Record = json.loads(path.read_text(encoding="utf-8"))
    events: list[dict[str, Any]] = record["events"]
    return events
