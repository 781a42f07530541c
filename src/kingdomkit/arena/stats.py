"""The statistics of a tournament: win rates, scores, margins and ratings, with 95% intervals.

Every seat of every game is one observation of the bot in it (copies of a bot in a 1 vs 3
line-up are three observations, so a bot as good as the field wins 1/players of the time).
Results are per side (`core.sides`): in team play a seat's result is its team's.

    win      the seat's side's share of the victory (1/k to each of k tied sides)
    score    the seat's points
    margin   the side's points minus the best points of any other side

A mean is taken over a bot's observations in a scope (the whole tournament, or one match).
The games of a deal are correlated (same draws, rotated seats), so the deal is the unit of
sampling: with S_d the sum and m_d the number of observations in deal d, n deals,
    mean = sum S_d / sum m_d,   se^2 = n / (n - 1) * sum (S_d - mean m_d)^2 / (sum m_d)^2
(the cluster-robust standard error of a mean), and the interval is mean +- t(0.975, n - 1) se.
One deal gives no interval (None).

At a table (`--table`: two bots at the same table, with others), each two bots are also
compared game by game: the difference of their win shares (a bot sitting twice counts the mean
of its seats) and of their margins, with the same intervals over deals, so "A wins more than
B at this table" is a claim with its own interval rather than two overlapping ones.

In a gauntlet of two or more candidates, each two are compared the same way against each
opponent, deal by deal: on every deal both played in all their seats, the first's mean win
share and margin over its games against that opponent less the second's, and the t interval
of those differences over the deals. The deals and seats are the same for both, so their
luck cancels: two settings of a bot are told apart in fewer games than by their two intervals.

Ratings: each game ranks its seats by (winner, score); every two seats of different bots on
different sides give a pairwise result (1, 0, or 1/2 each on a tie); teammates never meet.
A Bradley-Terry model, P(i beats j) = 1 / (1 + exp(t_j - t_i)), is fitted by Newton's method
on the summed results, with one virtual draw added to every pair of bots that met (so an
unbeaten bot gets a finite rating) and mean strength 0. Ratings are on the Elo scale
(400 t / ln 10); their 95% intervals are the 2.5 and 97.5 percentiles of the ratings refitted
on 1000 bootstrap resamples of the deals, drawn from the tournament's seed (so a run is
repeatable).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kingdomkit.arena.outcome import Outcome
from kingdomkit.arena.schedule import Tournament
from kingdomkit.core.registry import make_game
from kingdomkit.core.sides import Sides, alone, margins, side_of, win_shares

Floats = npt.NDArray[np.float64]

ELO = 400.0 / math.log(10.0)
BOOTSTRAP = 1000
PRIOR_DRAWS = 1.0
RESULTS_FORMAT = "kingdomkit-arena-results/1"

# Student's t, 97.5% quantile, for 1 to 30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t975(freedom: int) -> float:
    """The 97.5% quantile of Student's t (a table, then the Cornish-Fisher expansion)."""
    if freedom < 1:
        raise ValueError("at least one degree of freedom")
    if freedom <= len(_T975):
        return _T975[freedom - 1]
    z, v = 1.959963984540054, float(freedom)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
    )


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval (None when it cannot be estimated)."""

    mean: float
    low: float | None = None
    high: float | None = None

    def to_json(self, digits: int = 6) -> dict[str, float | None]:
        return {
            "mean": round(self.mean, digits),
            "low": None if self.low is None else round(self.low, digits),
            "high": None if self.high is None else round(self.high, digits),
        }


def clustered_mean(values: Sequence[float], clusters: Sequence[int]) -> Estimate:
    """The mean of `values` with a 95% interval that treats each cluster as one sample."""
    if not values:
        return Estimate(math.nan)
    data = np.asarray(values, dtype=np.float64)
    _, inverse = np.unique(np.asarray(clusters), return_inverse=True)
    sums = np.bincount(inverse, weights=data)
    counts = np.bincount(inverse).astype(np.float64)
    mean = float(sums.sum() / counts.sum())
    n = len(sums)
    if n < 2:
        return Estimate(mean)
    residuals = sums - mean * counts
    error = math.sqrt(n / (n - 1) * float(residuals @ residuals)) / float(counts.sum())
    half = t975(n - 1) * error
    return Estimate(mean, mean - half, mean + half)


# -- Bradley-Terry ------------------------------------------------------------------------


def _log_likelihood(strengths: Floats, wins: Floats, ridge: float) -> float:
    gaps = strengths[:, None] - strengths[None, :]
    return float(-(wins * np.logaddexp(0.0, -gaps)).sum() - ridge / 2 * strengths @ strengths)


def fit_bradley_terry(wins: Floats, prior: float = PRIOR_DRAWS) -> Floats:
    """Strengths t (natural log-odds, mean 0) maximising sum w_ij log sigmoid(t_i - t_j).

    `wins[i, j]` is how often i beat j (halves for ties); `prior` virtual draws are added to
    every pair that met, so the fit stays finite for an unbeaten bot."""
    size = wins.shape[0]
    met = (wins + wins.T) > 0
    wins = wins + prior / 2 * met
    games = wins + wins.T
    ridge = 1e-6  # fixes the free shift of all strengths (at mean 0) without biasing gaps
    strengths = np.zeros(size)
    current = _log_likelihood(strengths, wins, ridge)
    for _ in range(200):
        chances = 1.0 / (1.0 + np.exp(strengths[None, :] - strengths[:, None]))
        gradient = (wins - games * chances).sum(axis=1) - ridge * strengths
        curvature = games * chances * (1.0 - chances)
        hessian = curvature - np.diag(curvature.sum(axis=1) + ridge)
        step = np.linalg.solve(-hessian, gradient)
        # Stop when the step promises no gain above rounding: near the top, a full step's
        # likelihood can compare a hair lower by rounding alone, and halving it then crawls.
        if float(gradient @ step) / 2 < 1e-12 * (1.0 + abs(current)):
            break
        scale = 1.0
        while scale > 1e-12:
            candidate = strengths + scale * step
            value = _log_likelihood(candidate, wins, ridge)
            if value >= current:
                break
            scale /= 2
        else:
            break
        strengths, current = candidate, value
    centred: Floats = strengths - strengths.mean()
    return centred


def pairwise_wins(
    outcome: Outcome, index: Mapping[str, int], sides: Sides | None = None
) -> list[tuple[int, int, float]]:
    """(bot, other bot, points) for every two seats of different bots on different sides:
    the ranking of the game by (winner, score) as pairwise results; a tie gives 1/2 each way.
    `sides`: the teams (default: each seat alone)."""
    winners = set(outcome.winners)
    keys = [(seat in winners, score) for seat, score in enumerate(outcome.scores)]
    side = side_of(sides or alone(len(outcome.seats)))
    results = []
    for seat, bot in enumerate(outcome.seats):
        for other in range(seat + 1, len(outcome.seats)):
            if outcome.seats[other] == bot or side[other] == side[seat]:
                continue
            first, second = index[bot], index[outcome.seats[other]]
            if keys[seat] == keys[other]:
                results += [(first, second, 0.5), (second, first, 0.5)]
            elif keys[seat] > keys[other]:
                results.append((first, second, 1.0))
            else:
                results.append((second, first, 1.0))
    return results


def ratings(
    outcomes: Sequence[Outcome],
    bots: Sequence[str],
    seed: int,
    resamples: int = BOOTSTRAP,
    prior: float = PRIOR_DRAWS,
    sides: Sides | None = None,
) -> list[Estimate]:
    """Each bot's Bradley-Terry rating on the Elo scale, with a bootstrap interval over deals."""
    index = {bot: number for number, bot in enumerate(bots)}
    deals = sorted({outcome.deal for outcome in outcomes})
    position = {deal: number for number, deal in enumerate(deals)}
    per_deal = np.zeros((len(deals), len(bots), len(bots)))
    for outcome in outcomes:
        for winner, loser, points in pairwise_wins(outcome, index, sides):
            per_deal[position[outcome.deal], winner, loser] += points
    total = per_deal.sum(axis=0)
    met = ((total + total.T) > 0).astype(np.float64)
    elo = ELO * fit_bradley_terry(total, prior)
    if len(deals) < 2:
        return [Estimate(float(value)) for value in elo]
    rng = np.random.default_rng(seed % 2**64)
    counts = rng.multinomial(len(deals), np.full(len(deals), 1.0 / len(deals)), size=resamples)
    samples = np.empty((resamples, len(bots)))
    for number, weights in enumerate(counts):
        resampled = np.tensordot(weights.astype(np.float64), per_deal, axes=1)
        # A pair that met in the tournament keeps its virtual draw even if unsampled.
        resampled += prior / 2 * met * ((resampled + resampled.T) == 0)
        samples[number] = ELO * fit_bradley_terry(resampled, prior)
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return [
        Estimate(float(value), float(lower), float(upper))
        for value, lower, upper in zip(elo, low, high, strict=True)
    ]


# -- the summary ----------------------------------------------------------------------------


@dataclass
class _Observations:
    """The seat observations of one bot in one scope, with the deal of each."""

    deals: list[int]
    wins: list[float]
    scores: list[float]
    margins: list[float]
    games: set[tuple[int, int, int]]

    @classmethod
    def empty(cls) -> _Observations:
        return cls([], [], [], [], set())

    def add(self, outcome: Outcome, seat: int, win: float, margin: float) -> None:
        """One seat of a game, with its side's share of the victory and margin."""
        self.deals.append(outcome.deal)
        self.wins.append(win)
        self.scores.append(outcome.scores[seat])
        self.margins.append(margin)
        self.games.add(outcome.key)

    def to_json(self, bot: str) -> dict[str, Any]:
        return {
            "bot": bot,
            "games": len(self.games),
            "seats": len(self.wins),
            "win_rate": clustered_mean(self.wins, self.deals).to_json(),
            "score": clustered_mean(self.scores, self.deals).to_json(),
            "margin": clustered_mean(self.margins, self.deals).to_json(),
        }


def _observe(
    outcomes: Iterable[Outcome], bots: Sequence[str], sides: Sides
) -> dict[str, _Observations]:
    seen = {bot: _Observations.empty() for bot in bots}
    for outcome in outcomes:
        wins, gaps = win_shares(sides, outcome.winners), margins(sides, outcome.scores)
        for seat, bot in enumerate(outcome.seats):
            seen[bot].add(outcome, seat, wins[seat], gaps[seat])
    return seen


def table_pairs(
    outcomes: Sequence[Outcome], bots: Sequence[str], sides: Sides
) -> list[dict[str, Any]]:
    """Every two bots of a table, compared game by game (see the card): the first's win share
    less the second's, and the same of their margins, with intervals over deals."""
    per_game = []  # (deal, {bot: (win, margin)}) with each bot's mean over its seats
    for outcome in outcomes:
        wins, gaps = win_shares(sides, outcome.winners), margins(sides, outcome.scores)
        seats: dict[str, list[tuple[float, float]]] = {}
        for seat, bot in enumerate(outcome.seats):
            seats.setdefault(bot, []).append((wins[seat], gaps[seat]))
        means = {bot: tuple(map(float, np.mean(found, axis=0))) for bot, found in seats.items()}
        per_game.append((outcome.deal, means))
    deals = [deal for deal, _ in per_game]
    pairs = []
    for first, bot in enumerate(bots):
        for other in bots[first + 1 :]:
            win_gaps = [means[bot][0] - means[other][0] for _, means in per_game]
            margin_gaps = [means[bot][1] - means[other][1] for _, means in per_game]
            pairs.append(
                {
                    "bots": [bot, other],
                    "games": len(per_game),
                    "win_difference": clustered_mean(win_gaps, deals).to_json(),
                    "margin_difference": clustered_mean(margin_gaps, deals).to_json(),
                }
            )
    return pairs


def candidate_pairs(
    outcomes: Sequence[Outcome], tournament: Tournament, sides: Sides
) -> list[dict[str, Any]]:
    """In a gauntlet, every two candidates against each opponent, compared deal by deal (see
    the card): the first's win share less the second's, and the same of their margins, over
    the deals both played whole."""
    seen: dict[tuple[str, str, int], list[tuple[float, float]]] = {}  # opponent, bot, deal
    for outcome in outcomes:
        candidate, opponent = tournament.matches[tournament.lineups[outcome.lineup].match].bots
        wins, gaps = win_shares(sides, outcome.winners), margins(sides, outcome.scores)
        found = [(wins[s], gaps[s]) for s, bot in enumerate(outcome.seats) if bot == candidate]
        win, margin = np.mean(found, axis=0)
        seen.setdefault((opponent, candidate, outcome.deal), []).append((win, margin))
    whole = tournament.players  # a line-up's games on a deal: one per rotation
    pairs = []
    for opponent in tournament.opponents:
        for first, bot in enumerate(tournament.bots):
            for other in tournament.bots[first + 1 :]:
                win_gaps, margin_gaps = [], []
                for deal in range(tournament.deals):
                    mine = seen.get((opponent, bot, deal), [])
                    theirs = seen.get((opponent, other, deal), [])
                    if len(mine) == len(theirs) == whole:
                        (my_win, my_margin), (win, margin) = np.mean(mine, 0), np.mean(theirs, 0)
                        win_gaps.append(float(my_win - win))
                        margin_gaps.append(float(my_margin - margin))
                if not win_gaps:  # no deal played whole by both yet
                    continue
                every = list(range(len(win_gaps)))  # one value per deal: the t interval
                pairs.append(
                    {
                        "bots": [bot, other],
                        "against": opponent,
                        "deals": len(win_gaps),
                        "win_difference": clustered_mean(win_gaps, every).to_json(),
                        "margin_difference": clustered_mean(margin_gaps, every).to_json(),
                    }
                )
    return pairs


def tournament_sides(tournament: Tournament) -> Sides:
    """The sides of the tournament's game (its teams; each seat alone outside team play)."""
    return make_game(tournament.game, tournament.options).teams()


def summarize(
    tournament: Tournament, outcomes: Iterable[Outcome], resamples: int = BOOTSTRAP
) -> dict[str, Any]:
    """The results of a tournament (results.json): per bot, ranked by rating, then per match.

    Only deals below `tournament.deals` count; outcomes are taken in schedule order, so the
    summary does not depend on the order games finished in."""
    played = sorted(
        (outcome for outcome in outcomes if outcome.deal < tournament.deals),
        key=lambda outcome: outcome.key,
    )
    bots = tournament.everyone
    sides = tournament_sides(tournament)
    elo = ratings(played, bots, tournament.seed, resamples, sides=sides)
    overall = _observe(played, bots, sides)
    role = dict.fromkeys(bots, "candidate" if tournament.opponents else "bot")
    role.update(dict.fromkeys(tournament.opponents, "opponent"))
    rows = []
    for bot, rating in zip(bots, elo, strict=True):
        rows.append({**overall[bot].to_json(bot), "role": role[bot], "elo": rating.to_json(1)})
    rows.sort(key=lambda row: -row["elo"]["mean"])
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    matches = []
    for number, match in enumerate(tournament.matches):
        games = [o for o in played if tournament.lineups[o.lineup].match == number]
        seen = _observe(games, match.bots, sides)
        matches.append(
            {
                "match": match.name,
                "bots": list(match.bots),
                "games": len(games),
                "results": [seen[bot].to_json(bot) for bot in match.bots],
            }
        )
    pairs: dict[str, Any] = {}
    if tournament.mode == "table":
        pairs["pairs"] = table_pairs(played, bots, sides)
    elif tournament.mode == "gauntlet" and len(tournament.bots) > 1:
        pairs["candidate_pairs"] = candidate_pairs(played, tournament, sides)
    return {
        "format": RESULTS_FORMAT,
        "tournament": {**tournament.to_json(), "players": tournament.players},
        "games": len(played),
        "deals_played": len({outcome.deal for outcome in played}),
        "games_per_deal": tournament.games_per_deal,
        "bots": rows,
        "matches": matches,
        **pairs,
        "method": {
            "win_rate": "share of the victory of the seat's side (ties between sides shared)",
            "margin": "own side's score minus the best score of the other sides",
            "interval": "95%, the deal (all its rotations) as the unit of sampling",
            "elo": f"Bradley-Terry on pairwise results of each game's ranking, "
            f"{PRIOR_DRAWS:g} virtual draw per pair, mean 0; "
            f"95% bootstrap over deals ({resamples} resamples)",
        },
    }
