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
        description="Start `kingdomkit serve` in its own process (or PROCESSES of them on one "
        "PostgreSQL database, or target running servers with --server) and play TABLES tables "
        "of people at once over WebSockets (random legal moves after THINK seconds); report "
        "actions per second, send-to-broadcast latency (p50, p99) and lost or duplicated "
        "actions, in total and per server.",
    )
    parser.add_argument("--tables", type=int, default=200, help="tables at once (default 200)")
    parser.add_argument("--players", type=int, default=2, help="people per table (default 2)")
    parser.add_argument(
        "--game",
        default=None,
        help="the game (default kingdomino; with --first-moves, every game with bots' kernels)",
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds before each move (default 1)"
    )
    parser.add_argument("--database", default=None, help="a database URL (default SQLite)")
    parser.add_argument(
        "--server",
        action="append",
        default=None,
        metavar="URL",
        dest="servers",
        help="a running `kingdomkit serve` to play on, e.g. http://10.0.0.5:8000 (repeatable: "
        "tables are spread over them, and the seats of one table over different servers; they "
        "share one database and KINGDOMKIT_SECRET, and the per-address limits are raised)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="servers to start on the --database (PostgreSQL for more than 1), each on a core "
        "of its own when there are enough (default 1)",
    )
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
        "--seconds",
        type=float,
        default=300.0,
        help="longest run in seconds (default 300); with --first-moves, the longest wait for"
        " one first move",
    )
    flood.add_argument(
        "--server-args",
        default="",
        help='more `kingdomkit serve` flags, e.g. "--bot-share 2" (also with --first-moves)',
    )
    first = parser.add_argument_group(
        "first moves",
        "With --first-moves: a new table of each game (or --game's) is made as soon as the "
        "server answers, its person's seat handed to a `hard` bot beside another, and the "
        "seconds to its first decision are reported; a move not made within --seconds is "
        "reported as such.",
    )
    first.add_argument(
        "--first-moves", action="store_true", help="time the bots' first moves of new tables"
    )
    first.add_argument(
        "--cold",
        action="store_true",
        help="the server's numba cache starts empty, as on a fresh install (the kernels are "
        "compiled at start, or with --server-args=--lazy-kernels at their first move)",
    )
    first.add_argument(
        "--delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="make the tables this long after the server answers (default 0: at once; with"
        " --cold, longer than the start-up compilation shows what it spares later tables)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from kingdomkit.server.loadtest import LoadError, run_load
    except ImportError as missing:
        raise KingdomkitError(
            f"the load test needs the web extra ({missing.name} is missing): "
            'pip install -e ".[web]"'
        ) from None
    if args.flood:
        if args.servers or args.processes != 1:
            raise KingdomkitError("--flood starts its own server: no --server or --processes")
        return run_flood_benchmark(args)
    if args.first_moves:
        if args.servers or args.processes != 1 or args.database:
            raise KingdomkitError(
                "--first-moves starts its own server on SQLite: no --server, --processes or "
                "--database"
            )
        return run_first_moves_benchmark(args)
    if args.cold or args.delay:
        raise KingdomkitError("--cold and --delay go with --first-moves")
    if args.tables < 1 or args.players < 2 or args.think < 0:
        raise KingdomkitError("--tables is at least 1, --players at least 2, --think at least 0")
    load = run_load(
        args.tables,
        args.players,
        args.game or "kingdomino",
        args.think,
        args.database,
        args.seed,
        servers=args.servers or (),
        processes=args.processes,
    )
    try:
        result = asyncio.run(load)
    except LoadError as error:
        raise KingdomkitError(str(error)) from None
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


def run_first_moves_benchmark(args: argparse.Namespace) -> int:
    from kingdomkit.server.firstmoves import GAMES, run_first_moves
    from kingdomkit.server.loadtest import LoadError

    if args.seconds <= 0 or args.delay < 0:
        raise KingdomkitError("--seconds is more than 0, --delay at least 0")
    if args.game is not None and args.game not in GAMES:
        raise KingdomkitError(f"--game with --first-moves is one of {', '.join(GAMES)}")
    games = [args.game] if args.game else list(GAMES)
    flags = shlex.split(args.server_args)
    try:
        result = asyncio.run(run_first_moves(games, args.seconds, args.cold, flags, args.delay))
    except LoadError as error:
        raise KingdomkitError(str(error)) from None
    report(result.summary(), result.server_errors, args.json)
    made = all(took is not None for took in result.seconds.values())
    return 0 if made and not result.server_errors else 1


def report(summary: dict[str, Any], server_errors: list[str], as_json: bool) -> None:
    """The summary, as JSON or one line a figure; the server's first errors on stderr."""
    for error in server_errors[:3]:
        print(f"server error:\n{error}", file=sys.stderr)
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    width = max(map(len, summary))
    for key, value in summary.items():
        if key == "servers":
            continue
        print(f"{key:>{width}}: {value}")
    for server in summary.get("servers", []):
        figures = ", ".join(f"{k} {v}" for k, v in server.items() if k != "url")
        print(f"{server['url']}: {figures}")
