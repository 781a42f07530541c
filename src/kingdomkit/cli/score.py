"""kingdomkit score (being written)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("score", help="(being written)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    raise SystemExit("not yet written")
