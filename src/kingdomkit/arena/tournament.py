"""A tournament from start to finish: check the bots, resume, play what is missing, report.

`play_tournament` is what `kingdomkit arena` runs; the `play` argument is one of the runners
(runner.py) bound to its game and workers, so the same steps serve every way of playing.
`report_so_far` reports a tournament's whole deals without playing (`--so-far`): a run of
hours is read while it goes on, and a stopped one without resuming it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from kingdomkit.arena.extras import require
from kingdomkit.arena.outcome import Outcome, close_agents
from kingdomkit.arena.schedule import ScheduledGame, Tournament
from kingdomkit.arena.store import GameLog, held, prepare
from kingdomkit.bots import make_bot

Play = Callable[[Sequence[ScheduledGame]], Iterator[Outcome]]


def check_bots(specs: Sequence[str]) -> None:
    """Build every bot once, so a bad spec fails here rather than in a worker."""
    close_agents([make_bot(spec) for spec in specs])


def play_tournament(
    tournament: Tournament,
    out: Path,
    play: Play,
    force: bool = False,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[Outcome], None] | None = None,
    resamples: int | None = None,
) -> dict[str, Any]:
    """Play the games of `tournament` not yet in `out`, then write and return the results.

    `on_start(missing, total)` is called once the schedule is known, `on_game` after each
    game is on disk."""
    _require_reports()
    check_bots(tournament.everyone)
    done = prepare(out, tournament, force)
    missing = [game for game in tournament.games() if game.key not in done]
    if on_start is not None:
        on_start(len(missing), tournament.total_games)
    if missing:
        log = GameLog(out)
        games = play(missing)
        try:
            for outcome in games:
                log.append(outcome)
                done[outcome.key] = outcome
                if on_game is not None:
                    on_game(outcome)
        finally:
            close = getattr(games, "close", None)
            if close is not None:
                close()
    return _report(tournament, out, list(done.values()), resamples)


def report_so_far(
    tournament: Tournament, out: Path, resamples: int | None = None
) -> tuple[dict[str, Any], int]:
    """The results of the deals `out` holds whole (every game of the deal played), written
    there as a finished run's are, without playing or changing its games; and how many of its
    games were left out (of unfinished deals, or beyond `tournament.deals`)."""
    _require_reports()
    done = held(out, tournament)
    per_deal = Counter(deal for deal, _, _ in done)
    whole = {
        deal
        for deal, games in per_deal.items()
        if games == tournament.games_per_deal and deal < tournament.deals
    }
    outcomes = [outcome for key, outcome in done.items() if key[0] in whole]
    return _report(tournament, out, outcomes, resamples), len(done) - len(outcomes)


def _require_reports() -> None:
    """Before any game is played or read: the extras the statistics and charts need."""
    require("numpy", "the arena's statistics")
    require("matplotlib", "the arena's charts")


def _report(
    tournament: Tournament, out: Path, outcomes: list[Outcome], resamples: int | None
) -> dict[str, Any]:
    """The results of `outcomes`, written into `out` (results, games table, charts)."""
    from kingdomkit.arena.report import write_reports
    from kingdomkit.arena.stats import BOOTSTRAP, summarize

    results = summarize(tournament, outcomes, BOOTSTRAP if resamples is None else resamples)
    write_reports(out, tournament, results, outcomes)
    return results
