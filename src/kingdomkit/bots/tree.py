"""The tree search behind `uct`, `uct-pb` and `mcts`: open-loop UCT over micro-actions.

A node is a sequence of decisions from the root (chance outcomes are not part of the tree):
every iteration starts from a fresh determinisation of the searcher's view (`resample`), walks
down the tree sampling every chance node anew (so no sampled future is ever reused: unseen
dominoes are re-drawn in every playout), adds one node, plays out, and backs the outcome up.
As the legal actions can differ between determinisations, each child counts how often it was
available (`avail`), and UCB uses that count (information-set MCTS).

Selection at a node, for the player `p` to act, over the actions legal in this iteration:

    q + c * sqrt(ln(avail) / n) + W * H / (n * (1 - q) + 1)

with q the child's mean value for `p` normalised to [0, 1] (outcome.Normaliser), n its visits,
and H the progressive (win) bias of Nijssen and Winands: the game's `forecast` after the action,
normalised over the siblings to [0, 1] (computed once per node). Unvisited children are tried
first, in random order (plain UCT, `widen=0`), or, with progressive widening (`widen=k > 0`),
a node visited N times opens a new child only while it has fewer than 1 + k * sqrt(N) visited
ones, the untried action with the best heuristic first (random without a bias): with a
hundred placements the heuristic picks which ones get tried and the playouts correct it.

With `scaled` (the `mcts` bot), q is instead the child's mean minus the mean of every outcome
of the search so far, divided by their standard deviation (`Spread`), and the bias term is
W * H / (n + 1): relative scores sit close to 0.5, and on the [0, 1] scale the exploration
term drowned their differences.

Every node keeps the sums of each player's values and final points, so a root can be merged
with other searches' (root parallelism) and report expected points (analysis).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from kingdomkit.bots.budget import Clock
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.outcome import Normaliser
from kingdomkit.bots.rollout import Outcome, Simulator
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game

KERNEL_LEAF = 8
KERNEL_EXPAND = 16  # two leaves' playouts (arena runs in docs/strength.md)
AUTO_DEPTH = -1  # `depth`: to the end with compiled playouts, else the game's `playout_depth()`


@dataclass(frozen=True)
class TreeConfig:
    """How a tree search selects and simulates (see the module card)."""

    c: float = 0.6
    bias: float = 0.0
    widen: float = 0.0  # progressive widening: 1 + widen * sqrt(visits) children; 0: all
    playout: str = "random"
    epsilon: float = 0.25
    score: str = "relative"
    depth: int | None = None  # decisions a playout plays before `forecast`; None: to the end
    leaf: int | None = 1  # playouts from each new node (batched through a compiled kernel);
    # None: KERNEL_LEAF with a kernel, else 1
    scaled: bool = False  # UCB in units of the outcomes' spread (see the module card)
    expand: int | None = 0  # playouts a node needs before it gets children, past the root's
    # turn; None: KERNEL_EXPAND with a kernel, else 0
    stop_at_draw: bool = False  # no children past the first chance event (`horizon=draw`)


class Node:
    """Statistics of one sequence of decisions; children by action."""

    __slots__ = ("avail", "children", "points", "prior", "values", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 0
        self.values = [0.0] * players
        self.points = [0.0] * players
        self.prior: dict[int, float] | None = None

    def mean(self, player: int) -> float:
        return self.values[player] / self.visits if self.visits else 0.0

    def mean_points(self, player: int) -> float:
        return self.points[player] / self.visits if self.visits else 0.0

    def best_action(self, legal: tuple[int, ...], player: int) -> int | None:
        """The most visited legal child (ties: the higher mean); None if none is visited."""
        best, key = None, (0, 0.0)
        for action in legal:
            child = self.children.get(action)
            if child is not None and child.visits and (child.visits, child.mean(player)) > key:
                best, key = action, (child.visits, child.mean(player))
        return best


def merge(into: Node, other: Node) -> None:
    """Add the statistics of `other` (the same position searched elsewhere) to `into`."""
    into.visits += other.visits
    into.avail += other.avail
    for player, value in enumerate(other.values):
        into.values[player] += value
        into.points[player] += other.points[player]
    if into.prior is None:
        into.prior = other.prior
    for action, child in other.children.items():
        mine = into.children.get(action)
        if mine is None:
            into.children[action] = child
        else:
            merge(mine, child)


def pruned(node: Node, least: int) -> Node:
    """A copy of the tree keeping only nodes visited at least `least` times (to ship it)."""
    copy = Node(len(node.values))
    copy.visits, copy.avail, copy.prior = node.visits, node.avail, node.prior
    copy.values, copy.points = list(node.values), list(node.points)
    copy.children = {a: pruned(c, least) for a, c in node.children.items() if c.visits >= least}
    return copy


class Search:
    """Iterations of open-loop UCT from `player`'s view, growing `root`."""

    def __init__(self, game: Game[Any], player: int, config: TreeConfig, root: Node | None) -> None:
        self.game = game
        self.player = player
        self.config = config
        self.heuristics = heuristics(game)
        depth = config.depth
        if depth == AUTO_DEPTH:
            depth = None if compiled(game) is not None else self.heuristics.playout_depth()
        self.sim = Simulator(game, player, config.playout, config.epsilon, config.score, depth)
        self.norm = Normaliser(config.score)
        self.spread = Spread(game.num_players)
        self.root = root if root is not None else Node(game.num_players)
        self.iterations = 0
        kernel = self.sim.kernel is not None
        self.leaf = config.leaf or (KERNEL_LEAF if kernel else 1)
        default_expand = KERNEL_EXPAND if kernel else 0
        self.expand = config.expand if config.expand is not None else default_expand

    def run(self, view: Any, rng: random.Random, clock: Clock) -> int:
        """Iterate until the budget is spent; the number of iterations."""
        done = 0
        while clock.more(done):
            done += self.iterate(view, rng, leaf=min(self.leaf, clock.left(done)))
        return done

    def iterate(
        self, view: Any, rng: random.Random, first: int | None = None, leaf: int = 1
    ) -> int:
        """One iteration from a fresh determinisation of `view` (`first`: the root action),
        with `leaf` playouts from the new node; the number of playouts."""
        game = self.game
        current_player = game.current_player
        state = game.resample(view, self.player, rng)
        node = self.root
        path = [node]
        expand = self.expand
        stop_at_draw = self.config.stop_at_draw
        turn_continues = self.heuristics.turn_continues
        in_turn = True  # still the turn being searched for (always expanded)
        drawn = False  # a chance event on the way down
        before: Any = None
        while True:
            player = current_player(state)
            if player == TERMINAL:
                outcomes = [self.sim.terminal(state)]
                break
            if player == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
                drawn = True
                continue
            if not in_turn and (node.visits < expand or (drawn and stop_at_draw)):
                outcomes = self._simulate(state, rng, leaf, before)
                break
            if first is not None:
                action, first = first, None
                child = node.children.get(action)
                if child is not None:
                    child.avail += 1
            else:
                action, child = self.select(node, state, player, rng)
            before, state = state, game.apply(state, action)
            in_turn = in_turn and turn_continues(before, state)
            if child is None:
                child = node.children[action] = Node(game.num_players)
                child.avail = 1
                path.append(child)
                outcomes = self._simulate(state, rng, leaf, before)
                break
            node = child
            path.append(child)
        for outcome in outcomes:
            self.backup(path, outcome)
        self.iterations += len(outcomes)
        return len(outcomes)

    def _simulate(self, state: Any, rng: random.Random, leaf: int, before: Any) -> list[Outcome]:
        if leaf > 1:
            return self.sim.batch(state, rng, leaf)
        return [self.sim.run(state, rng, before)]

    def select(
        self, node: Node, state: Any, player: int, rng: random.Random
    ) -> tuple[int, Node | None]:
        config = self.config
        legal = self.game.legal_actions(state)
        children = node.children
        bias = config.bias
        prior = None
        if bias > 0.0:
            prior = node.prior
            if prior is None:
                prior = node.prior = self.priors(state, player, legal)
        norm = self.norm
        scaled = config.scaled
        if scaled:
            centre, unit = self.spread.centre_unit(player)
        untried: list[int] = []
        best_score = -math.inf
        best_action = legal[0]
        best_child: Node | None = None
        c = config.c
        for action in legal:
            child = children.get(action)
            if child is None or not child.visits:
                untried.append(action)
                continue
            child.avail += 1
            visits = child.visits
            if scaled:
                score = (child.values[player] / visits - centre) / unit
                score += c * math.sqrt(math.log(child.avail) / visits)
                if prior is not None:
                    score += bias * prior.get(action, 0.5) / (visits + 1.0)
            else:
                q = norm(child.values[player] / visits)
                score = q + c * math.sqrt(math.log(child.avail) / visits)
                if prior is not None:
                    score += bias * prior.get(action, 0.5) / (visits * (1.0 - q) + 1.0)
            if score > best_score:
                best_score, best_action, best_child = score, action, child
        if untried and (
            best_child is None
            or config.widen <= 0.0
            or len(legal) - len(untried) < 1 + config.widen * math.sqrt(node.visits)
        ):
            if prior is not None and config.widen > 0.0:
                action = max(untried, key=lambda a: prior.get(a, 0.5))
            else:
                action = untried[int(rng.random() * len(untried))]
            return action, children.get(action)
        return best_action, best_child

    def priors(self, state: Any, player: int, legal: tuple[int, ...]) -> dict[int, float]:
        """H: `forecast` after each action, normalised over the siblings to [0, 1]."""
        game = self.game
        forecast = self.heuristics.forecast
        values = {a: forecast(game.apply(state, a), player) for a in legal}
        low, high = min(values.values()), max(values.values())
        if high == low:
            return dict.fromkeys(legal, 1.0)
        return {a: (v - low) / (high - low) for a, v in values.items()}

    def backup(self, path: list[Node], outcome: Outcome) -> None:
        values, points = outcome
        self.norm.see(values)
        self.spread.see(values)
        players = range(len(values))
        for node in path:
            node.visits += 1
            node_values, node_points = node.values, node.points
            for p in players:
                node_values[p] += values[p]
                node_points[p] += points[p]


class Spread:
    """Running mean and standard deviation of every player's outcome values in one search:
    a scaled UCB measures a child's mean in standard deviations from the mean outcome, so that
    the exploration constant does not depend on how far apart the scorer puts the outcomes."""

    __slots__ = ("count", "squares", "sums")

    def __init__(self, players: int) -> None:
        self.count = 0
        self.sums = [0.0] * players
        self.squares = [0.0] * players

    def see(self, values: list[float]) -> None:
        self.count += 1
        sums, squares = self.sums, self.squares
        for p, v in enumerate(values):
            sums[p] += v
            squares[p] += v * v

    def centre_unit(self, player: int) -> tuple[float, float]:
        """The mean outcome of `player` and its standard deviation (1 when there is none)."""
        n = self.count
        if n < 2:
            return 0.0, 1.0
        mean = self.sums[player] / n
        variance = self.squares[player] / n - mean * mean
        return mean, math.sqrt(variance) if variance > 1e-12 else 1.0
