"""The shape of Kingdoms: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.kingdoms.options import FLAGS, TITLE, UNIT, VARIANTS
from kingdomkit.games.kingdoms.rules import Kingdoms

if TYPE_CHECKING:
    from kingdomkit.bots.compiled import CompiledPlayouts
    from kingdomkit.bots.heuristics import Heuristics
    from kingdomkit.cli.bench import Benchmarks
    from kingdomkit.cli.report import ScoreReport
    from kingdomkit.cli.terminal.kit import Terminal
    from kingdomkit.games.kingdoms.state import KingdomsState
    from kingdomkit.rl.observation import BatchMaker, Observer
    from kingdomkit.server.board import Board


def score_report() -> ScoreReport[Kingdoms, KingdomsState]:
    """Kingdoms' score pads and records in words, for the command line (report.py)."""
    from kingdomkit.games.kingdoms import report

    return report


def benchmarks() -> Benchmarks:
    """Kingdoms' own kernels for `kingdomkit bench` (bench.py)."""
    from kingdomkit.games.kingdoms import bench

    return bench


def board(game: Kingdoms) -> Board[Any]:
    """What the browser draws (browser.py), imported when first asked for."""
    from kingdomkit.games.kingdoms.browser import KingdomsBoard

    return KingdomsBoard(game)


def observation(game: Kingdoms) -> Observer[KingdomsState]:
    """Kingdoms' observation encoding (encoding.py, which needs numpy, imported only here); its
    symmetries are the board mirrored left to right, top to bottom, or both."""
    from kingdomkit.games.kingdoms.encoding import KingdomsEncoder

    return KingdomsEncoder(game)


def batch(game: Kingdoms) -> BatchMaker | None:
    """N games at once in the compiled kernel (batch.py), for the RL layer, which rewards them;
    None without numba and numpy. It runs on the game's compiled playouts (its kernel)."""
    from kingdomkit.bots.compiled import compiled

    accelerator = compiled(game)
    if accelerator is None:
        return None
    from kingdomkit.games.kingdoms.accelerator import KingdomsAccelerator
    from kingdomkit.games.kingdoms.batch import KingdomsBatch

    assert isinstance(accelerator, KingdomsAccelerator)  # what `compiled_playouts` makes

    return partial(KingdomsBatch, game, accelerator)


def terminal(game: Kingdoms) -> Terminal:
    """Kingdoms at a terminal, for `kingdomkit play`."""
    from kingdomkit.games.kingdoms.terminal import TerminalUI

    return TerminalUI()


def heuristics(game: Kingdoms) -> Heuristics:
    """What the bots value (heuristics.py)."""
    from kingdomkit.games.kingdoms.heuristics import KingdomsHeuristics

    return KingdomsHeuristics(game)


def compiled_playouts(game: Kingdoms) -> CompiledPlayouts | None:
    """The compiled kernel (accelerator.py); None without numba and numpy (the fast extra).
    Every option set is supported."""
    try:
        from kingdomkit.games.kingdoms.accelerator import KingdomsAccelerator
    except ImportError:
        return None
    return KingdomsAccelerator(game)


SHAPE = GameShape(
    name="kingdoms",
    summary="Knizia's Kingdoms, 2-4 players, with its variants",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    unit=UNIT,
    rules=Kingdoms,
    capabilities=Capabilities(
        report=score_report,
        benchmarks=benchmarks,
        board=board,
        observation=observation,
        batch=batch,
        terminal=terminal,
        heuristics=heuristics,
        playouts=compiled_playouts,
    ),
)
