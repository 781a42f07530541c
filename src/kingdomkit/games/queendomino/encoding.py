"""Queendomino's observation encoding: a position as one player sees it, as fixed-shape numpy
arrays for learning (its `observation` capability, kingdomkit.rl.observation), and its eight
symmetries. Kingdomino's encoding (kingdomino/encoding.py) is reused for the kingdom planes, the
lines and the kings.

Version 1. P = players, seat i is player (observer + i) % P; R = realms (P, or P / 2 in team
play), realm seat j is realm (observer's realm + j) % R; K = kings; L = line length (4, or 8
for 5 to 8 players); S = frame side (9 or 13); T = building tiles in the table (as loaded).
Cell (x, y) relative to the castle is plane element [y + reach, x + reach].

    kingdoms  (R * 14, S, S) uint8   14 planes per realm seat, realm-major:
                                       c 0..6  wheat, forest, lake, grassland, swamp, mine,
                                               town: 1 on the squares of that terrain
                                       c 7     crowns on the square (0..3; a town's come
                                               from its building)
                                       c 8     the castle
                                       c 9     room: empty cells a square may still go on
                                       c 10    a knight
                                       c 11    a building
                                       c 12    square 1 of the realm's last placed domino
                                       c 13    square 2 of it
    line      (L, 18 + P) uint8      the new line: 0 present, 1..17 the domino (below),
                                     18 + i claimed by seat i
    kings     (K, 21 + P) uint8      the kings in acting order: 0 present, 1 + i owned by
                                     seat i, P + 1 has finished its turn, P + 2 acts now,
                                     P + 3 has placed this round, P + 4 .. P + 20 its domino
    seats     (P, R) uint8           the realm seat of each seat (team play: two seats share)
    realms    (R, 7 + 18) int16      per realm seat: coins, knights in the guard, knights in
                                     the kingdom, towers, hosts the Queen, score now (the
                                     score pad's total), buildings built; then the sum of
                                     its buildings' 18 features (below)
    board     (6, 18 + 1) uint8      the Builders' Board, space s costs s: the building's
                                     features (zeros when empty), then 1 on the space whose
                                     building is being built (the site step)
    pile      (T,) uint8             1 for each building tile face down in the pile
    top       (18,) uint8            the pile's face-up top: its building features (zeros
                                     when the pile is out)
    unseen    (96,) uint8            1 for each domino not drawn yet (by id: Queendomino's
                                     0..47, Kingdomino's 48..95, only in a Royal Wedding)
    counters  (17,) int16            phase one-hot (draw, board, order, claim, place, tax,
                                     build, site, dragon, over), lines drawn, lines, the
                                     Dragon in its cave, knights and towers in the supply,
                                     this turn's domino has a knight on square 1, on square 2

A domino is 17 values: square 1's terrain one-hot (7) and crowns, square 2's terrain one-hot
(7) and crowns, its id + 1. A building is 18 values: present, crowns, knights, towers, the
ongoing effect (coin per knight, coin per tower), the end-game effect one-hot (fixed, per
knight, per tower, per separate territory), its points, its terrain one-hot (7).

Actions are the game's own (rules.py). Symmetries: the 8 rotations and reflections of the
kingdom planes, as in Kingdomino; placements and building sites turn with them, the other
actions stay.

Versions: 1, the first; 2, `top`, the pile's face-up top (Queendomino version 2), and
`pile` without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from kingdomkit.games.kingdomino.encoding import (
    FLAGS,
    INT16_MAX,
    PlaneMaker,
    acting_domino_alike,
    bits,
    domino_features,
    king_indices,
    king_rows,
    line_indices,
    line_rows,
    one_hot,
    placement_maps,
    room,
    turned,
)
from kingdomkit.games.kingdomino.geometry import Bitboard
from kingdomkit.games.queendomino.buildings import ENDGAME, Building, BuildingTable
from kingdomkit.games.queendomino.dominoes import DOMINOES, TERRAINS
from kingdomkit.games.queendomino.state import (
    BUILD,
    CLAIM,
    DRAGON,
    EMPTY,
    KNIGHTS,
    OVER,
    PHASE_NAMES,
    PLACE,
    PLACE_BASE,
    SITE,
    SPACES,
    TAX,
)
from kingdomkit.rl.observation import ArraySpec, Observation, Symmetry

if TYPE_CHECKING:
    from kingdomkit.games.queendomino.rules import Queendomino, QueendominoState

VERSION = 2
PLANES = 14
CROWN_PLANE = 7
DOMINO_WIDTH = 2 * len(TERRAINS) + 3
BUILDING_WIDTH = 11 + len(TERRAINS)
REALM_FEATURES = 7
ACTING = (CLAIM, PLACE, TAX, BUILD, SITE, DRAGON)
PLACED = (TAX, BUILD, SITE, DRAGON, CLAIM)  # the king at `turn` has placed its domino
Array = NDArray[Any]


def building_features(table: BuildingTable) -> Array:
    """Row b + 1 holds building b's features (module card); row 0, an empty space, zeros."""
    rows = np.zeros((len(table) + 1, BUILDING_WIDTH), np.uint8)
    for building in table.buildings:
        rows[building.index + 1] = _features(building)
    return rows


def _features(building: Building) -> list[int]:
    terrain = building.endgame_terrain
    return [
        1,
        building.crowns,
        building.knights,
        building.towers,
        int(building.ongoing == "coin_per_knight"),
        int(building.ongoing == "coin_per_tower"),
        *(int(building.endgame == kind) for kind in ENDGAME[1:]),
        building.endgame_points,
        *one_hot(-1 if terrain is None else terrain, len(TERRAINS)),
    ]


class QueendominoEncoder:
    """The encoding for one configured game, with its tables built once."""

    version = VERSION  # the layout: Observer.version

    def __init__(self, game: Queendomino) -> None:
        self.game = game
        self.geo = game.geo
        self.players = players = game.num_players
        self.realms = game.num_realms
        self.maker = PlaneMaker(self.geo)
        self.dominoes = dominoes = domino_features(DOMINOES, len(TERRAINS))
        self.line_rows = line_rows(dominoes, players)
        self.king_rows = king_rows(dominoes, players)
        self.buildings = building_features(game.table)

    def spec(self) -> dict[str, ArraySpec]:
        p, r, side = self.players, self.realms, self.geo.side
        setup = self.game.setup
        most = len(DOMINOES)
        return {
            "kingdoms": ArraySpec((r * PLANES, side, side), "uint8", 0, 3),
            "line": ArraySpec((setup.line_size, 1 + DOMINO_WIDTH + p), "uint8", 0, most),
            "kings": ArraySpec((setup.kings, 4 + DOMINO_WIDTH + p), "uint8", 0, most),
            "seats": ArraySpec((p, r), "uint8", 0, 1),
            "realms": ArraySpec((r, REALM_FEATURES + BUILDING_WIDTH), "int16", 0, INT16_MAX),
            "board": ArraySpec((SPACES, BUILDING_WIDTH + 1), "uint8", 0, 255),
            "pile": ArraySpec((len(self.game.table),), "uint8", 0, 1),
            "top": ArraySpec((BUILDING_WIDTH,), "uint8", 0, 255),
            "unseen": ArraySpec((len(DOMINOES),), "uint8", 0, 1),
            "counters": ArraySpec((len(PHASE_NAMES) + 7,), "int16", 0, max(setup.lines, KNIGHTS)),
        }

    def observe(self, state: QueendominoState, player: int) -> Observation:
        game = self.game
        state = game.view(state, player)
        p, r = self.players, self.realms
        own = game.realm_of[player]
        realm_seats = [(own + j) % r for j in range(r)]
        phase = state.phase
        return {
            "kingdoms": self._kingdoms(state, realm_seats),
            "line": self.line_rows.take(
                line_indices(
                    state.line,
                    state.claims,
                    player,
                    p,
                    len(self.dominoes),
                    game.setup.line_size,
                    offset=1,
                ),
                axis=0,
            ),
            "kings": self._kings(state, player),
            "seats": np.array(
                [one_hot((game.realm_of[(player + i) % p] - own) % r, r) for i in range(p)],
                np.uint8,
            ),
            "realms": self._realms(state, realm_seats),
            "board": self._board(state),
            "pile": bits(state.pile, len(game.table)),
            "top": self.buildings[state.top + 1].copy(),
            "unseen": bits(state.deck, len(DOMINOES)),
            "counters": np.array(
                [
                    *one_hot(phase, len(PHASE_NAMES)),
                    state.lines_drawn,
                    game.setup.lines,
                    int(state.dragon_ready),
                    game.knight_supply(state),
                    game.tower_supply(state),
                    state.knighted & 1,
                    state.knighted >> 1 & 1,
                ],
                np.int16,
            ),
        }

    def _kingdoms(self, state: QueendominoState, realm_seats: list[int]) -> Array:
        geo = self.geo
        boards: list[Bitboard] = []
        for r in realm_seats:
            realm = state.realms[r]
            kingdom = realm.kingdom
            last1 = last2 = 0
            if kingdom.placed:
                _, cell1, cell2 = kingdom.placed[-1]
                last1, last2 = 1 << cell1, 1 << cell2
            boards.extend(kingdom.terrains)
            boards += [kingdom.crowns1, geo.castle_bit, room(geo, kingdom), realm.knights]
            boards += [realm.sites, last1, last2, kingdom.crowns2]
        side = geo.side
        count = len(realm_seats)
        unpacked = self.maker.planes(boards).reshape(count, PLANES + 1, side, side)
        planes = unpacked[:, :PLANES].copy()
        planes[:, CROWN_PLANE] += unpacked[:, PLANES] << 1
        return planes.reshape(count * PLANES, side, side)

    def _kings(self, state: QueendominoState, player: int) -> Array:
        phase = state.phase
        size = self.game.setup.kings
        if phase == OVER:
            rows = [self.players * FLAGS * len(self.dominoes)] * size
        else:
            placed = state.turn + (1 if phase in PLACED else 0)
            rows = king_indices(
                state, player, self.players, phase in ACTING, placed, len(self.dominoes), size, 1
            )
        return self.king_rows.take(rows, axis=0)

    def _realms(self, state: QueendominoState, realm_seats: list[int]) -> Array:
        game = self.game
        rows = np.zeros((len(realm_seats), REALM_FEATURES + BUILDING_WIDTH), np.int16)
        for row, r in zip(rows, realm_seats, strict=True):
            realm = state.realms[r]
            row[:REALM_FEATURES] = (
                realm.coins,
                realm.guard,
                realm.knights.bit_count(),
                realm.towers,
                int(state.queen == r),
                game.breakdown(state, r).total,
                len(realm.buildings),
            )
            if realm.buildings:
                built = [index + 1 for index, _ in realm.buildings]
                row[REALM_FEATURES:] = self.buildings[built].sum(axis=0)
        return rows

    def _board(self, state: QueendominoState) -> Array:
        board = np.zeros((SPACES, BUILDING_WIDTH + 1), np.uint8)
        board[:, :BUILDING_WIDTH] = self.buildings[[b + 1 for b in state.board]]
        if state.phase == SITE and state.chosen != EMPTY:
            board[state.chosen, BUILDING_WIDTH] = 1
        return board

    # -- symmetries ------------------------------------------------------------------------
    def symmetries(self, observation: Observation, action_mask: Array) -> list[Symmetry]:
        game = self.game
        phase = int(np.argmax(observation["counters"][: len(PHASE_NAMES)]))
        alike = phase == PLACE and acting_domino_alike(
            observation["kings"], self.players, len(TERRAINS)
        )
        maps = placement_maps(game.geo, PLACE_BASE, game.num_actions, alike, (game.site_base,))
        return turned(game.geo, observation, action_mask, "kingdoms", maps)
