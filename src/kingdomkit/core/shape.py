"""A game's shape: everything it provides, declared in one place (its package's shape.py).

A game is its rules (`kingdomkit.core.protocol.Game`, the state machine every layer plays
through) and a set of capabilities, each a typed protocol owned by the layer that uses it:

    heuristics    bots     a position's worth, playouts' depth, gradings   bots/heuristics.py
    playouts      bots     compiled playouts (numba)                       bots/compiled.py
    observation   rl       observations for learning                       rl/observation.py
    batch         rl       a compiled simulator of many games at once      rl/observation.py
    board         server   the view model the browser draws, in words      server/board.py
    terminal      cli      the terminal interface of `kingdomkit play`     cli/terminal/kit.py
    report        cli      the score report of `kingdomkit score`          cli/report.py
    benchmarks    cli      the game's own kernels for `kingdomkit bench`   cli/bench.py

Each slot holds a provider: a function of the configured game returning the capability (the
report and benchmarks, of nothing: they come before any options). A provider imports what it
needs when called, so a game's shape costs nothing to load. A slot left empty degrades
plainly, as the layer that owns it says: no heuristics, the score; no board, the browser's
text board; no terminal interface, a plain text one. Each layer asks through its accessor
(`heuristics(game)`, `board(game)`, ...), which calls `capability`: each capability is made
once per configured game. docs/adding-a-game.md has the whole picture.

The core imports none of the layers: the slots' types are named for the type checker only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from kingdomkit.core.protocol import Game

if TYPE_CHECKING:
    from kingdomkit.bots.compiled import CompiledPlayouts
    from kingdomkit.bots.heuristics import Heuristics
    from kingdomkit.cli.bench import Benchmarks
    from kingdomkit.cli.report import ScoreReport
    from kingdomkit.cli.terminal.kit import Terminal
    from kingdomkit.rl.observation import BatchMaker, Observer
    from kingdomkit.server.board import Board

T = TypeVar("T")
# The rules: a configured game from options as a record stores them ({"players": 3}); it
# raises OptionError for anything it does not know or allow.
Rules = Callable[[Mapping[str, Any]], Game[Any]]


@dataclass(frozen=True)
class Variant:
    """An on/off option as people know it: the name printed in the rules and what it
    changes, in a line."""

    option: str
    name: str
    description: str


@dataclass(frozen=True)
class Capabilities:
    """The optional parts of a game, one provider each (None: the layer's plain default)."""

    heuristics: Callable[[Any], Heuristics] | None = None
    playouts: Callable[[Any], CompiledPlayouts | None] | None = None
    observation: Callable[[Any], Observer[Any]] | None = None
    batch: Callable[[Any], BatchMaker | None] | None = None  # None: not here (no numba)
    board: Callable[[Any], Board[Any]] | None = None
    terminal: Callable[[Any], Terminal] | None = None
    report: Callable[[], ScoreReport[Any, Any]] | None = None  # of a game's name: no options yet
    benchmarks: Callable[[], Benchmarks] | None = None


@dataclass(frozen=True)
class GameShape:
    """One game's declaration: its facts, its rules and its capabilities."""

    name: str
    summary: str
    rules: Rules
    option_names: tuple[str, ...]
    default_players: int
    # How people read it: the game's printed name, each option of `option_names` as a
    # variant, and the word for its score ("points", "gold").
    title: str = ""
    variants: tuple[Variant, ...] = ()
    unit: str = "points"
    # Options whose value is a file path, with a line of help: (name, help). The command
    # line offers each as `--name FILE`.
    file_options: tuple[tuple[str, str], ...] = ()
    capabilities: Capabilities = field(default_factory=Capabilities)


def capability(game: Game[Any], name: str, provider: Callable[[Any], T] | None) -> T | None:
    """The capability `name` of the configured `game` from its shape's `provider` (None
    without one), made once and kept with the game (not pickled: each process makes its own
    when it needs it)."""
    if provider is None:
        return None
    made: dict[str, Any] = game.__dict__.setdefault("_capabilities", {})
    if name not in made:
        made[name] = provider(game)
    found: T | None = made[name]
    return found
