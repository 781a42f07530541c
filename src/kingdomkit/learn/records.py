"""Training records from games of an expert search playing itself (expert iteration).

At every decision with a choice, the acting player's observation, its legal mask and the
expert's visit distribution over the legal actions (the node its move was read from: a
turn's later micro-decisions are read from the search at its first, bots/mcts.py), or, where
the expert searched with Gumbel's root, its improved policy (bots/neural.py); when the
game ends, every record gets each seat's outcome (the `relative` value the search backs up,
bots/outcome.py) and final points, seats counted from the record's player. Each record enters
in all the encoder's symmetries (8 for Kingdomino), its policy permuted with the actions; or,
with `draw`, once, with its orbit (the maps of its symmetries, symmetries.py), and training
draws one of them each time it takes the record: a window then keeps eight times the games.

One game's outcome is a noisy target for a position early in it: the draws and every later
move decide as much as the position. The search's own estimate at the root (its mean value
and points per seat; with Gumbel's root, which gives visits to moves it then drops, the mean
of the move it chose) is steadier, and biased towards what its playouts believe. So the value
and points targets may mix the two, `(1 - mix) * outcome + mix * search` (`value_mix`; a
decision read from no search keeps the outcome), as AlphaZero reproductions do with "z and q".

`Records` are columns of numpy arrays, stored small because a window holds a million of them:
planes as int8 (the encoders' planes are small integers; int16 if one is not), the policy
targets as float16 (visit shares, to within 0.0003), the rest as float32. A Mighty Duel record
takes 6.1 kB so, 10.7 kB as int16 and float32; files written wider load narrowed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kingdomkit.bots import make_bot
from kingdomkit.bots.network import Layout, observer_of, raw_inputs
from kingdomkit.bots.outcome import relative
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import Game
from kingdomkit.learn.symmetries import INDEX, Orbit, Orbits, key, orbit_of

Array = NDArray[Any]
POLICY = np.float16  # the policy targets' type (see the card)


def narrow_planes(planes: Array) -> Array:
    """`planes` as int8 when every value fits, else as int16 (see the card). The range is
    read with min and max, not abs, which would copy a whole window's planes to read it."""
    fits = planes.size == 0 or (planes.min() >= -128 and planes.max() <= 127)
    return planes.astype(np.int8 if fits else np.int16, copy=False)


@dataclass
class Records:
    """Training records as columns (see the card), and the orbits their `orbit` column
    points to."""

    planes: Array  # (N, C, S, S) int8 (int16 where a value needs it)
    vector: Array  # (N, V) float32
    mask: Array  # (N, A) bool
    policy: Array  # (N, A) float16, sums to 1 over the mask
    value: Array  # (N, P) float32 in [0, 1]
    points: Array  # (N, P) float32
    orbit: Array  # (N,) int32: the record's orbit in `orbits`, -1 for an image kept as is
    orbits: Orbits

    def __len__(self) -> int:
        return len(self.mask)

    @classmethod
    def empty(cls, layout: Layout) -> Records:
        c, s, v, a, p = (
            layout.channels,
            layout.side,
            layout.features,
            layout.actions,
            layout.players,
        )
        return cls(
            np.zeros((0, c, s, s), np.int8),
            np.zeros((0, v), np.float32),
            np.zeros((0, a), bool),
            np.zeros((0, a), POLICY),
            np.zeros((0, p), np.float32),
            np.zeros((0, p), np.float32),
            np.zeros(0, INDEX),
            Orbits.of([], layout),
        )

    def rows(self, part: slice) -> Records:
        """The records of `part`, with all the orbits."""
        columns = {name: getattr(self, name)[part] for name in COLUMNS}
        return Records(**columns, orbits=self.orbits)

    def images(self) -> int:
        """How many images of positions these records stand for: a record kept once
        stands for each symmetry of its orbit."""
        kept_once = int(np.count_nonzero(self.orbit >= 0))
        return len(self) - kept_once + kept_once * int(self.orbits.actions_map.shape[1])

    def joined(self, other: Records, keep: int) -> Records:
        """These records then `other`'s, only the last `keep` of them (the replay window).
        Each part is cut before they are joined: a slice of the whole join would keep all of
        it in memory, the records that fell out of the window with the rest."""
        theirs = min(len(other), max(keep, 0))
        mine = min(len(self), max(keep, 0) - theirs)
        orbits, where = self.orbits.merged(other.orbits)
        renumbered = other.orbit[len(other) - theirs :]
        if len(where):
            renumbered = np.where(renumbered >= 0, where[np.maximum(renumbered, 0)], -1)
        columns = {
            name: np.concatenate(
                [
                    getattr(self, name)[len(self) - mine :],
                    renumbered if name == "orbit" else getattr(other, name)[len(other) - theirs :],
                ]
            )
            for name in COLUMNS
        }
        columns["orbit"] = columns["orbit"].astype(INDEX, copy=False)
        return Records(**columns, orbits=orbits)

    def save(self, path: Path) -> None:
        partial = path.with_name(path.name + ".partial.npz")
        orbits = {f"orbits_{f.name}": getattr(self.orbits, f.name) for f in fields(Orbits)}
        np.savez_compressed(partial, **{name: getattr(self, name) for name in COLUMNS}, **orbits)
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> Records:
        with np.load(path, allow_pickle=False) as data:
            columns = {name: data[name] for name in COLUMNS if name in data.files}
            if "orbit" not in columns:  # written before records could be kept once
                columns["orbit"] = np.full(len(columns["mask"]), -1, INDEX)
                sizes = (
                    int(np.prod(columns[like].shape[1:])) for like in ("planes", "vector", "mask")
                )
                orbits = Orbits.empty(*sizes)
            else:
                orbits = Orbits(*(data[f"orbits_{f.name}"] for f in fields(Orbits)))
        columns["planes"] = narrow_planes(columns["planes"])
        columns["policy"] = columns["policy"].astype(POLICY, copy=False)
        return cls(**columns, orbits=orbits)


COLUMNS = ("planes", "vector", "mask", "policy", "value", "points", "orbit")  # per record


class Recorder:
    """An agent playing as `bot` (a tree search bot) and noting each decision it makes, with
    the root's visit distribution as its policy target, or the improved policy of a search
    with Gumbel's root (`neural:gumbel=M`); the game's first `explore` decisions with a choice
    are drawn from that target instead of the bot's choice (AlphaZero's exploration)."""

    def __init__(
        self,
        bot: Any,
        encoder: Any,
        decisions: list[Decision],
        explore: int = 0,
    ) -> None:
        self.bot = bot
        self.encoder = encoder
        self.decisions = decisions  # shared by the game's recorders
        self.explore = explore

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        action = int(self.bot.act(game, state, rng))
        legal = game.legal_actions(state)
        if len(legal) > 1:
            player = game.current_player(state)
            mask = np.zeros(game.num_actions, bool)
            mask[list(legal)] = True
            root = getattr(self.bot, "root", None)
            estimate = searched(root)
            improved = getattr(self.bot, "improved", None)  # Gumbel's root (bots/neural.py)
            if improved:
                policy = np.zeros(len(mask), np.float32)
                policy[list(improved)] = list(improved.values())
                # Gumbel's root gave visits to moves it then dropped: the position is worth
                # what the move it chose is worth, not the mean over all it tried
                estimate = searched(getattr(root, "children", {}).get(action)) or estimate
            else:
                policy = visit_distribution(root, legal, action, mask)
            if len(self.decisions) < self.explore:
                action = rng.choices(legal, weights=[float(policy[a]) for a in legal])[0]
            observation = self.encoder.observe(state, player)
            self.decisions.append(Decision(player, observation, mask, policy, estimate))
        return action

    def observe(self, game: Game[Any], player: int, action: int) -> None:
        observe = getattr(self.bot, "observe", None)
        if observe is not None:
            observe(game, player, action)


@dataclass(frozen=True)
class Decision:
    """One decision of a self-play game, as the expert saw it; `search` is the root's mean
    value and points of every player (by player number), None when it read its move from no
    search."""

    player: int
    observation: Any
    mask: Array
    policy: Array
    search: tuple[list[float], list[float]] | None


def searched(root: Any) -> tuple[list[float], list[float]] | None:
    """The mean value and points of each player at a search's root (tree.Node), if searched."""
    visits = getattr(root, "visits", 0)
    if not visits:
        return None
    return [v / visits for v in root.values], [p / visits for p in root.points]


def visit_distribution(root: Any, legal: Sequence[int], action: int, mask: Array) -> Array:
    """The share of the visits each legal child of `root` had; all on `action` when no child
    was visited (a move read from no search)."""
    policy = np.zeros(len(mask), np.float32)
    children = getattr(root, "children", {})
    for a in legal:
        child = children.get(a)
        if child is not None:
            policy[a] = child.visits
    total = policy.sum()
    if total <= 0:
        policy[action] = 1.0
        return policy
    shares: Array = policy / total
    return shares


def self_play(
    game: Game[Any],
    expert: str,
    seed: int,
    layout: Layout,
    explore: int = 0,
    value_mix: float = 0.0,
    draw: bool = False,
) -> tuple[Records, int]:
    """One game of the `expert` bot spec against itself (one bot per seat) from `seed`, its
    first `explore` choices drawn from the visits (`Recorder`), its value and points targets
    mixed with the search's by `value_mix` (the card): its records in every symmetry (with
    `draw`, once with their orbits), and the number of decisions recorded. (Arguments that
    pickle: helper processes play games with it.)"""
    encoder = observer_of(game)
    decisions: list[Decision] = []
    experts = [make_bot(expert) for _ in range(game.num_players)]
    try:
        played = play(game, [Recorder(bot, encoder, decisions, explore) for bot in experts], seed)
    finally:
        for bot in experts:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    state = played.final_state
    scores = [float(s) for s in game.scores(state)]
    values = relative(scores, game.returns(state))
    players = game.num_players
    observations, masks, policies, outcome, points, orbit = [], [], [], [], [], []
    orbits: dict[bytes, int] = {}
    found: list[Orbit] = []
    for decision in decisions:
        seats = [(decision.player + i) % players for i in range(players)]
        value, point = values, scores
        if decision.search is not None and value_mix > 0:
            value = mixed(values, decision.search[0], value_mix)
            point = mixed(scores, decision.search[1], value_mix)
        images = encoder.symmetries(decision.observation, decision.mask)
        maps = None
        if draw and len(images) > 1:
            maps = orbit_of(encoder, layout, decision.observation, decision.mask, images)
        if maps is not None:
            number = orbits.setdefault(key(maps), len(found))
            if number == len(found):
                found.append(maps)
            images, kept_once = images[:1], number
        else:
            kept_once = -1
        for image in images:
            turned = np.zeros_like(decision.policy)
            turned[image.actions] = decision.policy
            observations.append(image.observation)
            masks.append(np.asarray(image.action_mask, bool))
            policies.append(turned)
            outcome.append([value[s] for s in seats])
            points.append([point[s] for s in seats])
            orbit.append(kept_once)
    if not observations:
        return Records.empty(layout), 0
    planes, vector = raw_inputs(layout, observations)
    records = Records(
        narrow_planes(planes),
        vector,
        np.stack(masks),
        np.stack(policies).astype(POLICY),
        np.asarray(outcome, np.float32),
        np.asarray(points, np.float32),
        np.asarray(orbit, INDEX),
        Orbits.of(found, layout),
    )
    return records, len(decisions)


def mixed(outcome: Sequence[float], search: Sequence[float], mix: float) -> list[float]:
    """`(1 - mix) * outcome + mix * search`, player by player."""
    return [(1.0 - mix) * z + mix * q for z, q in zip(outcome, search, strict=True)]
