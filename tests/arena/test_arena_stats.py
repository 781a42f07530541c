"""The arena's statistics on hand-made results: intervals, Bradley-Terry, unbeaten bots."""

from __future__ import annotations

import math
import statistics
from typing import Any

import numpy as np
import pytest

from kingdomkit.arena import stats
from kingdomkit.arena.outcome import Outcome
from kingdomkit.arena.schedule import Tournament
from kingdomkit.arena.stats import (
    ELO,
    clustered_mean,
    fit_bradley_terry,
    pairwise_wins,
    ratings,
    summarize,
    t975,
)


def outcome(
    deal: int,
    seats: tuple[str, ...],
    scores: tuple[float, ...],
    winners: tuple[int, ...] | None = None,
    lineup: int = 0,
    rotation: int = 0,
) -> Outcome:
    if winners is None:
        best = max(scores)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
    returns = tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(len(seats)))
    return Outcome(deal, lineup, rotation, deal, seats, scores, returns, winners, 10, 0.0)


def test_t_quantiles() -> None:
    assert t975(1) == pytest.approx(12.706)
    assert t975(30) == pytest.approx(2.042, abs=1e-3)
    assert t975(31) == pytest.approx(2.0395, abs=1e-3)
    assert t975(120) == pytest.approx(1.9799, abs=1e-3)
    assert t975(10**6) == pytest.approx(1.96, abs=1e-3)


def test_clustered_mean_with_equal_clusters_is_the_t_interval_of_cluster_means() -> None:
    values = [3.0, 5.0, 1.0, 1.0, 8.0, 6.0, 2.0, 4.0]
    clusters = [0, 0, 1, 1, 2, 2, 3, 3]
    estimate = clustered_mean(values, clusters)
    means = [4.0, 1.0, 7.0, 3.0]
    half = t975(3) * statistics.stdev(means) / math.sqrt(4)
    assert estimate.mean == pytest.approx(3.75)
    assert estimate.low == pytest.approx(3.75 - half)
    assert estimate.high == pytest.approx(3.75 + half)
    assert estimate.low is not None and estimate.high is not None
    assert estimate.low < estimate.mean < estimate.high


def test_clustered_mean_counts_clusters_not_values() -> None:
    """Correlated values in a cluster do not narrow the interval."""
    one = clustered_mean([1.0, 3.0, 2.0], [0, 1, 2])
    repeated = clustered_mean([1.0] * 5 + [3.0] * 5 + [2.0] * 5, [0] * 5 + [1] * 5 + [2] * 5)
    assert repeated.mean == pytest.approx(one.mean)
    assert repeated.low == pytest.approx(one.low)
    assert repeated.high == pytest.approx(one.high)


def test_one_cluster_has_no_interval() -> None:
    estimate = clustered_mean([1.0, 0.0, 1.0], [4, 4, 4])
    assert estimate.mean == pytest.approx(2 / 3)
    assert estimate.low is None and estimate.high is None
    assert estimate.to_json() == {"mean": 0.666667, "low": None, "high": None}


def test_bradley_terry_two_bots_is_the_log_odds() -> None:
    strengths = fit_bradley_terry(np.array([[0.0, 7.0], [3.0, 0.0]]), prior=0.0)
    assert strengths[0] - strengths[1] == pytest.approx(math.log(7 / 3), rel=1e-5)
    assert strengths.sum() == pytest.approx(0.0, abs=1e-9)
    # One virtual draw: half a win each way.
    strengths = fit_bradley_terry(np.array([[0.0, 7.0], [3.0, 0.0]]), prior=1.0)
    assert strengths[0] - strengths[1] == pytest.approx(math.log(7.5 / 3.5), rel=1e-5)


def test_bradley_terry_recovers_known_strengths() -> None:
    truth = np.array([1.0, 0.2, -0.4, -0.8])
    chances = 1 / (1 + np.exp(truth[None, :] - truth[:, None]))
    wins = 60 * chances
    np.fill_diagonal(wins, 0.0)
    wins[0, 3] = wins[3, 0] = 0.0  # not every pair needs to meet
    fitted = fit_bradley_terry(wins, prior=0.0)
    assert fitted == pytest.approx(truth - truth.mean(), abs=1e-5)


def test_an_unbeaten_bot_gets_a_finite_rating() -> None:
    fitted = fit_bradley_terry(np.array([[0.0, 20.0, 20.0], [0.0, 0.0, 10.0], [0.0, 10.0, 0.0]]))
    assert np.isfinite(fitted).all()
    assert fitted[0] > fitted[1] == pytest.approx(fitted[2])
    # 20 wins and half a virtual win over each opponent of equal strength.
    assert fitted[0] - fitted[1] == pytest.approx(math.log(20.5 / 0.5), rel=1e-4)


def test_the_fit_stops_at_the_top_instead_of_crawling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Near the top a full Newton step can compare a hair lower by rounding alone; the fit
    must stop there, not halve its way through 200 iterations (it made reports take 25 s)."""
    evaluations = []
    likelihood = stats._log_likelihood

    def counted(*args: Any) -> float:
        evaluations.append(1)
        return likelihood(*args)

    monkeypatch.setattr(stats, "_log_likelihood", counted)
    wins = np.array([[0.0, 16.0, 7.0], [0.0, 0.0, 4.0], [1.0, 12.0, 0.0]])  # a 4-player table
    fitted = fit_bradley_terry(wins)
    assert len(evaluations) < 20
    assert fitted == pytest.approx([1.62568588, -1.37136868, -0.2543172], abs=1e-7)


def test_pairwise_wins_rank_by_winner_then_score() -> None:
    index = {"a": 0, "b": 1, "c": 2}
    # a wins a tie-break at 30 points against b; c and the second b tie at 10.
    game = outcome(0, ("a", "b", "c", "b"), (30.0, 30.0, 10.0, 10.0), winners=(0,))
    assert sorted(pairwise_wins(game, index)) == sorted(
        [(0, 1, 1.0), (0, 2, 1.0), (0, 1, 1.0), (1, 2, 1.0), (2, 1, 0.5), (1, 2, 0.5)]
    )


def test_ratings_of_an_unbeaten_bot_over_deals() -> None:
    outcomes = [
        outcome(deal, seats, scores, rotation=rotation)
        for deal in range(6)
        for rotation, (seats, scores) in enumerate(
            [(("strong", "weak"), (40.0, 20.0 + deal)), (("weak", "strong"), (25.0, 41.0))]
        )
    ]
    strong, weak = ratings(outcomes, ["strong", "weak"], seed=3, resamples=200)
    for rating in (strong, weak):
        assert rating.low is not None and rating.high is not None
        assert math.isfinite(rating.low) and math.isfinite(rating.high)
        assert rating.low <= rating.mean <= rating.high
    # Twelve wins, no loss, one virtual draw: always the same result in every resample.
    assert strong.mean - weak.mean == pytest.approx(ELO * math.log(12.5 / 0.5), rel=1e-4)
    assert strong.low == pytest.approx(strong.mean, abs=1e-6)
    assert strong.mean == pytest.approx(-weak.mean)


def test_summary_of_a_hand_made_tournament() -> None:
    setup = Tournament("kingdomino", {"players": 2}, ("a", "b"), deals=2, seed=0)
    outcomes = [
        outcome(0, ("a", "b"), (30.0, 20.0), rotation=0),
        outcome(0, ("b", "a"), (25.0, 25.0), winners=(0, 1), rotation=1),
        outcome(1, ("a", "b"), (10.0, 40.0), rotation=0),
        outcome(1, ("b", "a"), (35.0, 15.0), rotation=1),
        outcome(2, ("a", "b"), (99.0, 0.0), rotation=0),  # beyond --deals: not counted
    ]
    summary = summarize(setup, outcomes, resamples=100)
    assert summary["games"] == 4 and summary["deals_played"] == 2
    rows = {row["bot"]: row for row in summary["bots"]}
    assert [row["bot"] for row in summary["bots"]] == ["b", "a"]
    assert rows["a"]["win_rate"]["mean"] == pytest.approx((1 + 0.5 + 0 + 0) / 4)
    assert rows["a"]["score"]["mean"] == pytest.approx((30 + 25 + 10 + 15) / 4)
    assert rows["a"]["margin"]["mean"] == pytest.approx((10 + 0 - 30 - 20) / 4)
    assert rows["b"]["margin"]["mean"] == pytest.approx(10.0)
    # Deal means of a's wins: 0.75 and 0; its interval is the t interval of those two.
    half = t975(1) * statistics.stdev([0.75, 0.0]) / math.sqrt(2)
    assert rows["a"]["win_rate"]["high"] == pytest.approx(0.375 + half, abs=1e-6)
    for row in rows.values():
        for name in ("win_rate", "score", "margin", "elo"):
            assert row[name]["low"] <= row[name]["mean"] <= row[name]["high"]
    assert summary["matches"][0]["match"] == "a vs b"
    assert summary["matches"][0]["results"][0]["win_rate"] == rows["a"]["win_rate"]


def test_a_table_compares_its_bots_game_by_game() -> None:
    setup = Tournament("kingdomino", {"players": 4}, (), deals=2, table=("n", "m", "g", "g"))
    outcomes = [
        outcome(0, ("n", "m", "g", "g"), (40.0, 30.0, 20.0, 10.0)),  # n wins by 10
        outcome(0, ("g", "n", "m", "g"), (20.0, 30.0, 30.0, 10.0)),  # n and m tie
        outcome(1, ("g", "g", "n", "m"), (50.0, 10.0, 20.0, 30.0)),  # a g wins
        outcome(1, ("m", "g", "g", "n"), (35.0, 30.0, 20.0, 25.0)),  # m wins
    ]
    summary = summarize(setup, outcomes, resamples=50)
    assert [pair["bots"] for pair in summary["pairs"]] == [["n", "m"], ["n", "g"], ["m", "g"]]
    n_m = summary["pairs"][0]
    assert n_m["games"] == 4
    # n's wins less m's: 1, 0 (a tie), 0 (neither), -1; margins: 10 - -10, 0 - 0,
    # -30 - -20, -10 - 5
    assert n_m["win_difference"]["mean"] == pytest.approx(0.0)
    assert n_m["margin_difference"]["mean"] == pytest.approx((20 + 0 - 10 - 15) / 4)
    # deal means 0.5 and -0.5: the t interval of those two
    half = t975(1) * statistics.stdev([0.5, -0.5]) / math.sqrt(2)
    assert n_m["win_difference"]["high"] == pytest.approx(half, abs=1e-6)
    n_g = summary["pairs"][1]  # g sits twice: the mean of its two seats
    assert n_g["win_difference"]["mean"] == pytest.approx(((1 - 0) + (0.5 - 0) + (0 - 0.5) + 0) / 4)
    rows = {row["bot"]: row for row in summary["bots"]}
    assert rows["g"]["seats"] == 8 and rows["n"]["seats"] == 4
    plain = summarize(Tournament("kingdomino", {"players": 2}, ("a", "b")), [], resamples=10)
    assert "pairs" not in plain


def test_a_gauntlet_compares_its_candidates_deal_by_deal() -> None:
    """Two candidates against one opponent: on each deal both played whole, the first's mean
    win share and margin less the second's; a deal one of them has not finished is left out."""
    setup = Tournament("kingdomino", {"players": 2}, ("a", "b"), ("x",), deals=3)
    line = {setup.matches[lineup.match].bots[0]: n for n, lineup in enumerate(setup.lineups)}

    def games(
        deal: int, bot: str, mine: tuple[float, float], theirs: tuple[float, float]
    ) -> list[Outcome]:
        first = outcome(deal, (bot, "x"), (mine[0], theirs[0]), lineup=line[bot])
        second = outcome(deal, ("x", bot), (theirs[1], mine[1]), lineup=line[bot], rotation=1)
        return [first, second]

    outcomes = [
        *games(0, "a", (30, 30), (20, 40)),  # a: wins 1 and 0 (mean 0.5), margins +10, -10
        *games(0, "b", (20, 20), (20, 40)),  # b: a tie and a loss (0.25), margins 0, -20
        *games(1, "a", (10, 10), (20, 20)),  # a: 0 (margins -10, -10)
        *games(1, "b", (30, 30), (20, 20)),  # b: 1 (margins +10, +10)
        *games(2, "a", (50, 50), (0, 0)),  # b has no game on deal 2: left out
    ]
    summary = summarize(setup, outcomes, resamples=20)
    (pair,) = summary["candidate_pairs"]
    assert pair["bots"] == ["a", "b"] and pair["against"] == "x" and pair["deals"] == 2
    assert pair["win_difference"]["mean"] == pytest.approx(((0.5 - 0.25) + (0 - 1)) / 2)
    assert pair["margin_difference"]["mean"] == pytest.approx(((0 - -10) + (-10 - 10)) / 2)
    half = t975(1) * statistics.stdev([0.25, -1.0]) / math.sqrt(2)
    assert pair["win_difference"]["high"] == pytest.approx(-0.375 + half, abs=1e-6)
    alone = Tournament("kingdomino", {"players": 2}, ("a",), ("x",), deals=1)
    assert "candidate_pairs" not in summarize(alone, [], resamples=10)
    assert "candidate_pairs" not in summarize(
        Tournament("kingdomino", {"players": 2}, ("a", "b")), [], resamples=10
    )


TEAMS = {"players": 6, "royal_wedding": True, "teams": True}  # teams (0, 1), (2, 3), (4, 5)


def test_teammates_are_not_opponents_in_the_ratings() -> None:
    index = {"a": 0, "b": 1}
    sides = ((0, 1), (2, 3), (4, 5))
    game = outcome(0, ("a", "b", "b", "b", "b", "b"), (50, 50, 40, 40, 30, 30), winners=(0, 1))
    # Seat 1 is a's teammate: their shared win is no draw between them.
    assert sorted(pairwise_wins(game, index, sides)) == [(0, 1, 1.0)] * 4
    assert (0, 1, 0.5) in pairwise_wins(game, index)  # seat by seat, as before


def test_team_play_is_scored_per_team() -> None:
    setup = Tournament("queendomino", TEAMS, ("a", "b"), deals=2, seed=0)
    outcomes = [
        # Team a (seats 0, 1) wins outright by 10; then loses by 20 to a team of b.
        outcome(0, ("a", "a", "b", "b", "b", "b"), (50, 50, 40, 40, 30, 30), winners=(0, 1)),
        outcome(1, ("a", "a", "b", "b", "b", "b"), (20, 20, 40, 40, 30, 30), winners=(2, 3)),
    ]
    rows = {row["bot"]: row for row in summarize(setup, outcomes, resamples=20)["bots"]}
    # An outright team win is a whole win for each of its seats, not half of one.
    assert rows["a"]["win_rate"]["mean"] == pytest.approx(0.5)
    # The margin is against the best other team, not the teammate with the same score.
    assert rows["a"]["margin"]["mean"] == pytest.approx((10 - 20) / 2)
    # b's seats: -10 and -20 in the first game; +10 and -10 in the second.
    assert rows["b"]["margin"]["mean"] == pytest.approx(
        (-10 - 10 - 20 - 20 + 10 + 10 - 10 - 10) / 8
    )
    assert rows["b"]["win_rate"]["mean"] == pytest.approx(2 / 8)
