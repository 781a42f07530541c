"""The training example (kingdomkit.rl.train): its shaped rewards add up to the final margin,
the policy only ever plays legal actions, and a short run writes its curve, chart, weights and
summary. Skipped without PyTorch (the `train` extra) or numba."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

import numpy as np
import torch

from kingdomkit.rl.policy import ILLEGAL_LOGIT, KingdominoPolicy, act, batch_observation
from kingdomkit.rl.train import main, potential, wilson
from kingdomkit.rl.vector import KingdomkitVectorEnv


def test_shaped_rewards_add_up_to_the_final_margin() -> None:
    envs = KingdomkitVectorEnv(8, "kingdomino", "greedy", seat=None, reward="margin", players=2)
    observations, _ = envs.reset(seed=3)
    totals = np.zeros(8)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(200):
        mask = observations["action_mask"]
        before = potential(observations)
        observations, _, terminations, _, infos = envs.step(
            (mask * rng.random(mask.shape)).argmax(axis=1)
        )
        totals += np.where(mask.any(axis=1), potential(observations) - before, 0.0)
        for i in np.flatnonzero(terminations):
            scores = infos["scores"][i]
            seat = infos["seat"][i]
            assert totals[i] == scores[seat] - scores[1 - seat]
            totals[i] = 0.0
            checked += 1
    assert checked >= 8


@pytest.mark.parametrize(
    "options",
    [{"players": 2}, {"players": 3, "mighty_duel": False}, {"players": 2, "mighty_duel": True}],
    ids=str,
)
def test_policy_plays_only_legal_actions(options: dict[str, Any]) -> None:
    torch.manual_seed(0)
    envs = KingdomkitVectorEnv(16, "kingdomino", None, **options)
    net = KingdominoPolicy.for_game(envs.game)
    observations, _ = envs.reset(seed=1)
    for _ in range(60):
        batch = batch_observation(observations)
        logits, values = net(batch)
        assert logits.shape == (16, envs.game.num_actions) and values.shape == (16,)
        assert (logits[~batch["mask"]] == ILLEGAL_LOGIT).all()
        actions, _, _ = act(net, batch)
        legal = observations["action_mask"][np.arange(16), actions.numpy()]
        ended = ~observations["action_mask"].any(axis=1)
        assert (legal == 1)[~ended].all()
        observations, _, _, _, infos = envs.step(actions.numpy())
        assert not infos["illegal_action"].any()


def test_wilson_interval() -> None:
    low, high = wilson(90, 100)
    assert 0.82 < low < 0.84 and 0.94 < high < 0.95
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_a_short_run_writes_its_files(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "--minutes",
            "0.25",
            "--envs",
            "8",
            "--eval-every",
            "5",
            "--eval-games",
            "8",
            "--final-games",
            "16",
            "--out",
            str(out),
            "--threads",
            "1",
        ]
    )
    assert code == 0
    with (out / "curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) >= 2 and rows[-1]["steps"] != "0"
    assert 0.0 <= float(rows[-1]["random_win_rate"]) <= 1.0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["steps"] > 0 and summary["last"]["steps"] == int(rows[-1]["steps"])
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    state = torch.load(out / "policy.pt")
    net = KingdominoPolicy.for_game(KingdomkitVectorEnv(1, players=2).game)
    net.load_state_dict(state)


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--minutes", "0"])
    assert "must be positive" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--minutes", "1", "--out", "/proc/no-such-place"])
    assert "cannot write the results to /proc/no-such-place" in capsys.readouterr().err
