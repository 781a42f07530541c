"""`kingdomkit screenshots`: pictures of the site for the docs (server/screenshots.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "screenshots",
        help="photograph the site as a player sees it",
        description="Start `kingdomkit serve` in its own process, set up a table of each game "
        "(you against bots, played for you by a bot until the game is under way), and "
        "photograph the lobby and each table at desktop (1280x800) and phone (390x844) size "
        "in chromium. Needs kingdomkit[test] and a chromium.",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("docs/images"),
        help="folder for the PNG files (default docs/images)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from kingdomkit.server.screenshots import take

    for path in take(args.out):
        print(path)
    return 0
