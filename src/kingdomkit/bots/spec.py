"""Bot specifications: how people and files name a bot with its settings.

A spec is a bot's name followed by `:key=value` settings, e.g. `random`, `greedy`,
`flat-mc:playout=greedy:score=relative:time=1`, `uct:playouts=2000`, `hard`. Commas separate
seats on the command line, so a spec never contains one. Each bot declares the settings it
accepts; anything else is refused with a message that lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from kingdomkit.core.driver import Agent
from kingdomkit.core.protocol import OptionError

BotFactory = Callable[[Mapping[str, str]], Agent]


@dataclass(frozen=True)
class BotSpec:
    name: str
    settings: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        return ":".join([self.name, *(f"{key}={value}" for key, value in self.settings)])


def parse_spec(text: str) -> BotSpec:
    """`name:key=value:...` -> BotSpec; OptionError for an empty name or a setting without
    `=`, or one given twice."""
    parts = [part.strip() for part in text.strip().split(":")]
    name = parts[0].lower()
    if not name:
        raise OptionError(f"a bot needs a name: {text!r}")
    settings: dict[str, str] = {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or not key or not value.strip():
            raise OptionError(f"bot setting {part!r} in {text!r} is not key=value")
        if key in settings:
            raise OptionError(f"bot setting {key!r} is given twice in {text!r}")
        settings[key] = value.strip()
    return BotSpec(name, tuple(settings.items()))


class Settings:
    """A bot's settings being read: typed getters, and `done()` refusing leftovers."""

    def __init__(self, bot: str, settings: Mapping[str, str]) -> None:
        self.bot = bot
        self.left = dict(settings)
        self.known: list[str] = []

    def text(self, key: str, default: str, choices: tuple[str, ...] | None = None) -> str:
        self.known.append(key)
        value = self.left.pop(key, default)
        if choices is not None and value not in choices:
            raise OptionError(f"{self.bot}: {key} is one of {', '.join(choices)}, not {value!r}")
        return value

    def number(self, key: str, default: float | None, low: float = 0.0) -> float | None:
        self.known.append(key)
        if key not in self.left:
            return default
        raw = self.left.pop(key)
        try:
            value = float(raw.removesuffix("s"))
        except ValueError:
            raise OptionError(f"{self.bot}: {key} is a number, not {raw!r}") from None
        if not value > low:
            raise OptionError(f"{self.bot}: {key} must be more than {low:g}, not {raw!r}")
        return value

    def integer(self, key: str, default: int | None, low: int = 1) -> int | None:
        self.known.append(key)
        if key not in self.left:
            return default
        raw = self.left.pop(key)
        try:
            value = int(raw)
        except ValueError:
            raise OptionError(f"{self.bot}: {key} is a whole number, not {raw!r}") from None
        if value < low:
            raise OptionError(f"{self.bot}: {key} must be at least {low}, not {raw!r}")
        return value

    def done(self) -> None:
        if self.left:
            key = sorted(self.left)[0]
            known = ", ".join(self.known) or "none"
            raise OptionError(f"{self.bot} has no setting {key!r} (settings: {known})")
