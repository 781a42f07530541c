"""sb3-contrib's MaskablePPO trains on every game's Gymnasium env as it is
(kingdomkit.rl.maskable_ppo)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from kingdomkit.rl.maskable_ppo import evaluate, main, make_env, train

GAMES = ["kingdomino", "queendomino", "kingdoms"]


@pytest.mark.parametrize("game", GAMES)
def test_the_env_gives_maskable_ppo_the_legal_moves(game: str) -> None:
    env = make_env(game, "random", {"players": 2})
    _, info = env.reset(seed=3)
    for _ in range(30):
        masks = env.get_wrapper_attr("action_masks")()
        assert masks.dtype == np.bool_
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        legal = np.flatnonzero(masks)
        assert legal.size
        _, _, terminated, _, info = env.step(int(legal[-1]))
        if terminated:
            break


@pytest.mark.parametrize("game", GAMES)
def test_a_short_training_plays_only_legal_moves(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where SB3 would log unasked
    model = train(game, "random", {"players": 2}, 128, seed=1, n_steps=64, batch_size=32)
    assert list(tmp_path.glob("SB3-*")) == []  # no empty log directory left behind
    result = evaluate(model, game, "random", {"players": 2}, games=2)
    assert result.games == 2
    assert result.illegal == 0
    assert -1.0 <= result.mean_reward <= 1.0


def test_the_example_writes_a_model_that_loads_and_plays_the_same(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert main(["--steps", "256", "--eval-games", "3", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["game"] == "kingdomino"
    assert summary["evaluation"]["games"] == 3
    assert summary["evaluation"]["illegal"] == 0
    model = MaskablePPO.load(out / "model.zip", device="cpu")
    env = make_env("kingdomino", "random", {"players": 2})
    observation, info = env.reset(seed=5)
    mask = info["action_mask"].astype(bool)
    action, _ = model.predict(observation, action_masks=mask, deterministic=True)
    assert mask[int(action)]
    again = evaluate(model, "kingdomino", "random", {"players": 2}, games=3)
    assert again.wins == summary["evaluation"]["wins"]
