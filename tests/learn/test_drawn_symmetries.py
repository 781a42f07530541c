"""Records kept once with their orbit (learn/symmetries.py): the maps read off each game's
encoder give exactly its images, training draws them, and the window, the buffer file and a
run keep them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")

from kingdomkit.bots.network import header_for, layout_of, observer_of, raw_inputs
from kingdomkit.core.registry import make_game
from kingdomkit.learn import loop
from kingdomkit.learn.__main__ import main
from kingdomkit.learn.records import Records, self_play
from kingdomkit.learn.symmetries import Orbits, drawn, orbit_of
from kingdomkit.learn.train import train
from networks import TINY

TABLES = [
    ("kingdomino", {"players": 2}),
    ("kingdomino", {"players": 2, "mighty_duel": True}),
    ("kingdomino", {"players": 4, "middle_kingdom": True, "harmony": True}),
    ("queendomino", {"players": 2}),
    ("kingdoms", {"players": 3}),
]


def positions(game: Any, seed: int, count: int) -> list[Any]:
    """`count` decision states of random games."""
    rng, found = random.Random(seed), list[Any]()
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.is_chance(state):
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            if rng.random() < 0.15:
                found.append(state)
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    return found[:count]


@pytest.mark.parametrize(("name", "options"), TABLES, ids=[f"{n}-{o}" for n, o in TABLES])
def test_an_orbit_s_maps_give_exactly_the_encoder_s_images(
    name: str, options: dict[str, Any]
) -> None:
    game = make_game(name, options)
    layout = layout_of(header_for(game, TINY))
    encoder = observer_of(game)
    alike: set[bytes] = set()
    for state in positions(game, 7, 12):
        observation = encoder.observe(state, game.current_player(state))
        mask = np.zeros(game.num_actions, bool)
        mask[list(game.legal_actions(state))] = True
        images = encoder.symmetries(observation, mask)
        orbit = orbit_of(encoder, layout, observation, mask, images)
        assert orbit is not None
        assert len(orbit.actions_map) == len(images) > 1
        planes, vector = raw_inputs(layout, [observation, *(i.observation for i in images)])
        for k, image in enumerate(images):
            assert np.array_equal(planes[0].reshape(-1)[orbit.planes_map[k]], planes[1 + k].ravel())
            assert np.array_equal(vector[0][orbit.vector_map[k]], vector[1 + k])
            assert np.array_equal(orbit.actions_map[k], image.actions)
        alike.add(orbit.actions_map.tobytes())
    assert len(alike) <= 2  # a game's positions share a handful of orbits


def test_an_encoder_whose_images_make_numbers_of_their_own_keeps_them_all() -> None:
    """A map read off the probe that does not give the real images is not used."""
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))
    encoder = observer_of(game)

    class Marking:
        """The encoder, but each image's first counter set to 1 (a number from nowhere)."""

        def symmetries(self, observation: Any, mask: Any) -> Any:
            images = encoder.symmetries(observation, mask)
            for image in images[1:]:
                image.observation["counters"] = image.observation["counters"].copy()
                image.observation["counters"][0] = 1
            return images

    state = positions(game, 3, 1)[0]
    observation = encoder.observe(state, game.current_player(state))
    mask = np.zeros(game.num_actions, bool)
    mask[list(game.legal_actions(state))] = True
    images = Marking().symmetries(observation, mask)
    assert orbit_of(Marking(), layout, observation, mask, images) is None


def test_records_kept_once_are_the_same_games_and_draw_every_image() -> None:
    """The same self-play game, kept in every symmetry and kept once: each record kept once,
    turned by each of its maps, is the record of that image, targets and all; and training's
    draw gives each image about as often."""
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))
    every, decisions = self_play(game, "mcts:playouts=8", 3, layout, value_mix=0.5)
    once, same = self_play(game, "mcts:playouts=8", 3, layout, value_mix=0.5, draw=True)
    assert same == decisions and len(every) == 8 * len(once) == 8 * decisions
    assert (once.orbit >= 0).all() and 1 <= len(once.orbits) <= 2
    assert (every.orbit == -1).all() and once.images() == len(every)
    assert np.array_equal(once.value, every.value[::8])
    assert np.array_equal(once.points, every.points[::8])
    orbits = once.orbits
    for k in range(8):
        image = every.planes[k::8].reshape(decisions, -1)
        for row, orbit in enumerate(once.orbit):
            assert np.array_equal(once.planes[row].ravel()[orbits.planes_map[orbit, k]], image[row])
            mask = np.zeros_like(once.mask[row])
            mask[orbits.actions_map[orbit, k]] = once.mask[row]
            assert np.array_equal(mask, every.mask[k + 8 * row])
            policy = np.zeros_like(once.policy[row])
            policy[orbits.actions_map[orbit, k]] = once.policy[row]
            assert np.array_equal(policy, every.policy[k + 8 * row])

    # drawn: each row becomes one of its images, and over many draws every one of them
    expanded = {
        (row, every.planes[k + 8 * row].tobytes(), every.policy[k + 8 * row].tobytes())
        for row in range(decisions)
        for k in range(8)
    }
    seen: dict[int, set[bytes]] = {row: set() for row in range(decisions)}
    generator = np.random.default_rng(5)
    for _ in range(64):
        planes, vector = once.planes.copy(), once.vector.copy()
        mask, policy = once.mask.copy(), once.policy.copy()
        drawn(orbits, once.orbit, planes, vector, mask, policy, generator)
        assert np.array_equal(vector, once.vector)  # Kingdomino's vector does not turn
        for row in range(decisions):
            assert (row, planes[row].tobytes(), policy[row].tobytes()) in expanded
            seen[row].add(planes[row].tobytes() + mask[row].tobytes())
    for row in range(decisions):
        images = [k + 8 * row for k in range(8)]
        assert seen[row] == {every.planes[i].tobytes() + every.mask[i].tobytes() for i in images}


def test_the_window_and_the_buffer_file_keep_the_orbits(tmp_path: Path) -> None:
    game = make_game("kingdomino", {"players": 2})
    layout = layout_of(header_for(game, TINY))
    first, _ = self_play(game, "mcts:playouts=8", 3, layout, draw=True)
    second, _ = self_play(game, "mcts:playouts=8", 4, layout, draw=True)
    every, _ = self_play(game, "mcts:playouts=8", 5, layout)
    # the second game's orbits listed the other way round: the join numbers them anew
    flipped = Orbits(*(column[::-1].copy() for column in vars(second.orbits).values()))
    renumbered = np.where(second.orbit >= 0, len(second.orbits) - 1 - second.orbit, -1)
    second = Records(**{**vars(second), "orbit": renumbered, "orbits": flipped})
    joined = first.joined(second, 10**6).joined(every, 10**6)
    assert len(joined.orbits) <= 2 and len(joined) == len(first) + len(second) + len(every)
    assert (joined.orbit[len(first) + len(second) :] == -1).all()
    for records, at in ((first, 0), (second, len(first))):
        for row, orbit in enumerate(records.orbit):
            turned = joined.orbits.actions_map[joined.orbit[at + row]]
            assert np.array_equal(turned, records.orbits.actions_map[orbit])
    joined.save(tmp_path / "buffer.npz")
    loaded = Records.load(tmp_path / "buffer.npz")
    for name, column in vars(joined).items():
        if name != "orbits":
            assert np.array_equal(getattr(loaded, name), column)
    for name, column in vars(joined.orbits).items():
        assert np.array_equal(getattr(loaded.orbits, name), column)
    # a buffer written before records could be kept once loads as images kept as they are
    before = ("planes", "vector", "mask", "policy", "value", "points")
    np.savez_compressed(tmp_path / "old.npz", **{name: getattr(every, name) for name in before})
    old = Records.load(tmp_path / "old.npz")
    assert (old.orbit == -1).all() and not len(old.orbits) and old.images() == len(every)
    assert len(old.joined(first, 10**6).orbits) == len(first.orbits)


def test_a_run_drawing_symmetries_keeps_positions_and_trains_as_much(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record is then a position, and `--reuse` (2) counts its 8 images: as many samples."""
    args = ["kingdomino", "--players", "2", "--games", "1", "--expert", "mcts:playouts=4"]
    args += ["--player", "neural:playouts=2", "--eval-games", "1"]
    asked: list[int] = []
    trained = train

    def counted(*given: Any, **named: Any) -> Any:
        asked.append(given[3])  # samples
        return trained(*given, **named)

    monkeypatch.setattr(loop, "train", counted)
    out = tmp_path / "run"
    assert main([*args, "--draw-symmetries", "--out", str(out), "--iterations", "1"]) == 0
    kept = json.loads((out / "run.json").read_text())
    assert kept["settings"]["draw_symmetries"] is True
    records = Records.load(out / kept["buffer"])
    positions = kept["progressed"]["positions"]
    assert len(records) == positions and (records.orbit >= 0).all()
    assert asked == [2 * 8 * positions]
    assert main([*args, "--out", str(out), "--iterations", "2"]) == 2  # asked without it
    assert "draw_symmetries" in capsys.readouterr().err
