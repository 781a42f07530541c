"""A symmetry drawn at training time, so that a record is a position, not one of its images.

A record that enters in all its symmetries (8 for Kingdomino) takes eight times the memory of
one position, so a replay window of a given size keeps an eighth of the games. Instead a
record may be kept once, with its *orbit*: for each symmetry, where each of the network's
inputs of the image comes from in the record's (planes flattened, then the vector), and the
image of every action. Training then draws one symmetry per record and minibatch (`drawn`).

The maps are read off the encoder itself, so that no game has to state them twice: its
`symmetries` are called once more on a *probe*, the observation with every number replaced
by its own index, and each input of an image says by its value where it came from. A map is
used only when it gives, from the real record, exactly the inputs and masks the encoder's
images have; a position where it does not (an encoder whose images make numbers of their
own) keeps all its images, as before. A game's positions share a handful of orbits (two in
Kingdomino: the acting domino's squares alike or not), kept once per run (`Orbits`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kingdomkit.bots.network import Layout, raw_inputs

Array = NDArray[Any]
INDEX = np.int32  # maps index a record's inputs and actions


@dataclass(frozen=True)
class Orbit:
    """One orbit's maps, a row per symmetry (the identity first): image planes (flattened) =
    planes[planes_map], image vector = vector[vector_map], and a vector over actions v
    becomes w with w[actions_map] = v (`rl.observation.Symmetry`)."""

    planes_map: Array  # (K, C * S * S)
    vector_map: Array  # (K, V)
    actions_map: Array  # (K, A)


@dataclass(frozen=True)
class Orbits:
    """Every orbit a run's records point to (their `orbit` column), stacked."""

    planes_map: Array  # (M, K, C * S * S)
    vector_map: Array  # (M, K, V)
    actions_map: Array  # (M, K, A)

    def __len__(self) -> int:
        return len(self.actions_map)

    @classmethod
    def empty(cls, planes: int, features: int, actions: int) -> Orbits:
        """No orbits, for records of `planes` plane cells, `features` and `actions`."""
        return cls(
            np.zeros((0, 0, planes), INDEX),
            np.zeros((0, 0, features), INDEX),
            np.zeros((0, 0, actions), INDEX),
        )

    @classmethod
    def of(cls, orbits: Sequence[Orbit], layout: Layout) -> Orbits:
        """`orbits` stacked, numbered in their order."""
        if not orbits:
            return cls.empty(layout.channels * layout.side**2, layout.features, layout.actions)
        return stacked(orbits)

    def orbit(self, index: int) -> Orbit:
        return Orbit(self.planes_map[index], self.vector_map[index], self.actions_map[index])

    def merged(self, other: Orbits) -> tuple[Orbits, Array]:
        """These orbits and those of `other` not among them; and for each of `other`'s, its
        index in the result."""
        if not len(other):
            return self, np.zeros(0, INDEX)
        if not len(self):
            return other, np.arange(len(other), dtype=INDEX)
        known = {key(self.orbit(i)): i for i in range(len(self))}
        added: list[Orbit] = []
        where = np.zeros(len(other), INDEX)
        for i in range(len(other)):
            orbit = other.orbit(i)
            found = known.get(key(orbit))
            if found is None:
                found = known[key(orbit)] = len(self) + len(added)
                added.append(orbit)
            where[i] = found
        if not added:
            return self, where
        return stacked([*map(self.orbit, range(len(self))), *added]), where


def stacked(orbits: Sequence[Orbit]) -> Orbits:
    """`orbits` (at least one) stacked, numbered in their order."""
    return Orbits(
        np.stack([o.planes_map for o in orbits]),
        np.stack([o.vector_map for o in orbits]),
        np.stack([o.actions_map for o in orbits]),
    )


def key(orbit: Orbit) -> bytes:
    """What tells two orbits apart: all their maps."""
    return orbit.planes_map.tobytes() + orbit.vector_map.tobytes() + orbit.actions_map.tobytes()


def orbit_of(
    encoder: Any, layout: Layout, observation: dict[str, Array], mask: Array, images: Sequence[Any]
) -> Orbit | None:
    """The orbit of the position behind `observation` whose symmetries (the encoder's, for
    `mask`) are `images`, or None when maps read off a probe do not give them (module card)."""
    probe: dict[str, Array] = {}
    at = 1  # 0 stays free: an image's number that comes from nowhere reads as 0
    for name, array in observation.items():
        size = int(np.size(array))
        probe[name] = np.arange(at, at + size, dtype=np.float64).reshape(np.shape(array))
        at += size
    if at >= 1 << 24:  # the inputs are float32: beyond this an index is not exact
        return None
    probed = encoder.symmetries(probe, mask)
    if len(probed) != len(images):
        return None
    planes, vector = raw_inputs(layout, [probe, *(image.observation for image in probed)])
    flat = planes.reshape(len(planes), -1).astype(np.int64)
    vector_ids = vector.astype(np.int64)
    where = np.full(at, -1, np.int64)
    where[flat[0]] = np.arange(flat.shape[1])
    planes_map = where[flat[1:]]
    where[:] = -1
    where[vector_ids[0]] = np.arange(vector_ids.shape[1])
    vector_map = where[vector_ids[1:]]
    if (planes_map < 0).any() or (vector_map < 0).any():
        return None
    actions_map = np.stack([np.asarray(image.actions) for image in images])
    orbit = Orbit(planes_map.astype(INDEX), vector_map.astype(INDEX), actions_map.astype(INDEX))
    if not reproduces(orbit, layout, observation, mask, images):
        return None
    return orbit


def reproduces(
    orbit: Orbit, layout: Layout, observation: dict[str, Array], mask: Array, images: Sequence[Any]
) -> bool:
    """Whether `orbit`'s maps give, from the real position, exactly the encoder's images."""
    planes, vector = raw_inputs(layout, [observation, *(image.observation for image in images)])
    flat = planes.reshape(len(planes), -1)
    for k, image in enumerate(images):
        turned = np.zeros_like(mask)
        turned[orbit.actions_map[k]] = mask
        if not (
            np.array_equal(flat[0][orbit.planes_map[k]], flat[1 + k])
            and np.array_equal(vector[0][orbit.vector_map[k]], vector[1 + k])
            and np.array_equal(turned, np.asarray(image.action_mask, bool))
        ):
            return False
    return True


def drawn(
    orbits: Orbits,
    orbit: Array,
    planes: Array,
    vector: Array,
    mask: Array,
    policy: Array,
    generator: np.random.Generator,
) -> None:
    """Turns each row of a minibatch whose `orbit` is not -1 (a record kept once) by a
    symmetry drawn from its orbit, in place: its planes (B, C, S, S), vector, mask and
    policy."""
    rows = np.flatnonzero(orbit >= 0)
    if not len(rows) or not len(orbits):
        return
    chosen = orbit[rows]
    k = generator.integers(orbits.actions_map.shape[1], size=len(rows))
    flat = planes[rows].reshape(len(rows), -1)
    turned = np.take_along_axis(flat, orbits.planes_map[chosen, k], axis=1)
    planes[rows] = turned.reshape(planes[rows].shape)
    vector[rows] = np.take_along_axis(vector[rows], orbits.vector_map[chosen, k], axis=1)
    actions = orbits.actions_map[chosen, k]
    for column in (mask, policy):
        turned = np.zeros_like(column[rows])
        np.put_along_axis(turned, actions, column[rows], axis=1)
        column[rows] = turned
