"""kingdomkit replay: check a game record move by move and show the game in plain words.

    kingdomkit replay game.json            every event, the final kingdoms, scores, winners
    kingdomkit replay game.json --quiet    only the outcome
    kingdomkit replay game.json --json     one JSON object
    kingdomkit replay - < game.json        the record from standard input

The record is checked through `core.record.replay_record`, so a record that breaks a rule is
refused with the event that broke it (its number and JSON) and the reason, exit status 2.
A record of a series of games (a Kingdomino dynasty) holds `games`, each a full record, which
the game checks one by one before the series as a whole. An unfinished record is fine: the
command shows where the game stands.

The command knows no game. How an event reads in words, and what a position looks like,
comes from the game's score report (its `report` capability, cli/report.py: `describe_event`,
`describe_position`, `position_json`); without one, events are shown as JSON and positions
with `game.render`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kingdomkit.cli.common import add_file_arguments, file_options
from kingdomkit.cli.report import ScoreReport, report
from kingdomkit.cli.score import STDIN, display_name, read_text
from kingdomkit.core.protocol import CHANCE, TERMINAL, Event, Game, KingdomkitError, RecordError
from kingdomkit.core.record import (
    MAX_RECORD_BYTES,
    Replay,
    parse_record,
    read_record,
    replay_record,
)
from kingdomkit.core.registry import GAMES

# The game's score report, which tells events and positions in words (None: JSON and render).
Words = ScoreReport[Any, Any] | None


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="check a game record against the rules and show the game",
        description="Check a game record move by move and show every event, the final "
        "position, the scores and the winners. A record that breaks a rule is refused "
        "with the event that broke it.",
    )
    parser.add_argument("file", metavar="FILE", help="the record (JSON), or - for standard input")
    parser.add_argument("--quiet", action="store_true", help="show only the outcome")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_file_arguments(parser)
    parser.set_defaults(run=run)


def load_record(path: str) -> dict[str, Any]:
    """The JSON object in `path` (`-`: standard input); RecordError if it is not one."""
    if path != STDIN:
        return read_record(Path(path))
    return parse_record(read_text(path, MAX_RECORD_BYTES, "a record"), display_name(path))


def series(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The full records of the games of a series (empty for a single game, which has
    `events` where a series has `games`)."""
    games = record.get("games")
    if "events" in record or not isinstance(games, list):
        return []
    return [game for game in games if isinstance(game, Mapping)]


def player_names(names: Sequence[str]) -> list[str]:
    """The players as the output names them: their names, numbered when two are alike."""
    if len(set(names)) == len(names) and all(name.strip() for name in names):
        return list(names)
    return [f"{name or 'player'} (#{index})" for index, name in enumerate(names)]


def describe_event(
    words: Words, game: Game[Any], event: Event, after: Any, names: Sequence[str]
) -> str:
    if words is not None:
        return words.describe_event(game, event, after, names)
    return json.dumps(event)


def who_acts(game: Game[Any], state: Any, names: Sequence[str]) -> str:
    player = game.current_player(state)
    if player == CHANCE:
        return "chance (a draw)"
    if player == TERMINAL:
        return "nobody (the game is over)"
    return str(names[player])


def checked_record(args: argparse.Namespace) -> tuple[dict[str, Any], Replay]:
    """The record `args.file` names (with the file options given) and its replay; a record
    that breaks a rule is refused with the file's name."""
    record = with_file_options(args, load_record(args.file))
    try:
        return record, replay_record(record)
    except KingdomkitError as error:
        raise RecordError(f"{display_name(args.file)}: {error}") from None


def run(args: argparse.Namespace) -> int:
    record, replay = checked_record(args)
    game = replay.game
    state = replay.final_state
    names = player_names(record["players"])
    words = report(game.name)
    finished = game.is_terminal(state)
    if args.json:
        print(json.dumps(summary_json(args, record, replay, names, words), indent=2))
        return 0
    out: list[str] = [
        f"{game.name}, options {json.dumps(dict(game.options))}, seed {record.get('seed')}",
        "Players: " + ", ".join(names),
    ]
    if not args.quiet:
        out.append("")
        out.extend(event_lines(record, replay, names, words))
    out.append("")
    out.append(
        f"The record is valid: {len(replay.steps)} events"
        + (
            "."
            if finished
            else f"; the game is not finished. Next to act: {who_acts(game, state, names)}."
        )
    )
    if not args.quiet:
        out.append("")
        if words is not None:
            out.append(words.describe_position(game, state, names))
        else:
            out.append(game.render(state))
    out.append("")
    scores = ", ".join(f"{names[p]} {plain_number(s)}" for p, s in enumerate(game.scores(state)))
    if finished:
        out.append(f"Final scores: {scores}")
        out.append(winners_line(game, state, names))
    else:
        out.append(f"Scores so far: {scores}")
    print("\n".join(out))
    return 0


def winners_line(game: Game[Any], state: Any, names: Sequence[str]) -> str:
    """Who won, by side: "Winner: ann", "Winner: team cyd & dee", or "Winners (shared
    victory): ..." only when more than one side shares the victory."""
    winners = set(game.winners(state))
    sides = [side for side in game.teams() if winners & set(side)]
    labels = [
        names[side[0]] if len(side) == 1 else "team " + " & ".join(names[p] for p in side)
        for side in sides
    ]
    if len(labels) == 1:
        return f"Winner: {labels[0]}"
    return f"Winners (shared victory): {', '.join(labels)}"


def with_file_options(args: argparse.Namespace, record: dict[str, Any]) -> dict[str, Any]:
    """The record with the file options given on the command line (`--buildings FILE`: the
    table the game was played with, where the record's own path is not valid here)."""
    game, options = record.get("game"), record.get("options")
    if not isinstance(game, str) or not isinstance(options, dict):
        return record
    files = file_options(args, game) if game in GAMES else {}
    return {**record, "options": {**options, **files}} if files else record


def event_lines(
    record: Mapping[str, Any], replay: Replay, names: Sequence[str], words: Words
) -> list[str]:
    """One numbered line per event, with a heading where each game of a series starts."""
    starts: dict[int, str] = {}
    first = 0
    for number, game in enumerate(series(record), start=1):
        starts[first] = f"Game {number}"
        events = game.get("events")
        first += len(events) if isinstance(events, list) else 0
    lines = []
    width = len(str(len(replay.steps)))
    for index, (event, after) in enumerate(replay.steps):
        if index in starts:
            if index:
                lines.append("")
            lines.append(starts[index] + ":")
        text = describe_event(words, replay.game, event, after, names)
        lines.append(f"{index + 1:>{width}}. {text}")
    return lines


def plain_number(score: float) -> int | float:
    """45.0 -> 45: scores are floats in the protocol, whole numbers in most games."""
    return int(score) if float(score).is_integer() else score


def summary_json(
    args: argparse.Namespace,
    record: Mapping[str, Any],
    replay: Replay,
    names: Sequence[str],
    words: Words,
) -> dict[str, Any]:
    game = replay.game
    state = replay.final_state
    finished = game.is_terminal(state)
    data: dict[str, Any] = {
        "file": args.file,
        "valid": True,
        "game": game.name,
        "options": dict(game.options),
        "seed": record.get("seed"),
        "players": list(record["players"]),
        "events": len(replay.steps),
        "finished": finished,
        "scores": [plain_number(s) for s in game.scores(state)],
    }
    if finished:
        data["winners"] = list(game.winners(state))
        data["result"] = game.result(state)
    else:
        player = game.current_player(state)
        data["to_act"] = player if player >= 0 else None
    if words is not None:
        data["position"] = words.position_json(game, state)
    if not args.quiet:
        data["log"] = [
            describe_event(words, game, event, after, names) for event, after in replay.steps
        ]
    return data
