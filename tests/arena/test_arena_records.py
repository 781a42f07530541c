"""The tournament results kept in the repository (docs/runs) are whole and consistent.

Runs too long for one session keep their games.jsonl in docs/runs, so the next session resumes
them; docs/strength.md quotes figures from them. These tests read them as `kingdomkit arena`
does when it resumes, so a damaged or hand-edited file fails here rather than in a long run.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kingdomkit.arena.schedule import Tournament
from kingdomkit.arena.store import CONFIG, FORMAT, GAMES, read_games, stored
from paths import DOCS

RUNS = sorted(path.parent for path in (DOCS / "runs").glob(f"*/{CONFIG}"))


def tournament_of(run: Path) -> Tournament:
    config = json.loads((run / CONFIG).read_text(encoding="utf-8"))
    assert config["format"] == FORMAT
    tournament = stored(run)
    read = tournament.to_json()  # a run from before a setting existed has no line for it
    assert {key: read[key] for key in config if key != "format"} == {
        key: value for key, value in config.items() if key != "format"
    }
    return tournament


def test_the_repository_keeps_the_mighty_duel_run() -> None:
    assert DOCS / "runs" / "h2h-5s-duel" in RUNS


@pytest.mark.parametrize("run", RUNS, ids=[run.name for run in RUNS])
def test_a_kept_run_reads_back_whole(run: Path, tmp_path: Path) -> None:
    # read_games cuts a last line left without its newline, so it reads a copy.
    copy = tmp_path / GAMES
    shutil.copyfile(run / GAMES, copy)
    lines = [line for line in copy.read_text(encoding="utf-8").splitlines() if line.strip()]
    tournament = tournament_of(run)

    outcomes = read_games(copy, tournament)

    assert copy.read_bytes() == (run / GAMES).read_bytes(), "a line was cut short"
    assert len(outcomes) == len(lines), "a game is recorded twice"
    for outcome in outcomes.values():
        assert outcome.deal < tournament.deals
        best = max(outcome.scores)
        assert outcome.winners, outcome.key
        assert all(outcome.scores[seat] == best for seat in outcome.winners), outcome.key
        assert sum(outcome.returns) == pytest.approx(1.0), outcome.key
        assert outcome.seconds > 0
