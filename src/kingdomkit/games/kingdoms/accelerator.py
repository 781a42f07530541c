"""The compiled fast path of a configured Kingdoms game: Python states in, kernel arrays out.

Kingdoms' `playouts` capability (kingdomkit.bots.compiled): its shape makes one
`KingdomsAccelerator` per game object (or None without numba), found with
`kingdomkit.bots.compiled.compiled(game)`; bots call `playouts`, the benchmarks and tests the
other entry points. The compiled policies (kernel.py) play exactly as
`kingdomkit.bots.playouts.playout` does from the same `SplitMix64(seed)` stream, so both give
the same scores and win shares.

    playouts(state, policy, player, epsilon, count, seed) -> (scores, returns), count x players
    random_games(count, seed) -> scores of whole random games from the initial state
    legal_lists(states) / applied(states, actions) / evaluations(states): batch kernels
    state_arrays(state) / state_from_arrays(st): the kernel's view of Python states

Versions: 1, the first (Kingdoms rules version 1; every option).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from kingdomkit.bots.kernel_playouts import KernelPlayouts
from kingdomkit.games.kingdoms import kernel as kn
from kingdomkit.games.kingdoms.actions import NUM_ACTIONS
from kingdomkit.games.kingdoms.board import EMPTY, IS_RESOURCE, SPACES, TILE_VALUES
from kingdomkit.games.kingdoms.rules import Kingdoms
from kingdomkit.games.kingdoms.state import KingdomsState
from kingdomkit.games.kingdoms.tiles import DRG, FULL_SUPPLY, GLD, MTN, RANKS, TYPES, WIZ

Ints = npt.NDArray[np.int64]


class KingdomsAccelerator(KernelPlayouts):
    """The compiled kernel bound to one configured game (its table made once)."""

    def __init__(self, game: Kingdoms) -> None:
        self.game = game
        setup = game.setup
        self.players = setup.players
        config = [0] * kn.CONFIG_SIZE
        config[kn.PLAYERS] = setup.players
        config[kn.LAST_CASTLE] = int(setup.down_to_the_last_castle)
        config[kn.NO_LUCK] = int(setup.no_luck)
        config[kn.AS_YOU_GO] = int(setup.score_as_you_go)
        config[kn.MTN], config[kn.DRG], config[kn.GLD], config[kn.WIZ] = MTN, DRG, GLD, WIZ
        types = len(TYPES)
        config[kn.VALUE : kn.VALUE + types] = TILE_VALUES
        config[kn.IS_RESOURCE : kn.IS_RESOURCE + types] = [int(r) for r in IS_RESOURCE]
        config[kn.FULL_SUPPLY : kn.FULL_SUPPLY + types] = FULL_SUPPLY
        config[kn.FULL_TILES] = sum(FULL_SUPPLY)
        self.config: Ints = np.array(config, np.int64)
        self._initial = self.state_arrays(game.initial_state())
        self._kernel, self._tables = kn.playouts, self.config

    # -- Python states as kernel arrays ------------------------------------------------------
    def state_arrays(self, state: KingdomsState) -> Ints:
        """`st` of a state (kernel.py); the history (`placed`, `past`) is left out."""
        st = np.zeros(kn.STATE_SIZE, np.int64)
        st[kn.PHASE] = state.phase
        st[kn.EPOCH] = state.epoch
        st[kn.FIRST_PLAYER] = state.first
        st[kn.TURN] = state.turn
        st[kn.HELD] = state.held
        st[kn.SCORED] = state.scored
        st[kn.BOARD : kn.BOARD + SPACES] = state.board
        st[kn.SUPPLY : kn.SUPPLY + len(TYPES)] = state.supply
        players = self.players
        st[kn.STARTING : kn.STARTING + players] = state.starting
        for p, hand in enumerate(state.castles):
            st[kn.CASTLES + RANKS * p : kn.CASTLES + RANKS * (p + 1)] = hand
        st[kn.GOLD : kn.GOLD + players] = state.gold
        st[kn.EMPTIES] = state.board.count(EMPTY)
        st[kn.TILES] = sum(state.supply)
        return st

    def state_from_arrays(self, st: Ints) -> KingdomsState:
        """The `KingdomsState` of `st`, with no history (`placed` and `past` empty)."""
        players = self.players

        def ints(start: int, count: int) -> tuple[int, ...]:
            return tuple(int(v) for v in st[start : start + count])

        return KingdomsState(
            int(st[kn.PHASE]),
            int(st[kn.EPOCH]),
            ints(kn.BOARD, SPACES),
            ints(kn.SUPPLY, len(TYPES)),
            ints(kn.STARTING, players),
            tuple(ints(kn.CASTLES + RANKS * p, RANKS) for p in range(players)),
            ints(kn.GOLD, players),
            int(st[kn.FIRST_PLAYER]),
            int(st[kn.TURN]),
            int(st[kn.HELD]),
            int(st[kn.SCORED]),
        )

    def _stack(self, states: Sequence[KingdomsState]) -> Ints:
        return np.array([self.state_arrays(state) for state in states], np.int64).reshape(
            len(states), kn.STATE_SIZE
        )

    # -- batch kernels (tests) -----------------------------------------------------------------
    def legal_lists(self, states: Sequence[KingdomsState]) -> list[tuple[int, ...]]:
        """The kernel's legal actions of each state (() at chance and at the end)."""
        out = np.zeros((len(states), 1 + NUM_ACTIONS), np.int64)
        kn.legal_lists(self._stack(states), self.config, out)
        return [tuple(int(a) for a in row[1 : 1 + row[0]]) for row in out]

    def applied(self, states: Sequence[KingdomsState], actions: Sequence[int]) -> Ints:
        """The kernel's `st` after `apply(states[i], actions[i])` (decisions or chance)."""
        stack = self._stack(states)
        kn.apply_all(stack, self.config, np.array(actions, np.int64))
        return stack

    def evaluations(self, states: Sequence[KingdomsState]) -> Ints:
        """Row i: `KingdomsHeuristics.evaluate(states[i], p)` for each player p."""
        out = np.zeros((len(states), self.players), np.int64)
        kn.evaluations(self._stack(states), self.config, out)
        return out
