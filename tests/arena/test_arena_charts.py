"""The arena's charts: every bot's spec readable, however long, with no layout warning."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from kingdomkit.arena.outcome import Outcome
from kingdomkit.arena.report import LABEL_LETTERS, bot_label, write_charts

pytest.importorskip("matplotlib")

LONG = "neural:weights=docs/runs/learn-md/network.npz:time=0.25:batch=8"


def test_a_long_spec_is_broken_at_its_colons_and_keeps_every_letter() -> None:
    label = bot_label(LONG)
    assert label.replace("\n", "") == LONG
    assert label.splitlines() == [
        "neural",
        ":weights=docs/runs/learn-md/network.npz",
        ":time=0.25:batch=8",
    ]
    assert bot_label("mcts:time=0.25") == "mcts:time=0.25"
    for line in bot_label("a:bb:ccc:" + "d" * 30 + ":e").splitlines():
        assert len(line) <= LABEL_LETTERS or line.count(":") == 1


@pytest.mark.parametrize("bots", [[LONG, "mcts:time=0.25"], [LONG, LONG + ":c=2", "greedy"]])
def test_charts_of_long_specs_draw_with_no_warning(bots: list[str], tmp_path: Path) -> None:
    # A 2-bot gauntlet of a neural spec with its weights' path made matplotlib warn that
    # "constrained_layout not applied", a message that reached the user.
    results = {
        "games": 4,
        "bots": [
            {"bot": bot, "elo": {"mean": 10.0 * i, "low": -50.0, "high": 60.0}}
            for i, bot in enumerate(bots)
        ],
    }
    outcomes = [
        Outcome(
            deal, 0, 0, deal, (bots[0], bots[1]), (30.0 + deal, 25.0), (1.0, -1.0), (0,), 40, 1.0
        )
        for deal in range(4)
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paths = write_charts(tmp_path, results, outcomes)
    assert [path.name for path in paths] == ["ratings.png", "scores.png"]
    assert all(path.stat().st_size > 1000 for path in paths)
