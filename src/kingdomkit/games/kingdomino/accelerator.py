"""The compiled fast path of a configured Kingdomino game: Python states in, kernel arrays out.

Kingdomino's `playouts` capability (kingdomkit.bots.compiled): its shape makes one
`KingdominoAccelerator` per game object (or None without numba), found with
`kingdomkit.bots.compiled.compiled(game)`; bots call `playouts`, the benchmarks and tests the
batch entry points. The compiled policies (playouts.py, on the rules' mirror in kernel.py)
play exactly as `kingdomkit.bots.playouts.playout` does from the same `SplitMix64(seed)`
stream, so both give the same scores and win shares.

    playouts(state, policy, player, epsilon, count, seed) -> (scores, returns), count x players
    random_games(count, seed) -> scores of whole random games from the initial state
    placement_lists(kingdoms, numbers) / kingdom_scores(kingdoms): batch kernels
    state_arrays(state) / kingdom_arrays(kingdoms): the kernel's view of Python values

Versions: 1, the first (Kingdomino rules version 1; every option, dynasty included).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from kingdomkit.bots.kernel_playouts import KernelPlayouts
from kingdomkit.games.kingdomino import kernel as kn
from kingdomkit.games.kingdomino import playouts as kp
from kingdomkit.games.kingdomino.dominoes import DOMINOES
from kingdomkit.games.kingdomino.kingdom import Kingdom
from kingdomkit.games.kingdomino.rules import Kingdomino, KingdominoState
from kingdomkit.games.kingdomino.state import UNCLAIMED

Ints = npt.NDArray[np.int64]
KEPT_KINGDOMS = 4096  # kingdoms' arrays kept for the next ask (all forgotten when full)


class KingdominoAccelerator(KernelPlayouts):
    """The compiled kernel bound to one configured game (its tables made once)."""

    def __init__(self, game: Kingdomino) -> None:
        self.game = game
        setup = game.setup
        geo = game.geo
        self.players = setup.players
        self.side = geo.side
        self.grid_width = geo.side + 2
        self._kept: dict[tuple[Any, ...], tuple[Ints, Ints, Ints, Ints]] = {}
        config = [0] * kn.CONFIG_SIZE
        config[kn.PLAYERS] = setup.players
        config[kn.KINGS] = setup.kings
        config[kn.LINE_SIZE] = setup.line_size
        config[kn.LINE_COUNT] = setup.lines
        config[kn.REACH] = geo.reach
        config[kn.GAMES] = setup.games
        config[kn.MIDDLE] = int(setup.middle_kingdom)
        config[kn.HARMONY] = int(setup.harmony)
        config[kn.ORDERS] = len(game.orders)
        config[kn.SIDE] = geo.side
        config[kn.WIDTH] = geo.width
        config[kn.CELLS] = geo.cells
        config[kn.GRID_WIDTH] = self.grid_width
        config[kn.EMPTY_VALUE] = game.kingdom_score(game.initial_state().kingdoms[0])
        self.config: Ints = np.array(config, np.int64)
        self.orders: Ints = np.array(game.orders, np.int64)
        table = [(0, 0, 0, 0)] + [(d.terrain1, d.crowns1, d.terrain2, d.crowns2) for d in DOMINOES]
        self.dominoes: Ints = np.array(table, np.int64)
        self._initial = self.state_arrays(game.initial_state())
        self._kernel, self._tables = kp.playouts, (self.config, self.dominoes, self.orders)

    # -- Python values as kernel arrays ----------------------------------------------------
    def kingdom_arrays(self, kingdoms: Sequence[Kingdom]) -> tuple[Ints, Ints, Ints, Ints]:
        """(rows, grid, crowns, info) of the kingdoms, one index each (see kernel.py).

        A search asks for the kingdoms of many states that share most of them (a move
        changes one, and a search replays its moves, making equal kingdoms anew), so each
        kingdom's arrays are kept for the next ask, by what they are made from: the arrays
        returned are new ones, so the kernel never writes into what is kept."""
        count = len(kingdoms)
        gw = self.grid_width
        rows = np.empty((count, kn.LAYERS, self.side + 2), np.int64)
        grid = np.empty((count, gw * gw), np.int64)
        crowns = np.empty((count, gw * gw), np.int64)
        info = np.empty((count, kn.INFO_SIZE), np.int64)
        kept = self._kept
        for p, k in enumerate(kingdoms):
            key = (
                k.terrains,
                k.crowns1,
                k.crowns2,
                k.min_x,
                k.max_x,
                k.min_y,
                k.max_y,
                len(k.discarded),
            )
            one = kept.get(key)
            if one is None:
                if len(kept) >= KEPT_KINGDOMS:
                    kept.clear()
                one = kept[key] = self._one_kingdom(k)
            rows[p], grid[p], crowns[p], info[p] = one
        return rows, grid, crowns, info

    def _one_kingdom(self, kingdom: Kingdom) -> tuple[Ints, Ints, Ints, Ints]:
        """(rows, grid, crowns, info) of one kingdom, worked out from its bitboards."""
        geo = self.game.geo
        reach, width, gw = geo.reach, geo.width, self.grid_width
        rows = np.zeros((kn.LAYERS, self.side + 2), np.int64)
        grid = np.full(gw * gw, kn.EMPTY, np.int64)
        crowns = np.zeros(gw * gw, np.int64)
        info = np.zeros(kn.INFO_SIZE, np.int64)
        rows[:, reach + 1] = 1 << reach
        grid[(reach + 1) * gw + reach + 1] = kn.CASTLE
        for terrain, land in enumerate(kingdom.terrains):
            while land:
                low = land & -land
                cell = low.bit_length() - 1
                land ^= low
                r, c = divmod(cell, width)
                rows[terrain, r + 1] |= 1 << c
                rows[kn.OCCUPIED, r + 1] |= 1 << c
                g = (r + 1) * gw + c + 1
                grid[g] = terrain
                crowns[g] = (kingdom.crowns1 >> cell & 1) + 2 * (kingdom.crowns2 >> cell & 1)
        info[:4] = (kingdom.min_x, kingdom.max_x, kingdom.min_y, kingdom.max_y)
        info[kn.DISCARDS] = len(kingdom.discarded)
        return rows, grid, crowns, info

    def state_arrays(self, state: KingdominoState) -> tuple[Ints, Ints, Ints, Ints, Ints]:
        """(st, rows, grid, crowns, info) of a state (see kernel.py)."""
        st = np.zeros(kn.STATE_SIZE, np.int64)
        st[kn.PHASE] = state.phase
        st[kn.LINES] = state.lines_drawn
        st[kn.DECK] = state.deck
        st[kn.NLINE] = len(state.line)
        st[kn.LINE : kn.LINE + len(state.line)] = state.line
        st[kn.CLAIMED : kn.CLAIMED + 4] = UNCLAIMED
        st[kn.CLAIMED : kn.CLAIMED + len(state.claims)] = state.claims
        st[kn.NPLACERS] = len(state.placers)
        st[kn.PLACING : kn.PLACING + len(state.placing)] = state.placing
        st[kn.PLACERS : kn.PLACERS + len(state.placers)] = state.placers
        st[kn.TURN] = state.turn
        st[kn.ORDER_AT : kn.ORDER_AT + len(state.order)] = state.order
        st[kn.GAME] = state.game_number
        for past in state.past_scores:
            st[kn.PAST : kn.PAST + self.players] += past
        return (st, *self.kingdom_arrays(state.kingdoms))

    # -- batch kernels (tests and benchmarks) --------------------------------------------------
    def placement_lists(
        self, arrays: tuple[Ints, Ints, Ints, Ints], numbers: Ints, passes: int = 1
    ) -> Ints:
        """Row i: the count, then the sorted placement codes of domino numbers[i] in kingdom i
        of `arrays` (from `kingdom_arrays`), as `kingdom.legal_placements` gives them."""
        rows, _, _, info = arrays
        out = np.zeros((len(numbers), 1 + 4 * self.game.cells), np.int64)
        kn.placement_lists(rows, info, numbers, self.dominoes, self.config, passes, out)
        return out

    def kingdom_scores(self, arrays: tuple[Ints, Ints, Ints, Ints], passes: int = 1) -> Ints:
        """Row i: `Kingdomino.kingdom_score`, largest territory and crowns of kingdom i."""
        _, grid, crowns, info = arrays
        out = np.zeros((len(grid), 3), np.int64)
        kn.kingdom_scores(grid, crowns, info, self.config, passes, out)
        return out

    def placements(self, kingdom: Kingdom, number: int) -> list[int]:
        """The legal placement codes of domino `number` in one kingdom (a convenience)."""
        out = self.placement_lists(self.kingdom_arrays([kingdom]), np.array([number]))
        return [int(code) for code in out[0, 1 : 1 + out[0, 0]]]
