"""A game for people, on the command line: its `report` capability (kingdomkit.core.shape).

`kingdomkit score` prints the score pad of one kingdom written in the game's text notation;
`kingdomkit replay` tells a record's events in words and shows where the game stands. Both are
written once for every game and ask the game's `ScoreReport` for what only the game knows.

A game declares its report in its shape (`Capabilities(report=...)`): a provider of no
argument (the report comes before any options), which imports the game's report when called,
so that a game's shape costs nothing to load. The report is any object with these members; a
game's report module is one as it stands (PEP 544: a module may implement a protocol), and the
provider's return type has the type checker hold it to this one.

Without a report, `score` refuses the game plainly and `replay` shows events as JSON and
positions with `game.render`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from rich.console import RenderableType

from kingdomkit.core.protocol import Event, Game
from kingdomkit.core.registry import game_info

# A report speaks of its own game and states (Kingdomino's of a Kingdomino and its states).
G_contra = TypeVar("G_contra", bound=Game[Any], contravariant=True)
S_contra = TypeVar("S_contra", contravariant=True)


class ScoreReport(Protocol[G_contra, S_contra]):
    """What a game tells people of a kingdom and of a record: scores and events in words."""

    def check_options(self, options: Sequence[str]) -> None:
        """Raise OptionError for an option of `kingdomkit score --option` that does not apply
        to scoring one kingdom; called before the kingdom is read, so that a wrong option is
        refused at once, even with the kingdom still to come on standard input."""

    def score_text(
        self, text: str, options: Sequence[str], files: Mapping[str, str]
    ) -> tuple[RenderableType, dict[str, Any]]:
        """The score pad of the kingdom `text` writes in the game's notation, for the terminal
        (rich) and for `--json` (a dict). `files` are the game's file options given on the
        command line, by name (`{"buildings": path}`): only those of the shape's
        `file_options`. Raises NotationError (line, column) for the text, OptionError for an
        option."""

    def describe_event(
        self, game: G_contra, event: Event, after: S_contra, names: Sequence[str]
    ) -> str:
        """One event of a checked record as a sentence; `after` is the state it led to, and
        `names` the players' names, by seat."""

    def describe_position(self, game: G_contra, state: S_contra, names: Sequence[str]) -> str:
        """Where the game stands, in plain text: kingdoms, score pads, what is left to play.
        The state is a record's, which holds every secret: nothing is hidden here."""

    def position_json(self, game: G_contra, state: S_contra) -> dict[str, Any]:
        """The same as `describe_position`, as JSON for `kingdomkit replay --json`."""


def report(game: str) -> ScoreReport[Any, Any] | None:
    """The score report of the game named `game` (None if it has none); OptionError for a game
    that is not known."""
    provider = game_info(game).capabilities.report
    return None if provider is None else provider()
