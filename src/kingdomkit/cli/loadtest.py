"""`kingdomkit loadtest`: the web platform under many simultaneous tables (server/loadtest.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from typing import Any

from kingdomkit.core.protocol import KingdomkitError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "loadtest",
        help="measure the web platform under load",
        description="Start `kingdomkit serve` in its own process and play TABLES tables of "
        "people at once over WebSockets (random legal moves after THINK seconds); report "
        "actions per second, send-to-broadcast latency (p50, p99) and lost or duplicated "
        "actions.",
    )
    parser.add_argument("--tables", type=int, default=200, help="tables at once (default 200)")
    parser.add_argument("--players", type=int, default=2, help="people per table (default 2)")
    parser.add_argument("--game", default="kingdomino", help="the game (default kingdomino)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds before each move (default 1)"
    )
    parser.add_argument("--database", default=None, help="a database URL (default SQLite)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients' choices")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    flood = parser.add_argument_group(
        "flood",
        "With --flood: one identity makes 8 tables of 4 expert bots and asks reviews of 4 "
        "uploaded games, while another plays against an easy bot; the easy bot's reply time "
        "is reported (median, p99, max).",
    )
    flood.add_argument("--flood", action="store_true", help="run the flood benchmark")
    flood.add_argument(
        "--replies", type=int, default=100, help="easy-bot replies to time (default 100)"
    )
    flood.add_argument(
        "--seconds", type=float, default=300.0, help="longest run in seconds (default 300)"
    )
    flood.add_argument(
        "--server-args", default="", help='more `kingdomkit serve` flags, e.g. "--bot-share 2"'
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from kingdomkit.server.loadtest import run_load
    except ImportError as missing:
        raise KingdomkitError(
            f"the load test needs the web extra ({missing.name} is missing): "
            'pip install -e ".[web]"'
        ) from None
    if args.flood:
        return run_flood_benchmark(args)
    if args.tables < 1 or args.players < 2 or args.think < 0:
        raise KingdomkitError("--tables is at least 1, --players at least 2, --think at least 0")
    result = asyncio.run(
        run_load(args.tables, args.players, args.game, args.think, args.database, args.seed)
    )
    report(result.summary(), result.server_errors, args.json)
    return 0 if not (result.lost or result.duplicated or result.server_errors) else 1


def run_flood_benchmark(args: argparse.Namespace) -> int:
    from kingdomkit.server.floodtest import run_flood

    if args.replies < 1 or args.seconds <= 0:
        raise KingdomkitError("--replies is at least 1, --seconds more than 0")
    flags = shlex.split(args.server_args)
    result = asyncio.run(run_flood(args.replies, args.seconds, args.database, args.seed, flags))
    report(result.summary(), result.server_errors, args.json)
    return 0 if result.replies and not (result.timeouts or result.server_errors) else 1


def report(summary: dict[str, Any], server_errors: list[str], as_json: bool) -> None:
    """The summary, as JSON or one line a figure; the server's first errors on stderr."""
    for error in server_errors[:3]:
        print(f"server error:\n{error}", file=sys.stderr)
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    width = max(map(len, summary))
    for key, value in summary.items():
        print(f"{key:>{width}}: {value}")
