"""The shape of Queendomino: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.queendomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.queendomino.rules import Queendomino

if TYPE_CHECKING:
    from kingdomkit.bots.compiled import CompiledPlayouts
    from kingdomkit.bots.heuristics import Heuristics
    from kingdomkit.cli.bench import Benchmarks
    from kingdomkit.cli.report import ScoreReport
    from kingdomkit.cli.terminal.kit import Terminal
    from kingdomkit.games.queendomino.state import QueendominoState
    from kingdomkit.rl.observation import BatchMaker, Observer
    from kingdomkit.server.board import Board


def score_report() -> ScoreReport[Queendomino, QueendominoState]:
    """Queendomino's score pads and records in words, for the command line (report.py)."""
    from kingdomkit.games.queendomino import report

    return report


def benchmarks() -> Benchmarks:
    """Queendomino's own kernels for `kingdomkit bench` (bench.py)."""
    from kingdomkit.games.queendomino import bench

    return bench


def board(game: Queendomino) -> Board[Any]:
    """What the browser draws (board.py), imported when first asked for."""
    from kingdomkit.games.queendomino.board import QueendominoBoard

    return QueendominoBoard(game)


def observation(game: Queendomino) -> Observer[QueendominoState]:
    """Queendomino's observation encoding (encoding.py, which needs numpy, imported only here); its
    symmetries are the 8 rotations and reflections of the kingdoms."""
    from kingdomkit.games.queendomino.encoding import QueendominoEncoder

    return QueendominoEncoder(game)


def batch(game: Queendomino) -> BatchMaker | None:
    """N games at once in the compiled kernel (batch.py), for the RL layer, which rewards them;
    None without numba and numpy. It runs on the game's compiled playouts (its kernel), so
    every option set the kernel takes."""
    from kingdomkit.bots.compiled import compiled

    accelerator = compiled(game)
    if accelerator is None:
        return None
    from kingdomkit.games.queendomino.accelerator import QueendominoAccelerator
    from kingdomkit.games.queendomino.batch import QueendominoBatch

    assert isinstance(accelerator, QueendominoAccelerator)  # what `compiled_playouts` makes

    return partial(QueendominoBatch, game, accelerator)


def terminal(game: Queendomino) -> Terminal:
    """Queendomino at a terminal, for `kingdomkit play`."""
    from kingdomkit.games.queendomino.terminal import TerminalUI

    return TerminalUI()


def heuristics(game: Queendomino) -> Heuristics:
    """What the bots value (heuristics.py)."""
    from kingdomkit.games.queendomino.heuristics import QueendominoHeuristics

    return QueendominoHeuristics(game)


def compiled_playouts(game: Queendomino) -> CompiledPlayouts | None:
    """The compiled kernel (accelerator.py); None without numba and numpy (the fast extra), or
    with a building table larger than the kernel holds. Every option set is supported."""
    try:
        from kingdomkit.games.queendomino.accelerator import QueendominoAccelerator
        from kingdomkit.games.queendomino.kernel import MAX_TILES
    except ImportError:
        return None
    if len(game.table) > MAX_TILES:
        return None
    return QueendominoAccelerator(game)


SHAPE = GameShape(
    name="queendomino",
    summary="Queendomino, 2-4 players; the Royal Wedding, 3-8 players or teams",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    rules=Queendomino,
    file_options=(("buildings", "a corrected building table (CSV, as the shipped one)"),),
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
