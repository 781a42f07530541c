"""The registry of games: each game package registers a factory under its name.

A factory takes the options as a record stores them (`{"players": 3, "harmony": True}`) and
returns a configured `Game`, raising `OptionError` for anything it does not know or allow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kingdomkit.core.protocol import Game, OptionError

GameFactory = Callable[[Mapping[str, Any]], Game[Any]]


@dataclass(frozen=True)
class GameInfo:
    """A game's static facts: its name, what it is, its options and how to make it."""

    name: str
    summary: str
    option_names: tuple[str, ...]
    default_players: int
    factory: GameFactory
    # Options whose value is a file path, with a line of help: (name, help). The command
    # line offers each as `--name FILE`.
    file_options: tuple[tuple[str, str], ...] = ()


GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    GAMES[info.name] = info


def game_info(name: str) -> GameInfo:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise OptionError(f"unknown game {name!r} (known games: {known})") from None


def make_game(name: str, options: Mapping[str, Any] | None = None) -> Game[Any]:
    """The game `name` configured with `options` (players default to the game's default)."""
    info = game_info(name)
    return info.factory(dict(options or {}))
