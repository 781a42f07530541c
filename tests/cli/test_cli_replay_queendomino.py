"""`kingdomkit replay` of Queendomino records: every event in plain words, the realms and the
Builders' Board, and tampered records refused with the event that broke the rules."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_cli_replay import refused, run, write
from test_cli_score_queendomino import SHIPPED_CSV, corrected_table

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.record import make_record, replay_record
from kingdomkit.core.registry import make_game
from kingdomkit.games.queendomino.dominoes import TOWN
from kingdomkit.games.queendomino.rules import EMPTY, Queendomino
from paths import EXAMPLES

Record = dict[str, Any]
NAMES = ("ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal")


def queendomino(options: dict[str, Any]) -> Queendomino:
    game = make_game("queendomino", options)
    assert isinstance(game, Queendomino)
    return game


def played_record(options: dict[str, Any], seed: int, plies: int | None = None) -> Record:
    """The record of a game between random bots (of its first `plies` actions if given)."""
    game = queendomino(options)
    actions = play(game, [make_bot("random")] * game.num_players, seed).actions
    return make_record(game, seed, NAMES[: game.num_players], actions[:plies])


def record_where(options: dict[str, Any], wanted: Callable[[Record], bool]) -> Record:
    """The record of the first seed whose game shows what a test needs."""
    for seed in range(50):
        record = played_record(options, seed)
        if wanted(record):
            return record
    raise AssertionError("no seed gives such a game")


def kinds(record: Record) -> set[str]:
    return {event["type"] for event in record["events"]}


def passes(record: Record) -> set[str]:
    return {event["step"] for event in record["events"] if event["type"] == "pass"}


def everything(record: Record) -> bool:
    """Every kind of event, and a pass at each optional step."""
    every = {"top", "reveal", "line", "order", "claim", "place", "discard", "tax", "build"}
    every.add("queen")
    return kinds(record) >= every | {"burn", "pass"} and passes(record) == {
        "tax",
        "build",
        "dragon",
    }


def numbered(out: str) -> list[str]:
    """The event lines of the output, without their numbers."""
    found = []
    for line in out.splitlines():
        number, dot, text = line.strip().partition(". ")
        if dot and number.isdigit():
            found.append(text)
    return found


def cell(xy: list[int]) -> str:
    return f"({xy[0]}, {xy[1]})"


# -- showing a game ------------------------------------------------------------------------------
def test_every_event_reads_in_plain_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = record_where({"players": 2}, everything)
    status, out, err = run(capsys, str(write(tmp_path, record)))
    assert (status, err) == (0, "")
    events = record["events"]
    lines = numbered(out)
    assert len(lines) == len(events)
    table = queendomino({"players": 2}).table
    names = {b.tile: b.label() for b in table.buildings}
    for event, text in zip(events, lines, strict=True):
        kind = event["type"]
        who = NAMES[event["player"]] if "player" in event else ""
        expected = {
            "top": f"{names.get(event.get('building', ''))} is turned up on the pile: ",
            "reveal": f"{names.get(event.get('building', ''))} comes onto the Builders' Board "
            f"at price {event.get('price')}: ",
            "line": "New line (line ",
            "order": "The kings are drawn in this order: "
            + ", ".join(NAMES[k] for k in event.get("kings", [])),
            "claim": f"{who} claims {event.get('domino')} [",
            "place": f"{who} places {event.get('domino')} [",
            "discard": f"{who} discards {event.get('domino')} [",
            "tax": f"{who} sends a knight to {cell(event.get('cell', [0, 0]))} and collects "
            f"{event.get('coins')} coin",
            "build": f"{who} builds {names.get(event.get('building', ''))} on "
            f"{cell(event.get('cell', [0, 0]))} for {event.get('price')} coin",
            "queen": f"The Queen moves to {NAMES[event.get('realm', 0)]} (",
            "burn": f"{who} pays the Dragon 1 coin to burn {names.get(event.get('building', ''))}",
            "pass": {
                "tax": f"{who} sends no knight out",
                "build": f"{who} builds nothing",
                "dragon": f"{who} leaves the Dragon in its cave",
            }.get(event.get("step", ""), ""),
        }[kind]
        assert text.startswith(expected), (event, text)
        if kind == "place":
            (x1, y1), (x2, y2) = event["cells"]
            assert text.endswith(f"on ({x1}, {y1}) and ({x2}, {y2})")
    assert "(unverified)" in out  # the shipped table has tiles with unknown effects
    assert f"The record is valid: {len(events)} events." in out
    scores = record["result"]["scores"]
    assert f"Final scores: ann {scores[0]}, bob {scores[1]}" in out
    assert f"ann: {scores[0]} points" in out and f"bob: {scores[1]} points" in out
    # Each realm in the notation, with its fields and its score pad.
    assert out.count("    coins: ") == 2 and out.count("    queen: yes") == 1
    assert out.count("    wealth ") == 2


def test_a_build_that_the_supply_cut_short_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A building takes only the towers left of the 15 (docs/rules-notes.md). The shipped
    tiles hold 9 towers in all, so the Statues get 9 each here."""
    many = {"immediate_towers": "9", "immediate_status": "established"}
    table = corrected_table(tmp_path, dict.fromkeys(("B27", "B28", "B29"), many))
    tiles = queendomino({"players": 2, "buildings": table}).table.buildings
    printed = {b.tile: b.towers for b in tiles}

    def short(event: dict[str, Any]) -> bool:
        return event["type"] == "build" and bool(event["towers"] < printed[event["building"]])

    record = record_where(
        {"players": 4, "buildings": table}, lambda r: any(map(short, r["events"]))
    )
    _, out, _ = run(capsys, str(write(tmp_path, record)))
    index, event = next((i, e) for i, e in enumerate(record["events"]) if short(e))
    towers, shown = event["towers"], printed[event["building"]]
    assert f"{towers} of its {shown} towers: the supply ran short" in numbered(out)[index]


def test_json_summary_has_the_realms_and_the_builders_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 3}, 1)
    status, out, _ = run(capsys, str(write(tmp_path, record)), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["valid"] is True and data["finished"] is True
    assert data["result"] == record["result"]
    assert data["events"] == len(data["log"]) == len(record["events"])
    position = data["position"]
    assert len(position["kingdoms"]) == len(position["realms"]) == 3
    assert all(any("C" in row for row in kingdom) for kingdom in position["kingdoms"])
    assert len(position["builders_board"]) == 6
    host = position["queen"]
    assert [realm["hosts_queen"] for realm in position["realms"]] == [r == host for r in range(3)]
    totals = [pad["total"] for pad in position["breakdown"]]
    assert totals == record["result"]["scores"]


def test_teams_are_named_by_their_players(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    options = {"players": 6, "royal_wedding": True, "teams": True}
    record = record_where(options, lambda r: "queen" in kinds(r))
    status, out, _ = run(capsys, str(write(tmp_path, record)))
    assert status == 0
    scores = record["result"]["team_scores"]
    for team, (first, second) in enumerate((("ann", "bob"), ("cid", "dee"), ("eve", "fay"))):
        assert f"team {first} & {second}: {scores[team]} points" in out
    assert "The Queen moves to team " in out
    data = json.loads(run(capsys, str(write(tmp_path, record)), "--json")[1])
    assert data["position"]["teams"] == [[0, 1], [2, 3], [4, 5]]


def test_royal_wedding_lines_name_their_box(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 3, "royal_wedding": True}, 2)
    _, out, _ = run(capsys, str(write(tmp_path, record)))
    assert "New line (line 1 of 24, from the Queendomino box): Q" in out
    assert "New line (line 2 of 24, from the Kingdomino box): K" in out
    claims = [line for line in numbered(out) if " claims " in line]
    assert any(" claims Q" in line for line in claims)
    assert any(" claims K" in line for line in claims)
    # A discarded domino is named with its box too.
    assert "discard" in kinds(record) and "; discarded " in out
    shown = out.split("; discarded ")[1].split(",")[0].split()[0]
    assert shown[0] in "QK" and shown[1:].isdigit()


def test_an_unfinished_game_shows_the_builders_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 2}, 3, plies=150)
    replay = replay_record(record)
    status, out, _ = run(capsys, str(write(tmp_path, record)))
    assert status == 0
    assert "The game stands at line " in out
    assert "Builders' Board (price: building): 0: " in out and ", 5: " in out
    assert "The Queen is hosted by " in out or "Nobody hosts the Queen yet" in out
    assert "; the Dragon is " in out
    assert "Scores so far:" in out and "Winner" not in out
    placing = replay.final_state.placing
    assert not placing or "Still to place: " in out


# -- refusing tampered records ------------------------------------------------------------------
def test_wrong_tax_coins_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = record_where({"players": 2}, lambda r: "tax" in kinds(r))
    index = next(i for i, e in enumerate(record["events"]) if e["type"] == "tax")
    record["events"][index]["coins"] += 1
    path = write(tmp_path, record)
    err = refused(capsys, path)
    event = json.dumps(record["events"][index])
    assert f"{path}: event {index + 1} {event}: the rules give " in err
    assert '"coins": ' + str(record["events"][index]["coins"] - 1) in err


def test_a_build_on_a_square_that_is_not_a_town_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = record_where({"players": 2}, lambda r: "build" in kinds(r))
    index = next(i for i, e in enumerate(record["events"]) if e["type"] == "build")
    game = queendomino({"players": 2})
    kingdom = before(record, index).realms[record["events"][index]["player"]].kingdom
    land = kingdom.occupied & ~kingdom.terrains[TOWN] & ~game.geo.castle_bit
    x, y = game.geo.xy((land & -land).bit_length() - 1)
    record["events"][index]["cell"] = [x, y]
    path = write(tmp_path, record)
    err = refused(capsys, path)
    assert f"event {index + 1} {json.dumps(record['events'][index])}: " in err
    assert f"{x},{y} is not an empty town square of the kingdom" in err


def before(record: Record, index: int) -> Any:
    """The state before event `index` of a record."""
    unfinished = {k: v for k, v in record.items() if k != "result"}
    return replay_record({**unfinished, "events": record["events"][:index]}).final_state


def test_a_burn_once_the_dragon_has_flown_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The Dragon burns one building a round (rulebook D): a later player who could otherwise
    bribe it (coins, no Queen, a building on the board) cannot."""
    game = queendomino({"players": 4})

    def only_the_dragon_stops(record: Record) -> int | None:
        """A claim after a burn, by a player only the used Dragon stops from burning."""
        events = record["events"]
        burns = [i for i, e in enumerate(events) if e["type"] == "burn"]
        for i in burns:
            for j in range(i + 1, len(events)):
                if events[j]["type"] == "line":
                    break
                if events[j]["type"] != "claim" or events[j]["player"] == events[i]["player"]:
                    continue
                state = before(record, j)
                player = events[j]["player"]
                if (
                    state.queen != player
                    and state.realms[player].coins >= 1
                    and any(b != EMPTY for b in state.board)
                ):
                    assert not state.dragon_ready
                    return j
        return None

    record = record_where({"players": 4}, lambda r: only_the_dragon_stops(r) is not None)
    index = only_the_dragon_stops(record)
    assert index is not None
    state = before(record, index)
    tile = game.table[next(b for b in state.board if b != EMPTY)].tile
    burn = {"type": "burn", "player": record["events"][index]["player"], "building": tile}
    record["events"].insert(index, burn)
    path = write(tmp_path, record)
    err = refused(capsys, path)
    assert f"event {index + 1} {json.dumps(burn)}: a claim event is due, not 'burn'" in err


def test_a_missing_queen_event_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = record_where({"players": 2}, lambda r: "queen" in kinds(r))
    index = next(i for i, e in enumerate(record["events"]) if e["type"] == "queen")
    queen = record["events"].pop(index)
    err = refused(capsys, write(tmp_path, record))
    assert f"event {index + 1} " in err and f"the rules give {json.dumps(queen)} here" in err


# -- building tables -----------------------------------------------------------------------------
def test_a_record_made_with_a_custom_table_replays_with_buildings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = corrected_table(tmp_path, {"B19": {"endgame_points": "9"}})
    record = played_record({"players": 2, "buildings": table}, 4)
    assert record["options"]["buildings"] == table
    assert record["buildings"]["source"] == table
    # The record travels to another machine: the table's path there is not the same.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    copy = elsewhere / "my-buildings.csv"
    shutil.move(table, copy)
    path = write(tmp_path, record)
    assert "cannot read buildings table" in refused(capsys, path)
    status, out, err = run(capsys, str(path), "--buildings", str(copy))
    assert (status, err) == (0, "")
    scores = record["result"]["scores"]
    assert f"Final scores: ann {scores[0]}, bob {scores[1]}" in out
    # The shipped table is another table: refused, with the way out.
    status, out, err = run(capsys, str(path), "--buildings", str(SHIPPED_CSV))
    assert status == 2 and out == ""
    assert "played with another building table" in err and "--buildings FILE" in err


def test_buildings_is_refused_for_a_kingdomino_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = make_record(make_game("kingdomino", {"players": 2}), 1, ["ann", "bob"], [])
    status, _, err = run(capsys, str(write(tmp_path, record)), "--buildings", str(SHIPPED_CSV))
    assert status == 2 and "--buildings is not an option of kingdomino" in err


def test_a_teams_outright_win_names_the_team(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = json.loads((EXAMPLES / "queendomino-record-teams.json").read_text(encoding="utf-8"))
    result = record["result"]
    (winning,) = result["winning_teams"]  # one team alone at the top
    first, second = (record["players"][p] for p in result["teams"][winning])
    status, out, _ = run(capsys, str(write(tmp_path, record)), "--quiet")
    assert status == 0
    assert f"Winner: team {first} & {second}" in out
    assert "shared victory" not in out


def test_shared_victory_is_said_only_for_a_real_tie(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A 2-player Kingdomino game between random bots that ends tied after every tie-break.
    game = make_game("kingdomino", {"players": 2})
    played = play(game, [make_bot("random")] * 2, 938)
    assert game.winners(played.final_state) == (0, 1)
    record = make_record(game, 938, ["ann", "bob"], played.actions)
    status, out, _ = run(capsys, str(write(tmp_path, record)), "--quiet")
    assert status == 0 and "Winners (shared victory): ann, bob" in out


def test_the_piles_top_is_recorded_when_it_is_turned_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = played_record({"players": 2}, 3)
    events = record["events"]
    first_line = next(i for i, e in enumerate(events) if e["type"] == "line")
    # Set-up: six tiles turned up and moved onto the board, then a seventh left face up.
    assert [e["type"] for e in events[:first_line]] == ["top", "reveal"] * 6 + ["top"]
    assert [e["price"] for e in events[:first_line] if e["type"] == "reveal"] == [0, 1, 2, 3, 4, 5]
    # A refill takes the known top: the reveal names the tile the last top event showed.
    shown = None
    for event in events:
        if event["type"] == "top":
            shown = event["building"]
        elif event["type"] == "reveal":
            assert event["building"] == shown
    # A reveal stands for no action of its own.
    del record["events"][0]
    assert "only right after a top event" in refused(capsys, write(tmp_path, record))
