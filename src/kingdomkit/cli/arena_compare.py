"""kingdomkit arena-compare: the candidates of gauntlets played apart on the same deals,
compared deal by deal (kingdomkit.arena.joined).

    kingdomkit arena-compare docs/runs/neural-md-1s-batch1 docs/runs/neural-md-1s
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from kingdomkit.arena.extras import require
from kingdomkit.arena.joined import compared
from kingdomkit.cli.arena import candidates_table


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena-compare",
        help="compare the candidates of gauntlets played apart on the same deals",
        description="Read the gauntlets in DIR ... (kingdomkit arena --gauntlet, the same game, "
        "options, opponents, --seed and --clock) and compare every two of their candidates "
        "against each opponent deal by deal, as one gauntlet of them all would: the first's "
        "win share and margin less the second's on every deal both played whole, with 95% "
        "t intervals over those deals. Nothing is played or written.",
        epilog="Example: kingdomkit arena-compare runs/batch1 runs/batch8",
    )
    parser.add_argument("outs", nargs="+", type=Path, metavar="DIR", help="arena directories")
    parser.add_argument("--json", action="store_true", help="print the comparisons as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    require("numpy", "the arena's statistics")
    pairs = compared(args.outs)
    if args.json:
        print(json.dumps(pairs, indent=1))
        return 0
    console = Console(file=sys.stdout)
    if not pairs:
        console.print("No deal was played whole by two candidates against one opponent yet.")
        return 0
    console.print(candidates_table(pairs))
    console.print(
        "Means ± 95% t intervals over the deals both played in every seat; ties share the "
        "win; margin = own score - best other score."
    )
    return 0
