"""`flat-mc`: Monte-Carlo evaluation, the flat baseline of Gedda, Lagerkvist and Butler (2018).

At the first decision of a turn, every candidate turn (every sequence of the player's
micro-actions to the end of the turn, as the greedy bot enumerates them) gets playouts in
round-robin until the budget ends; the candidate with the best mean value is played, and the
turn's later micro-decisions follow that sequence without searching again.

Settings: `playout=random|greedy|epsilon-greedy|player-greedy` (default random), `epsilon=`
(0.25), `score=wdl|points|relative` (relative), `time=` (default 1 s) or `playouts=` (total
per turn). Hidden information: every playout starts from a fresh `resample` of the bot's own
view, never from the real state. With a compiled kernel the playouts of one candidate are
batched (8 per call).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdomkit.bots.budget import DEFAULT_BUDGET, Budget, read_budget
from kingdomkit.bots.playouts import DEFAULT_EPSILON
from kingdomkit.bots.rollout import Simulator, read_simulation, turn_sequences
from kingdomkit.bots.spec import Settings
from kingdomkit.core.driver import Agent
from kingdomkit.core.protocol import Game, check_decision

KERNEL_BATCH = 8


class FlatMonteCarloBot:
    """Monte-Carlo evaluation of every candidate turn (see the module card)."""

    name = "flat-mc"

    def __init__(
        self,
        budget: Budget = DEFAULT_BUDGET,
        playout: str = "random",
        epsilon: float = DEFAULT_EPSILON,
        score: str = "relative",
    ) -> None:
        self.budget = budget
        self.playout = playout
        self.epsilon = epsilon
        self.score = score
        self._plan: list[int] = []
        self._expect: Any = None
        self.last_means: dict[tuple[int, ...], tuple[float, int]] = {}

    def act(self, game: Game[Any], state: Any, rng: random.Random) -> int:
        check_decision(game, state, self.name)
        if self._plan and state == self._expect:
            action = self._plan.pop(0)
            self._expect = game.apply(state, action) if self._plan else None
            return action
        plan = self.search(game, state, rng)
        action, self._plan = plan[0], list(plan[1:])
        self._expect = game.apply(state, action) if self._plan else None
        return action

    def search(self, game: Game[Any], state: Any, rng: random.Random) -> tuple[int, ...]:
        """The best candidate turn from `state`, as seen from the acting player's view."""
        player = game.current_player(state)
        view = game.view(state, player)
        srng = random.Random(rng.getrandbits(64))
        base = game.resample(view, player, srng)
        candidates = turn_sequences(game, base)
        if len(candidates) == 1:
            return candidates[0][0]
        sim = Simulator(game, player, self.playout, self.epsilon, self.score)
        batch = KERNEL_BATCH if sim.kernel is not None else 1
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        clock = self.budget.start()
        done = 0
        while clock.more(done):
            # under a playout budget, the last rounds share what is left evenly
            share = min(batch, max(1, clock.left(done) // len(candidates)))
            for index, (sequence, after) in enumerate(candidates):
                count = min(share, clock.left(done))
                if count <= 0 or not clock.more(done):
                    break
                start = game.resample(view, player, srng)
                if start is not view:
                    after = start
                    for action in sequence:
                        after = game.apply(after, action)
                for values, _ in sim.batch(after, srng, count):
                    totals[index] += values[player]
                counts[index] += count
                done += count
        self.last_means = {
            seq: (totals[i] / counts[i] if counts[i] else float("-inf"), counts[i])
            for i, (seq, _) in enumerate(candidates)
        }
        best = max(range(len(candidates)), key=lambda i: self.last_means[candidates[i][0]][0])
        return candidates[best][0]


def flat_mc_factory(settings: Mapping[str, str]) -> Agent:
    read = Settings("flat-mc", settings)
    playout, epsilon, score = read_simulation(read, "random", "relative")
    budget = read_budget(read, Budget(seconds=1.0))
    read.done()
    return FlatMonteCarloBot(budget, playout, epsilon, score)
