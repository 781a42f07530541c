"""The `kingdomkit` command: one sub-command per module of this package.

Every sub-command module has `add_parser(subparsers)` and `run(args) -> int`. Errors meant for
people (`KingdomkitError`) are printed as one line and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kingdomkit import __version__
from kingdomkit.cli import (
    analyze,
    arena,
    arena_compare,
    bench,
    loadtest,
    play,
    replay,
    score,
    screenshots,
    serve,
    simulate,
    worker,
)
from kingdomkit.core.protocol import KingdomkitError

COMMANDS = (
    play,
    serve,
    worker,
    simulate,
    score,
    replay,
    analyze,
    bench,
    arena,
    arena_compare,
    loadtest,
    screenshots,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kingdomkit",
        description="Play, simulate, score and replay Kingdomino, Queendomino and Kingdoms; "
        "measure the engines.",
    )
    parser.add_argument("--version", action="version", version=f"kingdomkit {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except KingdomkitError as error:
        print(f"kingdomkit {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status
