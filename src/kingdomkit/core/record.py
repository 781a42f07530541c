"""Game records: one public, versioned JSON file per game, and an exact replay of it.

    {"format": "kingdomkit-record/1", "game": "kingdomino", "version": 1,
     "options": {"players": 4, ...}, "seed": 7, "players": ["ann", "bot"],
     "events": [...], "result": {"scores": [...], ...}}

What the events are is each game's business (see docs/records.md); this module only builds a
record from the actions of a game and replays a record event by event, through the checked
path, so that a record that breaks a rule is reported with the event that broke it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from kingdomkit.core.protocol import Event, Game, KingdomkitError, RecordError, excerpt
from kingdomkit.core.registry import game_info, make_game

FORMAT = "kingdomkit-record/1"
# The largest record file read (docs/records.md): a few hundred times the longest game's
# record, and small enough that parsing it cannot exhaust memory (JSON takes ~10x its size).
MAX_RECORD_BYTES = 4 * 1024 * 1024
# How much of a bad event an error message shows.
EVENT_SHOWN = 400


def make_record(
    game: Game[Any], seed: int | None, players: Sequence[str], actions: Sequence[int]
) -> dict[str, Any]:
    """The record of the game that `actions` played from the initial state."""
    state = game.initial_state()
    events: list[Event] = []
    for action in actions:
        after = game.apply(state, action)
        events.extend(game.events(state, action, after))
        state = after
    header = {
        "format": FORMAT,
        "game": game.name,
        "version": game.version,
        "options": dict(game.options),
        "seed": seed,
        "players": list(players),
    }
    return {**header, **game.record_body(header, events, state)}


@dataclass(frozen=True)
class Replay:
    """A replayed record: the game, each event with the state after it, the final state."""

    game: Game[Any]
    steps: tuple[tuple[Event, Any], ...]
    final_state: Any
    actions: tuple[int, ...]


def _require(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in record:
        raise RecordError(f"the record has no {key!r} field")
    value = record[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"the record's {key!r} field has the wrong type")
    return value


def replay_record(record: Mapping[str, Any]) -> Replay:
    """Check `record` move by move against the rules; raise RecordError naming the event."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    fmt = _require(record, "format", str)
    if fmt != FORMAT:
        raise RecordError(f"unknown record format {fmt!r} (this version reads {FORMAT!r})")
    name = _require(record, "game", str)
    options = _require(record, "options", dict)
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError("the record's 'seed' is an integer or null")
    players = _require(record, "players", list)
    try:
        game_info(name)
    except KingdomkitError as error:
        raise RecordError(str(error)) from None
    try:
        game = make_game(name, options)
    except KingdomkitError as error:
        raise RecordError(f"the record's options: {error}") from None
    if len(players) != game.num_players or not all(isinstance(p, str) for p in players):
        raise RecordError(f"'players' must list {game.num_players} names")
    state = game.initial_state()
    steps: list[tuple[Event, Any]] = []
    actions: list[int] = []
    # An action may write more than one event (a build that moves the Queen): the events
    # after the first are due next in the record, in order, and stand for no action.
    following: list[Event] = []
    for index, event in enumerate(game.record_events(record), start=1):
        where = f"event {index} {excerpt(json.dumps(event), EVENT_SHOWN, quoted=False)}"
        if not isinstance(event, dict):
            raise RecordError(f"{where}: an event is a JSON object")
        if following:
            due = following.pop(0)
            if event != due:
                raise RecordError(f"{where}: the rules give {json.dumps(due)} here")
            steps.append((event, state))
            continue
        try:
            canonical = game.canonical_event(state, event)
            event_actions = game.event_actions(state, event)
            produced: list[Event] = []
            for action in event_actions:
                after = game.apply_checked(state, action)
                produced.extend(game.events(state, action, after))
                state = after
        except KingdomkitError as error:
            raise RecordError(f"{where}: {error}") from None
        if produced[:1] != [canonical]:
            raise RecordError(f"{where}: the rules give {json.dumps(produced)} here")
        following = produced[1:]
        actions.extend(event_actions)
        steps.append((event, state))
    if following:
        raise RecordError(f"the record ends where the rules give {json.dumps(following[0])}")
    if game.is_terminal(state):
        _check_result(game, record, state)
    elif "result" in record:
        raise RecordError("the record has a result but its events do not finish the game")
    return Replay(game, tuple(steps), state, tuple(actions))


def _check_result(game: Game[Any], record: Mapping[str, Any], state: Any) -> None:
    expected = game.result(state)
    given = record.get("result")
    if given is None:
        return
    if not isinstance(given, Mapping):
        raise RecordError("the record's 'result' is not an object")
    for key, value in expected.items():
        if key in given and given[key] != value:
            raise RecordError(
                f"the record's result.{key} is {json.dumps(given[key])}, "
                f"the rules give {json.dumps(value)}"
            )


def write_record(path: Path, record: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def read_record(path: Path) -> dict[str, Any]:
    """The record in `path`; raises RecordError for unreadable, oversized or non-JSON files."""
    try:
        with path.open("rb") as file:
            text = read_bounded(file, MAX_RECORD_BYTES, str(path), "a record")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    return parse_record(text, str(path))


def read_bounded(file: BinaryIO, limit: int, source: str, what: str) -> str:
    """The UTF-8 text of `file`, refused (RecordError naming `source`) past `limit` bytes
    without reading more than one byte beyond it: a huge file never reaches memory whole."""
    data = file.read(limit + 1)
    if len(data) > limit:
        raise RecordError(
            f"{source} is larger than {limit // 1024} KiB, the most kingdomkit reads as {what}"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{source} is not a UTF-8 text file") from None


def parse_record(text: str, source: str) -> dict[str, Any]:
    """The JSON object in `text` (read from `source`, which error messages name)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(
            f"{source} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise RecordError(f"{source} is nested too deeply to be a record") from None
    if not isinstance(data, dict):
        raise RecordError(f"{source}: a record is a JSON object")
    return data
