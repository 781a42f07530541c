"""`mcts`: our strongest bot, and the turn handling shared with the paper's `uct`/`uct-pb`.

Design (tree.py holds the search itself):

- **Open-loop information-set MCTS over micro-actions.** The bot first takes its own view
  (`game.view`) and searches only from determinisations of it (`resample`, fresh on every
  iteration; Kingdomino and Queendomino have no secrets). Chance is sampled anew on every
  iteration, so the tree holds decisions only and every unseen domino or tile is re-drawn.
- **Scaled UCB** (`scale=yes`, the default): a child's mean is measured in standard
  deviations of the search's outcomes from their mean, so that `c` means the same whatever the
  scorer (relative points put most outcomes near 0.5: unscaled, exploration drowned the
  differences and the most visited child was little more than the first one opened).
  `scale=no` is the paper's UCB on [0, 1] values (what `uct`/`uct-pb` use).
- **Progressive bias** from the game's heuristic (`forecast` after the action, normalised over
  the siblings; default W = 1, decaying as W * H / (n + 1) when scaled) with **progressive
  widening** (`widen=1`: a node visited N times has at most 1 + sqrt(N) children, opened best
  heuristic first, so the greedy move is the first one searched): with a hundred placements
  the heuristic picks which ones get tried, and the simulations correct it.
- **Simulations**, valued by `score=` (default relative points), with `playout=auto`
  greedy moves. `depth=auto` (the default): with the game's compiled kernel (Kingdomino),
  playouts to the end (about 1000 a second), `leaf=8` of them per new node in one call (a
  tree step in Python costs more than a compiled playout); without one, as far as the game's
  `playout_depth` says: Queendomino with 3 or 4 players plays to the end in Python (about 60
  greedy playouts a second, measured stronger than any heuristic leaf), while Queendomino
  with 2 and Kingdoms play none: a new node is valued by the game's heuristic (`forecast`
  for every player). `depth=end` always plays to the end; `depth=D` cuts playouts after D
  decisions.
- **Expansion past the turn** (`expand=`): the searched turn is always expanded; past it, a
  node gets children only once it has had `expand` playouts (16, two leaves, with a kernel;
  0 without, where a leaf's value is the forecast and repeating it adds nothing), so the
  opponents' replies are searched where the playouts are many enough to judge them.
  `horizon=draw` stops the tree at the first chance event (open-loop statistics past a draw
  mix different draws); `horizon=none` (the default) does not.
- **Root parallelism** (`workers=N`): N - 1 helper processes (parallel.py) search the same
  root with their own seeds and budget while the bot searches too; their trees are merged into
  the bot's. The pool lives as long as the bot (`close()` stops it).
- **Tree reuse** (`reuse=yes`, the default): drivers tell the bot every decision through
  `observe`; at its next turn the bot walks its tree down the decisions seen since its last
  one and searches on from that node, when no chance event came between (the open-loop
  statistics average over every draw, so after a draw they describe another position). Any
  mismatch (another game, a decision the tree does not have, a draw, no observe calls and a
  state that is not the expected one) starts a fresh tree.
- **Budget per turn**: the search at a turn's first decision spends `time=` (default 1 s) or
  `playouts=`; the turn's later micro-decisions are read from the same tree at once.

`analyse(game, state, rng)` searches a position with the bot's budget, then gives every legal
action at least a few iterations, and returns an `Analysis` (analysis.py). The move with the
most expected points is the analysis's best; a move with few playouts can top that list by
luck, so the top one is searched on until it has `confirm=` playouts (default 32), again while
another weak one comes to the top; then `focus` (the move played, in a review) gets as many.
The rounds are the same for a hint and a review of one position, so with one seed the hint's
best move is the review's.

Settings of `mcts`: time= | playouts=, playout=, epsilon=, score=, c= (default 0.6), bias=
(default 1), widen= (default 1; 0 expands every child first), depth=auto|end|D (auto),
leaf= (default 8 with a kernel, else 1), scale=yes|no (yes), expand= (default 16 with a
kernel, else 0), horizon=none|draw (none), workers= (default 1, at most 64), reuse=yes|no (yes),
confirm= (default 32; analysis only).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Protocol

from kingdomkit.bots.analysis import Analysis, analysis_of, most_points
from kingdomkit.bots.budget import DEFAULT_BUDGET, Budget, Clock, read_budget
from kingdomkit.bots.greedy import greedy_action
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.parallel import MAX_WORKERS, WorkerPool
from kingdomkit.bots.rollout import AUTO, read_simulation
from kingdomkit.bots.spec import Settings
from kingdomkit.bots.tree import AUTO_DEPTH, Node, Search, TreeConfig, merge
from kingdomkit.core.driver import Agent
from kingdomkit.core.protocol import Game, OptionError, check_decision

DEFAULT_WIDEN = 1.0
ANALYSIS_LEAST = 4  # iterations every legal root action gets in an analysis
ANALYSIS_CONFIRM = 32  # playouts the best action (and the focus) gets in an analysis
OBSERVED_LIMIT = 10_000


class RootSearch(Protocol):
    """What the turn handling and the analysis need of a search (tree.py's `Search`, and
    the `neural` bot's, neural.py)."""

    root: Node
    leaf: int

    def run(self, view: Any, rng: random.Random, clock: Clock) -> int: ...

    def iterate(
        self, view: Any, rng: random.Random, first: int | None = None, leaf: int = 1
    ) -> int: ...


class TreeBot:
    """A tree search bot with a budget per turn (see the module card)."""

    def __init__(
        self,
        name: str,
        config: TreeConfig,
        budget: Budget = DEFAULT_BUDGET,
        workers: int = 1,
        reuse: bool = False,
        confirm: int = ANALYSIS_CONFIRM,
    ) -> None:
        self.name = name
        self.confirm = confirm
        self.config = config
        self.budget = budget
        self.workers = workers
        self.reuse = reuse
        self.pool: WorkerPool | None = None
        self.root: Node | None = None  # the tree of the last search, at its root
        self.last_iterations = 0
        self._game: Game[Any] | None = None
        self._player = -1
        self._state: Any = None
        self._action = -1
        self._observed: list[tuple[int, int]] = []

    def unfit(self, game: Game[Any]) -> str | None:
        """Why this bot cannot search the configured `game`, in words; None when it can (a
        search on playouts plays any game; a network fits one configuration)."""
        return None

    # -- playing -------------------------------------------------------------------------
    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        check_decision(game, state, self.name)
        player = game.current_player(state)
        view = game.view(state, player)
        srng = random.Random(rng.getrandbits(64))
        continuing = self._continues(game, state)
        node = self.advanced(game, state)
        legal = game.legal_actions(state)
        if continuing and node is not None:
            action = node.best_action(legal, player)
            if action is None:
                action = self.fallback(game, view, player, srng, node)
            return self._played(game, player, state, action, node)
        if len(legal) == 1:  # nothing to think about: keep the time (and the tree)
            return self._played(game, player, state, legal[0], node or Node(game.num_players))
        search = self._search(game, view, player, srng, node if self.reuse else None)
        action = self.choice(search, legal, player)
        if action is None:
            action = self.fallback(game, view, player, srng, search.root)
        return self._played(game, player, state, action, search.root)

    def choice(self, search: RootSearch, legal: tuple[int, ...], player: int) -> int | None:
        """The move a search chose: its root's most visited legal child (None if none)."""
        return search.root.best_action(legal, player)

    def fallback(
        self, game: Game[Any], view: Any, player: int, rng: random.Random, node: Node
    ) -> int:
        """The move when the search at `node` visited no legal child: the greedy one."""
        return greedy_action(game, game.resample(view, player, rng), rng)

    def observe(self, game: Game[Any], player: int, action: int) -> None:
        """A decision made by anyone (drivers call this); kept to advance the tree."""
        if game is not self._game or len(self._observed) >= OBSERVED_LIMIT:
            self._observed = [(-1, -1)]  # never matches: the next search starts afresh
            return
        self._observed.append((player, action))

    def advanced(self, game: Game[Any], state: Any) -> Node | None:
        """The node of the last search's tree that `state` is at, as far as the decisions
        observed (or, without observe calls, the bot's own last action) tell; None when
        anything does not match."""
        if self.root is None or game is not self._game:
            return None
        if self._observed and self._observed[0] != (self._player, self._action):
            return None
        path = [action for _, action in self._observed] or [self._action]
        if not self._no_chance_between(game, path, state):
            return None
        if not self.reuse and not self._continues(game, state):
            return None
        node = self.root
        for action in path:
            child = node.children.get(action)
            if child is None:
                return None
            node = child
        return node

    def _no_chance_between(self, game: Game[Any], path: list[int], state: Any) -> bool:
        """Do the decisions of `path`, from the state of the bot's last action, reach `state`
        with no chance event on the way? The tree is open-loop: its statistics are averages
        over every draw, so after a draw (a new line of dominoes, a tile) they no longer
        describe the position (claim slot 2 holds another domino), and the search starts
        afresh."""
        reached = self._state
        for action in path:
            if game.current_player(reached) < 0 or action not in game.legal_actions(reached):
                return False
            reached = game.apply(reached, action)
        return bool(reached == state)

    def _continues(self, game: Game[Any], state: Any) -> bool:
        """Is `state` the next micro-decision of the turn the bot played last?"""
        if game is not self._game or self._state is None:
            return False
        before = self._state
        return bool(
            heuristics(game).turn_continues(before, state)
            and state == game.apply(before, self._action)
        )

    def _played(self, game: Game[Any], player: int, state: Any, action: int, root: Node) -> int:
        self._game, self._player, self._state, self._action = game, player, state, action
        self.root = root
        self._observed = []
        return action

    # -- searching -----------------------------------------------------------------------
    def searcher(self, game: Game[Any], player: int) -> Callable[[Node | None], RootSearch]:
        """How this bot makes a search of `game` for `player`, given the root to grow (None:
        a new one). Picklable, so that the helper processes make the same search."""
        return partial(Search, game, player, self.config)

    def _search(
        self, game: Game[Any], view: Any, player: int, rng: random.Random, root: Node | None
    ) -> RootSearch:
        searcher = self.searcher(game, player)
        search = searcher(root)
        helpers = self._pool()
        if helpers is not None:
            seeds = [rng.getrandbits(64) for _ in range(helpers.size)]
            helpers.start(partial(searcher, None), view, self.budget, seeds)
        self.last_iterations = search.run(view, rng, self.budget.start())
        if helpers is not None:
            for tree in helpers.collect():
                merge(search.root, tree)
        return search

    def _pool(self) -> WorkerPool | None:
        if self.workers <= 1:
            return None
        if self.pool is None:
            self.pool = WorkerPool(self.workers - 1)
        return self.pool

    def close(self) -> None:
        """Stop the helper processes, if any (the bot can still play: it starts new ones)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    # -- analysis ------------------------------------------------------------------------
    def analyse(
        self,
        game: Game[Any],
        state: Any,
        rng: random.Random,
        focus: int | None = None,
        least: int = ANALYSIS_LEAST,
    ) -> Analysis:
        """Every legal action of the player to act, estimated by a fresh search from the
        player's view (analysis.py); each gets at least `least` iterations, the best one and
        `focus` at least `confirm` playouts (see the module card)."""
        player = game.current_player(state)
        view = game.view(state, player)
        srng = random.Random(rng.getrandbits(64))
        search = self._search(game, view, player, srng, None)
        base = game.resample(view, player, srng)
        for action in game.legal_actions(base):
            child = search.root.children.get(action)
            for _ in range(least - (child.visits if child is not None else 0)):
                search.iterate(view, srng, first=action)
        analysis = analysis_of(game, base, player, search.root)
        # Each round confirms one more action (they only gain visits), so this ends; it must
        # run to the end for the hint's best to be confirmed as a review's focus would be.
        while (top := most_points(analysis.actions)).visits < self.confirm:
            self._confirm(search, view, srng, top.action, top.visits)
            analysis = analysis_of(game, base, player, search.root)
        if focus is not None:
            played = analysis.estimate(focus)
            if played.visits < self.confirm:
                self._confirm(search, view, srng, focus, played.visits)
                analysis = analysis_of(game, base, player, search.root)
        return analysis

    def _confirm(
        self, search: RootSearch, view: Any, rng: random.Random, action: int, visits: int
    ) -> None:
        """Search `action` on until it has `confirm` playouts."""
        while visits < self.confirm:
            visits += search.iterate(
                view, rng, first=action, leaf=min(search.leaf, self.confirm - visits)
            )


def read_workers(read: Settings) -> int:
    """`workers=`: the processes a search runs on (itself and its helpers), 1 to MAX_WORKERS."""
    workers = read.integer("workers", 1) or 1
    if workers > MAX_WORKERS:
        raise OptionError(f"{read.bot}: workers is between 1 and {MAX_WORKERS}, not {workers}")
    return workers


def _yes_no(read: Settings, key: str, default: bool) -> bool:
    value = read.text(key, "yes" if default else "no", ("yes", "no"))
    return value == "yes"


def _depth(read: Settings) -> int | None:
    """`depth=`: auto (the default), end, or a number of decisions."""
    raw = read.text("depth", "auto")
    if raw in ("auto", "end"):
        return AUTO_DEPTH if raw == "auto" else None
    try:
        depth = int(raw)
    except ValueError:
        depth = -1
    if depth < 0:
        raise OptionError(f"mcts: depth is auto, end or a whole number >= 0, not {raw!r}")
    return depth


def mcts_factory(settings: Mapping[str, str]) -> Agent:
    read = Settings("mcts", settings)
    playout, epsilon, score = read_simulation(read, AUTO, "relative")
    budget = read_budget(read, Budget(seconds=1.0))
    c = read.number("c", 0.6, low=-1e-12)
    bias = read.number("bias", 1.0, low=-1e-12)
    depth = _depth(read)
    widen = read.number("widen", DEFAULT_WIDEN, low=-1e-12)
    leaf = read.integer("leaf", None)
    workers = read_workers(read)
    reuse = _yes_no(read, "reuse", True)
    scaled = _yes_no(read, "scale", True)
    expand = read.integer("expand", None, low=0)
    horizon = read.text("horizon", "none", ("none", "draw"))
    confirm = read.integer("confirm", ANALYSIS_CONFIRM)
    read.done()
    config = TreeConfig(
        c=c or 0.0,
        bias=bias or 0.0,
        widen=widen or 0.0,
        playout=playout,
        epsilon=epsilon,
        score=score,
        depth=depth,
        leaf=leaf,
        scaled=scaled,
        expand=expand,
        stop_at_draw=horizon == "draw",
    )
    return TreeBot("mcts", config, budget, workers, reuse, confirm or ANALYSIS_CONFIRM)
