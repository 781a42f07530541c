"""A slot of a batched simulator replayed by the pure-Python engine (the reference): the same
SplitMix64 stream, the bots' Python policies, so that a batch test compares every output of
the compiled step with what the engine shows. Shared by every game's batch tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kingdomkit.bots.playouts import greedy_policy, random_policy
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game
from kingdomkit.core.rng import SplitMix64
from kingdomkit.rl.adapter import action_mask
from kingdomkit.rl.compiled_batch import stream_seed

POLICIES = {"random": random_policy, "greedy": greedy_policy}


class ReferenceGame:
    """One slot of a batch, played by the pure-Python engine from the same stream."""

    def __init__(
        self, game: Game[Any], seed: int, opponents: Sequence[str] | None, seat: int | None
    ) -> None:
        self.game = game
        self.rng: Any = SplitMix64(stream_seed(seed))  # random() is all the engine uses
        self.opponents = opponents
        self.fixed_seat = seat
        self.actor = -1
        self.ended = False
        self.start()

    def start(self) -> None:
        game = self.game
        if self.opponents is None:
            self.seat = -1
        elif self.fixed_seat is None:
            self.seat = int(self.rng.random() * game.num_players)
        else:
            self.seat = self.fixed_seat
        self.state = game.initial_state()
        self.ended = False
        self.advance()

    def advance(self) -> None:
        """Chance and the bots, until the learner decides or the game ends."""
        game = self.game
        while True:
            player = game.current_player(self.state)
            if player == CHANCE:
                self.state = game.apply(self.state, game.sample_chance(self.state, self.rng))
                continue
            if player == TERMINAL or self.seat < 0 or player == self.seat:
                return
            assert self.opponents is not None
            others = [p for p in range(game.num_players) if p != self.seat]
            policy = POLICIES[self.opponents[others.index(player)]]
            self.state = game.apply(self.state, policy(game, self.state, self.rng))

    def observer(self) -> int:
        if self.seat >= 0:
            return self.seat
        player = self.game.current_player(self.state)
        return self.actor if self.ended or player < 0 else player

    def expected_mask(self) -> Any:
        game = self.game
        if self.ended:
            return np.zeros(game.num_actions, np.int8)
        return action_mask(game, game.legal_actions(self.state))
