"""`neural`: a search guided by a policy-value network (network.py), as AlphaZero searches.

The turn handling is `mcts`'s (mcts.py `TreeBot`: a turn's micro-decisions read from the search
at its first one, tree reuse through `observe`, search from determinisations of the player's
view); the search inside (docs/learning.md argues it):

- **PUCT**: at a node where `p` acts, the legal action with the most

      q + c * P(a) * sqrt(N) / (1 + n)

  q the child's mean value for `p` normalised by the least and largest values backed up in
  this search (relative outcomes crowd around 0.5), an unvisited child's q its parent's
  (with `fpu=R`, less R times the square root of the prior of the node's visited children,
  Leela Chess Zero's first-play reduction: the more of the prior the search has tried, the
  less an untried move is presumed worth),
  P(a) the network's prior (uniform for an action the node's evaluation did not see legal),
  N the node's visits, n the child's.
- **The network values the leaves**: a node is evaluated once, when first reached (its priors
  and every player's value and points in one call), instead of being played out; `mix=L`
  blends in one compiled greedy playout (value = (1 - L) network + L playout).
- **Chance** (`horizon=draw`, the default): the tree ends at the first draw below the root;
  past it the network values the position reached by that iteration's draw (priors for one
  draw would be wrong for the next, and open-loop statistics past a draw mix different
  draws). So a search stops growing once the rest of its round is searched: a few hundred
  iterations, after which more time only averages more draws at the same leaves.
  `horizon=none` grows the tree past draws, open-loop, as `mcts` does: a node past a draw
  keeps the priors of the draw that first reached it.
- **Exploration** (for self-play, `noise=E`): a share E of Dirichlet noise in the root's
  priors at every search, as AlphaZero's self-play.
- **Gumbel's root** (`gumbel=M`, with a `playouts=` budget; Danihelka, Guez, Schrittwieser
  and Silver, 2022): instead of PUCT at the root, the M actions with the best logit plus a
  Gumbel draw are each given the same share of the budget, the worse half dropped after
  each round (sequential halving) by logit + draw + sigma(q), and the last one left is the
  move. sigma(q) = (50 + the most visits of a root child) * 0.1 * q, q the root children's
  values rescaled to 0..1, an unvisited one's the mix of the root's own value and its
  visited children's. The search also leaves `improved`, softmax(logit + sigma(q)) over
  every legal action: a policy target that improves on the prior with few playouts, where
  the visit shares of a small search are noisy (learn/records.py takes it). Below the root
  the search is PUCT as above.
- **Batches** (`batch=B`): B descents, each leaving a virtual loss on its path (a visit
  worth 0 to every player) so that the next ones explore elsewhere, then one network call
  for their B leaves, the virtual losses taken back and the values backed up. `batch=1` is
  the plain one-leaf-at-a-time search and the default: `batch=8` makes about 1.4 times the
  evaluations a CPU second with the shipped network and `mix`; at 1 s a turn it won 60% of
  200 games against `mcts` where `batch=1` won 54%, on the same deals, the two not told
  apart from each other (docs/strength.md §8).
- **Root parallelism** (`workers=N`, as `mcts`'s): N - 1 helper processes make the same
  search from the same root, each with the network and its own seed and budget, and their
  trees (priors included) are merged into the bot's, whose most visited move it plays.
- **Budget**: `time=` or `playouts=` per turn (budget.py: one playout is one iteration, one
  leaf evaluation; a batch never goes past a playout budget); the root is evaluated before
  the budget starts, so `playouts=1` plays the move the network prefers. A move whose node
  has no visited child is the prior's best.

Settings: weights=PATH (a network file made by `python -m kingdomkit.learn`, for this game and
options; without it, the network the package ships for the table, in bots/weights/),
time= | playouts= (default time=1), c= (default 1.5), mix= (default 0.5: at 0.25 s a turn it
won 40% against `mcts` where the network's values alone won 12.5%, docs/learning.md), fpu=
(default 0, at most 1), noise= (default 0), gumbel= (default 0: PUCT at the root; at most
64, with playouts=), batch= (default 1, at most 256), rollouts= (the greedy playouts a leaf's
`mix` averages, default 1, at most 64; one compiled call), workers= (default 1; not with
gumbel=), horizon=draw|none (draw), reuse=yes|no (yes), confirm= (analysis, as `mcts`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

from kingdomkit.bots.budget import Budget, Clock, read_budget
from kingdomkit.bots.mcts import ANALYSIS_CONFIRM, TreeBot, read_workers
from kingdomkit.bots.outcome import relative
from kingdomkit.bots.rollout import Outcome, Simulator
from kingdomkit.bots.spec import Settings
from kingdomkit.bots.tree import Node, TreeConfig
from kingdomkit.core.driver import Agent
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game, OptionError

if TYPE_CHECKING:
    from kingdomkit.bots.network import Network

DEFAULT_C = 1.5
DEFAULT_MIX = 0.5  # the playout's share of a leaf's value (docs/learning.md measures it)
DEFAULT_BATCH = 1  # leaves a network call values: 8 makes more evaluations a second, not
# yet shown stronger than 1 (docs/strength.md §8)
MAX_BATCH = 256
MAX_ROLLOUTS = 64
DIRICHLET_TOTAL = 10.0  # `noise=`: alpha = this / legal actions
MAX_GUMBEL = 64
VISIT_SCALE = 50.0  # sigma(q) = (VISIT_SCALE + most visits) * VALUE_SCALE * q, as Gumbel MuZero
VALUE_SCALE = 0.1
NO_WEIGHTS = (
    "neural needs weights=PATH, a network file for this game made by "
    "`python -m kingdomkit.learn` (kingdomkit ships no trained network yet)"
)


class NeuralSearch:
    """Iterations of PUCT from `player`'s view with network leaves, growing `root`."""

    leaf = 1  # one evaluation per iteration (for TreeBot's analysis)

    def __init__(
        self,
        game: Game[Any],
        player: int,
        network: Network,
        c: float,
        mix: float,
        root: Node | None,
        noise: float = 0.0,
        batch: int = 1,
        rollouts: int = 1,
        gumbel: int = 0,
        fpu: float = 0.0,
        past_draws: bool = False,
    ) -> None:
        from kingdomkit.bots.network import observer_of

        self.game = game
        self.player = player
        self.network = network
        self.observer = observer_of(game)
        self.c = c
        self.mix = mix
        self.noise = noise
        self.batch = batch
        self.rollouts = rollouts  # greedy playouts a leaf's `mix` averages
        self.gumbel = gumbel  # root actions Gumbel's sequential halving considers (0: PUCT)
        self.fpu = fpu  # first-play reduction of an unvisited child's q (see the card)
        self.past_draws = past_draws  # the tree goes on past a draw, open-loop (`horizon=none`)
        self.chosen: int | None = None  # the move Gumbel's root chose
        self.improved: dict[int, float] | None = None  # its policy target (see the card)
        self.root_value: float | None = None  # the network's value of the root, if evaluated
        self.virtual: dict[Node, int] = {}  # virtual losses on the paths of a pending batch
        self.root_prior: dict[int, float] | None = None  # the root's, with `noise`
        self.sim = Simulator(game, player, "greedy", 0.0, "relative") if mix > 0 else None
        self.root = root if root is not None else Node(game.num_players)
        self.low = math.inf  # the least and largest values backed up (q's normalisation)
        self.high = -math.inf
        self.iterations = 0

    def run(self, view: Any, rng: random.Random, clock: Clock) -> int:
        """Iterate until the budget is spent; the number of iterations."""
        if self.root.prior is None:
            state = self.game.resample(view, self.player, rng)
            self.root.prior, (values, _) = self.evaluate(state, rng)
            self.root_value = values[self.player]
        if self.gumbel:
            return self.halve(view, rng, clock)
        if self.noise > 0.0:
            self.root_prior = noisy(self.root.prior, self.noise, rng)
        done = 0
        while clock.more(done):
            if self.batch == 1 or self.high < self.low:  # see iterate_batch
                done += self.iterate(view, rng)
            else:
                done += self.iterate_batch(view, rng, min(self.batch, clock.left(done)))
        return done

    def halve(self, view: Any, rng: random.Random, clock: Clock) -> int:
        """Gumbel's sequential halving at the root (see the card); the iterations made."""
        legal = self.game.legal_actions(self.game.resample(view, self.player, rng))
        logits = self.logits(legal)
        draws = {a: -math.log(-math.log(rng.random() or 0.5)) for a in legal}  # Gumbel(0, 1)
        left = sorted(legal, key=lambda a: logits[a] + draws[a], reverse=True)[: self.gumbel]
        budget, rounds = clock.left(0), max(1, math.ceil(math.log2(len(left))))
        done = 0
        while clock.more(done):
            if len(left) == 1:  # the rest of the budget grows the move's own tree
                while clock.more(done):
                    done += self.iterate(view, rng, left[0])
                break
            each = max(1, budget // (rounds * len(left)))
            for turn in range(each * len(left)):  # round-robin: every action alike
                if not clock.more(done):
                    break
                done += self.iterate(view, rng, left[turn % len(left)])
            sigma = self.sigma(legal)
            left.sort(key=lambda a: logits[a] + draws[a] + sigma[a], reverse=True)
            left = left[: math.ceil(len(left) / 2)]
        sigma = self.sigma(legal)
        self.chosen = max(left, key=lambda a: logits[a] + draws[a] + sigma[a])
        improved = {a: logits[a] + sigma[a] for a in legal}
        most = max(improved.values())
        weights = {a: math.exp(x - most) for a, x in improved.items()}
        total = sum(weights.values())
        self.improved = {a: w / total for a, w in weights.items()}
        return done

    def logits(self, legal: tuple[int, ...] | list[int]) -> dict[int, float]:
        """The log of the root's prior of each legal action (uniform where it has none)."""
        prior, uniform = self.root.prior or {}, 1.0 / len(legal)
        return {a: math.log(max(prior.get(a, uniform), 1e-12)) for a in legal}

    def sigma(self, legal: tuple[int, ...] | list[int]) -> dict[int, float]:
        """sigma(completed q) of each legal root action, for the player to act (the card)."""
        root, player = self.root, self.player
        visited = [(a, c) for a in legal if (c := root.children.get(a)) is not None and c.visits]
        if not visited:
            return dict.fromkeys(legal, 0.0)
        q = {a: c.values[player] / c.visits for a, c in visited}
        prior = root.prior or {}
        weight = sum(prior.get(a, 0.0) for a, _ in visited)
        searched = sum(prior.get(a, 0.0) * q[a] for a, _ in visited)
        mean_q = searched / weight if weight > 0 else sum(q.values()) / len(q)
        visits = sum(c.visits for _, c in visited)
        own = self.root_value if self.root_value is not None else root.mean(player)
        mixed = (own + visits * mean_q) / (1 + visits)  # an unvisited action's q
        completed = {a: q.get(a, mixed) for a in legal}
        low, high = min(completed.values()), max(completed.values())
        scale = (VISIT_SCALE + max(c.visits for _, c in visited)) * VALUE_SCALE
        span = high - low
        return {a: scale * ((v - low) / span if span > 0 else 0.0) for a, v in completed.items()}

    def iterate(
        self, view: Any, rng: random.Random, first: int | None = None, leaf: int = 1
    ) -> int:
        """One iteration from a fresh determinisation of `view` (`first`: the root action)."""
        path, state, outcome, expand = self.descend(view, rng, first)
        if outcome is None:
            prior, outcome = self.evaluate(state, rng)
            if expand:
                path[-1].prior = prior
        self.backup(path, outcome)
        self.iterations += 1
        return 1

    def iterate_batch(self, view: Any, rng: random.Random, size: int) -> int:
        """`size` iterations whose leaves the network values in one call. Each descent
        leaves a virtual loss on its path (a visit worth 0 to every player, the worst
        outcome), so that the next ones of the batch look elsewhere; the visits are taken
        back before the real values are backed up. Two descents may still end at the same
        new node: both values count, the first one's priors are kept. A search's first
        iteration goes alone (`run`): until a value is backed up every q is 0.5, losses
        included. An unvisited child's q is its parent's mean over the parent's real visits,
        so that a loss on the parent does not make its untried children look worse too."""
        leaves = []
        virtual = self.virtual
        for _ in range(size):
            leaf = self.descend(view, rng, None)
            for node in leaf[0]:
                node.visits += 1
                virtual[node] = virtual.get(node, 0) + 1
            leaves.append(leaf)
        virtual.clear()
        states = [state for _, state, outcome, _ in leaves if outcome is None]
        found = iter(self.evaluate_many(states, rng))
        for path, _, outcome, expand in leaves:
            for node in path:
                node.visits -= 1
            if outcome is None:
                prior, outcome = next(found)
                if expand and path[-1].prior is None:
                    path[-1].prior = prior
            self.backup(path, outcome)
        self.iterations += size
        return size

    def descend(
        self, view: Any, rng: random.Random, first: int | None
    ) -> tuple[list[Node], Any, Outcome | None, bool]:
        """Down the tree from a fresh determinisation of `view`: the path, the leaf's state,
        its outcome when the game is over there (else None: the network values it), and
        whether the leaf is a new node that takes the evaluation's priors."""
        game = self.game
        state = game.resample(view, self.player, rng)
        node = self.root
        path = [node]
        drawn = False
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                scores = list(game.scores(state))
                return path, state, (relative(scores, game.returns(state)), scores), False
            if player == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
                drawn = True
                continue
            if drawn and not self.past_draws:
                return path, state, None, False
            if node.prior is None:
                return path, state, None, True
            if first is not None:
                action, first = first, None
            else:
                action = self.select(node, state, player)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = Node(game.num_players)
            state = game.apply(state, action)
            node = child
            path.append(child)

    def select(self, node: Node, state: Any, player: int) -> int:
        """The legal action with the best PUCT score (see the card)."""
        legal = self.game.legal_actions(state)
        prior = (self.root_prior if node is self.root else None) or node.prior or {}
        uniform = 1.0 / len(legal)
        low, span = self.low, self.high - self.low
        explore = self.c * math.sqrt(max(1, node.visits))
        real = node.visits - self.virtual.get(node, 0)
        mean = node.values[player] / real if real else 0.0
        parent = (mean - low) / span if span > 0 else 0.5
        child_of, prior_of = node.children.get, prior.get
        if self.fpu:
            tried = sum(prior_of(a, uniform) for a, child in node.children.items() if child.visits)
            parent -= self.fpu * math.sqrt(tried)
        best_action, best_score = legal[0], -math.inf
        # The same arithmetic as q + explore * P / (1 + n), written for speed (the hottest
        # loop of the search): an unvisited child's score is parent + explore * P.
        for action in legal:
            child = child_of(action)
            if child is None or not child.visits:
                score = parent + explore * prior_of(action, uniform)
            else:
                visits = child.visits
                q = (child.values[player] / visits - low) / span if span > 0 else 0.5
                score = q + explore * prior_of(action, uniform) / (1 + visits)
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def evaluate(self, state: Any, rng: random.Random) -> tuple[dict[int, float], Outcome]:
        """The network's priors over the legal actions of the decision `state` (observed by
        the player to act), and every player's value and points (with `mix`, blended with a
        greedy playout's)."""
        return self.evaluate_many([state], rng)[0]

    def evaluate_many(
        self, states: list[Any], rng: random.Random
    ) -> list[tuple[dict[int, float], Outcome]]:
        """`evaluate` for each of `states`, in one network call."""
        import numpy as np

        if not states:
            return []
        game = self.game
        players = game.num_players
        acting = [game.current_player(state) for state in states]
        legals = [game.legal_actions(state) for state in states]
        mask = np.zeros((len(states), game.num_actions), bool)
        for row, legal in enumerate(legals):
            mask[row, list(legal)] = True
        observe = self.observer.observe
        found = self.network.evaluate(
            [observe(state, player) for state, player in zip(states, acting, strict=True)], mask
        )
        results = []
        for row, state in enumerate(states):
            legal = legals[row]
            seat = [(p - acting[row]) % players for p in range(players)]
            values = found.values[row, seat].tolist()
            points = found.points[row, seat].tolist()
            if self.sim is not None:
                played, scored = self.played(state, rng)
                mix = self.mix
                values = [(1 - mix) * v + mix * w for v, w in zip(values, played, strict=True)]
                points = [(1 - mix) * v + mix * w for v, w in zip(points, scored, strict=True)]
            priors = dict(zip(legal, found.priors[row, list(legal)].tolist(), strict=True))
            results.append((priors, (values, points)))
        return results

    def played(self, state: Any, rng: random.Random) -> Outcome:
        """The mean values and points of `rollouts` greedy playouts from `state` (one call
        of the compiled kernel)."""
        assert self.sim is not None
        if self.rollouts == 1:
            return self.sim.run(state, rng)
        runs = self.sim.batch(state, rng, self.rollouts)
        values = [sum(column) / len(runs) for column in zip(*(v for v, _ in runs), strict=True)]
        points = [sum(column) / len(runs) for column in zip(*(p for _, p in runs), strict=True)]
        return values, points

    def backup(self, path: list[Node], outcome: Outcome) -> None:
        values, points = outcome
        self.low = min(self.low, *values)
        self.high = max(self.high, *values)
        players = range(len(values))
        for node in path:
            node.visits += 1
            node.avail += 1
            for p in players:
                node.values[p] += values[p]
                node.points[p] += points[p]


def noisy(prior: dict[int, float], share: float, rng: random.Random) -> dict[int, float]:
    """`prior` with a `share` of Dirichlet noise, as AlphaZero explores in self-play: the
    concentration DIRICHLET_TOTAL spread over the actions, so that the noise has the same
    weight whatever their number."""
    alpha = DIRICHLET_TOTAL / max(1, len(prior))
    draws = {action: rng.gammavariate(alpha, 1.0) for action in prior}
    total = sum(draws.values()) or 1.0
    return {a: (1 - share) * p + share * draws[a] / total for a, p in prior.items()}


class NeuralBot(TreeBot):
    """`mcts`'s turn handling around a network-guided search (see the card)."""

    def __init__(
        self,
        network: Network | None,
        budget: Budget,
        c: float = DEFAULT_C,
        mix: float = DEFAULT_MIX,
        reuse: bool = True,
        confirm: int = ANALYSIS_CONFIRM,
        noise: float = 0.0,
        batch: int = DEFAULT_BATCH,
        rollouts: int = 1,
        gumbel: int = 0,
        fpu: float = 0.0,
        workers: int = 1,
        past_draws: bool = False,
    ) -> None:
        super().__init__("neural", TreeConfig(), budget, workers, reuse, confirm)
        self.network = network  # None: the network shipped for each game's table
        self.c = c
        self.mix = mix
        self.noise = noise
        self.batch = batch
        self.rollouts = rollouts
        self.gumbel = gumbel
        self.fpu = fpu
        self.past_draws = past_draws
        self.improved: dict[int, float] | None = None  # Gumbel's policy target, last decision
        self._checked: Game[Any] | None = None

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        self.improved = None  # a decision read from the last search's tree has none
        return super().act(game, state, rng)

    def choice(self, search: Any, legal: tuple[int, ...], player: int) -> int | None:
        """Gumbel's choice when its root searched, else the most visited child."""
        chosen = getattr(search, "chosen", None)
        return chosen if chosen in legal else super().choice(search, legal, player)

    def searcher(self, game: Game[Any], player: int) -> Callable[[Node | None], NeuralSearch]:
        """The network-guided search, with its network: the helpers of `workers=N` search
        alike, their trees with the network's priors merged into this one's."""
        return partial(
            NeuralSearch,
            game,
            player,
            self.network_for(game),
            self.c,
            self.mix,
            noise=self.noise,
            batch=self.batch,
            rollouts=self.rollouts,
            gumbel=self.gumbel,
            fpu=self.fpu,
            past_draws=self.past_draws,
        )

    def _search(
        self, game: Game[Any], view: Any, player: int, rng: random.Random, root: Node | None
    ) -> NeuralSearch:
        with one_blas_thread():
            search = super()._search(game, view, player, rng, root)
        assert isinstance(search, NeuralSearch)
        self.improved = search.improved
        return search

    def fallback(
        self, game: Game[Any], view: Any, player: int, rng: random.Random, node: Node
    ) -> int:
        """The prior's favourite legal move (the node's evaluation, else a new one)."""
        network = self.network_for(game)
        state = game.resample(view, player, rng)
        prior = node.prior
        if prior is None:
            search = NeuralSearch(game, player, network, self.c, 0.0, None)
            prior, _ = search.evaluate(state, rng)
        legal = game.legal_actions(state)
        return max(legal, key=lambda action: prior.get(action, 0.0))

    def unfit(self, game: Game[Any]) -> str | None:
        """Why no network of this bot can judge `game`'s positions (its inputs, actions or
        seats differ, or none is shipped for its table), or None."""
        try:
            self.network_for(game)
        except OptionError as error:
            return str(error)
        return None

    def network_for(self, game: Game[Any]) -> Network:
        """The network judging `game`'s positions: the one given (checked once per game
        object), else the one shipped for its table; OptionError, in words, if none fits."""
        if self.network is None:
            from kingdomkit.bots.network import shipped_for

            return shipped_for(game)
        if game is not self._checked:
            self.network.check(game)
            self._checked = game
        return self.network


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """numpy's BLAS on one thread inside (threadpoolctl, when installed): a position's
    products are small, and on a machine shared with other searches more threads only burn
    CPU (measured: ten times the CPU time per position in the Mighty Duel)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def neural_factory(settings: Mapping[str, str]) -> Agent:
    read = Settings("neural", settings)
    weights = read.text("weights", "")
    budget = read_budget(read, Budget(seconds=1.0))
    c = read.number("c", DEFAULT_C, low=-1e-12)
    mix = read.number("mix", DEFAULT_MIX, low=-1e-12)
    noise = read.number("noise", 0.0, low=-1e-12)
    fpu = read.number("fpu", 0.0, low=-1e-12)
    reuse = read.text("reuse", "yes", ("yes", "no")) == "yes"
    confirm = read.integer("confirm", ANALYSIS_CONFIRM)
    batch = read.integer("batch", DEFAULT_BATCH)
    rollouts = read.integer("rollouts", 1)
    gumbel = read.integer("gumbel", 0, low=0)
    workers = read_workers(read)
    horizon = read.text("horizon", "draw", ("draw", "none"))
    read.done()
    if mix is None or mix > 1.0:
        raise OptionError(f"neural: mix is between 0 and 1, not {mix}")
    if noise is None or noise > 1.0:
        raise OptionError(f"neural: noise is between 0 and 1, not {noise}")
    if fpu is None or fpu > 1.0:
        raise OptionError(f"neural: fpu is between 0 and 1, not {fpu}")
    if batch is None or not 1 <= batch <= MAX_BATCH:
        raise OptionError(f"neural: batch is between 1 and {MAX_BATCH}, not {batch}")
    if rollouts is None or not 1 <= rollouts <= MAX_ROLLOUTS:
        raise OptionError(f"neural: rollouts is between 1 and {MAX_ROLLOUTS}, not {rollouts}")
    if gumbel is None or gumbel > MAX_GUMBEL:
        raise OptionError(f"neural: gumbel is between 0 and {MAX_GUMBEL}, not {gumbel}")
    if gumbel and budget.playouts is None:
        raise OptionError(
            "neural: gumbel= shares a number of playouts between the root's moves: "
            "give playouts=N, not time="
        )
    if gumbel and workers > 1:
        raise OptionError(
            "neural: gumbel= chooses the move by its own halving in one process: "
            "give it without workers="
        )
    if gumbel and (noise or batch > 1):
        raise OptionError(
            "neural: gumbel= explores at the root with its own draws and one leaf at a time: "
            "give it without noise= and batch="
        )
    try:
        from kingdomkit.bots.network import load_network, ships_networks
    except ImportError:
        raise OptionError("neural needs numpy (pip install 'kingdomkit[fast]')") from None
    network = None  # the shipped one of each game's table
    if weights:
        try:
            network = load_network(weights)
        except OptionError as error:
            raise OptionError(f"neural: {error}") from None
    elif not ships_networks():
        raise OptionError(NO_WEIGHTS)
    return NeuralBot(
        network,
        budget,
        c or 0.0,
        mix,
        reuse,
        confirm or ANALYSIS_CONFIRM,
        noise,
        batch,
        rollouts,
        gumbel,
        fpu,
        workers,
        horizon == "none",
    )
