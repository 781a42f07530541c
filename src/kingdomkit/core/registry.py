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
class Variant:
    """An on/off option as people know it: the name printed in the rules and what it
    changes, in a line."""

    option: str
    name: str
    description: str


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
    # How people read it: the game's printed name, each option of `option_names` as a
    # variant, and the word for its score ("points", "gold").
    title: str = ""
    variants: tuple[Variant, ...] = ()
    unit: str = "points"


GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    GAMES[info.name] = info


def game_info(name: str) -> GameInfo:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise OptionError(f"unknown game {name!r} (known games: {known})") from None


def read_flags(
    game: str, options: Mapping[str, Any], flags: tuple[str, ...], known: tuple[str, ...]
) -> dict[str, bool]:
    """Each on/off option of `flags` (off when absent), after refusing any option that is not
    in `known`; OptionError names the culprit. `game` names the game in messages."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise OptionError(
            f"unknown {game} option {unknown[0]!r} (known: {', '.join(known)})",
            f"{game} has no option called {unknown[0]!r}",
        )
    values = {}
    for flag in flags:
        value = options.get(flag, False)
        if not isinstance(value, bool):
            raise OptionError(
                f"option {flag!r} is on or off (true or false), not {value!r}",
                f"a variant is on or off (true or false), not {value!r}",
            )
        values[flag] = value
    return values


def make_game(name: str, options: Mapping[str, Any] | None = None) -> Game[Any]:
    """The game `name` configured with `options` (players default to the game's default)."""
    info = game_info(name)
    return info.factory(dict(options or {}))
