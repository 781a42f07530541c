"""kingdomkit score: the score pad of one kingdom written in a game's text notation.

    kingdomkit score kingdomino my-kingdom.txt --option harmony --option middle_kingdom
    kingdomkit score kingdomino - --json < my-kingdom.txt

The command knows no game: it asks the game's score report (its `report` capability,
cli/report.py) to check the options before the file is read, then for the score pad
(`score_text`: a rich renderable and a JSON dict), with the file options (`--buildings
FILE`) by name. A game without a report is refused plainly. Errors name the file (and, for
a bad kingdom, the line and column) and end with exit status 2.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import Any

from rich.console import Console

from kingdomkit.cli.common import add_file_arguments, file_options
from kingdomkit.cli.report import report
from kingdomkit.core.protocol import KingdomkitError, OptionError
from kingdomkit.core.record import read_bounded
from kingdomkit.core.registry import GAMES, game_info

STDIN = "-"
# The largest kingdom file read (README, docs): a 7x7 kingdom with notes is a few hundred bytes.
MAX_NOTATION_BYTES = 64 * 1024


def read_text(path: str, limit: int = MAX_NOTATION_BYTES, what: str = "a kingdom") -> str:
    """The text of `path` (`-`: standard input), refused past `limit` bytes before it is read
    whole; KingdomkitError naming the file otherwise."""
    try:
        if path == STDIN:
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text stream with no bytes under it (tests, embedding)
                text = sys.stdin.read(limit + 1)
                return read_bounded(io.BytesIO(text.encode()), limit, display_name(path), what)
            return read_bounded(stream, limit, display_name(path), what)
        with open(path, "rb") as file:
            return read_bounded(file, limit, display_name(path), what)
    except OSError as error:
        reason = error.strerror or str(error)
        raise KingdomkitError(f"cannot read {display_name(path)}: {reason}") from None


def display_name(path: str) -> str:
    return "standard input" if path == STDIN else path


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score one kingdom written in the game's text notation",
        description="Print the score pad of one kingdom: every territory, the bonuses, the "
        "total and the tie-breaks. FILE is a text file ('-' for standard input).",
    )
    parser.add_argument("game", choices=sorted(GAMES), help="the game")
    parser.add_argument("file", metavar="FILE", help="the kingdom, or - for standard input")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME",
        help="a variant that changes scoring (repeatable), e.g. --option harmony",
    )
    add_file_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    info = game_info(args.game)
    scorer = report(info.name)
    if scorer is None:
        raise OptionError(f"{info.name} has no score report: `kingdomkit score` cannot score it")
    scorer.check_options(list(args.option))
    files = file_options(args, info.name)
    text = read_text(args.file)
    try:
        renderable, data = scorer.score_text(text, list(args.option), files)
    except OptionError:
        raise
    except KingdomkitError as error:
        raise KingdomkitError(f"{display_name(args.file)}: {error}") from None
    if args.json:
        print(json.dumps({"file": args.file, **data}, indent=2))
    else:
        Console(highlight=False).print(renderable)
    return 0
