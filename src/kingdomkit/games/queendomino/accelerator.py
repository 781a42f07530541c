"""The compiled fast path of a configured Queendomino game: Python states in, kernel arrays out.

Queendomino's `playouts` capability (kingdomkit.bots.compiled): its shape makes one
`QueendominoAccelerator` per game object (or None without numba, or with a building table
larger than the kernel's pile holds), found with `kingdomkit.bots.compiled.compiled(game)`;
bots call `playouts`, the benchmarks and tests the other entry points. The compiled policies
(kernel.py) play exactly as `kingdomkit.bots.playouts.playout` does from the same
`SplitMix64(seed)` stream, so both give the same scores and win shares.

    playouts(state, policy, player, epsilon, count, seed) -> (scores, returns), count x players
    random_games(count, seed) -> scores of whole random games from the initial state
    legal_lists(states) / applied(states, actions) / evaluations(states): batch kernels
    state_arrays(state): the kernel's view of a Python state (st, rows, grid, crowns, info)

Versions: 1, the first (Queendomino rules version 2; every option).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from kingdomkit.bots.kernel_playouts import Floats, KernelPlayouts
from kingdomkit.core.rng import MASK64
from kingdomkit.games.kingdomino import kernel as kk
from kingdomkit.games.queendomino import kernel as kn
from kingdomkit.games.queendomino.buildings import ENDGAME, ONGOING
from kingdomkit.games.queendomino.dominoes import BOX_MASKS, BOX_SIZE, DOMINOES
from kingdomkit.games.queendomino.dominoes import TOWN as TOWN_TERRAIN
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.state import QueendominoState, Realm

Ints = npt.NDArray[np.int64]
Arrays = tuple[Ints, Ints, Ints, Ints, Ints]


def kernel_terrain(terrain: int) -> int:
    """A terrain of dominoes.py as the kernel's rows and grid hold it (towns are TOWN)."""
    return kn.TOWN if terrain == TOWN_TERRAIN else terrain


class QueendominoAccelerator(KernelPlayouts):
    """The compiled kernel bound to one configured game (its tables made once)."""

    def __init__(self, game: Queendomino) -> None:
        if len(game.table) > kn.MAX_TILES:
            raise ValueError(f"the kernel's pile holds {kn.MAX_TILES} building tiles at most")
        self.game = game
        setup = game.setup
        geo = game.geo
        self.players = setup.players
        self.realms = setup.realms
        self.side = geo.side
        self.grid_width = geo.side + 2
        config = [0] * kn.CONFIG_SIZE
        config[kk.PLAYERS] = setup.players
        config[kk.KINGS] = setup.kings
        config[kk.LINE_SIZE] = setup.line_size
        config[kk.LINE_COUNT] = setup.lines
        config[kk.REACH] = geo.reach
        config[kk.GAMES] = 1
        config[kk.SIDE] = geo.side
        config[kk.WIDTH] = geo.width
        config[kk.CELLS] = geo.cells
        config[kk.GRID_WIDTH] = self.grid_width
        config[kn.REALMS] = setup.realms
        config[kn.BOXES] = setup.boxes
        config[kn.DISCARD_ACTION] = game.discard_action
        config[kn.KNIGHT_BASE] = game.knight_base
        config[kn.BUILD_BASE] = game.build_base
        config[kn.SITE_BASE] = game.site_base
        config[kn.BURN_BASE] = game.burn_base
        config[kn.PASS_ACTION] = game.pass_action
        config[kn.NUM_ACTIONS] = game.num_actions
        config[kn.REALM_OF : kn.REALM_OF + setup.players] = game.realm_of
        for b in game.table.buildings:
            at = kn.BUILDING + kn.BUILDING_SIZE * b.index
            config[at + kn.B_CROWNS] = b.crowns
            config[at + kn.B_KNIGHTS] = b.knights
            config[at + kn.B_TOWERS] = b.towers
            config[at + kn.B_ONGOING] = ONGOING.index(b.ongoing)
            config[at + kn.B_ENDGAME] = ENDGAME.index(b.endgame)
            config[at + kn.B_POINTS] = b.endgame_points
            terrain = b.endgame_terrain
            config[at + kn.B_TERRAIN] = kernel_terrain(terrain) if terrain is not None else 0
        self.config: Ints = np.array(config, np.int64)
        table = [
            (kernel_terrain(d.terrain1), d.crowns1, kernel_terrain(d.terrain2), d.crowns2)
            for d in DOMINOES
        ]
        self.dominoes: Ints = np.array(table, np.int64)
        self._initial = self.state_arrays(game.initial_state())
        self._kernel, self._tables = kn.playouts, self.tables

    # -- Python states as kernel arrays ------------------------------------------------------
    def state_arrays(self, state: QueendominoState) -> Arrays:
        """(st, rows, grid, crowns, info) of a state (kernel.py)."""
        st = np.full(kn.STATE_SIZE, kn.NONE, np.int64)
        st[kn.PHASE] = state.phase
        st[kn.LINES] = state.lines_drawn
        st[kn.DECK] = state.deck & BOX_MASKS[0]
        st[kn.DECK + 1] = state.deck >> BOX_SIZE
        st[kn.NLINE] = len(state.line)
        st[kn.LINE : kn.LINE + len(state.line)] = state.line
        st[kn.CLAIMS : kn.CLAIMS + len(state.claims)] = state.claims
        st[kn.NPLACING] = len(state.placing)
        st[kn.PLACING : kn.PLACING + len(state.placing)] = state.placing
        st[kn.PLACERS : kn.PLACERS + len(state.placers)] = state.placers
        st[kn.TURN] = state.turn
        st[kn.NORDER] = len(state.order)
        st[kn.ORDER_AT : kn.ORDER_AT + len(state.order)] = state.order
        st[kn.BOARD_AT : kn.BOARD_AT + len(state.board)] = state.board
        st[kn.PILE] = state.pile
        st[kn.DRAGON_READY] = int(state.dragon_ready)
        st[kn.QUEEN] = state.queen
        st[kn.KNIGHTED] = state.knighted
        st[kn.CHOSEN] = state.chosen
        st[kn.TOP] = state.top
        st[kn.REALM : kn.REALM + kn.MAX_REALMS * kn.REALM_SIZE] = 0
        for r, realm in enumerate(state.realms):
            st[kn.realm_at(r) : kn.realm_at(r) + kn.REALM_SIZE] = self._realm_fields(realm)
        return (st, *self._kingdom_arrays(state.realms))

    def _realm_fields(self, realm: Realm) -> list[int]:
        fields = [0] * kn.REALM_SIZE
        fields[kn.COINS] = realm.coins
        fields[kn.GUARD] = realm.guard
        fields[kn.KNIGHTS_OUT] = realm.knights.bit_count()
        fields[kn.TOWERS_BUILT] = realm.towers
        for index, _ in realm.buildings:
            b = self.game.table[index]
            fields[kn.COIN_PER_KNIGHT] += b.ongoing == "coin_per_knight"
            fields[kn.COIN_PER_TOWER] += b.ongoing == "coin_per_tower"
            slot = {"fixed": kn.FIXED, "per_knight": kn.PER_KNIGHT, "per_tower": kn.PER_TOWER}
            if b.endgame in slot:
                fields[slot[b.endgame]] += b.endgame_points
            elif b.endgame == "per_separate_territory" and b.endgame_terrain is not None:
                fields[kn.SEPARATE + kernel_terrain(b.endgame_terrain)] += b.endgame_points
        placed = realm.kingdom.placed
        number, cell1, cell2 = placed[-1] if placed else (0, kn.NONE, kn.NONE)
        fields[kn.LAST_DOMINO] = number - 1
        fields[kn.LAST_CELL1] = cell1
        fields[kn.LAST_CELL2] = cell2
        fields[kn.BUILT] = len(realm.buildings)
        return fields

    def _kingdom_arrays(self, realms: Sequence[Realm]) -> tuple[Ints, Ints, Ints, Ints]:
        """(rows, grid, crowns, info) of the realms' kingdoms, one index each."""
        geo = self.game.geo
        reach, width, gw = geo.reach, geo.width, self.grid_width
        count = kn.MAX_REALMS
        rows = np.zeros((count, kn.LAYERS, self.side + 2), np.int64)
        grid = np.full((count, gw * gw), kk.EMPTY, np.int64)
        crowns = np.zeros((count, gw * gw), np.int64)
        info = np.zeros((count, kk.INFO_SIZE), np.int64)
        for r, realm in enumerate(realms):
            kingdom = realm.kingdom
            rows[r, :, reach + 1] = 1 << reach  # the castle, in every layer
            grid[r, (reach + 1) * gw + reach + 1] = kk.CASTLE
            for terrain, land in enumerate(kingdom.terrains):
                layer = kernel_terrain(terrain)
                while land:
                    low = land & -land
                    cell = low.bit_length() - 1
                    land ^= low
                    row, column = divmod(cell, width)
                    rows[r, layer, row + 1] |= 1 << column
                    rows[r, kk.OCCUPIED, row + 1] |= 1 << column
                    g = (row + 1) * gw + column + 1
                    grid[r, g] = layer
                    crowns[r, g] = (kingdom.crowns1 >> cell & 1) + 2 * (kingdom.crowns2 >> cell & 1)
            sites = realm.sites
            while sites:
                low = sites & -sites
                row, column = divmod(low.bit_length() - 1, width)
                rows[r, kn.SITES, row + 1] |= 1 << column
                sites ^= low
            info[r, :4] = (kingdom.min_x, kingdom.max_x, kingdom.min_y, kingdom.max_y)
            info[r, kk.DISCARDS] = len(kingdom.discarded)
        return rows, grid, crowns, info

    def _stack(self, states: Sequence[QueendominoState]) -> Arrays:
        arrays = [self.state_arrays(state) for state in states]
        return tuple(np.stack([a[k] for a in arrays]) for k in range(5))  # type: ignore[return-value]

    @property
    def tables(self) -> tuple[Ints, Ints]:
        return self.config, self.dominoes

    # -- batch kernels (tests) -----------------------------------------------------------------
    def legal_lists(self, states: Sequence[QueendominoState]) -> list[tuple[int, ...]]:
        """The kernel's legal actions of each state (() at chance and at the end)."""
        out = np.zeros((len(states), 1 + self.game.num_actions), np.int64)
        kn.legal_lists(self._stack(states), self.tables, out)
        return [tuple(int(a) for a in row[1 : 1 + row[0]]) for row in out]

    def applied(self, states: Sequence[QueendominoState], actions: Sequence[int]) -> list[Arrays]:
        """The kernel's arrays after `apply(states[i], actions[i])` (decisions or chance)."""
        stack = self._stack(states)
        kn.apply_all(stack, self.tables, np.array(actions, np.int64))
        return [tuple(a[i] for a in stack) for i in range(len(states))]

    def evaluations(self, states: Sequence[QueendominoState]) -> tuple[Floats, Floats]:
        """Row i: `QueendominoHeuristics.evaluate(states[i], p)` for each player p; and the
        scores then the returns `final_results` gives for each (as at the end)."""
        out = np.zeros((len(states), self.players), np.float64)
        results = np.zeros((len(states), 2 * self.players), np.float64)
        kn.evaluations(self._stack(states), self.tables, out, results)
        return out, results

    def greedy_actions(self, states: Sequence[QueendominoState], seed: int) -> list[int]:
        """The kernel's greedy action of each state, ties from one `SplitMix64(seed)` stream."""
        out = np.zeros(len(states), np.int64)
        stream = np.array([seed & MASK64], np.uint64)
        kn.greedy_actions(self._stack(states), self.tables, stream, out)
        return [int(a) for a in out]
