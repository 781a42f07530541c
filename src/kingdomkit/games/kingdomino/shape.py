"""The shape of Kingdomino: its facts, its rules and what it provides to each layer
(kingdomkit.core.shape). The package's one declaration: the `kingdomkit.games` entry point."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kingdomkit.core.shape import Capabilities, GameShape
from kingdomkit.games.kingdomino.options import FLAGS, TITLE, VARIANTS
from kingdomkit.games.kingdomino.rules import Kingdomino

if TYPE_CHECKING:
    from kingdomkit.bots.compiled import CompiledPlayouts
    from kingdomkit.bots.heuristics import Heuristics
    from kingdomkit.cli.bench import Benchmarks
    from kingdomkit.cli.report import ScoreReport
    from kingdomkit.cli.terminal.kit import Terminal
    from kingdomkit.games.kingdomino.state import KingdominoState
    from kingdomkit.rl.observation import BatchMaker, Observer
    from kingdomkit.server.board import Board


def score_report() -> ScoreReport[Kingdomino, KingdominoState]:
    """Kingdomino's score pads and records in words, for the command line (report.py)."""
    from kingdomkit.games.kingdomino import report

    return report


def benchmarks() -> Benchmarks:
    """Kingdomino's own kernels for `kingdomkit bench` (bench.py)."""
    from kingdomkit.games.kingdomino import bench

    return bench


def board(game: Kingdomino) -> Board[Any]:
    """What the browser draws (board.py), imported when first asked for."""
    from kingdomkit.games.kingdomino.board import KingdominoBoard

    return KingdominoBoard(game)


def observation(game: Kingdomino) -> Observer[KingdominoState]:
    """Kingdomino's observation encoding (encoding.py, which needs numpy, imported only here); its
    symmetries are the 8 rotations and reflections of the kingdoms."""
    from kingdomkit.games.kingdomino.encoding import KingdominoEncoder

    return KingdominoEncoder(game)


def batch(game: Kingdomino) -> BatchMaker | None:
    """N games at once in the compiled kernel (batch.py), for the RL layer, which rewards them;
    None without numba and numpy. It runs on the game's compiled playouts (its kernel)."""
    from kingdomkit.bots.compiled import compiled

    accelerator = compiled(game)
    if accelerator is None:
        return None
    from kingdomkit.games.kingdomino.accelerator import KingdominoAccelerator
    from kingdomkit.games.kingdomino.batch import KingdominoBatch

    assert isinstance(accelerator, KingdominoAccelerator)  # what `compiled_playouts` makes

    return partial(KingdominoBatch, game, accelerator)


def terminal(game: Kingdomino) -> Terminal:
    """Kingdomino at a terminal, for `kingdomkit play`."""
    from kingdomkit.games.kingdomino.terminal import TerminalUI

    return TerminalUI()


def heuristics(game: Kingdomino) -> Heuristics:
    """What the bots value (heuristics.py)."""
    from kingdomkit.games.kingdomino.heuristics import KingdominoHeuristics

    return KingdominoHeuristics(game)


def compiled_playouts(game: Kingdomino) -> CompiledPlayouts | None:
    """The compiled kernel (accelerator.py); None without numba and numpy (the fast extra).
    Every option set is supported, dynasty included."""
    try:
        from kingdomkit.games.kingdomino.accelerator import KingdominoAccelerator
    except ImportError:
        return None
    return KingdominoAccelerator(game)


SHAPE = GameShape(
    name="kingdomino",
    summary="Kingdomino, 2-4 players, with every official variant",
    option_names=FLAGS,
    default_players=4,
    title=TITLE,
    variants=VARIANTS,
    rules=Kingdomino,
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
