"""kingdomkit arena: a tournament between bots, on local processes or a Ray cluster, resumable.

    kingdomkit arena kingdomino --players 4 --bots greedy random flat-mc:time=1 \\
        --deals 50 --seed 1 --out runs/t1                     # round robin
    kingdomkit arena kingdomino --players 4 --bots mcts:time=1 flat-mc:time=1 \\
        --gauntlet greedy --deals 50 --out runs/g1            # gauntlet, 1 vs 3 copies
    kingdomkit arena kingdomino --players 4 --table neural:time=1 mcts:time=1 greedy greedy \\
        --deals 50 --out runs/t2                              # two bots at one table

The schedule (line-ups, rotations, deals) is described in kingdomkit.arena.schedule, the
statistics in kingdomkit.arena.stats, the files left in DIR in kingdomkit.arena.store/report.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from kingdomkit.arena.outcome import Outcome
from kingdomkit.arena.report import bot_label
from kingdomkit.arena.runner import run_local, run_ray
from kingdomkit.arena.schedule import ScheduledGame, Tournament, canonical_spec
from kingdomkit.arena.tournament import Play, play_tournament, report_so_far
from kingdomkit.cli.common import add_game_arguments, game_from_args, progress_bar
from kingdomkit.core.protocol import OptionError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="a tournament between bots, with ratings and charts",
        description="Play a round robin (every pair of --bots), a gauntlet (every bot of "
        "--bots against every --gauntlet opponent) or a table (--table: one bot per seat, "
        "a bot may sit more than once) on paired deals: deal d is played from "
        "seed SEED+d once per rotation of every line-up, so every bot sits in every seat on "
        "the same draws. With more than 2 players a line-up is one bot against players-1 "
        "copies of the other (a round robin plays both ways round). Results (win rate, "
        "score, margin over the best opponent, Bradley-Terry ratings in Elo, with 95% "
        "intervals over deals; at a table, each two bots' difference in wins and margin, "
        "game by game) go to DIR as results.json, results.csv, games.csv and PNG "
        "charts. Finished games are appended to DIR/games.jsonl: running the same command "
        "again resumes, and a larger --deals extends the tournament.",
        epilog="Example: kingdomkit arena kingdomino --players 4 --bots flat-mc:time=1 greedy "
        "--gauntlet random --deals 50 --out runs/g1. Any game of games.csv replays alone: "
        "kingdomkit simulate GAME --players P --bots BOT_0,BOT_1,... --games 1 --seed SEED.",
    )
    add_game_arguments(parser)
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--bots",
        nargs="+",
        metavar="SPEC",
        help="the bots (the candidates of a gauntlet), e.g. greedy flat-mc:playout=greedy:time=1",
    )
    who.add_argument(
        "--table",
        nargs="+",
        metavar="SPEC",
        help="one bot per seat, played in every rotation, e.g. neural:time=1 mcts:time=1 "
        "greedy greedy: the bots compared at the same table",
    )
    parser.add_argument(
        "--gauntlet",
        nargs="+",
        default=[],
        metavar="OPPONENT",
        help="play a gauntlet: every bot of --bots against each of these opponents",
    )
    parser.add_argument(
        "--deals", type=int, default=10, metavar="N", help="number of deals (default 10)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="seed of deal 0 (default 0)"
    )
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="directory of the results"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=int,
        default=_cpu_count(),
        metavar="N",
        help="local processes playing games (default: the CPU count)",
    )
    where.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play on the Ray cluster at HOST:PORT instead (needs kingdomkit on its nodes)",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="how time budgets (time=SECONDS) are counted: wall-clock seconds (default), or "
        "each search process's own CPU seconds, so that a machine busy with other work "
        "measures the same bots as a quiet one (they take longer, not fewer playouts)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="start over in DIR even if it holds another tournament (forgets its games)",
    )
    parser.add_argument(
        "--so-far",
        action="store_true",
        help="play nothing: report the deals DIR holds whole so far (a long run's figures "
        "while it goes on, or after it was stopped), its games left as they are",
    )
    parser.add_argument("--json", action="store_true", help="print results.json on stdout")
    parser.set_defaults(run=run)


def _cpu_count() -> int:
    """The CPUs this process may run on (fewer than the machine's in a container)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _runner(args: argparse.Namespace, tournament: Tournament) -> Play:
    game, options = tournament.game, tournament.options

    def play(games: Sequence[ScheduledGame]) -> Iterator[Outcome]:
        if args.ray is not None:
            return run_ray(game, options, games, args.ray)
        return run_local(game, options, games, args.workers)

    return play


def run(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    if args.ray is None and args.workers < 1:
        raise OptionError("--workers must be at least 1")
    tournament = Tournament(
        game=game.name,
        options=dict(game.options),
        bots=tuple(canonical_spec(spec) for spec in args.bots or ()),
        opponents=tuple(canonical_spec(spec) for spec in args.gauntlet),
        deals=args.deals,
        seed=args.seed,
        clock=args.clock,
        table=tuple(canonical_spec(spec) for spec in args.table or ()),
    )
    if args.so_far:
        return _so_far(args, tournament)
    console = Console(stderr=True)
    progress = progress_bar(console, "arena")
    task = progress.add_task("games", total=None)
    played = [0, 0]

    def start(missing: int, total: int) -> None:
        played[1] = total - missing
        progress.update(task, total=missing)
        progress.start()

    def step(outcome: Outcome) -> None:
        played[0] += 1
        progress.advance(task)

    try:
        results = play_tournament(
            tournament, args.out, _runner(args, tournament), args.force, start, step
        )
    finally:
        progress.stop()
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        _print_results(results, args.out, played[0], played[1])
    return 0


def _so_far(args: argparse.Namespace, tournament: Tournament) -> int:
    """`--so-far`: the whole deals' results, nothing played."""
    if args.force:
        raise OptionError("--so-far reads a tournament as it is: give it without --force")
    results, left_out = report_so_far(tournament, args.out)
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        _print_results(results, args.out, 0, results["games"])
        Console(file=sys.stdout).print(
            f"So far: {results['deals_played']} of {tournament.deals} deals played whole; "
            f"games of other deals, not counted: {left_out}.",
            highlight=False,
        )
    return 0


def _plus_minus(estimate: Mapping[str, Any], form: str, percent: bool = False) -> str:
    """`mean ± half-width` (the intervals of means are symmetric, before any clipping)."""
    scale, unit = (100.0, "%") if percent else (1.0, "")
    mean = format(estimate["mean"] * scale, form) + unit
    if estimate["low"] is None:
        return mean
    half = (estimate["high"] - estimate["low"]) * scale / 2
    return f"{mean} ± {half:.1f}"


def _range(estimate: Mapping[str, Any]) -> str:
    if estimate["low"] is None:
        return ""
    return f"{estimate['low']:+.0f} .. {estimate['high']:+.0f}"


def _print_results(results: Mapping[str, Any], out: Path, now: int, before: int) -> None:
    setup = results["tournament"]
    options = ", ".join(f"{k}={v}" for k, v in setup["options"].items())
    console = Console(file=sys.stdout)
    title = f"{setup['mode']} of {setup['game']} ({options}), {setup['deals']} deals"
    if setup.get("clock", "wall") == "cpu":
        title += ", time budgets in CPU seconds"
    table = _table(title, ("#", "bot", "games", "win rate", "score", "margin", "Elo", "Elo 95%"))
    for row in results["bots"]:
        table.add_row(
            str(row["rank"]),
            bot_label(row["bot"]) + (" (opponent)" if row["role"] == "opponent" else ""),
            str(row["games"]),
            _plus_minus(row["win_rate"], ".1f", percent=True),
            _plus_minus(row["score"], ".1f"),
            _plus_minus(row["margin"], "+.1f"),
            f"{row['elo']['mean']:+.0f}",
            _range(row["elo"]),
        )
    console.print(table)
    if "pairs" in results:  # a table: its one match is the tournament itself
        console.print(_pairs_table(results["pairs"]))
    else:
        console.print(_matches_table(results["matches"]))
    if results.get("candidate_pairs"):  # a gauntlet's candidates, two by two
        console.print(candidates_table(results["candidate_pairs"]))
    console.print(
        f"{results['games']} games ({now} played now, {before} before). Means ± 95% intervals "
        "over deals; ties share the win; margin = own score - best other score "
        "(in team play, per team: own team's against the best other team's). "
        f"Results in {out}"
    )


TEXT_COLUMNS = ("bot", "match", "against", "than")
NAME_WIDTH = 8  # the narrowest a column of names may be squeezed to


def _table(title: str, headings: Sequence[str]) -> Table:
    """A results table whose bots' names are shown whole, broken at their colons (and
    wherever they must in a narrow terminal), never cut short."""
    table = Table(title=title)
    for heading in headings:
        if heading in TEXT_COLUMNS:
            table.add_column(heading, justify="left", overflow="fold", min_width=NAME_WIDTH)
        else:
            table.add_column(heading, justify="right")
    return table


def _matches_table(matches: Sequence[Mapping[str, Any]]) -> Table:
    """Each match's bots, with their figures in that match alone."""
    table = _table("matches", ("match", "bot", "games", "win rate", "score", "margin"))
    for match in matches:
        for number, row in enumerate(match["results"]):
            table.add_row(
                match["match"] if number == 0 else "",
                bot_label(row["bot"]),
                str(row["games"]),
                _plus_minus(row["win_rate"], ".1f", percent=True),
                _plus_minus(row["score"], ".1f"),
                _plus_minus(row["margin"], "+.1f"),
            )
    return table


def _differences(pair: Mapping[str, Any]) -> tuple[str, str]:
    """A pair's win and margin differences, each with its interval."""
    wins = _plus_minus(pair["win_difference"], "+.1f", percent=True)
    return wins, _plus_minus(pair["margin_difference"], "+.1f")


def _pairs_table(pairs: Sequence[Mapping[str, Any]]) -> Table:
    """A table's bots two by two: how many more wins and points the first had, game by game."""
    table = _table(
        "at the same table: the first bot's wins and margin less the second's",
        ("bot", "against", "games", "wins more", "margin more"),
    )
    for pair in pairs:
        first, second = (bot_label(bot) for bot in pair["bots"])
        table.add_row(first, second, str(pair["games"]), *_differences(pair))
    return table


def candidates_table(pairs: Sequence[Mapping[str, Any]]) -> Table:
    """A gauntlet's candidates two by two against each opponent, deal by deal: how many more
    wins and points the first had than the second on the same deals and seats."""
    table = _table(
        "candidates on the same deals: the first bot's win rate and margin less the second's",
        ("bot", "than", "against", "deals", "wins more", "margin more"),
    )
    for pair in pairs:
        first, second = (bot_label(bot) for bot in pair["bots"])
        against = bot_label(pair["against"])
        table.add_row(first, second, against, str(pair["deals"]), *_differences(pair))
    return table
