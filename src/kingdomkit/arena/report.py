"""The files a finished tournament leaves in its directory, beside arena.json and games.jsonl.

    results.json   the summary (stats.summarize): per bot, ranked by rating, then per match;
                   at a table also `pairs`, every two bots compared game by game; in a
                   gauntlet of several candidates `candidate_pairs`, every two compared
                   deal by deal against each opponent
    results.csv    one row per bot and scope ("all", or a match "A vs B"): each statistic
                   with its 95% interval as three columns (value, _low, _high); Elo on "all"
    games.csv      one row per game in schedule order: deal, line-up, rotation, seed, the bot,
                   score and win share of every seat (its side's: a team's win is a whole win
                   for each of its seats), winners, steps, seconds
    ratings.png    the ratings with their intervals
    scores.png     the distribution of each bot's scores (one box per bot, every seat counted)

Charts are drawn with matplotlib's Agg canvas (no display, no global state), imported only here.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kingdomkit.arena.extras import require
from kingdomkit.arena.outcome import Outcome
from kingdomkit.arena.schedule import Tournament
from kingdomkit.arena.store import write_text
from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.core.registry import make_game
from kingdomkit.core.sides import win_shares

STATISTICS = ("win_rate", "score", "margin", "elo")
LABEL_LETTERS = 24  # the longest line of a bot's label on a chart
INCHES_A_LETTER = 0.085  # matplotlib's default 10-point sans, a generous average


def write_reports(
    out: Path, tournament: Tournament, results: Mapping[str, Any], outcomes: Iterable[Outcome]
) -> list[Path]:
    """Write every report file into `out`; the paths written."""
    played = sorted(
        (outcome for outcome in outcomes if outcome.deal < tournament.deals),
        key=lambda outcome: outcome.key,
    )
    paths = [out / "results.json", out / "results.csv", out / "games.csv"]
    write_text(paths[0], json.dumps(results, indent=1) + "\n")
    write_text(paths[1], results_csv(results))
    write_text(paths[2], games_csv(tournament, played))
    paths += write_charts(out, results, played)
    return paths


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(rows)
    return buffer.getvalue()


def results_csv(results: Mapping[str, Any]) -> str:
    """results.csv: a row per bot for the whole tournament, then a row per bot per match."""
    header = ["scope", "bot", "games", "seats"]
    for name in STATISTICS:
        header += [name, f"{name}_low", f"{name}_high"]
    rows: list[list[Any]] = [header]

    def row(scope: str, entry: Mapping[str, Any]) -> list[Any]:
        cells = [scope, entry["bot"], entry["games"], entry["seats"]]
        for name in STATISTICS:
            estimate = entry.get(name, {})
            cells += [_cell(estimate.get(key)) for key in ("mean", "low", "high")]
        return cells

    rows += [row("all", entry) for entry in results["bots"]]
    for match in results["matches"]:
        rows += [row(match["match"], entry) for entry in match["results"]]
    return _csv(rows)


def _cell(value: Any) -> Any:
    return "" if value is None else value


def games_csv(tournament: Tournament, outcomes: Sequence[Outcome]) -> str:
    """games.csv: one row per game, in schedule order."""
    seats = range(tournament.players)
    sides = make_game(tournament.game, tournament.options).teams()
    header = ["index", "deal", "lineup", "rotation", "seed"]
    header += [f"bot_{seat}" for seat in seats]
    header += [f"score_{seat}" for seat in seats]
    header += [f"win_{seat}" for seat in seats]
    header += ["winners", "steps", "seconds"]
    rows: list[list[Any]] = [header]
    for outcome in outcomes:
        scheduled = tournament.scheduled(outcome.key)
        index = scheduled.index if scheduled is not None else ""
        rows.append(
            [index, outcome.deal, outcome.lineup, outcome.rotation, outcome.seed]
            + list(outcome.seats)
            + [f"{score:g}" for score in outcome.scores]
            + [f"{share:g}" for share in win_shares(sides, outcome.winners)]
            + [" ".join(str(seat) for seat in outcome.winners), outcome.steps, outcome.seconds]
        )
    return _csv(rows)


def write_charts(out: Path, results: Mapping[str, Any], outcomes: Sequence[Outcome]) -> list[Path]:
    """ratings.png and scores.png."""
    require("matplotlib", "the arena's charts")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bots = [entry["bot"] for entry in results["bots"]]
    labels = [bot_label(bot) for bot in bots]
    heights = [label.count("\n") + 1 for label in labels]
    widest = max(len(line) for label in labels for line in label.splitlines())

    figure = Figure(
        figsize=(
            max(7.5, 5.5 + INCHES_A_LETTER * widest),
            1.2 + 0.3 * sum(heights) + 0.15 * len(bots),
        ),
        layout="constrained",
    )
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    elo = [entry["elo"] for entry in results["bots"]]
    means = [rating["mean"] for rating in elo]
    positions = list(range(len(bots)))[::-1]
    if all(rating["low"] is not None for rating in elo):
        errors = [
            [mean - rating["low"] for mean, rating in zip(means, elo, strict=True)],
            [rating["high"] - mean for mean, rating in zip(means, elo, strict=True)],
        ]
        axes.errorbar(means, positions, xerr=errors, fmt="o", capsize=4)
    else:
        axes.plot(means, positions, "o")
    axes.axvline(0.0, color="grey", linewidth=0.8)
    axes.set_yticks(positions, labels)
    axes.set_xlabel("Elo (Bradley-Terry, mean 0), 95% interval")
    axes.set_title(f"Ratings after {results['games']} games")
    paths = [out / "ratings.png"]
    _save(figure, paths[-1])

    scores: dict[str, list[float]] = {bot: [] for bot in bots}
    for outcome in outcomes:
        for bot, score in zip(outcome.seats, outcome.scores, strict=True):
            scores[bot].append(score)
    column = max(1.2, INCHES_A_LETTER * widest + 0.2)
    figure = Figure(
        figsize=(1.5 + column * len(bots), 4.3 + 0.2 * max(heights)), layout="constrained"
    )
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    columns = list(range(1, len(bots) + 1))
    axes.boxplot([scores[bot] for bot in bots], positions=columns, widths=0.6)
    axes.set_xticks(columns, labels)
    axes.set_ylabel("final score (every seat)")
    axes.set_title("Scores per bot")
    paths.append(out / "scores.png")
    _save(figure, paths[-1])
    return paths


def bot_label(bot: str, width: int = LABEL_LETTERS) -> str:
    """A bot's spec as a chart label: broken at its colons into lines of at most `width`
    letters (a part longer than that keeps a line of its own), so that a long spec such as
    neural:weights=PATH:time=1 neither runs off the figure nor squeezes the axes away."""
    lines: list[str] = []
    for part in bot.split(":"):
        if lines and len(lines[-1]) + 1 + len(part) <= width:
            lines[-1] += ":" + part
        else:
            lines.append(part if not lines else ":" + part)
    return "\n".join(lines)


def _save(figure: Any, path: Path) -> None:
    try:
        figure.savefig(path, dpi=100)
    except OSError as error:
        raise KingdomkitError(f"cannot write {path}: {error.strerror or error}") from None
