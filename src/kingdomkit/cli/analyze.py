"""kingdomkit analyze: grade every decision of a recorded game with the strongest bot.

    kingdomkit analyze game.json                    every decision, then a summary per player
    kingdomkit analyze game.json --player ann       one player's decisions
    kingdomkit analyze game.json --bot mcts:time=2  a stronger (slower) analysis
    kingdomkit analyze game.json --json             one JSON object
    kingdomkit analyze --noise kingdomino --players 2   the analyst's own noise (below)

Like a chess engine's analysis: at each decision with a choice, the analysing bot searches the
position as the player to act saw it (its own view: nobody's secrets) and estimates every legal
move's expected final points; the move played is graded by the expected points lost against
the best one (bots/review.py). The record is checked against the rules first, as `replay` does.
The default analyst is the game's (its `Heuristics.grading`: the one behind the server's
hints and reviews), and so are the losses called a mistake or a blunder.

`--noise GAME` measures how much the analyst disagrees with itself (bots/noise.py): it searches
positions of bot games several times with different seeds and prints the losses it gives its
own best move, the spread of its estimates, and the thresholds they suggest. docs/bots.md has
the figures behind the gradings.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from kingdomkit.bots import make_bot
from kingdomkit.bots.grading import Grading
from kingdomkit.bots.noise import Noise, measure_noise
from kingdomkit.bots.review import (
    Analyst,
    GradedDecision,
    decisions_to_grade,
    grading_of,
    player_grades,
    review_game,
)
from kingdomkit.cli.common import add_file_arguments, progress_bar
from kingdomkit.cli.replay import checked_record, player_names
from kingdomkit.core.protocol import Game, OptionError
from kingdomkit.core.registry import GAMES, make_game
from kingdomkit.server.board import words as words_of

EXAMPLE_BOT = "mcts:playouts=2000"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="grade every decision of a recorded game with the strongest bot",
        description="Replay a game record and grade every decision of every player: the best "
        "move by the analysing bot and the expected points lost by the move played.",
    )
    parser.add_argument(
        "file", metavar="FILE", nargs="?", help="the record (JSON), or - for standard input"
    )
    parser.add_argument(
        "--bot",
        metavar="SPEC",
        help="the analysing bot and its budget per decision (default: the game's analyst, "
        "the one behind hints and reviews)",
    )
    parser.add_argument(
        "--noise",
        metavar="GAME",
        choices=sorted(GAMES),
        help="measure the analyst's own noise on positions of GAME instead of reading a record",
    )
    parser.add_argument("--players", type=int, help="with --noise: the number of players")
    parser.add_argument(
        "--positions", type=int, default=24, help="with --noise: positions searched (default 24)"
    )
    parser.add_argument(
        "--runs", type=int, default=4, help="with --noise: searches per position (default 4)"
    )
    parser.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="NAME",
        help="grade only this player (a name or a seat number; repeatable)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the analysis (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_file_arguments(parser)
    parser.set_defaults(run=run)


def chosen_players(wanted: Sequence[str], names: Sequence[str]) -> list[int]:
    """Seats named by `--player` (a name or a seat number); all seats when none is given."""
    if not wanted:
        return list(range(len(names)))
    seats = []
    for text in wanted:
        if text in names:
            seats.append(list(names).index(text))
        elif text.isdigit() and int(text) < len(names):
            seats.append(int(text))
        else:
            raise OptionError(f"no player {text!r} in this game (players: {', '.join(names)})")
    return sorted(set(seats))


def analyst_from_spec(spec: str) -> Analyst:
    bot = make_bot(spec)
    if not hasattr(bot, "analyse"):
        raise OptionError(f"bot {spec!r} cannot analyse positions; use mcts (e.g. {EXAMPLE_BOT})")
    analyst: Analyst = bot  # type: ignore[assignment]
    return analyst


def run(args: argparse.Namespace) -> int:
    if args.noise is not None:
        return run_noise(args)
    if args.file is None:
        raise OptionError("analyze needs a record FILE (or --noise GAME)")
    if args.bot is not None:
        analyst_from_spec(args.bot)  # a bad spec is refused before the record is read
    record, replay = checked_record(args)
    game = replay.game
    args.bot = args.bot or grading_of(game).analyst
    analyst = analyst_from_spec(args.bot)
    names = player_names(record["players"])
    seats = chosen_players(args.player, names)
    console = Console(stderr=True)
    total = decisions_to_grade(game, replay.actions, seats)
    try:
        with progress_bar(console, "analyze") as progress:
            task = progress.add_task("decisions", total=total)
            graded = review_game(
                game,
                replay.actions,
                analyst,
                args.seed,
                seats,
                lambda decision: progress.advance(task) if decision else None,
            )
    finally:
        close = getattr(analyst, "close", None)
        if close is not None:
            close()
    if args.json:
        print(json.dumps(analysis_json(game, replay.actions, graded, names, args), indent=1))
    else:
        print_analysis(game, replay.actions, graded, names, args.bot)
    return 0


def move_labels(
    game: Game[Any],
    actions: Sequence[int],
    graded: Sequence[GradedDecision],
    words: bool = False,
) -> list[tuple[str, str]]:
    """(move played, best move) for each graded decision, in one walk of the game: in the
    notation (for tools), or in the game's words for people when `words`."""
    say = words_of(game).move_label if words else game.action_to_string
    steps = {decision.step: decision for decision in graded}
    labels = []
    state = game.initial_state()
    for step, action in enumerate(actions):
        decision = steps.get(step)
        if decision is not None:
            labels.append((say(state, decision.played), say(state, decision.best)))
        state = game.apply(state, action)
    return labels


def analysis_json(
    game: Game[Any],
    actions: Sequence[int],
    graded: Sequence[GradedDecision],
    names: Sequence[str],
    args: argparse.Namespace,
) -> dict[str, Any]:
    decisions = []
    for decision, (played, best) in zip(graded, move_labels(game, actions, graded), strict=True):
        decisions.append(
            {
                "step": decision.step,
                "player": decision.player,
                "name": names[decision.player],
                "choices": decision.choices,
                "played": played,
                "best": best,
                "played_points": round(decision.played_points, 2),
                "best_points": round(decision.best_points, 2),
                "points_lost": round(decision.loss, 2),
                "grade": grading_of(game).grade(decision.loss),
            }
        )
    return {
        "file": args.file,
        "game": game.name,
        "options": dict(game.options),
        "bot": args.bot,
        "seed": args.seed,
        "unit": game.score_unit,
        "decisions": decisions,
        "players": [
            {
                "player": grade.player,
                "name": names[grade.player],
                "decisions": grade.decisions,
                "best_moves": grade.best_moves,
                "points_lost": round(grade.total_loss, 2),
                "mean_points_lost": round(grade.mean_loss, 2),
                "mistakes": grade.mistakes,
                "blunders": grade.blunders,
            }
            for grade in player_grades(game, graded)
            if grade.decisions
        ],
    }


def print_analysis(
    game: Game[Any],
    actions: Sequence[int],
    graded: Sequence[GradedDecision],
    names: Sequence[str],
    bot: str,
) -> None:
    console = Console(file=sys.stdout)
    grading = grading_of(game)
    unit = game.score_unit
    table = Table(title=f"{game.name}: every decision graded by {bot}")
    for heading in ("step", "player", "played", "best", f"exp. {unit}", "lost"):
        table.add_column(heading, justify="right" if heading in ("step", "lost") else "left")
    said = move_labels(game, actions, graded, words=True)
    for decision, (played, best) in zip(graded, said, strict=True):
        lost = f"{decision.loss:.1f}"
        kind = grading.grade(decision.loss)
        if kind == "blunder":
            lost = f"[bold red]{lost} ??[/]"
        elif kind == "mistake":
            lost = f"[yellow]{lost} ?[/]"
        elif decision.loss == 0.0:
            lost = "[green]0 (best)[/]"
        table.add_row(
            str(decision.step),
            names[decision.player],
            played,
            "" if decision.loss == 0.0 else best,
            f"{decision.played_points:.1f} / {decision.best_points:.1f}",
            lost,
        )
    console.print(table)
    summary = Table(title="Summary per player")
    headings = ("player", "decisions", "best moves", f"{unit} lost", "per decision")
    for heading in (*headings, "mistakes", "blunders"):
        summary.add_column(heading, justify="left" if heading == "player" else "right")
    for grade in player_grades(game, graded):
        if grade.decisions:
            summary.add_row(
                names[grade.player],
                str(grade.decisions),
                f"{grade.best_moves} ({grade.best_moves / grade.decisions:.0%})",
                f"{grade.total_loss:.1f}",
                f"{grade.mean_loss:.2f}",
                str(grade.mistakes),
                str(grade.blunders),
            )
    console.print(summary)
    console.print(
        f"exp. {unit}: the expected final {unit} of the move played / of the best move; "
        f"lost: their difference; ? marks a mistake (more than {grading.mistake:g} {unit} lost, "
        f"beyond the analyst's own noise), ?? a blunder (more than {grading.blunder:g})."
    )


def run_noise(args: argparse.Namespace) -> int:
    """`--noise GAME`: the analyst's self-disagreement on positions of GAME."""
    options: dict[str, Any] = {} if args.players is None else {"players": args.players}
    game = make_game(args.noise, options)
    grading = grading_of(game)
    spec = args.bot or grading.analyst
    analyst_from_spec(spec)  # a bad spec is refused before any position is played
    if args.positions < 1 or args.runs < 2:
        raise OptionError("--noise needs --positions 1 or more and --runs 2 or more")
    console = Console(stderr=True)
    with progress_bar(console, "noise") as progress:
        task = progress.add_task("positions", total=args.positions)
        noise = measure_noise(
            game,
            lambda: analyst_from_spec(spec),
            args.positions,
            args.runs,
            args.seed,
            lambda: progress.advance(task),
        )
    report = noise_json(game, spec, grading, noise, args.seed)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print_noise(report)
    return 0


def noise_json(
    game: Game[Any], spec: str, grading: Grading, noise: Noise, seed: int
) -> dict[str, Any]:
    return {
        "game": game.name,
        "players": game.num_players,
        "unit": game.score_unit,
        "analyst": spec,
        "positions": noise.positions,
        "runs": noise.runs,
        "seed": seed,
        "seconds_per_analysis": round(noise.seconds, 3),
        "disagreements": round(noise.disagreements, 3),
        "loss": {
            name: round(noise.loss_quantile(q), 2)
            for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))
        },
        "spread": {
            "median": round(sorted(noise.spreads)[len(noise.spreads) // 2], 2),
            "max": round(max(noise.spreads), 2),
        },
        "suggested": {"mistake": noise.mistake, "blunder": noise.blunder},
        "in_use": {
            "analyst": grading.analyst,
            "mistake": grading.mistake,
            "blunder": grading.blunder,
        },
    }


def print_noise(report: dict[str, Any]) -> None:
    unit = report["unit"]
    loss, spread = report["loss"], report["spread"]
    print(
        f"{report['game']}, {report['players']} players: {report['analyst']} searched "
        f"{report['positions']} positions {report['runs']} times each "
        f"({report['seconds_per_analysis']:.2f} s per search on this machine)"
    )
    print(
        f"its best move, graded by another run: loses something in "
        f"{report['disagreements']:.0%} of pairs; loss p50 {loss['p50']:g}, p90 {loss['p90']:g}, "
        f"p99 {loss['p99']:g}, max {loss['max']:g} {unit}"
    )
    print(
        f"spread of its estimate of the best move: median {spread['median']:g}, "
        f"max {spread['max']:g} {unit}"
    )
    suggested, in_use = report["suggested"], report["in_use"]
    print(
        f"suggested thresholds: mistake above {suggested['mistake']:g}, blunder above "
        f"{suggested['blunder']:g} {unit} (in use: {in_use['mistake']:g} and "
        f"{in_use['blunder']:g} with {in_use['analyst']})"
    )
