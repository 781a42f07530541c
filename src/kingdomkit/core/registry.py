"""The registry of games: every game's shape (core/shape.py), by name.

The games are found through the `kingdomkit.games` entry points of the installed packages
(kingdomkit's own three in its pyproject.toml; a game in a package of its own declares one
the same way), loaded on the first look; `register` adds a shape by hand (tests).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib.metadata import entry_points
from typing import Any

from kingdomkit.core.protocol import Game, OptionError
from kingdomkit.core.shape import GameShape, Variant

ENTRY_POINTS = "kingdomkit.games"


class _Games(Mapping[str, GameShape]):
    """The shapes by name, the entry points' loaded on the first look."""

    def __init__(self) -> None:
        self._shapes: dict[str, GameShape] = {}
        self._loaded = False

    def _load(self) -> dict[str, GameShape]:
        if not self._loaded:
            self._loaded = True
            for point in sorted(entry_points(group=ENTRY_POINTS), key=lambda p: p.name):
                shape = point.load()
                if not isinstance(shape, GameShape) or shape.name != point.name:
                    raise TypeError(f"entry point {point.value} is not the shape of {point.name}")
                self._shapes.setdefault(shape.name, shape)
        return self._shapes

    def add(self, shape: GameShape) -> None:
        self._load()[shape.name] = shape

    def remove(self, name: str) -> None:
        self._load().pop(name, None)

    def __getitem__(self, name: str) -> GameShape:
        return self._load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


GAMES = _Games()


def register(shape: GameShape) -> None:
    """Add `shape` (a game not installed as a package: tests, notebooks)."""
    GAMES.add(shape)


def unregister(name: str) -> None:
    """Forget the game `name` (what `register` added)."""
    GAMES.remove(name)


def game_info(name: str) -> GameShape:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise OptionError(f"unknown game {name!r} (known games: {known})") from None


def shape_of(game: Game[Any]) -> GameShape:
    """The shape of a configured game."""
    return game_info(game.name)


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
    return game_info(name).rules(dict(options or {}))


__all__ = [
    "GAMES",
    "GameShape",
    "Variant",
    "game_info",
    "make_game",
    "register",
    "shape_of",
    "unregister",
]
