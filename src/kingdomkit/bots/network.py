"""A policy-value network for search bots, run with numpy alone (no PyTorch at play time).

The network reads a game's observation encoding (its `observation` capability) from the
acting player's seat and gives, for a batch of positions, the priors over the game's actions
(softmax of the logits over the legal ones), each seat's value (the `relative` outcome of
bots/outcome.py, in [0, 1]) and each seat's expected final points. docs/learning.md argues the
design; kingdomkit/learn/model.py is the same network in torch, for training.

    planes (C, S, S) -> conv3x3 (K) -> ReLU -> conv3x3 (K) -> ReLU = board
    board -> conv1x1 (R) -> ReLU -> flatten (R S S)                                 \\
    vector (V)       -> dense (H) -> ReLU  -------------------------------------- concat
                     -> dense (T) -> ReLU = trunk -> dense (num_actions)  logits

    with board_policy: board -> conv1x1 (F) = the board's logits, added to the logits of
    the actions on the board (a placement: the plane of its facing, the cell of its square)

    vector, board's mean over the cells (K) = outlook (V + K)
    outlook -> dense (J) -> ReLU, concat outlook -> dense (P) -> sigmoid   values
                                                 -> dense (P) * 100        points

The value and points heads read the position's numbers (scores, counters, the line) and the
board's features pooled over the cells, through one hidden layer beside a linear path, not
the trunk: measured on a run's records, the trunk's heads memorised each game's positions and
explained less of the value in games they had not seen than a linear fit of the vector
(docs/learning.md). `value_hidden` (J) 0 is the older design, the heads reading the trunk
(dense (P) from T), which network files from before it keep.

`board_policy` 1 gives each action on the board a logit of its own cell (the encoder's
`action_cells`: F planes of S x S, one per way a piece faces), from the board's features
before they are squeezed through the trunk: a placement's logit then comes from the squares
around it, as in AlphaZero's policy planes, and turns with the kingdom. The dense logits stay
for every action (claims, the discard) and the two add. 0, the older design, is the dense
layer alone.

Planes are the observation's rank-3 arrays stacked as channels, the vector its other arrays
flattened, both in name order, each channel and feature times a fixed scale kept with the
weights (`plane_scale`, `vector_scale`).

A network file is one `.npz`: the arrays above by name (torch's layout: dense weights are
(out, in), convolutions (out, in, kh, kw)) and `header`, a JSON text: the file format, the
game and options it was trained for, the encoder's version and array shapes, the number of
actions, the sizes, and `produced_by` (the command and commit that made it). Loading checks
all of it, and a network is only used for the game it fits (`check`): anything else is an
OptionError that says what does not match.
"""

from __future__ import annotations

import functools
import json
import math
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from kingdomkit.core.protocol import Game, OptionError
from kingdomkit.core.registry import shape_of
from kingdomkit.core.shape import capability

FORMAT = 1
POINTS_SCALE = 100.0  # the points head's output unit
MAX_FILE_BYTES = 64 << 20  # a network file larger than this is refused
Array = NDArray[Any]
Observation = Mapping[str, Array]


@dataclass(frozen=True)
class Sizes:
    """The widths of the layers (see the card)."""

    channels: int = 32
    reduced: int = 4
    hidden: int = 64
    trunk: int = 128
    value_hidden: int = 64  # J; 0: the value and points heads read the trunk (see the card)
    board_policy: int = 0  # 1: logits of the board's actions from its cells (see the card)

    @classmethod
    def of(cls, kept: Mapping[str, int]) -> Sizes:
        """Sizes as a header or run.json keeps them: those from before `value_hidden` had
        heads on the trunk, those from before `board_policy` a dense policy alone."""
        return cls(**{"value_hidden": 0, "board_policy": 0, **kept})


@dataclass(frozen=True)
class Layout:
    """How a game's observations become the network's inputs, and how many outputs."""

    planes: tuple[str, ...]  # names of the rank-3 arrays, stacked as channels
    vectors: tuple[str, ...]  # names of the others, flattened
    shapes: dict[str, tuple[int, ...]]
    actions: int
    players: int
    action_planes: int = 0  # F: the planes of the board's actions (0: no map)
    action_cells: tuple[int, ...] = ()  # per action, its element of (F, S, S) flat, or -1

    @cached_property
    def channels(self) -> int:
        return sum(self.shapes[name][0] for name in self.planes)

    @cached_property
    def side(self) -> int:
        return self.shapes[self.planes[0]][1]

    @cached_property
    def widths(self) -> tuple[int, ...]:
        """The flattened size of each vector array, in `vectors`' order (computed once:
        it is read for every batch)."""
        return tuple(math.prod(self.shapes[name]) for name in self.vectors)

    @cached_property
    def features(self) -> int:
        return sum(self.widths)

    def array_shapes(self, sizes: Sizes) -> dict[str, tuple[int, ...]]:
        """Every weight array of a network of `sizes` for this layout, by name."""
        k, r, h, t = sizes.channels, sizes.reduced, sizes.hidden, sizes.trunk
        c, s, v, a, p = self.channels, self.side, self.features, self.actions, self.players
        j = sizes.value_hidden
        heads = t if j == 0 else j + v + k  # what the value and points layers read
        value_hidden = {"value_hidden.weight": (j, v + k), "value_hidden.bias": (j,)} if j else {}
        f = self.action_planes
        board_policy = (
            {"board_policy.weight": (f, k, 1, 1), "board_policy.bias": (f,)}
            if sizes.board_policy
            else {}
        )
        return {
            "plane_scale": (c,),
            "vector_scale": (v,),
            "conv1.weight": (k, c, 3, 3),
            "conv1.bias": (k,),
            "conv2.weight": (k, k, 3, 3),
            "conv2.bias": (k,),
            "reduce.weight": (r, k, 1, 1),
            "reduce.bias": (r,),
            "vector.weight": (h, v),
            "vector.bias": (h,),
            "trunk.weight": (t, r * s * s + h),
            "trunk.bias": (t,),
            "policy.weight": (a, t),
            "policy.bias": (a,),
            **board_policy,
            **value_hidden,
            "value.weight": (p, heads),
            "value.bias": (p,),
            "points.weight": (p, heads),
            "points.bias": (p,),
        }


def observer_of(game: Game[Any]) -> Any:
    """The configured `game`'s observation encoder (its `observation` capability);
    OptionError when it has none."""
    found = capability(game, "observation", shape_of(game).capabilities.observation)
    if found is None:
        raise OptionError(f"{game.name} has no observation encoding: no network can play it")
    return found


def game_facts(game: Game[Any]) -> dict[str, Any]:
    """What a network file says about the game it fits (compared by `Network.check`)."""
    encoder = observer_of(game)
    spec = encoder.spec()
    return {
        "game": game.name,
        "options": json.loads(json.dumps(dict(game.options), sort_keys=True)),
        "encoder_version": int(encoder.version),
        "observation": {name: list(spec[name].shape) for name in sorted(spec)},
        "actions": int(game.num_actions),
        "players": int(game.num_players),
    }


def layout_of(facts: Mapping[str, Any]) -> Layout:
    shapes = {name: tuple(int(d) for d in shape) for name, shape in facts["observation"].items()}
    planes = tuple(name for name in sorted(shapes) if len(shapes[name]) == 3)
    vectors = tuple(name for name in sorted(shapes) if len(shapes[name]) != 3)
    if not planes or len({shapes[name][1:] for name in planes}) != 1:
        raise OptionError("a network needs observation planes of one square size")
    actions = int(facts["actions"])
    board = facts.get("action_cells") or {"planes": 0, "cells": []}
    cells = tuple(int(cell) for cell in board["cells"])
    side = shapes[planes[0]][1]
    if cells and (
        len(cells) != actions
        or not all(-1 <= cell < board["planes"] * side * side for cell in cells)
    ):
        raise OptionError("the network's action cells do not fit its actions and planes")
    return Layout(planes, vectors, shapes, actions, int(facts["players"]), board["planes"], cells)


def action_cells(game: Game[Any]) -> dict[str, Any]:
    """The map of the configured `game`'s board actions to cells (its encoder's
    `action_cells`), as a header keeps it; OptionError when the encoder has none."""
    encoder = observer_of(game)
    found = getattr(encoder, "action_cells", None)
    if found is None:
        raise OptionError(
            f"{game.name}'s observation encoding maps no action to a cell: its networks take "
            "board_policy 0"
        )
    planes, cells = found()
    return {"planes": int(planes), "cells": [int(cell) for cell in cells]}


class Evaluation(NamedTuple):
    """A batch's outputs: priors (B, actions), zero off the mask; values and points (B, P),
    per seat (seat i is the observer's i-th successor)."""

    priors: Array
    values: Array
    points: Array


class Network:
    """A loaded policy-value network (see the card): `evaluate` a batch of positions."""

    def __init__(self, header: Mapping[str, Any], arrays: Mapping[str, Array]) -> None:
        self.header = dict(header)
        self.layout = layout_of(header)
        self.sizes = Sizes.of(header["sizes"])
        self.arrays = {name: np.asarray(value, np.float32) for name, value in arrays.items()}
        expected = self.layout.array_shapes(self.sizes)
        for name, shape in expected.items():
            found = self.arrays.get(name)
            if found is None:
                raise OptionError(f"the network has no array {name!r}")
            if found.shape != shape:
                raise OptionError(f"the network's {name} is {found.shape}, not {shape}")
        a = self.arrays
        k, c = self.sizes.channels, self.layout.channels
        self._conv1 = a["conv1.weight"].reshape(k, c * 9)
        self._conv2 = a["conv2.weight"].reshape(k, k * 9)
        self._reduce = a["reduce.weight"].reshape(self.sizes.reduced, k)
        if self.sizes.board_policy:
            cells = np.asarray(self.layout.action_cells, np.intp)
            if not len(cells):
                raise OptionError("the network has a board policy and no action cells")
            self._on = np.flatnonzero(cells >= 0)  # the actions on the board
            self._cells = cells[self._on]
            self._board_policy = a["board_policy.weight"].reshape(self.layout.action_planes, k)

    def check(self, game: Game[Any]) -> None:
        """OptionError, in words, when this network was not made for the configured `game`."""
        facts = game_facts(game)
        mine = {key: self.header.get(key) for key in facts}
        if mine["game"] != facts["game"]:
            raise OptionError(f"this network plays {mine['game']}, not {facts['game']}")
        for key, words in (
            ("options", "options"),
            ("players", "number of players"),
            ("encoder_version", "observation encoding version"),
            ("observation", "observation shapes"),
            ("actions", "number of actions"),
        ):
            if mine[key] != facts[key]:
                raise OptionError(
                    f"this network was trained for other {words} of {facts['game']} "
                    f"({mine[key]}, this game has {facts[key]})"
                )

    # -- forward ---------------------------------------------------------------------------
    def inputs(self, observations: Sequence[Observation]) -> tuple[Array, Array]:
        """The scaled planes (B, C, S, S) and vectors (B, V) of a batch of observations."""
        planes, vector = raw_inputs(self.layout, observations)
        planes *= self.arrays["plane_scale"][None, :, None, None]
        vector *= self.arrays["vector_scale"]
        return planes, vector

    def forward(self, planes: Array, vector: Array) -> tuple[Array, Array, Array]:
        """Raw outputs: logits (B, actions), values (B, P) after the sigmoid, points (B, P)."""
        a = self.arrays
        batch, side = len(planes), self.layout.side
        x = relu(conv3x3(planes, self._conv1, a["conv1.bias"]))
        board = relu(conv3x3(x, self._conv2, a["conv2.bias"])).reshape(batch, -1, side * side)
        x = relu(np.matmul(self._reduce, board) + a["reduce.bias"][:, None])
        v = relu(vector @ a["vector.weight"].T + a["vector.bias"])
        trunk = relu(
            np.concatenate([x.reshape(batch, -1), v], axis=1) @ a["trunk.weight"].T
            + a["trunk.bias"]
        )
        logits = trunk @ a["policy.weight"].T + a["policy.bias"]
        if self.sizes.board_policy:
            cells = np.matmul(self._board_policy, board) + a["board_policy.bias"][:, None]
            logits[:, self._on] += cells.reshape(batch, -1)[:, self._cells]
        heads = trunk
        if self.sizes.value_hidden:
            outlook = np.concatenate([vector, board.mean(axis=2)], axis=1)
            hidden = relu(outlook @ a["value_hidden.weight"].T + a["value_hidden.bias"])
            heads = np.concatenate([hidden, outlook], axis=1)
        values = 1.0 / (1.0 + np.exp(-(heads @ a["value.weight"].T + a["value.bias"])))
        points = (heads @ a["points.weight"].T + a["points.bias"]) * POINTS_SCALE
        return logits, values, points

    def evaluate(self, observations: Sequence[Observation], masks: Array) -> Evaluation:
        """Priors over the legal actions (`masks`: (B, actions), true where legal), values
        and points of a batch of positions, each observed by the player to act."""
        logits, values, points = self.forward(*self.inputs(observations))
        return Evaluation(masked_softmax(logits, np.asarray(masks, bool)), values, points)


def raw_inputs(layout: Layout, observations: Sequence[Observation]) -> tuple[Array, Array]:
    """The planes (B, C, S, S) and vectors (B, V) of a batch of observations, unscaled
    (float32; what training stores and scales inside its model)."""
    planes = np.stack(
        [np.concatenate([obs[name] for name in layout.planes]) for obs in observations]
    ).astype(np.float32)
    vector = np.zeros((len(observations), layout.features), np.float32)
    at = 0
    for name, width in zip(layout.vectors, layout.widths, strict=True):
        vector[:, at : at + width] = [obs[name].ravel() for obs in observations]
        at += width
    return planes, vector


def relu(x: Array) -> Array:
    return np.maximum(x, 0.0)


def conv3x3(x: Array, weight: Array, bias: Array) -> Array:
    """A 3x3 convolution with zero padding of one (torch's `Conv2d(padding=1)`): `weight`
    (out, in * 9), in the order in, row, column."""
    batch, channels, side, _ = x.shape
    # Filled by slicing into preallocated arrays: np.pad and np.stack cost more than the
    # product itself at the batch sizes of a search (profiled).
    padded = np.zeros((batch, channels, side + 2, side + 2), x.dtype)
    padded[:, :, 1:-1, 1:-1] = x
    columns = np.empty((batch, channels, 9, side, side), x.dtype)
    for dy in range(3):
        for dx in range(3):
            columns[:, :, 3 * dy + dx] = padded[:, :, dy : dy + side, dx : dx + side]
    out: Array = np.matmul(weight, columns.reshape(batch, channels * 9, side * side))
    out += bias[:, None]
    return out.reshape(batch, len(weight), side, side)


def masked_softmax(logits: Array, masks: Array) -> Array:
    """Softmax over each row's true entries; a row with none is all zeros."""
    shifted = np.where(masks, logits, -np.inf)
    top = shifted.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.where(masks, np.exp(shifted - top), 0.0)
    total = weights.sum(axis=1, keepdims=True)
    priors: Array = weights / np.where(total > 0, total, 1.0)
    return priors


# -- files -----------------------------------------------------------------------------------
def header_for(
    game: Game[Any], sizes: Sizes, command: str = "", commit: str = ""
) -> dict[str, Any]:
    """The header of a network for the configured `game` (see the card)."""
    board = {"action_cells": action_cells(game)} if sizes.board_policy else {}
    return {
        "format": FORMAT,
        **game_facts(game),
        **board,
        "sizes": asdict(sizes),
        "produced_by": {"command": command, "commit": commit},
    }


def save_network(path: str | Path, header: Mapping[str, Any], arrays: Mapping[str, Array]) -> None:
    """Write a network file (checked by loading it back first, so no bad file is written)."""
    network = Network(header, arrays)
    data: dict[str, Array] = {name: np.asarray(v, np.float32) for name, v in network.arrays.items()}
    target = Path(path)
    partial = target.with_name(target.name + ".partial.npz")
    data["header"] = np.array(json.dumps(dict(header), sort_keys=True))
    np.savez(partial, **data)  # type: ignore[arg-type]  # numpy's stub types allow_pickle
    partial.replace(target)


def load_network(path: str | Path) -> Network:
    """The network in the file at `path`; OptionError, in words, when there is none or it is
    not a network file this version reads."""
    target = Path(path)
    if not target.is_file():
        raise OptionError(f"no network file at {str(target)!r}")
    if target.stat().st_size > MAX_FILE_BYTES:
        raise OptionError(f"{str(target)!r} is larger than a network file may be")
    try:
        with np.load(target, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise OptionError(f"{str(target)!r} is not a network file (.npz): {error}") from None
    raw = arrays.pop("header", None)
    try:
        header = json.loads(str(raw)) if raw is not None and raw.shape == () else None
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict):
        raise OptionError(f"{str(target)!r} has no network header: not a kingdomkit network")
    if header.get("format") != FORMAT:
        raise OptionError(
            f"{str(target)!r} is a network of format {header.get('format')!r}; "
            f"this kingdomkit reads format {FORMAT}"
        )
    try:
        return Network(header, arrays)
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise OptionError(f"{str(target)!r} has a broken header: {error!r}") from None


SHIPPED = Path(__file__).with_name("weights")  # the trained networks in the package


def shipped_for(game: Game[Any]) -> Network:
    """The network kingdomkit ships for the configured `game` (a file of bots/weights/ whose
    header fits it); OptionError, in words, when it ships none."""
    for path in sorted(SHIPPED.glob("*.npz")):
        network = _shipped(path)
        try:
            network.check(game)
        except OptionError:
            continue
        return network
    options = ", ".join(f"{k}={v}" for k, v in sorted(game.options.items())) or "its defaults"
    raise OptionError(
        f"kingdomkit ships no trained network for {game.name} ({options}): give neural "
        "weights=PATH, a network file made by `python -m kingdomkit.learn`"
    )


def ships_networks() -> bool:
    """Whether the package holds any trained network."""
    return any(SHIPPED.glob("*.npz"))


@functools.cache
def _shipped(path: Path) -> Network:
    return load_network(path)


def random_network(
    game: Game[Any], seed: int = 0, sizes: Sizes = Sizes(), command: str = ""
) -> Network:
    """An untrained network for `game` (He-initialised weights, zero biases, unit scales):
    what training starts from, and a player of random priors."""
    header = header_for(game, sizes, command)
    layout = layout_of(header)
    rng = np.random.default_rng(seed)
    arrays: dict[str, Array] = {}
    for name, shape in layout.array_shapes(sizes).items():
        if name.endswith("scale"):
            arrays[name] = np.ones(shape, np.float32)
        elif name.endswith("bias"):
            arrays[name] = np.zeros(shape, np.float32)
        else:
            fan_in = int(np.prod(shape[1:]))
            arrays[name] = rng.normal(0.0, np.sqrt(2.0 / fan_in), shape).astype(np.float32)
    return Network(header, arrays)
