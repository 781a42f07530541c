"""kingdomkit simulate: bot games in a row, with a summary and, on request, one record per game.

Game i is played from seed S + i, so any single game of a run can be replayed on its own.
Results are per side (`core.sides`): in team play a seat's wins and margin are its team's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from kingdomkit.bots import make_bot
from kingdomkit.cli.common import add_game_arguments, bot_names, game_from_args, progress_bar
from kingdomkit.core.driver import Agent, play
from kingdomkit.core.protocol import Game, KingdomkitError, OptionError
from kingdomkit.core.record import make_record, write_record
from kingdomkit.core.sides import Sides, alone, margins, side_of, win_shares


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play bot games and summarise them",
        description="Play bot games from a seed; print mean scores and wins per seat.",
    )
    add_game_arguments(parser)
    parser.add_argument("--bots", required=True, help="one bot per seat: random,greedy,...")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--records", type=Path, metavar="DIR", help="write one record per game")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(run=run)


@dataclass
class Summary:
    """What a run of games shows: per seat, the scores and the share of wins (its side's)."""

    bots: list[str]
    scores: list[list[float]] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    seconds: float = 0.0
    sides: Sides = ()  # the teams; empty: each seat alone

    @property
    def teams(self) -> Sides:
        return self.sides or alone(len(self.bots))

    @property
    def games(self) -> int:
        return len(self.scores)

    def to_json(self) -> dict[str, Any]:
        seats = []
        teams = self.teams
        team_play = any(len(side) > 1 for side in teams)
        per_game = [margins(teams, scores) for scores in self.scores]  # each game's, once
        for seat, bot in enumerate(self.bots):
            column = [scores[seat] for scores in self.scores]
            gaps = [game[seat] for game in per_game]
            row: dict[str, Any] = {"seat": seat, "bot": bot}
            if team_play:
                row["team"] = side_of(teams)[seat]
            seats.append(
                {
                    **row,
                    "mean_score": statistics.fmean(column) if column else 0.0,
                    "mean_margin": statistics.fmean(gaps) if gaps else 0.0,
                    "wins": self.wins[seat],
                    "win_rate": self.wins[seat] / self.games if self.games else 0.0,
                }
            )
        return {
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "seats": seats,
        }


def simulate(
    game: Game[Any],
    agents: Sequence[Agent],
    bots: list[str],
    games: int,
    seed: int,
    on_game: Callable[[int, Any], None] | None = None,
) -> Summary:
    """Play `games` games from seeds `seed`, `seed + 1`, ...; wins are shared on a tie
    between sides (an outright team win is a whole win for each of its seats)."""
    sides = game.teams()
    summary = Summary(bots, wins=[0.0] * game.num_players, sides=sides)
    started = time.perf_counter()
    for index in range(games):
        played = play(game, agents, seed + index)
        final = played.final_state
        summary.scores.append(list(game.scores(final)))
        for seat, share in enumerate(win_shares(sides, game.winners(final))):
            summary.wins[seat] += share
        if on_game is not None:
            on_game(seed + index, played)
    summary.seconds = time.perf_counter() - started
    return summary


def run(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    if args.games < 1:
        raise OptionError("--games must be at least 1")
    names = bot_names(args.bots, game.num_players)
    agents = [make_bot(name) for name in names]
    records: Path | None = args.records
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise KingdomkitError(f"cannot use {records} for records: {error.strerror}") from None
    seat_names = [f"{name}-{seat}" for seat, name in enumerate(names)]
    console = Console(stderr=True)

    def save(seed: int, played: Any) -> None:
        if records is not None:
            record = make_record(game, seed, seat_names, played.actions)
            write_record(records / f"{game.name}-{seed}.json", record)

    with progress_bar(console, "simulate") as progress:
        task = progress.add_task("games", total=args.games)

        def step(seed: int, played: Any) -> None:
            save(seed, played)
            progress.advance(task)

        summary = simulate(game, agents, names, args.games, args.seed, step)
    if args.json:
        print(json.dumps(summary.to_json(), indent=1))
    else:
        _print_summary(game, summary, records)
    return 0


def _print_summary(game: Game[Any], summary: Summary, records: Path | None) -> None:
    data = summary.to_json()
    title = f"{summary.games} games of {game.name} {game.options}"
    table = Table(title=title)
    team_play = any("team" in seat for seat in data["seats"])
    headings = ("seat", "bot", *(("team",) if team_play else ()), "mean score", "mean margin")
    for heading in (*headings, "wins", "win rate"):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for seat in data["seats"]:
        table.add_row(
            str(seat["seat"]),
            seat["bot"],
            *((str(seat["team"] + 1),) if team_play else ()),
            f"{seat['mean_score']:.2f}",
            f"{seat['mean_margin']:+.2f}",
            f"{seat['wins']:g}",
            f"{seat['win_rate']:.1%}",
        )
    console = Console(file=sys.stdout)
    console.print(table)
    console.print(
        f"{data['games_per_second']} games per second; ties share the win"
        + ("; wins and margins per team" if team_play else "")
        + (f"; records in {records}" if records else "")
    )
