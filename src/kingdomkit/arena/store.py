"""A tournament's output directory, and how an interrupted tournament resumes.

    DIR/arena.json     the configuration; another tournament in DIR is refused (unless force)
    DIR/games.jsonl    one line per finished game (outcome.py), appended, flushed and
                       fsync'd as each game ends
    DIR/results.json, results.csv, games.csv, ratings.png, scores.png   written at the end

Running the same command again reads games.jsonl and plays only the games missing from it, so
an interrupted run loses at most the games in flight. The number of deals is not part of the
configuration: raising it extends a tournament. A last line cut short (the run was killed in
the middle of a write) is dropped and cut from the file; any other bad line is refused.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from kingdomkit.arena.outcome import Outcome
from kingdomkit.arena.schedule import GameKey, Tournament
from kingdomkit.core.protocol import KingdomkitError, RecordError

FORMAT = "kingdomkit-arena/1"
CONFIG = "arena.json"
GAMES = "games.jsonl"
UNSTORED = {"clock": "wall"}  # what a tournament written before a setting existed had


def prepare(out: Path, tournament: Tournament, force: bool = False) -> dict[GameKey, Outcome]:
    """Make `out` ready for `tournament` and return the games it already holds (by key).

    KingdomkitError if `out` cannot be written or holds another tournament (unless `force`,
    which forgets the games there); RecordError if games.jsonl is corrupted."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise KingdomkitError(f"cannot use {out} for the tournament: {_reason(error)}") from None
    config = out / CONFIG
    games = out / GAMES
    if config.exists() and not force:
        _check_config(config, tournament)
    elif force or not games.exists():
        _remove(games)
    elif games.exists():
        raise KingdomkitError(
            f"{games} has no {CONFIG} beside it; use another --out or --force to start over"
        )
    _write_json(config, {"format": FORMAT, **tournament.to_json()})
    return read_games(games, tournament)


def held(out: Path, tournament: Tournament) -> dict[GameKey, Outcome]:
    """The games `out` holds for `tournament`, read without changing anything there (another
    process may be playing into it): KingdomkitError if it holds no tournament or another."""
    _check_config(out / CONFIG, tournament)  # a missing one: "holds no tournament"
    return read_games(out / GAMES, tournament, cut=False)


def stored(out: Path) -> Tournament:
    """The tournament `out` holds, as its arena.json describes it: KingdomkitError if it holds
    none or the file is not one."""
    config = out / CONFIG
    data = _read_config(config)
    try:
        return Tournament(
            game=data["game"],
            options=dict(data["options"]),
            bots=tuple(data["bots"]),
            opponents=tuple(data["opponents"]),
            deals=int(data["deals"]),
            seed=int(data["seed"]),
            clock=data.get("clock", UNSTORED["clock"]),
            table=tuple(data.get("table", ())),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise KingdomkitError(f"{config} is not a kingdomkit tournament ({error})") from None


def _read_config(config: Path, advice: str = "") -> dict[str, Any]:
    """arena.json's content, checked to be a tournament's; KingdomkitError (ending in
    `advice`) if it is missing, unreadable or something else."""
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except FileNotFoundError:
        missing = f"{config.parent} holds no tournament ({CONFIG} is missing)"
        raise KingdomkitError(missing) from None
    except (OSError, ValueError) as error:
        raise KingdomkitError(f"{config} is unreadable ({_reason(error)}){advice}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise KingdomkitError(f"{config} is not a kingdomkit tournament{advice}")
    return data


def _check_config(config: Path, tournament: Tournament) -> None:
    stored = _read_config(config, "; use another --out or --force")
    for name, value in tournament.identity().items():
        there = stored.get(name, UNSTORED.get(name))
        if there != value:
            raise KingdomkitError(
                f"{config.parent} holds another tournament ({name} there: "
                f"{json.dumps(there)}, here: {json.dumps(value)}); "
                "use another --out, or --force to start over"
            )


def read_games(path: Path, tournament: Tournament, cut: bool = True) -> dict[GameKey, Outcome]:
    """The outcomes in games.jsonl (none if absent), checked against the schedule; a last
    line without its newline is dropped, and cut from the file if `cut`."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise KingdomkitError(f"cannot read {path}: {_reason(error)}") from None
    complete = data[: data.rfind(b"\n") + 1]
    if cut and len(complete) < len(data):
        _truncate(path, len(complete))
    outcomes: dict[GameKey, Outcome] = {}
    for number, line in enumerate(complete.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            outcome = Outcome.from_json(json.loads(line))
            _check_scheduled(outcome, tournament)
        except (ValueError, RecordError) as error:
            raise RecordError(
                f"{path} line {number} is corrupted ({error}); delete that line to play its "
                "game again, or use --force to start over"
            ) from None
        outcomes.setdefault(outcome.key, outcome)
    return outcomes


def _check_scheduled(outcome: Outcome, tournament: Tournament) -> None:
    scheduled = tournament.scheduled(outcome.key)
    if scheduled is None:
        raise RecordError(f"no game {outcome.key} in the schedule")
    if scheduled.seed != outcome.seed or scheduled.seats != outcome.seats:
        raise RecordError(f"game {outcome.key} is not the one scheduled")


class GameLog:
    """games.jsonl, appended to: every outcome is on disk before the next one. The file is
    opened anew for each game, so that one replaced while a run goes on (by a checkout, a
    stash, a copy put back) gets the next games; a file kept open would send them to the
    replaced one, which nothing can read once it is closed."""

    def __init__(self, out: Path) -> None:
        self.path = out / GAMES
        self._opened().close()  # a place that cannot be written is said at once

    def _opened(self) -> IO[str]:
        try:
            return self.path.open("a", encoding="utf-8")
        except OSError as error:
            raise KingdomkitError(f"cannot write {self.path}: {_reason(error)}") from None

    def append(self, outcome: Outcome) -> None:
        with self._opened() as file:
            file.write(outcome.to_line())
            file.flush()
            os.fsync(file.fileno())


def write_text(path: Path, text: str) -> None:
    """Write a whole output file through a temporary, so a reader never sees half of it."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
    except OSError as error:
        raise KingdomkitError(f"cannot write {path}: {_reason(error)}") from None


def _write_json(path: Path, data: Any) -> None:
    write_text(path, json.dumps(data, indent=1) + "\n")


def _truncate(path: Path, size: int) -> None:
    try:
        with path.open("r+b") as file:
            file.truncate(size)
    except OSError as error:
        raise KingdomkitError(f"cannot repair {path}: {_reason(error)}") from None


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as error:
        raise KingdomkitError(f"cannot remove {path}: {_reason(error)}") from None


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
