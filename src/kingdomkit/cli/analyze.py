"""kingdomkit analyze: grade every decision of a recorded game with the strongest bot.

    kingdomkit analyze game.json                    every decision, then a summary per player
    kingdomkit analyze game.json --player ann       one player's decisions
    kingdomkit analyze game.json --bot mcts:time=2  a stronger (slower) analysis
    kingdomkit analyze game.json --json             one JSON object

Like a chess engine's analysis: at each decision with a choice, the analysing bot searches the
position as the player to act saw it (its own view: nobody's secrets) and estimates every legal
move's expected final points; the move played is graded by the expected points lost against
the best one (bots/review.py). The record is checked against the rules first, as `replay` does.
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
from kingdomkit.bots.review import (
    Analyst,
    GradedDecision,
    decisions_to_grade,
    player_grades,
    review_game,
)
from kingdomkit.cli.common import add_file_arguments, progress_bar
from kingdomkit.cli.replay import checked_record, player_names
from kingdomkit.core.protocol import Game, OptionError

DEFAULT_BOT = "mcts:time=0.5"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="grade every decision of a recorded game with the strongest bot",
        description="Replay a game record and grade every decision of every player: the best "
        "move by the analysing bot and the expected points lost by the move played.",
    )
    parser.add_argument("file", metavar="FILE", help="the record (JSON), or - for standard input")
    parser.add_argument(
        "--bot",
        default=DEFAULT_BOT,
        metavar="SPEC",
        help=f"the analysing bot and its budget per decision (default {DEFAULT_BOT})",
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
        raise OptionError(f"bot {spec!r} cannot analyse positions; use mcts (e.g. {DEFAULT_BOT})")
    analyst: Analyst = bot  # type: ignore[assignment]
    return analyst


def run(args: argparse.Namespace) -> int:
    analyst = analyst_from_spec(args.bot)
    record, replay = checked_record(args)
    game = replay.game
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
    say = game.move_label if words else game.action_to_string
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
                "blunder": decision.blunder,
            }
        )
    return {
        "file": args.file,
        "game": game.name,
        "options": dict(game.options),
        "bot": args.bot,
        "seed": args.seed,
        "decisions": decisions,
        "players": [
            {
                "player": grade.player,
                "name": names[grade.player],
                "decisions": grade.decisions,
                "best_moves": grade.best_moves,
                "points_lost": round(grade.total_loss, 2),
                "mean_points_lost": round(grade.mean_loss, 2),
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
    table = Table(title=f"{game.name}: every decision graded by {bot}")
    for heading in ("step", "player", "played", "best", "exp. points", "lost"):
        table.add_column(heading, justify="right" if heading in ("step", "lost") else "left")
    said = move_labels(game, actions, graded, words=True)
    for decision, (played, best) in zip(graded, said, strict=True):
        lost = f"{decision.loss:.1f}"
        if decision.blunder:
            lost = f"[bold red]{lost} ??[/]"
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
    for heading in ("player", "decisions", "best moves", "points lost", "per decision", "blunders"):
        summary.add_column(heading, justify="left" if heading == "player" else "right")
    for grade in player_grades(game, graded):
        if grade.decisions:
            summary.add_row(
                names[grade.player],
                str(grade.decisions),
                f"{grade.best_moves} ({grade.best_moves / grade.decisions:.0%})",
                f"{grade.total_loss:.1f}",
                f"{grade.mean_loss:.2f}",
                str(grade.blunders),
            )
    console.print(summary)
    console.print(
        "exp. points: the expected final points of the move played / of the best move; "
        "lost: their difference; ?? marks a blunder (5 points or more)."
    )
