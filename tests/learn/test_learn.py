"""Training the `neural` bot's network (kingdomkit.learn): the torch model computes what the
numpy network computes, exported weights load back, self-play records come in every symmetry,
and a tiny run checkpoints, survives an interruption, resumes and writes its curve. Skipped
without PyTorch (the `train` extra)."""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import numpy as np  # noqa: E402

from kingdomkit.bots import make_bot  # noqa: E402
from kingdomkit.bots.network import (  # noqa: E402
    Sizes,
    header_for,
    layout_of,
    load_network,
    observer_of,
    random_network,
    raw_inputs,
    save_network,
)
from kingdomkit.core import progress  # noqa: E402
from kingdomkit.core.driver import play, replay_actions  # noqa: E402
from kingdomkit.core.protocol import Game  # noqa: E402
from kingdomkit.core.registry import make_game  # noqa: E402
from kingdomkit.learn import loop  # noqa: E402
from kingdomkit.learn.__main__ import main  # noqa: E402
from kingdomkit.learn.curve import read_csv  # noqa: E402
from kingdomkit.learn.model import PolicyValueNet, export, from_network, torch_outputs  # noqa: E402
from kingdomkit.learn.records import COLUMNS, Recorder, Records, self_play  # noqa: E402
from kingdomkit.learn.train import agreement, explained, fit_scales, train, validate  # noqa: E402
from networks import SETUP_IDS, SETUPS, TINY, saved  # noqa: E402
from processes import started_workers, still_running  # noqa: E402


def states(game: Game[Any], count: int, seed: int) -> list[Any]:
    """`count` decisions of a random game."""
    import random

    rng = random.Random(seed)
    found: list[Any] = []
    state = game.initial_state()
    while len(found) < count and not game.is_terminal(state):
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        found.append(state)
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return found


@pytest.mark.parametrize(
    "heads",
    [(64, 0), (0, 0), (64, 1)],
    ids=["own-value-head", "heads-on-the-trunk", "board-policy"],
)
@pytest.mark.parametrize("options", SETUPS, ids=SETUP_IDS)
def test_the_numpy_network_computes_what_the_torch_model_computes(
    options: dict[str, Any], heads: tuple[int, int]
) -> None:
    game = make_game("kingdomino", options)
    sizes = Sizes(value_hidden=heads[0], board_policy=heads[1])
    header = header_for(game, sizes)
    layout = layout_of(header)
    torch.manual_seed(3)
    model = PolicyValueNet(layout, sizes)
    generator = np.random.default_rng(4)
    with torch.no_grad():
        model.plane_scale.copy_(torch.from_numpy(generator.random(layout.channels, np.float32)))
        model.vector_scale.copy_(torch.from_numpy(generator.random(layout.features, np.float32)))
    network = export(model, header)
    planes = generator.integers(0, 4, (6, layout.channels, layout.side, layout.side))
    vector = generator.integers(0, 60, (6, layout.features))
    raw = planes.astype(np.float32), vector.astype(np.float32)
    scaled = (
        raw[0] * network.arrays["plane_scale"][None, :, None, None],
        raw[1] * network.arrays["vector_scale"],
    )
    for mine, theirs in zip(network.forward(*scaled), torch_outputs(model, *raw), strict=True):
        assert mine.shape == theirs.shape
        assert np.allclose(mine, theirs, rtol=1e-4, atol=1e-4 * max(1.0, np.abs(theirs).max()))
        assert np.ptp(theirs, axis=0).max() > 1e-3  # the positions differ, so do the outputs
    # and on real positions, through the observation encoder and the legal masks
    encoder = observer_of(game)
    found = states(game, 5, 1)
    observations = [encoder.observe(s, game.current_player(s)) for s in found]
    masks = np.array([game.legal_mask(s) for s in found], bool)
    priors = network.evaluate(observations, masks).priors
    logits, _, _ = torch_outputs(model, *raw_inputs(layout, observations))
    expected = torch.softmax(
        torch.from_numpy(logits).masked_fill(~torch.from_numpy(masks), -1e9), 1
    )
    assert np.allclose(priors, expected.numpy(), atol=1e-5)


def test_an_exported_network_loads_back_into_torch_unchanged(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    network = random_network(game, 5, TINY)
    path = tmp_path / "net.npz"
    save_network(path, network.header, export(from_network(network), network.header).arrays)
    loaded = load_network(path)
    for name, array in network.arrays.items():
        assert np.array_equal(loaded.arrays[name], array)


def test_self_play_records_come_in_every_symmetry_with_their_targets() -> None:
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))
    records, decisions = self_play(game, "mcts:playouts=8", 3, layout)
    assert decisions > 20
    assert len(records) == 8 * decisions  # the 8 symmetries of the kingdoms
    assert np.allclose(records.policy.sum(axis=1), 1.0)
    assert not records.policy[~records.mask].any()  # the targets sit on legal actions
    assert ((records.value >= 0) & (records.value <= 1)).all()
    # seat 0 is the player to act: two records of one player's decisions share its outcome
    assert set(np.unique(records.value[:, 0])) <= set(np.unique(records.value))
    assert np.allclose(records.value[:8], records.value[0])  # one decision, 8 images
    images = records.planes[-8:].reshape(8, -1)  # the last decision: kingdoms built
    assert len({row.tobytes() for row in images}) > 1  # the kingdoms turned
    policies = records.policy[-8:]
    assert len({row.tobytes() for row in policies}) > 1 or policies[0].max() == 1.0


def test_records_are_kept_narrow_and_a_file_written_wide_loads_narrowed(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))
    records, _ = self_play(game, "mcts:playouts=8", 3, layout)
    assert records.planes.dtype == np.int8 and records.policy.dtype == np.float16
    assert records.planes.max() > 0
    wide = {"planes": records.planes.astype(np.int16), "policy": records.policy.astype(np.float32)}
    Records(**{**vars(records), **wide}).save(tmp_path / "wide.npz")  # as older runs wrote
    loaded = Records.load(tmp_path / "wide.npz")
    assert loaded.planes.dtype == np.int8 and loaded.policy.dtype == np.float16
    for name in ("planes", "vector", "mask", "policy", "value", "points"):
        assert np.array_equal(getattr(loaded, name), getattr(records, name))
    big = records.planes.astype(np.int16)
    big[0, 0, 0, 0] = 300  # a plane that does not fit int8 stays int16, unchanged
    Records(**{**vars(records), "planes": big}).save(tmp_path / "big.npz")
    assert np.array_equal(Records.load(tmp_path / "big.npz").planes, big)


@pytest.mark.parametrize(
    ("old", "new", "keep"),
    [(10, 4, 6), (10, 4, 20), (10, 8, 8), (10, 9, 5), (0, 4, 3), (10, 0, 4), (10, 4, 0)],
)
def test_the_window_keeps_the_last_records_in_order(old: int, new: int, keep: int) -> None:
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))

    def numbered(first: int, count: int) -> Records:
        """Records whose value column counts first, first + 1, ..."""
        records = Records.empty(layout)
        columns = {
            name: np.zeros((count, *getattr(records, name).shape[1:]), getattr(records, name).dtype)
            for name in COLUMNS
        }
        columns["value"][:, 0] = np.arange(first, first + count)
        return Records(**columns, orbits=records.orbits)

    joined = numbered(0, old).joined(numbered(old, new), keep)
    expected = list(range(old + new))[max(old + new - keep, 0) :]
    assert list(joined.value[:, 0]) == expected
    assert joined.planes.dtype == np.int8 and joined.policy.dtype == np.float16


def test_an_expert_with_gumbel_s_root_records_its_improved_policy(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "n.npz")
    layout = layout_of(load_network(path).header)
    expert = f"neural:weights={path}:playouts=8:gumbel=4"
    records, decisions = self_play(game, expert, 3, layout)
    assert len(records) == 8 * decisions
    assert np.allclose(records.policy.sum(axis=1), 1.0)
    assert not records.policy[~records.mask].any()
    # a search's improved policy is on every legal move, where the visits of a search that
    # considers 4 moves would cover 4 at most (a turn's next decision, a claim of at most 4
    # dominoes, is read from the tree and keeps the visits)
    everywhere = ((records.policy > 0) == records.mask).all(axis=1)
    wide = records.mask.sum(axis=1) > 4
    assert wide.any() and everywhere[wide].all()


def test_with_gumbel_s_root_the_search_values_a_position_by_the_move_it_chose(
    tmp_path: Path,
) -> None:
    game = make_game("kingdomino", {"players": 2})
    path = saved(game, tmp_path / "n.npz")
    bot = make_bot(f"neural:weights={path}:playouts=40:gumbel=8")
    decisions: list[Any] = []
    recorder = Recorder(bot, observer_of(game), decisions)
    state = next(s for s in states(game, 12, 2) if len(game.legal_actions(s)) > 8)
    action = recorder.act(game, state, random.Random(1))
    root = getattr(bot, "root")  # noqa: B009 (an Agent, as make_bot says)
    chosen = root.children[action]
    assert decisions[-1].search == (
        [v / chosen.visits for v in chosen.values],
        [p / chosen.visits for p in chosen.points],
    )
    assert decisions[-1].search[0] != [v / root.visits for v in root.values]


def test_value_targets_mix_the_outcome_with_the_searchs_estimate() -> None:
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))
    outcome, _ = self_play(game, "mcts:playouts=8", 3, layout)
    search, _ = self_play(game, "mcts:playouts=8", 3, layout, value_mix=1.0)
    half, _ = self_play(game, "mcts:playouts=8", 3, layout, value_mix=0.5)
    assert np.array_equal(outcome.policy, search.policy)  # the same game, the same searches
    # the outcome is one number a seat for the whole game; the search's estimate moves
    assert len(np.unique(outcome.value[:, 0])) <= 2 < len(np.unique(search.value[:, 0]))
    assert ((search.value >= 0) & (search.value <= 1)).all()
    assert np.allclose(half.value, (outcome.value + search.value) / 2)
    assert np.allclose(half.points, (outcome.points + search.points) / 2)
    assert not np.allclose(outcome.points, search.points)


TINY_RUN = [
    "kingdomino",
    "--players",
    "2",
    "--games",
    "1",
    "--epochs",
    "1",
    "--expert",
    "mcts:playouts=4",
    "--player",
    "neural:playouts=2",
    "--eval-games",
    "1",
]


def test_a_tiny_run_resumes_after_an_interruption_and_writes_its_curve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out), "--iterations", "1"]) == 0
    first = json.loads((out / "run.json").read_text())
    assert first["progressed"]["iteration"] == 1 and first["progressed"]["games"] == 1

    # interrupted in the middle of iteration 2's self-play: nothing of it is kept
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(loop, "self_play", interrupted)
    with pytest.raises(KeyboardInterrupt):
        main([*TINY_RUN, "--out", str(out), "--iterations", "2"])
    assert json.loads((out / "run.json").read_text()) == first
    monkeypatch.undo()

    # resumed with the run's own settings, its progress logged on standard error (a line
    # at every step here), its figures at the end on standard output
    monkeypatch.setattr(progress, "LOG_EVERY", 0.0)
    capsys.readouterr()
    assert main(["--out", str(out), "--iterations", "2"]) == 0
    said = capsys.readouterr()
    assert "learn: " in said.err and "learn: " not in said.out
    assert said.out.startswith("2 iterations, 2 games of self-play, ")
    kept = json.loads((out / "run.json").read_text())
    assert kept["progressed"]["iteration"] == 2 and kept["progressed"]["games"] == 2
    assert len(kept["commands"]) == 2  # the interrupted one finished no iteration
    assert sorted(p.name for p in out.iterdir()) == [
        "buffer-2.npz",
        "curve.csv",
        "curve.png",
        "model-2.pt",
        "network.npz",
        "run.json",
    ]
    with (out / "curve.csv").open() as source:
        rows = list(csv.DictReader(source))
    assert [int(r["iteration"]) for r in rows] == [1, 2]
    assert [int(r["games"]) for r in rows] == [1, 2]
    assert all(r["opponent"] == "greedy" and 0 <= float(r["win_share"]) <= 1 for r in rows)
    # how the network predicted each iteration's games before training on them
    assert all(float(r["fresh_policy_kl"]) >= 0 for r in rows)
    assert all(np.isfinite(float(r["fresh_value_explained"])) for r in rows)
    older = tmp_path / "older.csv"  # a curve from before these columns reads back
    lines = (out / "curve.csv").read_text().splitlines()
    older.write_text("".join(line.rsplit(",", 4)[0] + "\n" for line in lines))
    assert np.isnan(read_csv(older)[1].fresh_value_explained)
    assert all(0 <= float(r["fresh_policy_agreement"]) <= 1 for r in rows)

    network = load_network(out / "network.npz")
    assert "--iterations 2" in network.header["produced_by"]["command"]
    game = make_game("kingdomino", {"players": 2})
    network.check(game)
    agents = [make_bot(f"neural:weights={out / 'network.npz'}:playouts=2"), make_bot("greedy")]
    played = play(game, agents, seed=11)
    assert replay_actions(game, played.actions) == played.final_state


def test_a_run_measured_but_not_checkpointed_keeps_its_last_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out), "--iterations", "1"]) == 0
    checkpointed = load_network(out / "network.npz").arrays

    def interrupted(*args: Any) -> Any:  # iteration 2 trained, stopped while measured
        raise KeyboardInterrupt

    monkeypatch.setattr(loop, "strength", interrupted)
    with pytest.raises(KeyboardInterrupt):
        main([*TINY_RUN, "--out", str(out), "--iterations", "2"])
    assert (out / "network.next.npz").is_file()
    now = load_network(out / "network.npz").arrays  # what run.json says it is
    assert all(np.array_equal(now[name], array) for name, array in checkpointed.items())
    trained = load_network(out / "network.next.npz").arrays
    assert not all(np.array_equal(trained[name], array) for name, array in checkpointed.items())


def test_a_run_carried_without_its_model_and_buffer_goes_on_from_its_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out), "--iterations", "1"]) == 0
    carried = tmp_path / "carried"  # what docs/runs keeps of a run
    carried.mkdir()
    for name in ("run.json", "network.npz", "curve.csv", "curve.png"):
        (carried / name).write_bytes((out / name).read_bytes())
    network = load_network(out / "network.npz")
    seen: list[tuple[dict[str, Any], int]] = []
    trained = train  # the real one, called by the watcher

    def watched(model: Any, optimizer: Any, records: Records, *rest: Any) -> Any:
        seen.append(({k: v.detach().clone() for k, v in model.state_dict().items()}, len(records)))
        return trained(model, optimizer, records, *rest)

    monkeypatch.setattr(loop, "train", watched)
    assert main(["--out", str(carried), "--iterations", "2"]) == 0
    state, window = seen[0]
    for name, array in network.arrays.items():  # it trained on from the carried weights
        assert np.array_equal(state[name].numpy(), array), name
    kept = json.loads((carried / "run.json").read_text())
    assert kept["progressed"]["iteration"] == 2 and kept["progressed"]["games"] == 2
    assert kept["window_emptied_after"] == [1]
    assert window == len(Records.load(carried / kept["buffer"]))  # iteration 2's games alone
    assert len(read_csv(carried / "curve.csv")) == 2

    monkeypatch.undo()  # resumed again with its own files: nothing more is emptied
    assert main(["--out", str(carried), "--iterations", "3"]) == 0
    kept = json.loads((carried / "run.json").read_text())
    assert kept["window_emptied_after"] == [1] and kept["progressed"]["iteration"] == 3

    other = tmp_path / "other"  # a network of other sizes put in its place is refused
    other.mkdir()
    (other / "run.json").write_bytes((out / "run.json").read_bytes())
    game = make_game("kingdomino", {"players": 2})
    wider = random_network(game, 3, Sizes(channels=4))
    save_network(other / "network.npz", wider.header, wider.arrays)
    assert main(["--out", str(other), "--iterations", "2"]) == 2
    assert "is a network of other sizes" in capsys.readouterr().err


def test_a_run_asked_for_other_settings_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out), "--iterations", "1"]) == 0
    assert main([*TINY_RUN, "--out", str(out), "--iterations", "2", "--games", "2"]) == 2
    assert "other settings (games)" in capsys.readouterr().err
    # the window alone may change as a run goes on; the run keeps the new one
    assert main(["--out", str(out), "--iterations", "2", "--window", "5000"]) == 0
    widened = json.loads((out / "run.json").read_text())
    assert widened["settings"]["window"] == 5000 and widened["progressed"]["iteration"] == 2
    assert main(["--out", str(out), "--iterations", "2", "--window", "0"]) == 2
    assert "--window must be at least 1" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "none")]) == 2
    assert "holds no run" in capsys.readouterr().err
    assert main([*TINY_RUN, "--out", str(tmp_path / "bad"), "--expert", "mcts:depth=x"]) == 2
    assert "mcts: depth is auto, end or a whole number" in capsys.readouterr().err
    assert main([*TINY_RUN, "--out", str(tmp_path / "bad"), "--opponent", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main([*TINY_RUN, "--out", str(tmp_path / "bad"), "--games", str(loop.LIMIT)]) == 2
    assert f"--games must be less than {loop.LIMIT}" in capsys.readouterr().err
    assert main([*TINY_RUN, "--out", str(tmp_path / "bad"), "--value-mix", "1.5"]) == 2
    assert "--value-mix must be between 0 and 1" in capsys.readouterr().err
    for bad in (["--reuse", "-1"], ["--value-weight", "nan"], ["--reuse", "5000"]):
        assert main([*TINY_RUN, "--out", str(tmp_path / "numbers"), *bad]) == 2
        assert "must be between 0 and 1000" in capsys.readouterr().err
    assert not (tmp_path / "numbers").exists()
    wdl = ["--expert", "mcts:playouts=4:score=wdl"]
    assert main([*TINY_RUN, "--out", str(tmp_path / "bad"), *wdl]) == 2
    assert "values positions by score=wdl" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()  # a refused new run leaves no directory behind
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    assert main([*TINY_RUN, "--out", str(kept), "--opponent", "nobody"]) == 2
    assert sorted(p.name for p in kept.iterdir()) == ["notes.txt"]  # nor a file in one
    assert main([*TINY_RUN, "--out", str(tmp_path / "wdl"), *wdl, "--value-mix", "0"]) == 0


def test_a_run_from_before_the_value_mix_resumes_learning_from_outcomes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out), "--iterations", "1", "--value-mix", "0"]) == 0
    saved = json.loads((out / "run.json").read_text())
    for name in ("value_mix", "reuse", "value_weight"):  # as run.json was before them
        del saved["settings"][name]
    (out / "run.json").write_text(json.dumps(saved))
    assert main([*TINY_RUN, "--out", str(out), "--iterations", "1"]) == 2  # the default mixes
    assert "other settings (reuse, value_mix, value_weight)" in capsys.readouterr().err
    as_made = ["--value-mix", "0", "--reuse", "0", "--value-weight", "1"]
    assert main(["--out", str(out), "--iterations", "2"]) == 0  # resumed as it was made
    kept = loop.kept_settings(out)
    assert kept is not None and (kept.value_mix, kept.reuse, kept.value_weight) == (0, 0, 1)
    assert main([*TINY_RUN, "--out", str(out), "--iterations", "2", *as_made]) == 0


def test_training_draws_as_many_records_as_asked_and_learns_what_it_is_shown() -> None:
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))
    records, _ = self_play(game, "mcts:playouts=8", 5, layout, value_mix=1.0)
    torch.manual_seed(0)
    model = PolicyValueNet(layout, TINY)
    fit_scales(model, records)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    before = validate(model, records)
    drawn: list[int] = []
    samples = 60 * len(records) + 37  # 60 passes and part of another
    train(model, optimizer, records, samples, 64, 0, value_weight=30, step=drawn.append)
    assert sum(drawn) == samples and max(drawn) == 64
    after = validate(model, records)  # the records it was shown: it must have learnt them
    assert after.policy_kl < before.policy_kl
    assert after.policy_agreement > max(before.policy_agreement, 0.5)
    assert after.value_explained > max(before.value_explained, 0.2)
    assert after.points_explained > max(before.points_explained, 0.2)
    assert before.policy_kl >= 0 and after.policy_kl >= 0  # a divergence


def test_agreement_counts_the_expert_s_likeliest_moves_where_there_was_a_choice() -> None:
    masks = np.array([[1, 1, 1], [1, 1, 0], [0, 1, 0], [1, 1, 1], [1, 1, 0]], bool)
    targets = np.array(
        [[0.2, 0.7, 0.1], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.6, 0.3, 0.1], [0.0, 0.0, 0.0]]
    )
    logs = np.log(
        np.array([[0.1, 0.8, 0.1], [0.1, 0.9, 0.0], [0.0, 1.0, 0.0], [0.2, 0.7, 0.1], [1, 0, 0]])
        + 1e-9
    )
    # agreed; a tie of visits, either move agrees; one legal move and no search are not asked;
    # the network's first is not the expert's
    assert agreement(logs, targets, masks) == (2, 3)


def test_explained_variance_is_one_for_the_targets_and_zero_for_their_mean() -> None:
    target = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]], np.float32)
    assert explained(target, target) == 1.0
    assert abs(explained(np.full_like(target, target.mean()), target)) < 1e-6
    assert np.isnan(explained(np.ones(3), np.ones(3)))  # targets that do not vary


def test_no_two_games_of_a_run_share_a_seed() -> None:
    last = loop.LIMIT - 1
    seeds = {
        loop.game_seed(run, iteration, game)
        for run in (0, 1, 2)
        for iteration in (0, 1, 2, last)
        for game in (0, 1, last)
    }
    assert len(seeds) == 3 * 4 * 3


def test_self_play_over_two_processes_records_the_same_games(tmp_path: Path) -> None:
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / workers
        argv = [*TINY_RUN, "--games", "2", "--out", str(out), "--workers", workers]
        assert main(argv) == 0
        runs.append(Records.load(out / "buffer-1.npz"))
    one, two = runs
    assert len(one) > 0
    for name in ("planes", "vector", "mask", "policy", "value", "points"):
        assert np.array_equal(getattr(one, name), getattr(two, name))


def test_a_run_killed_in_its_self_play_leaves_no_worker_playing_on(tmp_path: Path) -> None:
    slow = ["--games", "4", "--workers", "2", "--expert", "mcts:playouts=400"]
    command = [sys.executable, "-m", "kingdomkit.learn", *TINY_RUN, *slow]
    with subprocess.Popen([*command, "--out", str(tmp_path / "run")]) as run:
        try:
            workers = started_workers(run.pid)
        finally:
            run.kill()
    assert not still_running(workers)


def test_explored_games_differ_and_the_run_s_own_network_can_be_the_expert(
    tmp_path: Path,
) -> None:
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))
    plain, _ = self_play(game, "mcts:playouts=8", 5, layout)
    explored, _ = self_play(game, "mcts:playouts=8", 5, layout, explore=12)
    assert not np.array_equal(plain.planes[-8:], explored.planes[-8:])
    # AlphaZero's loop: the `neural` bot with the run's latest network plays itself
    out = tmp_path / "alphazero"
    argv = [*TINY_RUN, "--expert", "neural:playouts=3:noise=0.25", "--explore", "4"]
    assert main([*argv, "--out", str(out)]) == 0
    kept = json.loads((out / "run.json").read_text())
    assert kept["settings"]["expert"] == "neural:playouts=3:noise=0.25"
    assert kept["progressed"]["positions"] > 20


def test_a_runs_own_network_plays_with_its_own_values_unless_told() -> None:
    """`neural`'s default is half a playout; a run's curve and expert keep the network's own
    values (mix=0) as they had before, unless the spec says otherwise."""
    net = Path("run/network.npz")
    assert loop.with_weights("neural:playouts=32", net) == (
        "neural:playouts=32:weights=run/network.npz:mix=0"
    )
    assert loop.with_weights("neural:mix=0.5", net) == "neural:mix=0.5:weights=run/network.npz"
    assert loop.with_weights("neural:weights=x.npz", net) == "neural:weights=x.npz"
    assert loop.with_weights("mcts:playouts=200", net) == "mcts:playouts=200"


def test_a_new_run_trains_on_from_a_network_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--start`: the weights and input scales of an earlier run's network, its provenance
    kept in the new network's header; a network of another table is refused in words."""
    first = tmp_path / "first"
    assert main([*TINY_RUN, "--out", str(first), "--iterations", "1"]) == 0
    start = load_network(first / "network.npz")
    assert any(not np.all(a == 1) for n, a in start.arrays.items() if n.endswith("scale"))

    settings = loop.Settings(
        game="kingdomino", options={"players": 2}, start=str(first / "network.npz")
    )
    begun = loop.Run(tmp_path / "second", settings, "test")
    for name, array in export(begun.model, begun.header).arrays.items():
        np.testing.assert_array_equal(array, start.arrays[name])

    then = tmp_path / "then"
    argv = [*TINY_RUN, "--out", str(then), "--start", str(first / "network.npz")]
    assert main([*argv, "--iterations", "1"]) == 0
    header = load_network(then / "network.npz").header
    assert header["started_from"] == start.header["produced_by"]
    assert main([*argv, "--iterations", "2"]) == 0  # resumed with the same start
    assert load_network(then / "network.npz").header["started_from"] == header["started_from"]

    # a network from before the value head of its own (heads on the trunk; no value_hidden
    # in its header) starts a run of its own sizes
    older = tmp_path / "older.npz"
    net = random_network(make_game("kingdomino", {"players": 2}), 1, Sizes(value_hidden=0))
    header = {**net.header, "sizes": {**net.header["sizes"]}}
    del header["sizes"]["value_hidden"]
    save_network(older, header, net.arrays)
    argv = [*TINY_RUN, "--out", str(tmp_path / "from-older"), "--start", str(older)]
    assert main([*argv, "--iterations", "1"]) == 0
    assert load_network(tmp_path / "from-older" / "network.npz").sizes.value_hidden == 0

    four = tmp_path / "four.npz"
    net = random_network(make_game("kingdomino", {"players": 4}))
    save_network(four, net.header, net.arrays)
    assert main([*TINY_RUN, "--out", str(tmp_path / "bad"), "--start", str(four)]) == 2
    assert "error:" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()
    assert main([*TINY_RUN, "--out", str(tmp_path / "bad"), "--start", str(tmp_path)]) == 2
    assert "no network file" in capsys.readouterr().err


def test_a_run_with_a_board_policy_trains_resumes_and_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--board-policy`: the network's placements get logits of their own cells; the run
    resumes as one, its network plays; a game whose encoding maps no action to a cell, or a
    start network without a board policy, is refused in words."""
    out = tmp_path / "board"
    assert main([*TINY_RUN, "--board-policy", "--out", str(out), "--iterations", "1"]) == 0
    assert main(["--out", str(out), "--iterations", "2"]) == 0
    network = load_network(out / "network.npz")
    assert network.sizes.board_policy == 1 and "board_policy.weight" in network.arrays
    assert json.loads((out / "run.json").read_text())["progressed"]["iteration"] == 2
    game = make_game("kingdomino", {"players": 2})
    played = play(game, [make_bot(f"neural:weights={out / 'network.npz'}:playouts=4")] * 2, 3)
    assert replay_actions(game, played.actions) == played.final_state

    plain = tmp_path / "plain.npz"
    net = random_network(game, 1, TINY)
    save_network(plain, net.header, net.arrays)
    argv = [*TINY_RUN, "--board-policy", "--start", str(plain), "--out", str(tmp_path / "b")]
    assert main(argv) == 2
    assert "is a network without one" in capsys.readouterr().err
    queendomino = ["queendomino", "--players", "2", "--board-policy", "--games", "1"]
    assert main([*queendomino, "--out", str(tmp_path / "q")]) == 2
    assert "maps no action to a cell" in capsys.readouterr().err
    assert not (tmp_path / "q").exists()


def test_holdout_measures_fresh_designs_on_a_runs_newest_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kingdomkit.learn import holdout

    out = tmp_path / "run"
    assert main([*TINY_RUN, "--games", "2", "--out", str(out), "--iterations", "1"]) == 0
    capsys.readouterr()
    argv = [str(out), "--design", "board_policy=0", "--design", "board_policy=1,trunk=8"]
    assert holdout.main([*argv, "--passes", "2", "--share", "0.25", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(m["design"], m["passes"]) for m in found] == [
        ("board_policy=0", 1),
        ("board_policy=0", 2),
        ("board_policy=1,trunk=8", 1),
        ("board_policy=1,trunk=8", 2),
    ]
    assert all(m["policy_kl"] > 0 and np.isfinite(m["value_explained"]) for m in found)
    assert all(0 <= m["policy_agreement"] <= 1 for m in found)
    assert found[0]["policy_kl"] != found[2]["policy_kl"]  # two designs, two networks
    for wrong, words in (
        (["--design", "size=3"], "give name=number pairs"),
        (["--design", "trunk=-1"], "give name=number pairs"),
        (["--share", "1"], "--share must be between 0 and 1"),
        (["--passes", "0"], "--passes must be between 1 and 100"),
    ):
        assert holdout.main([str(out), *wrong]) == 2
        assert words in capsys.readouterr().err
    assert holdout.main([str(tmp_path / "none")]) == 2
    assert "holds no training run" in capsys.readouterr().err


def test_screen_measures_networks_on_the_same_fresh_games_of_an_expert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kingdomkit.learn import screen

    game = make_game("kingdomino", {"players": 2})
    one, two = saved(game, tmp_path / "one.npz", 1), saved(game, tmp_path / "two.npz", 2)
    argv = [str(one), str(two), "--expert", "mcts:playouts=8", "--games", "2"]
    assert screen.main([*argv, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["expert"], found["games"], found["value_mix"]) == ("mcts:playouts=8", 2, 1)
    assert 40 <= found["decisions"] <= 2 * 48  # claims and placements with a choice
    first, second = found["networks"]
    assert (first["network"], second["network"]) == (str(one), str(two))
    for figures in (first, second):
        assert figures["policy_kl"] > 0 and 0 <= figures["policy_agreement"] <= 1
        assert np.isfinite(figures["value_explained"])
    assert first["policy_kl"] != second["policy_kl"]  # two networks, one set of games
    assert screen.main([str(one), *argv[2:], "--json"]) == 0  # the same games again
    assert json.loads(capsys.readouterr().out)["networks"] == [first]
    assert screen.main([str(one), *argv[2:], "--seed", "5", "--json"]) == 0  # other games
    assert json.loads(capsys.readouterr().out)["networks"][0]["policy_kl"] != first["policy_kl"]
    assert screen.main([str(one), *argv[2:], "--value-mix", "0", "--json"]) == 0  # outcomes
    outcomes = json.loads(capsys.readouterr().out)
    assert outcomes["value_mix"] == 0 and outcomes["decisions"] == found["decisions"]
    assert outcomes["networks"][0]["policy_kl"] == first["policy_kl"]  # the same games
    assert outcomes["networks"][0]["value_explained"] != first["value_explained"]
    again = screen.main([str(two), str(one), "--expert", "mcts:playouts=8", "--games", "2"])
    table = capsys.readouterr().out
    assert again == 0 and "2 games of mcts:playouts=8" in table and "expert's estimates" in table
    cells = "".join(line.split("│")[1].strip() for line in table.splitlines() if "│" in line)
    assert f"{two}{one}" in cells  # each path whole, folded in a narrow terminal
    duel = saved(make_game("kingdomino", {"players": 2, "mighty_duel": True}), tmp_path / "d.npz")
    for wrong, words in (
        ([str(one), str(duel)], "is not for what"),
        ([str(one), "--games", "0"], "--games must be between 1 and"),
        ([str(one), "--workers", "0"], "--workers must be between 1 and 64"),
        ([str(one), "--seed", "-1"], "--seed must be a whole number from 0"),
        ([str(one), "--value-mix", "1.5"], "--value-mix must be between 0 and 1"),
        ([str(tmp_path / "none.npz")], "no network file"),
    ):
        assert screen.main(wrong) == 2
        assert words in capsys.readouterr().err


@pytest.mark.parametrize(
    "command", ["kingdomkit.learn", "kingdomkit.learn.holdout", "kingdomkit.learn.screen"]
)
def test_without_the_train_extra_a_command_says_what_to_install(command: str) -> None:
    hide_torch = (
        "import runpy, sys; sys.modules['torch'] = None; sys.argv = ['x', '--help']; "
        f"runpy.run_module({command!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", hide_torch], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"python -m {command} needs torch: pip install 'kingdomkit[train]'"
    )
