"""The learning curve: strength against fixed opponents after each iteration, as CSV and PNG,
with how well the network predicted the games it had not yet seen (train.validate).

Strength is measured by the `neural` bot with the iteration's network against each opponent
on the same deals at every iteration (loop.game_seed's, fixed for the run, the network's seat
rotating over them), so that two points of the curve differ by the network, not by the luck of the
deals: its mean win share (`Game.returns`) and its mean margin (own points less the best
other player's).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import Game


@dataclass(frozen=True)
class Point:
    """One row of the curve: after `iteration`, the bot against `opponent`."""

    iteration: int
    games: int  # games of self-play so far
    positions: int  # decisions recorded so far (before symmetries)
    wall_seconds: float
    policy_loss: float
    value_loss: float
    points_loss: float
    opponent: str
    eval_games: int
    win_share: float
    margin: float
    # how well the network before this iteration's training predicted its fresh games
    # (train.validate; nan in curves from before they were measured)
    fresh_policy_kl: float = math.nan
    fresh_value_explained: float = math.nan
    fresh_points_explained: float = math.nan
    fresh_policy_agreement: float = math.nan  # a column added later, so last


def strength(
    game: Game[Any],
    bot: str,
    opponent: str,
    seeds: Sequence[int],
    step: Callable[[], None] | None = None,
) -> tuple[float, float]:
    """`bot`'s mean win share and margin in the games of `seeds` against `opponent` in every
    other seat, its seat rotating; `step()` after each game."""
    players = game.num_players
    share = margin = 0.0
    for g, seed in enumerate(seeds):
        seat = g % players
        agents = [make_bot(bot if s == seat else opponent) for s in range(players)]
        try:
            final = play(game, agents, seed).final_state
        finally:
            for agent in agents:
                close = getattr(agent, "close", None)
                if close is not None:
                    close()
        scores = game.scores(final)
        share += game.returns(final)[seat]
        margin += scores[seat] - max(s for p, s in enumerate(scores) if p != seat)
        if step is not None:
            step()
    games = max(len(seeds), 1)
    return share / games, margin / games


def write_csv(path: Path, points: Sequence[Point]) -> None:
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", newline="") as out:
        writer = csv.DictWriter(out, [f.name for f in fields(Point)])
        writer.writeheader()
        for point in points:
            writer.writerow(asdict(point))
    partial.replace(path)


def read_csv(path: Path) -> list[Point]:
    if not path.is_file():
        return []
    with path.open(newline="") as source:
        rows = list(csv.DictReader(source))
    kinds = {f.name: f.type for f in fields(Point)}
    convert = {"int": int, "float": float, "str": str}
    return [Point(**{k: convert[str(kinds[k])](v) for k, v in row.items()}) for row in rows]


def plot(path: Path, points: Sequence[Point], title: str) -> None:
    """Win share and margin against each opponent over the games of self-play, and the
    network's fit to games it had not seen."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, (shares, margins, fit) = pyplot.subplots(1, 3, figsize=(15, 4))
    for opponent in dict.fromkeys(p.opponent for p in points):
        mine = [p for p in points if p.opponent == opponent]
        games = [p.games for p in mine]
        shares.plot(games, [p.win_share for p in mine], marker="o", label=opponent)
        margins.plot(games, [p.margin for p in mine], marker="o", label=opponent)
    shares.set(xlabel="games of self-play", ylabel="win share", ylim=(0, 1))
    margins.set(xlabel="games of self-play", ylabel="margin (points)")
    margins.axhline(0, color="grey", linewidth=0.5)
    shares.legend(title="against")
    iterations = list({p.iteration: p for p in points}.values())  # one row per iteration
    games = [p.games for p in iterations]
    fit.plot(games, [p.fresh_value_explained for p in iterations], marker="o", label="value")
    fit.plot(games, [p.fresh_points_explained for p in iterations], marker="o", label="points")
    agreed = [p.fresh_policy_agreement for p in iterations]
    fit.plot(games, agreed, marker="s", label="expert's move first (share)")
    fit.set(
        xlabel="games of self-play (each point: that iteration's, before training on them)",
        ylabel="in unseen games: variance explained, moves agreed",
        ylim=(-0.2, 1),
    )
    fit.axhline(0, color="grey", linewidth=0.5)
    kl = fit.twinx()
    kl.plot(games, [p.fresh_policy_kl for p in iterations], color="black", marker="x")
    kl.set(ylabel="policy divergence (nats), crosses")
    fit.legend()
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
