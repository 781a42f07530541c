"""Compiled Queendomino (numba): legal actions, apply (chance included), the score pad, the
end, and the bots' four playout policies, move for move and draw for draw as the pure-Python
engine (rules.py) and `kingdomkit.bots.playouts` play them. Imported only by accelerator.py,
only when numba is asked for.

The kingdoms are Kingdomino's compiled kingdoms (kingdomino/kernel.py: its legal placements,
placing, territory labels and best gains are reused as they are; its square gain is mirrored
inline, `merge`, where the size it finds is needed too), one per realm, with three more row
layers: the towns (terrain 6 of rules.py is layer and grid value TOWN = 7, since
Kingdomino's grid keeps 6 for the castle; the castle is in the town layer, as in every
terrain's, to connect), and the building sites (the castle is in that layer too, so that it
is never a free town square):

    rows[r, 0..5]  terrains   rows[r, 6] occupied   rows[r, 7] towns   rows[r, 8] sites
    grid[r, g], crowns[r, g], info[r]   as Kingdomino's (a building's crowns on its square)

`cfg` starts as Kingdomino's config (so that its functions read it; no Middle Kingdom, no
Harmony), then the set-up, the action layout, the realm of each player and the building
table (passed in, so that numba's disk cache never keeps old data). One game's scalars are
one int64 array `st` (unused slots -1):

    PHASE LINES DECK (2 words: box 0, box 1)  NLINE LINE(8) CLAIMS(8)
    NPLACING PLACING(8) PLACERS(8) TURN NORDER ORDER(8) BOARD(6) PILE DRAGON_READY QUEEN
    KNIGHTED CHOSEN TOP, then per realm: COINS GUARD KNIGHTS_OUT TOWERS, the building
    effects summed (tax coins per knight and per tower; fixed points, points per knight,
    per tower, per separate territory of each grid terrain), the last domino placed and its
    two cells (TAX reads them), and the buildings built.

A realm's knights are counted, not placed, and its buildings summed: the rules only count
them (the positions are for people, kept by the Python engine).

Draws follow bots/playouts.py: one SplitMix64 stream (`uniform`); DRAW the int(u * n)-th
lowest domino of the box whose turn it is, BOARD the int(u * n)-th lowest tile of the pile,
ORDER the int(u * n)-th player still to draw (2 players: of the two); random
legal[int(u * n)]; greedy one uniform only for 2+ tied best actions; epsilon-greedy
u < epsilon -> random (a second uniform). Greedy values are `QueendominoHeuristics.evaluate`
(its float sum, in its order) through the rest of the turn as `turn_continues` says: a
placement with its knights, a building with its square.

Speed: everything a playout runs is compiled without numba's reference counting (`jit`),
which was three quarters of its time. A greedy placement is valued without being played
through: the pad after it follows from the labels before it, and so do the labels after it,
only the new squares' territories labelled again; the knights' best is the most coins, from
the sizes of the new squares' territories; a pending domino keeps its placements and their
gains, less those the placement takes or puts out of the frame (`gains_before`), and only
those that touch a new square's territory of their terrain are searched again
(`touched_gain`), so a placement with dominoes pending is valued without being played
either (`pending_gains`). A choice that cannot change the value is not looked through (a
building without crowns is valued on one square, the Dragon is never worth its coin), and a
crowned building only adds its crowns to its town territory. The memo of a realm's kingdom
(its pad figures, labels and best gains) is kept from one greedy decision of a turn to the
next while the kingdom stays (`keep_placed`, `forget_kingdom`). Each gives the values
`evaluate` gives, as the differential tests check (docs/benchmarks.md: what each saves).

Versions: 1, the first (mirrors Queendomino rules version 2; every option, the Royal
Wedding and teams included); the same moves and draws since, only faster. The rules
version is checked at import: a rules change the kernel does not follow stops it loading.
numba's disk cache checks only this file: after changing Kingdomino's kernel, delete the
numba files (*.nbi, *.nbc) of this package's `__pycache__`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kingdomkit.games.compiling import Array, entry, jit, jit_inline, uniform
from kingdomkit.games.kingdomino import kernel as kk
from kingdomkit.games.kingdomino.kernel import (
    CELLS,
    DISCARDS,
    GRID_WIDTH,
    KINGS,
    LINE_COUNT,
    LINE_SIZE,
    PLAYERS,
    SIDE,
    WIDTH,
    popcount,
    trailing_zeros,
)
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.state import (
    BOARD,
    BOTH_SQUARES,
    BUILD,
    CLAIM,
    DRAGON,
    DRAW,
    EMPTY,
    KNIGHTS,
    MAX_LINE,
    ORDER,
    OVER,
    PLACE,
    PLACE_BASE,
    SITE,
    SPACES,
    TAX,
    TOWERS,
    UNCLAIMED,
)

RULES_VERSION = 2  # the version of Queendomino's rules this kernel mirrors
if Queendomino.version != RULES_VERSION:
    raise ImportError(
        f"the compiled Queendomino kernel mirrors rules version {RULES_VERSION}, not"
        f" {Queendomino.version}: update queendomino/kernel.py"
    )

MAX_REALMS = 8
BOX = 48  # dominoes in a box (dominoes.py): ids box * BOX + i
MAX_DOMINOES = 2 * BOX
MAX_TILES = 62  # building tiles the kernel's pile (one int64) can hold
TOWN = 7  # the town terrain in the kernel's rows and grid
SITES = 8  # the row layer of building sites
LAYERS = 9
NONE = -1  # an unused slot

# st: one game.
PHASE, LINES, DECK = 0, 1, 2
NLINE = DECK + 2
LINE = NLINE + 1
CLAIMS = LINE + MAX_LINE
NPLACING = CLAIMS + MAX_LINE
PLACING = NPLACING + 1
PLACERS = PLACING + MAX_LINE
TURN = PLACERS + MAX_LINE
NORDER = TURN + 1
ORDER_AT = NORDER + 1
BOARD_AT = ORDER_AT + MAX_LINE
PILE = BOARD_AT + SPACES
DRAGON_READY, QUEEN, KNIGHTED, CHOSEN, TOP = PILE + 1, PILE + 2, PILE + 3, PILE + 4, PILE + 5
REALM = TOP + 1
# Fields of a realm, from REALM + REALM_SIZE * r.
COINS, GUARD, KNIGHTS_OUT, TOWERS_BUILT = 0, 1, 2, 3
COIN_PER_KNIGHT, COIN_PER_TOWER, FIXED, PER_KNIGHT, PER_TOWER = 4, 5, 6, 7, 8
SEPARATE = 9  # + grid terrain (0 .. 7): points per separate territory of it
LAST_DOMINO = SEPARATE + LAYERS - 1
LAST_CELL1, LAST_CELL2, BUILT = LAST_DOMINO + 1, LAST_DOMINO + 2, LAST_DOMINO + 3
REALM_SIZE = BUILT + 1
STATE_SIZE = REALM + MAX_REALMS * REALM_SIZE

# cfg: Kingdomino's config (kingdomino/kernel.py: PLAYERS .. EMPTY_VALUE), then:
REALMS = kk.CONFIG_SIZE
BOXES, DISCARD_ACTION, KNIGHT_BASE = REALMS + 1, REALMS + 2, REALMS + 3
BUILD_BASE, SITE_BASE, BURN_BASE, PASS_ACTION = REALMS + 4, REALMS + 5, REALMS + 6, REALMS + 7
NUM_ACTIONS = REALMS + 8
REALM_OF = NUM_ACTIONS + 1  # + player
BUILDING = REALM_OF + MAX_REALMS  # + BUILDING_SIZE * tile: its fields
B_CROWNS, B_KNIGHTS, B_TOWERS, B_ONGOING, B_ENDGAME, B_POINTS, B_TERRAIN = 0, 1, 2, 3, 4, 5, 6
BUILDING_SIZE = 7
CONFIG_SIZE = BUILDING + BUILDING_SIZE * MAX_TILES
# Effects by code (buildings.py's ONGOING and ENDGAME, in their order).
ONGOING_PER_KNIGHT, ONGOING_PER_TOWER = 1, 2
END_FIXED, END_PER_KNIGHT, END_PER_TOWER, END_SEPARATE = 1, 2, 3, 4

# The policies' codes: their places in kingdomkit.bots.playouts.POLICIES.
RANDOM, GREEDY, EPSILON_GREEDY, PLAYER_GREEDY = 0, 1, 2, 3
NO_VALUE = -1.0e300
DEPTH = 3  # scratch levels of a turn's look-ahead (a building, then its square)


@jit_inline
def copy_into(target: Array, at: int, source: Array, start: int, count: int) -> None:
    """target[at : at + count] = source[start : start + count], without the temporary copy
    numba makes for a slice assignment (which would need its reference counting)."""
    for k in range(count):
        target[at + k] = source[start + k]


# -- reading the state ---------------------------------------------------------------------
@jit_inline
def realm_at(r: int) -> int:
    return REALM + REALM_SIZE * r


@jit_inline
def current_player(st: Array) -> int:
    """The player to act (only at decisions)."""
    phase = st[PHASE]
    if phase == CLAIM and st[NPLACING] == 0:
        return int(st[ORDER_AT + st[TURN]])
    return int(st[PLACERS + st[TURN]])


@jit_inline
def grid_of(cell: int, cfg: Array) -> int:
    """The grid index of a geometry cell."""
    width = cfg[WIDTH]
    row = cell // width
    return int((row + 1) * cfg[GRID_WIDTH] + cell - row * width + 1)


@jit_inline
def placed_cells(code: int, cfg: Array) -> tuple[int, int]:
    """The geometry cells of square 1 and square 2 of a placement code (kingdom.py's
    `direction * cells + cell`: square 2 east, south, west or north of square 1)."""
    cells = cfg[CELLS]
    width = cfg[WIDTH]
    direction = code // cells
    cell = code - direction * cells
    if direction == 0:
        return cell, cell + 1
    if direction == 1:
        return cell, cell + width
    if direction == 2:
        return cell, cell - 1
    return cell, cell - width


@jit_inline
def placed_squares(code: int, cfg: Array) -> tuple[int, int]:
    """The grid indices of square 1 and square 2 of a placement code."""
    cell1, cell2 = placed_cells(code, cfg)
    return grid_of(cell1, cfg), grid_of(cell2, cfg)


# Every placement code decoded once per kernel call (`decode_placements`, work[18]), by
# field: its grid squares, and the columns and rows of its squares (`kk.decode`), so that a
# greedy search reads them instead of dividing by the kingdom's width for each.
D_SQUARE1, D_SQUARE2, D_COLUMN1, D_ROW1, D_COLUMN2, D_ROW2 = range(6)
DECODED = 6


@jit_inline
def set_decoded(
    decoded: Array, code: int, column1: int, row1: int, column2: int, row2: int, gw: int
) -> None:
    decoded[D_SQUARE1, code] = (row1 + 1) * gw + column1 + 1
    decoded[D_SQUARE2, code] = (row2 + 1) * gw + column2 + 1
    decoded[D_COLUMN1, code] = column1
    decoded[D_ROW1, code] = row1
    decoded[D_COLUMN2, code] = column2
    decoded[D_ROW2, code] = row2


@jit
def decode_placements(cfg: Array, decoded: Array) -> None:
    """The D_ fields of every placement code (`direction * cells + cell`, any cell, any
    direction), as `kk.decode` gives them; counted up, not divided (made at each batch step)."""
    gw = cfg[GRID_WIDTH]
    cells = cfg[CELLS]
    width = cfg[WIDTH]
    for direction in range(4):
        # Square 2 is east, south, west or north of square 1.
        dc = 1 if direction == 0 else (-1 if direction == 2 else 0)
        dr = 1 if direction == 1 else (-1 if direction == 3 else 0)
        row1 = 0
        column1 = 0
        for cell in range(cells):
            code = direction * cells + cell
            set_decoded(decoded, code, column1, row1, column1 + dc, row1 + dr, gw)
            column1 += 1
            if column1 == width:
                column1 = 0
                row1 += 1


@jit_inline
def lay(
    kingdoms: Any, r: int, code: int, domino: int, dominoes: Array, cfg: Array, decoded: Array
) -> None:
    """`kk.place` from the decoded placement: the same squares, crowns and bounding box."""
    rows, grid, crowns, info = kingdoms
    column1, row1 = decoded[D_COLUMN1, code], decoded[D_ROW1, code]
    column2, row2 = decoded[D_COLUMN2, code], decoded[D_ROW2, code]
    t1, k1, t2, k2 = (
        dominoes[domino, 0],
        dominoes[domino, 1],
        dominoes[domino, 2],
        dominoes[domino, 3],
    )
    kk.set_square(rows, grid, crowns, r, column1, row1, t1, k1, cfg)
    kk.set_square(rows, grid, crowns, r, column2, row2, t2, k2, cfg)
    reach = cfg[kk.REACH]
    info[r, kk.MIN_X] = min(info[r, kk.MIN_X], column1 - reach, column2 - reach)
    info[r, kk.MAX_X] = max(info[r, kk.MAX_X], column1 - reach, column2 - reach)
    info[r, kk.MIN_Y] = min(info[r, kk.MIN_Y], row1 - reach, row2 - reach)
    info[r, kk.MAX_Y] = max(info[r, kk.MAX_Y], row1 - reach, row2 - reach)


@jit_inline
def lift(
    kingdoms: Any,
    r: int,
    code: int,
    domino: int,
    dominoes: Array,
    cfg: Array,
    decoded: Array,
    box: Array,
) -> None:
    """`kk.unplace` from the decoded placement; `box` is the bounding box from before."""
    rows, grid, crowns, info = kingdoms
    kk.clear_square(
        rows,
        grid,
        crowns,
        r,
        decoded[D_COLUMN1, code],
        decoded[D_ROW1, code],
        dominoes[domino, 0],
        cfg,
    )
    kk.clear_square(
        rows,
        grid,
        crowns,
        r,
        decoded[D_COLUMN2, code],
        decoded[D_ROW2, code],
        dominoes[domino, 2],
        cfg,
    )
    for k in range(4):
        info[r, k] = box[k]


@jit_inline
def has_free_town(rows: Array, r: int, cfg: Array) -> bool:
    free = 0
    for i in range(1, cfg[SIDE] + 1):
        free |= rows[r, TOWN, i] & ~rows[r, SITES, i]
    return free != 0


@jit_inline
def price(st: Array, r: int, space: int) -> int:
    """The Queen takes 1 off for her host (rules.py `price`)."""
    return max(0, space - 1) if st[QUEEN] == r else space


@jit_inline
def can_build(st: Array, rows: Array, r: int, cfg: Array) -> bool:
    if not has_free_town(rows, r, cfg):
        return False
    coins = st[realm_at(r) + COINS]
    for space in range(SPACES):
        if st[BOARD_AT + space] != EMPTY and price(st, r, space) <= coins:
            return True
    return False


@jit
def territory_size(grid: Array, r: int, g: int, terrain: int, gw: int, mark: Array) -> int:
    """The size of the territory of `terrain` holding grid square g (`scoring.territory_size`);
    `mark` is scratch: one grid of marks (all -1 between calls), then the queue."""
    squares = grid.shape[1]
    mark[g] = 1
    mark[squares] = g
    tail = 1
    head = 0
    while head < tail:
        h = mark[squares + head]
        head += 1
        for n in (h + 1, h - 1, h + gw, h - gw):
            if grid[r, n] == terrain and mark[n] < 0:
                mark[n] = 1
                mark[squares + tail] = n
                tail += 1
    for i in range(tail):
        mark[mark[squares + i]] = -1
    return tail


# -- chance ------------------------------------------------------------------------------
@jit_inline
def nth_bit(bits: int, k: int) -> int:
    for _ in range(k):
        bits &= bits - 1
    return trailing_zeros(bits)


@jit_inline
def sample_chance(st: Array, cfg: Array, u: float) -> int:
    """`Queendomino.sample_chance` from the uniform u."""
    phase = st[PHASE]
    if phase == ORDER:
        if cfg[PLAYERS] == 2:
            return int(u * 2)
        k = int(u * (cfg[PLAYERS] - st[NORDER]))
        for player in range(cfg[PLAYERS]):
            drawn = False
            for i in range(st[NORDER]):
                if st[ORDER_AT + i] == player:
                    drawn = True
            if not drawn:
                if k == 0:
                    return player
                k -= 1
        return -1
    if phase == DRAW:
        box = st[LINES] % cfg[BOXES]
        bits = st[DECK + box]
        return int(box * BOX + nth_bit(bits, int(u * popcount(bits))))
    bits = st[PILE]
    return nth_bit(bits, int(u * popcount(bits)))


@jit_inline
def after_board(st: Array, cfg: Array) -> None:
    """The face-up top onto the cheapest empty space, then BOARD, DRAW or the last round
    (rules.py `_after_board`)."""
    if st[TOP] != EMPTY:
        for space in range(SPACES):
            if st[BOARD_AT + space] == EMPTY:
                st[BOARD_AT + space] = st[TOP]
                st[TOP] = EMPTY
                break
    if st[TOP] == EMPTY and st[PILE] != 0:
        st[PHASE] = BOARD
    elif st[LINES] < cfg[LINE_COUNT]:
        st[PHASE] = DRAW
    else:
        st[PHASE] = PLACE
        st[TURN] = 0


@jit_inline
def apply_chance(st: Array, cfg: Array, outcome: int) -> None:
    phase = st[PHASE]
    if phase == BOARD:
        st[TOP] = outcome
        st[PILE] &= ~(1 << outcome)
        after_board(st, cfg)
    elif phase == DRAW:
        box = outcome // BOX
        st[DECK + box] &= ~(1 << (outcome - box * BOX))
        slot = st[NLINE]
        while slot > 0 and st[LINE + slot - 1] > outcome:
            st[LINE + slot] = st[LINE + slot - 1]
            slot -= 1
        st[LINE + slot] = outcome
        st[NLINE] += 1
        if st[NLINE] == cfg[LINE_SIZE]:
            st[LINES] += 1
            st[PHASE] = ORDER if st[LINES] == 1 else PLACE
            for i in range(st[NLINE]):
                st[CLAIMS + i] = UNCLAIMED
            st[TURN] = 0
    else:  # ORDER
        if cfg[PLAYERS] == 2:
            # Rulebook, 2 players: first, second, second, first.
            st[ORDER_AT] = outcome
            st[ORDER_AT + 1] = 1 - outcome
            st[ORDER_AT + 2] = 1 - outcome
            st[ORDER_AT + 3] = outcome
            st[NORDER] = 4
            st[PHASE] = CLAIM
            st[TURN] = 0
        else:
            st[ORDER_AT + st[NORDER]] = outcome
            st[NORDER] += 1
            st[PHASE] = CLAIM if st[NORDER] == cfg[KINGS] else ORDER


# -- a turn ---------------------------------------------------------------------------------
@jit_inline
def end_turn(st: Array) -> None:
    if st[NLINE] > 0:
        st[PHASE] = CLAIM
        return
    st[TURN] += 1
    st[PHASE] = OVER if st[TURN] == st[NPLACING] else PLACE


@jit_inline
def step(st: Array, rows: Array, cfg: Array, phase: int) -> None:
    """The first step from `phase` on in which the player to act has a choice (`_step`)."""
    r = cfg[REALM_OF + st[PLACERS + st[TURN]]]
    at = realm_at(r)
    if phase == TAX:
        if st[at + GUARD] > 0 and st[KNIGHTED] != BOTH_SQUARES:
            st[PHASE] = TAX
            return
        phase = BUILD
    if phase == BUILD and can_build(st, rows, r, cfg):
        st[PHASE] = BUILD
        return
    if st[DRAGON_READY] and st[QUEEN] != r and st[at + COINS] >= 1:
        for space in range(SPACES):
            if st[BOARD_AT + space] != EMPTY:
                st[PHASE] = DRAGON
                return
    end_turn(st)


@jit_inline
def claim(st: Array, cfg: Array, slot: int) -> None:
    """CLAIM (`_claim`): the king's domino; after the last king, the next round's set-up."""
    placers = st[NPLACING]
    st[CLAIMS + slot] = current_player(st)
    turn = st[TURN] + 1
    if turn < (placers if placers > 0 else st[NORDER]):
        st[PHASE] = PLACE if placers > 0 else CLAIM
        st[TURN] = turn
        return
    # Every king has claimed: the unclaimed dominoes are discarded.
    count = 0
    for i in range(st[NLINE]):
        owner = st[CLAIMS + i]
        if owner != UNCLAIMED:
            st[PLACING + count] = st[LINE + i]
            st[PLACERS + count] = owner
            count += 1
    for i in range(count, MAX_LINE):
        st[PLACING + i] = NONE
        st[PLACERS + i] = NONE
    for i in range(MAX_LINE):
        st[LINE + i] = NONE
        st[CLAIMS + i] = NONE
    st[NPLACING] = count
    st[NLINE] = 0
    st[TURN] = 0
    kept = 0
    for space in range(SPACES):
        if st[BOARD_AT + space] != EMPTY:
            st[BOARD_AT + kept] = st[BOARD_AT + space]
            kept += 1
    for space in range(kept, SPACES):
        st[BOARD_AT + space] = EMPTY
    st[DRAGON_READY] = 1
    after_board(st, cfg)


@jit_inline
def place_action(st: Array, kingdoms: Any, tables: Any, action: int) -> None:
    """PLACE (`_place`): the domino placed or discarded, then the next step."""
    rows, grid, crowns, info = kingdoms
    cfg, dominoes = tables
    turn = st[TURN]
    r = cfg[REALM_OF + st[PLACERS + turn]]
    domino = st[PLACING + turn]
    if action == cfg[DISCARD_ACTION]:
        info[r, DISCARDS] += 1
        st[KNIGHTED] = BOTH_SQUARES
    else:
        code = action - PLACE_BASE
        kk.place(rows, grid, crowns, info, r, code, domino, dominoes, cfg)
        cell1, cell2 = placed_cells(code, cfg)
        at = realm_at(r)
        st[at + LAST_DOMINO] = domino
        st[at + LAST_CELL1] = cell1
        st[at + LAST_CELL2] = cell2
        st[KNIGHTED] = 0
    step(st, rows, cfg, TAX)


@jit
def tax(
    st: Array, grid: Array, cfg: Array, dominoes: Array, r: int, square: int, mark: Array
) -> int:
    """The coins a knight on `square` (0 or 1) of realm r's last domino collects
    (`Queendomino.tax`)."""
    at = realm_at(r)
    cell = st[at + LAST_CELL1 + square]
    terrain = dominoes[st[at + LAST_DOMINO], 2 * square]
    coins = territory_size(grid, r, grid_of(cell, cfg), terrain, cfg[GRID_WIDTH], mark)
    coins += st[at + COIN_PER_KNIGHT] * (st[at + GUARD] + st[at + KNIGHTS_OUT])
    coins += st[at + COIN_PER_TOWER] * st[at + TOWERS_BUILT]
    return int(coins)


@jit
def most_tax(st: Array, grid: Array, cfg: Array, dominoes: Array, r: int, mark: Array) -> int:
    """The most coins realm r's knights can still collect this turn (at TAX): a knight on
    each free square the guard can fill."""
    first = -1
    second = -1
    for square in range(2):
        if not st[KNIGHTED] >> square & 1:
            coins = tax(st, grid, cfg, dominoes, r, square, mark)
            if first < 0:
                first = coins
            else:
                second = coins
    if st[realm_at(r) + GUARD] >= 2 and second >= 0:
        return first + second
    return max(first, second)


@jit_inline
def placed_tax(st: Array, r: int, size1: int, size2: int) -> int:
    """`most_tax` right after realm r placed a domino whose squares' territories have sizes
    size1 and size2 (no knight on them yet): the sizes read off the placement's pad instead
    of a flood each."""
    at = realm_at(r)
    bonus = st[at + COIN_PER_KNIGHT] * (st[at + GUARD] + st[at + KNIGHTS_OUT])
    bonus += st[at + COIN_PER_TOWER] * st[at + TOWERS_BUILT]
    if st[at + GUARD] >= 2:
        return int(size1 + size2 + 2 * bonus)
    return int(max(size1, size2) + bonus)


@jit
def tax_action(st: Array, kingdoms: Any, tables: Any, action: int, mark: Array) -> None:
    """TAX (`_tax`): a knight from the guard collects its territory's size and the ongoing
    bonuses of the realm's buildings; or pass."""
    rows, grid, _, _ = kingdoms
    cfg = tables[0]
    if action == cfg[PASS_ACTION]:
        step(st, rows, cfg, BUILD)
        return
    square = action - cfg[KNIGHT_BASE]
    r = cfg[REALM_OF + st[PLACERS + st[TURN]]]
    at = realm_at(r)
    st[at + COINS] += tax(st, grid, cfg, tables[1], r, square, mark)
    st[at + GUARD] -= 1
    st[at + KNIGHTS_OUT] += 1
    st[KNIGHTED] |= 1 << square
    step(st, rows, cfg, TAX)


@jit
def site_action(st: Array, kingdoms: Any, cfg: Array, cell: int) -> None:
    """SITE (`_site`): the chosen building on a free town square, with its effects."""
    rows, _, crowns, _ = kingdoms
    r = cfg[REALM_OF + st[PLACERS + st[TURN]]]
    at = realm_at(r)
    space = st[CHOSEN]
    b = BUILDING + BUILDING_SIZE * st[BOARD_AT + space]
    owned = 0
    towers = 0
    for q in range(cfg[REALMS]):
        owned += st[realm_at(q) + GUARD] + st[realm_at(q) + KNIGHTS_OUT]
        towers += st[realm_at(q) + TOWERS_BUILT]
    knights = min(cfg[b + B_KNIGHTS], KNIGHTS - owned)
    towers = min(cfg[b + B_TOWERS], TOWERS - towers)
    crowns[r, grid_of(cell, cfg)] |= cfg[b + B_CROWNS]
    width = cfg[WIDTH]
    row = cell // width
    rows[r, SITES, row + 1] |= 1 << (cell - row * width)
    st[at + COINS] -= price(st, r, space)
    st[at + GUARD] += knights
    st[at + TOWERS_BUILT] += towers
    ongoing = cfg[b + B_ONGOING]
    if ongoing == ONGOING_PER_KNIGHT:
        st[at + COIN_PER_KNIGHT] += 1
    elif ongoing == ONGOING_PER_TOWER:
        st[at + COIN_PER_TOWER] += 1
    endgame = cfg[b + B_ENDGAME]
    points = cfg[b + B_POINTS]
    if endgame == END_FIXED:
        st[at + FIXED] += points
    elif endgame == END_PER_KNIGHT:
        st[at + PER_KNIGHT] += points
    elif endgame == END_PER_TOWER:
        st[at + PER_TOWER] += points
    elif endgame == END_SEPARATE:
        st[at + SEPARATE + cfg[b + B_TERRAIN]] += points
    st[at + BUILT] += 1
    # "As soon as your kingdom has acquired the most Towers (even in the case of a tie with
    # another player), it hosts the Queen" (rulebook C).
    if towers > 0:
        most = True
        for q in range(cfg[REALMS]):
            if st[realm_at(q) + TOWERS_BUILT] > st[at + TOWERS_BUILT]:
                most = False
        if most:
            st[QUEEN] = r
    st[BOARD_AT + space] = EMPTY
    st[CHOSEN] = EMPTY
    step(st, rows, cfg, DRAGON)


@jit_inline
def apply(st: Array, kingdoms: Any, tables: Any, action: int, mark: Array) -> None:
    """`Queendomino.apply`, decisions and chance outcomes, in place."""
    cfg = tables[0]
    phase = st[PHASE]
    if phase == PLACE:
        place_action(st, kingdoms, tables, action)
    elif phase == TAX:
        tax_action(st, kingdoms, tables, action, mark)
    elif phase == BUILD:
        if action == cfg[PASS_ACTION]:
            step(st, kingdoms[0], cfg, DRAGON)
        else:
            st[PHASE] = SITE
            st[CHOSEN] = action - cfg[BUILD_BASE]
    elif phase == SITE:
        site_action(st, kingdoms, cfg, action - cfg[SITE_BASE])
    elif phase == DRAGON:
        if action != cfg[PASS_ACTION]:
            r = cfg[REALM_OF + st[PLACERS + st[TURN]]]
            st[realm_at(r) + COINS] -= 1
            st[BOARD_AT + action - cfg[BURN_BASE]] = EMPTY
            st[DRAGON_READY] = 0
        end_turn(st)
    elif phase == CLAIM:
        claim(st, cfg, action)
    elif phase != OVER:
        apply_chance(st, cfg, action)


@jit_inline
def legal_actions(st: Array, kingdoms: Any, tables: Any, lanes: Array, out: Array) -> int:
    """`Queendomino.legal_actions` into `out`, sorted; returns how many (0 at chance)."""
    rows, _, _, info = kingdoms
    cfg, dominoes = tables
    phase = st[PHASE]
    count = 0
    if phase == PLACE:
        r = cfg[REALM_OF + st[PLACERS + st[TURN]]]
        count = kk.legal_placements(
            rows, info, r, st[PLACING + st[TURN]], dominoes, cfg, lanes, out
        )
        for i in range(count):
            out[i] += PLACE_BASE
        if count == 0:
            out[0] = cfg[DISCARD_ACTION]
            count = 1
    elif phase == CLAIM:
        for slot in range(st[NLINE]):
            if st[CLAIMS + slot] == UNCLAIMED:
                out[count] = slot
                count += 1
    elif phase == TAX:
        for square in range(2):
            if not st[KNIGHTED] >> square & 1:
                out[count] = cfg[KNIGHT_BASE] + square
                count += 1
        out[count] = cfg[PASS_ACTION]
        count += 1
    elif phase == BUILD:
        r = cfg[REALM_OF + st[PLACERS + st[TURN]]]
        if has_free_town(rows, r, cfg):
            coins = st[realm_at(r) + COINS]
            for space in range(SPACES):
                if st[BOARD_AT + space] != EMPTY and price(st, r, space) <= coins:
                    out[count] = cfg[BUILD_BASE] + space
                    count += 1
        out[count] = cfg[PASS_ACTION]
        count += 1
    elif phase == SITE:
        r = cfg[REALM_OF + st[PLACERS + st[TURN]]]
        width = cfg[WIDTH]
        for i in range(1, cfg[SIDE] + 1):
            free = rows[r, TOWN, i] & ~rows[r, SITES, i]
            while free:
                out[count] = cfg[SITE_BASE] + (i - 1) * width + trailing_zeros(free)
                count += 1
                free &= free - 1
    elif phase == DRAGON:
        for space in range(SPACES):
            if st[BOARD_AT + space] != EMPTY:
                out[count] = cfg[BURN_BASE] + space
                count += 1
        out[count] = cfg[PASS_ACTION]
        count += 1
    return count


# -- the score pad and the greedy value ---------------------------------------------------------
@jit
def kingdom_pad(kingdoms: Any, cfg: Array, r: int, labels: Array, terr: Array, out: Array) -> None:
    """What realm r's score pad takes from its kingdom alone (`scoring.breakdown`), into
    `out`: territory points, the largest territory, then the territories of each grid
    terrain. Leaves the kingdom labelled (territory labels, for best gains)."""
    _, grid, crowns, info = kingdoms
    points, largest, _ = kk.label(grid, crowns, info, r, cfg, labels, terr)
    out[0] = points
    out[1] = largest
    out[2 : 2 + LAYERS - 1] = 0
    # Territories are labelled in scan order, so each label is first met on the square its
    # flood started from: count them there, by terrain.
    reach = cfg[kk.REACH]
    gw = cfg[GRID_WIDTH]
    next_label = 0
    for row in range(info[r, kk.MIN_Y] + reach + 1, info[r, kk.MAX_Y] + reach + 2):
        for column in range(info[r, kk.MIN_X] + reach + 1, info[r, kk.MAX_X] + reach + 2):
            g = row * gw + column
            if labels[g] == next_label and grid[r, g] >= 0 and grid[r, g] != kk.CASTLE:
                out[2 + grid[r, g]] += 1
                next_label += 1


@jit_inline
def pad_points(st: Array, r: int, kingdom: Array) -> int:
    """Realm r's score pad without its wealth, from `kingdom_pad`'s figures: territories,
    the Queen's crown on the largest territory, the buildings."""
    at = realm_at(r)
    points = kingdom[0]
    if st[QUEEN] == r:
        points += kingdom[1]
    towers = st[at + TOWERS_BUILT]
    knights = st[at + GUARD] + st[at + KNIGHTS_OUT]
    points += st[at + FIXED] + st[at + PER_TOWER] * towers + st[at + PER_KNIGHT] * knights
    for t in range(LAYERS - 1):
        points += st[at + SEPARATE + t] * kingdom[2 + t]
    return int(points)


@jit_inline
def merge(
    grid: Array,
    r: int,
    g: int,
    t: int,
    k: int,
    gw: int,
    labels: Array,
    terr: Array,
    seen: Array,
    other: int,
    other_crowns: int,
) -> tuple[int, int, int]:
    """New squares of terrain t on g (and on `other` if >= 0) in realm r's labelled kingdom
    (Kingdomino's `square_gain`): the territory points they add, the size of the territory
    they make, and how many old territories it swallows."""
    size = 1 if other < 0 else 2
    crowned = k + other_crowns
    old = 0
    count = 0
    for square in range(2):
        h = g if square == 0 else other
        if h < 0:
            break
        for n in (h + 1, h - 1, h + gw, h - gw):
            if grid[r, n] == t:
                index = labels[n]
                new = True
                for j in range(count):
                    if seen[j] == index:
                        new = False
                if new:
                    seen[count] = index
                    count += 1
                    size += terr[0, index]
                    crowned += terr[1, index]
                    old += terr[0, index] * terr[1, index]
    return size * crowned - old, size, count


@jit_inline
def placed_pad(
    grid: Array,
    cfg: Array,
    dominoes: Array,
    r: int,
    g1: int,
    g2: int,
    domino: int,
    labels: Array,
    terr: Array,
    seen: Array,
    old: Array,
    out: Array,
) -> tuple[int, int]:
    """`kingdom_pad` of realm r once `domino` is placed on grid squares g1 and g2, from its
    pad `old` and its labels before (it labels nothing: the gains of pending dominoes need
    `relabel` after). Returns the sizes of the territories of its two squares once placed
    (for `placed_tax`)."""
    copy_into(out, 0, old, 0, 2 + LAYERS - 1)
    sizes = (0, 0)
    t1, k1, t2, k2 = (
        dominoes[domino, 0],
        dominoes[domino, 1],
        dominoes[domino, 2],
        dominoes[domino, 3],
    )
    gw = cfg[GRID_WIDTH]
    for square in range(1 if t1 == t2 else 2):
        if t1 == t2:
            gain, size, count = merge(grid, r, g1, t1, k1, gw, labels, terr, seen, g2, k2)
            t = t1
        elif square == 0:
            gain, size, count = merge(grid, r, g1, t1, k1, gw, labels, terr, seen, -1, 0)
            t = t1
        else:
            gain, size, count = merge(grid, r, g2, t2, k2, gw, labels, terr, seen, -1, 0)
            t = t2
        out[0] += gain
        out[1] = max(out[1], size)
        out[2 + t] += 1 - count
        if t1 == t2:
            sizes = (size, size)
        elif square == 0:
            sizes = (size, 0)
        else:
            sizes = (sizes[0], size)
    return sizes


@jit_inline
def relabel(
    grid: Array,
    crowns: Array,
    cfg: Array,
    r: int,
    g1: int,
    g2: int,
    labels: Array,
    terr: Array,
    found: int,
    saved: Array,
) -> int:
    """Realm r's labels once a domino is placed on grid squares g1 and g2 (just placed), from
    its labels before (`found` territories): each new square's territory gets a new label, on
    its squares and in `terr`, as labelling it again would give its territories. The labels
    it overwrites go to `saved` (square, label); returns their count, for `restore_labels`."""
    gw = cfg[GRID_WIDTH]
    saved[0] = g1
    saved[1] = labels[g1]
    saved[2] = g2
    saved[3] = labels[g2]
    labels[g1] = -1
    labels[g2] = -1
    count = 2
    stack = terr[2]
    for square in range(2):
        g = g1 if square == 0 else g2
        if labels[g] >= 0:  # the same terrain as the first square: labelled with it
            continue
        t = grid[r, g]
        new = found + square
        labels[g] = new
        stack[0] = g
        top = 1
        size = 0
        crowned = 0
        while top:
            top -= 1
            h = stack[top]
            size += 1
            crowned += crowns[r, h]
            for n in (h + 1, h - 1, h + gw, h - gw):
                if grid[r, n] == t and labels[n] != new:
                    saved[2 * count] = n
                    saved[2 * count + 1] = labels[n]
                    count += 1
                    labels[n] = new
                    stack[top] = n
                    top += 1
        terr[0, new] = size
        terr[1, new] = crowned
    return count


@jit_inline
def restore_labels(labels: Array, saved: Array, count: int) -> None:
    """Puts back the labels `relabel` overwrote (the last first)."""
    for j in range(count - 1, -1, -1):
        labels[saved[2 * j]] = saved[2 * j + 1]


@jit_inline
def placement_gain(
    grid: Array,
    cfg: Array,
    dominoes: Array,
    r: int,
    g1: int,
    g2: int,
    domino: int,
    labels: Array,
    terr: Array,
    seen: Array,
) -> int:
    """The territory points `domino` with its squares on grid squares g1 and g2 adds to realm
    r's labelled kingdom (Kingdomino's `square_gain`, no Middle Kingdom here)."""
    t1, k1 = dominoes[domino, 0], dominoes[domino, 1]
    t2, k2 = dominoes[domino, 2], dominoes[domino, 3]
    gw = cfg[GRID_WIDTH]
    if t1 == t2:
        return merge(grid, r, g1, t1, k1, gw, labels, terr, seen, g2, k2)[0]
    gain = merge(grid, r, g1, t1, k1, gw, labels, terr, seen, -1, 0)[0]
    return gain + merge(grid, r, g2, t2, k2, gw, labels, terr, seen, -1, 0)[0]


@jit_inline
def apart(dominoes: Array, a: int, b: int) -> bool:
    """Whether dominoes a and b have no terrain in common."""
    for x in range(0, 4, 2):
        for y in range(0, 4, 2):
            if dominoes[a, x] == dominoes[b, y]:
                return False
    return True


# A pending domino's placements before a greedy placement, by field (`gains_before`): its
# gain, its grid squares, its frame (the columns and rows it spans), its squares' lane rows
# and columns (bit c of a row of `placement_lanes`), and the placements by gain.
Q_GAIN, Q_SQUARE1, Q_SQUARE2, Q_LO_C, Q_HI_C, Q_LO_R, Q_HI_R = range(7)
Q_ROW1, Q_COLUMN1, Q_ROW2, Q_COLUMN2, Q_ORDER = range(7, 12)
FAST = 4  # pending dominoes valued so at the most (the others as `evaluate` does)
# Rows of the `near` scratch (`near_territories`): the new squares' two territories, the
# squares next to each, and the squares where a pending domino's square 1 and square 2 touch
# one of its terrain.
NEW1, NEW2, NEAR1, NEAR2, TOUCH1, TOUCH2 = range(6)


@jit
def gains_before(kingdoms: Any, tables: Any, r: int, domino: int, work: Any, table: Array) -> int:
    """Every legal placement of `domino` in realm r's labelled kingdom into `table`, by the
    Q_ fields, the highest gain first in row Q_ORDER. Returns how many. Once another domino is
    placed, the placements of `domino` still legal are these minus those on its squares or
    out of the narrower frame, plus new ones next to its squares; and those that touch none of
    the territories of its squares keep their gains (their neighbours' territories are the
    same): `gain_after` and `touched_gain`."""
    rows, grid, _, info = kingdoms
    cfg, dominoes = tables
    codes = work[2]
    decoded = work[18]
    count = kk.legal_placements(rows, info, r, domino, dominoes, cfg, work[0], codes)
    for q in range(count):
        code = codes[q]
        g1 = decoded[D_SQUARE1, code]
        g2 = decoded[D_SQUARE2, code]
        gain = placement_gain(grid, cfg, dominoes, r, g1, g2, domino, work[3], work[4], work[6])
        row1 = decoded[D_ROW1, code]
        row2 = decoded[D_ROW2, code]
        column1 = decoded[D_COLUMN1, code]
        column2 = decoded[D_COLUMN2, code]
        table[Q_GAIN, q] = gain
        table[Q_SQUARE1, q] = g1
        table[Q_SQUARE2, q] = g2
        table[Q_LO_C, q] = min(column1, column2)
        table[Q_HI_C, q] = max(column1, column2)
        table[Q_LO_R, q] = min(row1, row2)
        table[Q_HI_R, q] = max(row1, row2)
        table[Q_ROW1, q] = row1 + 1
        table[Q_COLUMN1, q] = column1
        table[Q_ROW2, q] = row2 + 1
        table[Q_COLUMN2, q] = column2
        j = q
        while j > 0 and table[Q_GAIN, table[Q_ORDER, j - 1]] < gain:
            table[Q_ORDER, j] = table[Q_ORDER, j - 1]
            j -= 1
        table[Q_ORDER, j] = q
    return count


@jit_inline
def gain_after(
    table: Array,
    count: int,
    info: Array,
    r: int,
    cfg: Array,
    g1: int,
    g2: int,
    near: Array,
    touching: bool,
) -> int:
    """The best gain of a domino whose placements before are in `table` (`gains_before`),
    among those still legal once a domino is on grid squares g1 and g2 (realm r's bounding
    box in `info` grown with it) and, when `touching`, touching none of its territories (the
    TOUCH rows of `near`): the first by gain neither on those squares nor out of the frame
    nor touching, else 0 (as `kk.best_gain`)."""
    reach = cfg[kk.REACH]
    lo_c = info[r, kk.MAX_X]
    hi_c = info[r, kk.MIN_X] + 2 * reach
    lo_r = info[r, kk.MAX_Y]
    hi_r = info[r, kk.MIN_Y] + 2 * reach
    for j in range(count):
        q = table[Q_ORDER, j]
        a = table[Q_SQUARE1, q]
        b = table[Q_SQUARE2, q]
        if a in (g1, g2) or b in (g1, g2):
            continue
        if table[Q_LO_C, q] < lo_c or table[Q_HI_C, q] > hi_c:
            continue
        if table[Q_LO_R, q] < lo_r or table[Q_HI_R, q] > hi_r:
            continue
        if touching and (
            near[TOUCH1, table[Q_ROW1, q]] >> table[Q_COLUMN1, q] & 1
            or near[TOUCH2, table[Q_ROW2, q]] >> table[Q_COLUMN2, q] & 1
        ):
            continue
        return int(table[Q_GAIN, q])
    return 0


@jit_inline
def near_territories(
    cfg: Array, saved: Array, count: int, labels: Array, found: int, near: Array, row_of: Array
) -> None:
    """The NEW rows of `near`: the squares of the territories of a placement's two squares,
    those `relabel` labelled (its `saved` squares, labels `found` and `found + 1`); the NEAR
    rows: the squares next to each. `row_of[g]`: grid square g's row."""
    side = cfg[SIDE]
    gw = cfg[GRID_WIDTH]
    for i in range(side + 2):
        near[NEW1, i] = 0
        near[NEW2, i] = 0
        near[NEAR1, i] = 0
        near[NEAR2, i] = 0
    for j in range(count):
        g = saved[2 * j]
        i = row_of[g]
        near[NEW1 + labels[g] - found, i] |= 1 << (g - i * gw - 1)
    for k in range(2):
        for i in range(1, side + 1):
            own = near[NEW1 + k, i]
            near[NEAR1 + k, i] = (own << 1) | (own >> 1) | near[NEW1 + k, i - 1]
            near[NEAR1 + k, i] |= near[NEW1 + k, i + 1]


@jit_inline
def touch_rows(dominoes: Array, placed: int, domino: int, cfg: Array, near: Array) -> bool:
    """The TOUCH rows of `near` for `domino` once `placed` is placed (`near_territories`):
    the squares where its square 1 (row TOUCH1) or its square 2 (TOUCH2) would join a
    territory of a placed square of its terrain. Returns whether any."""
    t1, t2 = dominoes[placed, 0], dominoes[placed, 2]
    any_touch = 0
    for k in range(2):
        t = dominoes[domino, 2 * k]
        for i in range(cfg[SIDE] + 2):
            rows = 0
            if t == t1:
                rows |= near[NEAR1, i]
            if t == t2:
                rows |= near[NEAR2, i]
            near[TOUCH1 + k, i] = rows
            any_touch |= rows
    return any_touch != 0


@jit_inline
def touched_gain(kingdoms: Any, tables: Any, r: int, domino: int, work: Any, near: Array) -> int:
    """The best gain of `domino` in realm r's labelled kingdom among its legal placements that
    touch a new territory (the TOUCH rows of `near`), else 0: the others keep their gains
    before (`gain_after`). A square that touches one is next to a square of its terrain, so
    such a placement is legal when both its squares are free and within the frame (as
    `kk.placement_lanes` has it); each is tried from its touching square, in the four
    directions (a domino with two like squares, listed in two, has the same gain turned)."""
    rows, grid, _, info = kingdoms
    cfg, dominoes = tables
    reach = cfg[kk.REACH]
    gw = cfg[GRID_WIDTH]
    lo_c = info[r, kk.MAX_X]
    hi_c = info[r, kk.MIN_X] + 2 * reach
    lo_i = info[r, kk.MAX_Y] + 1
    hi_i = info[r, kk.MIN_Y] + 2 * reach + 1
    columns = ((1 << (hi_c + 1)) - 1) & ~((1 << lo_c) - 1)
    best = 0
    for k in range(2):  # the touching square: square 1, then square 2
        for i in range(lo_i, hi_i + 1):
            board = near[TOUCH1 + k, i] & columns & ~rows[r, kk.OCCUPIED, i]
            while board:
                c = trailing_zeros(board)
                board &= board - 1
                g = i * gw + c + 1
                for direction in range(4):
                    # The other square: east, south, west or north of it.
                    other_i = i + (1 if direction == 1 else (-1 if direction == 3 else 0))
                    other_c = c + (1 if direction == 0 else (-1 if direction == 2 else 0))
                    if other_i < lo_i or other_i > hi_i or other_c < lo_c or other_c > hi_c:
                        continue
                    if rows[r, kk.OCCUPIED, other_i] >> other_c & 1:
                        continue
                    h = other_i * gw + other_c + 1
                    g1 = g if k == 0 else h
                    g2 = h if k == 0 else g
                    gain = placement_gain(
                        grid, cfg, dominoes, r, g1, g2, domino, work[3], work[4], work[6]
                    )
                    best = max(best, gain)
    return best


@jit_inline
def pending_after_place(st: Array, cfg: Array, r: int) -> bool:
    """Whether realm r has dominoes pending once the acting domino is placed (`evaluate`):
    a claim in the line, or a domino after this turn's."""
    pending = False
    for i in range(st[NLINE]):
        owner = st[CLAIMS + i]
        if owner >= 0 and cfg[REALM_OF + owner] == r:
            pending = True
    for j in range(st[TURN] + 1, st[NPLACING]):
        if cfg[REALM_OF + st[PLACERS + j]] == r:
            pending = True
    return pending


@jit_inline
def gain_of(st: Array, kingdoms: Any, tables: Any, r: int, domino: int, work: Any) -> int:
    """The best gain of `domino` in realm r's labelled kingdom, memoised in `work`'s memo
    (-1: not yet; the greedy search clears it whenever the kingdom changes, and with it the
    kingdom's part of the pad, kept after the gains)."""
    memo = work[5]
    if memo[domino] < 0:
        rows, grid, _, info = kingdoms
        cfg, dominoes = tables
        # Kingdomino's best gain: Queendomino's config has no Middle Kingdom.
        memo[domino] = kk.best_gain(
            rows, grid, info, r, domino, dominoes, cfg, work[0], work[3], work[4], work[6]
        )
    return int(memo[domino])


@jit_inline
def forget_gains(st: Array, memo: Array) -> None:
    """Clears the memoised gains of every domino in the line and of every placing one: all
    that `evaluate` can have memoised in a greedy placement's search, whose memo starts
    cleared (cheaper than clearing the whole memo after each placement)."""
    for i in range(st[NLINE]):
        memo[st[LINE + i]] = -1
    for j in range(st[NPLACING]):
        memo[st[PLACING + j]] = -1


@jit
def evaluate(st: Array, kingdoms: Any, tables: Any, player: int, work: Any) -> float:
    """`QueendominoHeuristics.evaluate`: the pad without its wealth, the coins at a third of
    a point, and the best gain of each domino the realm has claimed and not yet placed,
    added in the same order."""
    cfg = tables[0]
    r = cfg[REALM_OF + player]
    memo = work[5]
    kingdom = memo[MAX_DOMINOES + 1 :]
    if memo[MAX_DOMINOES] < 0:
        kingdom_pad(kingdoms, cfg, r, work[3], work[4], kingdom)
        memo[MAX_DOMINOES] = 1
    value = pad_points(st, r, kingdom) + st[realm_at(r) + COINS] / 3
    for i in range(st[NLINE]):
        owner = st[CLAIMS + i]
        if owner >= 0 and cfg[REALM_OF + owner] == r:
            value += gain_of(st, kingdoms, tables, r, st[LINE + i], work)
    phase = st[PHASE]
    if st[NPLACING] > 0 and phase != OVER:
        first = 0
        if phase != DRAW and phase != BOARD:
            first = st[TURN] + (1 if phase != PLACE else 0)
        for j in range(first, st[NPLACING]):
            if cfg[REALM_OF + st[PLACERS + j]] == r:
                value += gain_of(st, kingdoms, tables, r, st[PLACING + j], work)
    return float(value)


@jit_inline
def save_turn(st: Array, r: int, saved: Array) -> None:
    """What a placement or a knight changes in `st` (the phase, the turn, the squares
    knighted, realm r's fields), kept to be put back by `restore_turn`."""
    saved[0] = st[PHASE]
    saved[1] = st[TURN]
    saved[2] = st[KNIGHTED]
    at = realm_at(r)
    copy_into(saved, 3, st, at, REALM_SIZE)


@jit_inline
def restore_turn(st: Array, r: int, saved: Array) -> None:
    st[PHASE] = saved[0]
    st[TURN] = saved[1]
    st[KNIGHTED] = saved[2]
    at = realm_at(r)
    copy_into(st, at, saved, 3, REALM_SIZE)


@jit
def tax_value(st: Array, kingdoms: Any, tables: Any, p: int, work: Any) -> float:
    """The best `evaluate` through TAX from `st` (at TAX), without playing it out: every
    end of the turn's knights differs only in the coins (a knight keeps the knights owned,
    changes no square, and the pending dominoes are those after this turn whatever step
    comes next), and `evaluate` grows with the coins, so the best is the one with the most:
    a knight on each free square the guard can fill, the richest first."""
    r = tables[0][REALM_OF + p]
    at = realm_at(r)
    gained = most_tax(st, kingdoms[1], tables[0], tables[1], r, work[7])
    saved = st[at + COINS]
    st[at + COINS] = saved + gained
    value = evaluate(st, kingdoms, tables, p, work)
    st[at + COINS] = saved
    return value


@jit
def value_after(
    before: int, st: Array, kingdoms: Any, tables: Any, p: int, depth: int, work: Any
) -> float:
    """`greedy._turn_value`: `evaluate` at the end of the turn, where `before` is the phase
    the state `st` was reached from (`QueendominoHeuristics.turn_continues`: TAX or SITE
    reached from PLACE, TAX or BUILD go on)."""
    phase = st[PHASE]
    going_on = before in (PLACE, TAX, BUILD)
    if phase == TAX and going_on:
        return tax_value(st, kingdoms, tables, p, work)
    if phase == SITE and going_on:
        cfg = tables[0]
        legal = work[1][depth]
        n = legal_actions(st, kingdoms, tables, work[0], legal)
        copy = work[8][depth]
        if cfg[BUILDING + BUILDING_SIZE * st[BOARD_AT + st[CHOSEN]] + B_CROWNS] == 0:
            # Without crowns a building's square changes nothing `evaluate` reads.
            n = 1
        best = NO_VALUE
        for i in range(n):
            copy_into(copy, 0, st, 0, STATE_SIZE)
            best = max(best, site_value(copy, kingdoms, tables, p, legal[i] - cfg[SITE_BASE], work))
        return best
    return evaluate(st, kingdoms, tables, p, work)


@jit
def site_value(st: Array, kingdoms: Any, tables: Any, p: int, cell: int, work: Any) -> float:
    """`evaluate` once the chosen building is on `cell` (st is changed; the kingdom is put
    back)."""
    rows, _, crowns, _ = kingdoms
    cfg = tables[0]
    r = cfg[REALM_OF + p]
    g = grid_of(cell, cfg)
    old = crowns[r, g]
    width = cfg[WIDTH]
    row = cell // width
    # A building without crowns changes nothing of the kingdom that `evaluate` reads; one
    # with crowns only the crowns of its square's town territory: its labels stay, and the
    # pad gains the territory's size for each crown added.
    crowned = cfg[BUILDING + BUILDING_SIZE * st[BOARD_AT + st[CHOSEN]] + B_CROWNS] != 0
    memo = work[5]
    terr = work[4]
    label = 0
    if crowned:
        if memo[MAX_DOMINOES] < 0:
            kingdom_pad(kingdoms, cfg, r, work[3], terr, memo[MAX_DOMINOES + 1 :])
            memo[MAX_DOMINOES] = 1
        label = work[3][g]
    site_action(st, kingdoms, cfg, cell)
    added = crowns[r, g] - old
    if crowned:
        terr[1, label] += added
        memo[MAX_DOMINOES + 1] += terr[0, label] * added
        forget_gains(st, memo)
    value = evaluate(st, kingdoms, tables, p, work)
    crowns[r, g] = old
    rows[r, SITES, row + 1] &= ~(1 << (cell - row * width))
    if crowned:
        terr[1, label] -= added
        memo[MAX_DOMINOES + 1] -= terr[0, label] * added
        forget_gains(st, memo)
    return value


@jit
def pending_tables(st: Array, kingdoms: Any, tables: Any, r: int, work: Any) -> tuple[int, bool]:
    """Before a greedy placement by realm r with dominoes pending (`pending_after_place`):
    each pending domino's placements (`gains_before`) in work[13], and in work[14] the
    domino, its placements' count and whether it shares a terrain with the placed one.
    Returns how many (-1 when more than FAST: those are valued by playing each placement),
    and whether any shares a terrain."""
    cfg, dominoes = tables
    pending = work[14]
    domino = st[PLACING + st[TURN]]
    fast = 0
    sharing = False
    for k in range(st[NLINE] + st[NPLACING]):
        if k < st[NLINE]:
            owner = st[CLAIMS + k]
            other = st[LINE + k]
            mine = owner >= 0 and cfg[REALM_OF + owner] == r
        else:
            j = k - st[NLINE]
            other = st[PLACING + j]
            mine = j > st[TURN] and cfg[REALM_OF + st[PLACERS + j]] == r
        if not mine:
            continue
        if fast == FAST:
            return -1, False
        pending[0, fast] = other
        pending[1, fast] = gains_before(kingdoms, tables, r, other, work, work[13][fast])
        pending[2, fast] = not apart(dominoes, domino, other)
        sharing |= pending[2, fast] != 0
        fast += 1
    return fast, sharing


@jit_inline
def pending_gains(
    value: float,
    kingdoms: Any,
    tables: Any,
    r: int,
    domino: int,
    code: int,
    found: int,
    fast: int,
    sharing: bool,
    work: Any,
) -> float:
    """`value` plus the best gain of each pending domino of `pending_tables` once realm r's
    acting domino is placed by `code`, added one by one in their order (`evaluate`'s sum),
    without searching their placements again: those that touch none of the new squares'
    territories keep their gains (`gain_after`), and only those that touch one, when the
    domino shares a terrain with the placed one, are searched, in the labels after it
    (`relabel`, `touched_gain`)."""
    _, grid, crowns, info = kingdoms
    cfg, dominoes = tables
    pending = work[14]
    labels = work[3]
    near = work[16]
    box = work[10]
    saved = work[12]
    decoded = work[18]
    g1 = decoded[D_SQUARE1, code]
    g2 = decoded[D_SQUARE2, code]
    for k in range(4):
        box[k] = info[r, k]
    lay(kingdoms, r, code, domino, dominoes, cfg, decoded)
    count = 0
    if sharing:
        count = relabel(grid, crowns, cfg, r, g1, g2, labels, work[4], found, saved)
        near_territories(cfg, saved, count, labels, found, near, work[17])
    for f in range(fast):
        other = pending[0, f]
        table = work[13][f]
        touching = False
        if pending[2, f]:
            touching = touch_rows(dominoes, domino, other, cfg, near)
        gain = gain_after(table, pending[1, f], info, r, cfg, g1, g2, near, touching)
        if touching:
            gain = max(gain, touched_gain(kingdoms, tables, r, other, work, near))
        value += gain
    restore_labels(labels, saved, count)
    lift(kingdoms, r, code, domino, dominoes, cfg, decoded, box)
    return value


@jit
def greedy_action(st: Array, kingdoms: Any, tables: Any, rng: Array, work: Any) -> int:
    """`bots.greedy.greedy_action`: the best `evaluate` at the end of the turn, ties in
    action order broken by one uniform (drawn only for 2+ ties)."""
    rows, grid, crowns, info = kingdoms
    cfg, dominoes = tables
    legal = work[1][0]
    n = legal_actions(st, kingdoms, tables, work[0], legal)
    if n == 1:
        if st[PHASE] in (PLACE, SITE):
            forget_kingdom(work)  # the move may change the kingdom
        return int(legal[0])
    if st[PHASE] == DRAGON:
        # Burning costs a coin and changes nothing else `evaluate` reads: passing is best.
        return int(cfg[PASS_ACTION])
    ties = work[9]
    box = work[10]
    copy = work[8][0]
    p = current_player(st)
    r = cfg[REALM_OF + p]
    phase = st[PHASE]
    if phase == PLACE or work[15][0] != r:
        # Else the memo holds realm r's kingdom as it is (`keep_placed`, `forget_kingdom`).
        work[5][:] = -1
    work[15][0] = r
    best = NO_VALUE
    tied = 0
    if phase in (PLACE, TAX):
        save_turn(st, r, copy)
    memo = work[5]
    quick = False
    before = work[11][0]
    after = work[11][1]
    found = 0
    fast = 0
    sharing = False
    if phase == PLACE:
        # A placement's pad follows from the pad and labels before it (`placed_pad`).
        quick = not pending_after_place(st, cfg, r)
        kingdom_pad(kingdoms, cfg, r, work[3], work[4], before)
        for t in range(LAYERS - 1):
            found += before[2 + t]  # the territories labelled: one count each
        if not quick:
            fast, sharing = pending_tables(st, kingdoms, tables, r, work)
    for i in range(n):
        action = legal[i]
        if phase == PLACE:
            code = action - PLACE_BASE
            domino = st[PLACING + st[TURN]]
            g1 = work[18][D_SQUARE1, code]
            g2 = work[18][D_SQUARE2, code]
            size1, size2 = placed_pad(
                grid, cfg, dominoes, r, g1, g2, domino, work[3], work[4], work[6], before, after
            )
            at = realm_at(r)
            coins = st[at + COINS]
            if st[at + GUARD] > 0:
                # `tax_value`: the turn goes on to TAX when the guard has a knight.
                coins += placed_tax(st, r, size1, size2)
            if quick:
                # `evaluate` without pending dominoes, through the knights, not played:
                # placing changes nothing else that `pad_points` or the coins read.
                value = float(pad_points(st, r, after) + coins / 3)
            elif fast >= 0:
                value = pad_points(st, r, after) + coins / 3
                value = pending_gains(
                    value, kingdoms, tables, r, domino, code, found, fast, sharing, work
                )
            else:
                # Placed and taken back (the kingdom and `st`), not copied. The gains of the
                # pending dominoes need the labels after the placement: only its new
                # squares' territories are labelled again (`relabel`).
                for k in range(4):
                    box[k] = info[r, k]
                place_action(st, kingdoms, tables, action)
                if st[PHASE] == TAX:
                    st[at + COINS] += placed_tax(st, r, size1, size2)
                saved = work[12]
                count = relabel(grid, crowns, cfg, r, g1, g2, work[3], work[4], found, saved)
                forget_gains(st, memo)
                copy_into(memo, MAX_DOMINOES + 1, after, 0, 2 + LAYERS - 1)
                memo[MAX_DOMINOES] = 1
                value = evaluate(st, kingdoms, tables, p, work)
                restore_labels(work[3], saved, count)
                kk.unplace(rows, grid, crowns, info, r, code, domino, dominoes, cfg, box)
                restore_turn(st, r, copy)
        elif phase == TAX:
            tax_action(st, kingdoms, tables, action, work[7])
            value = value_after(TAX, st, kingdoms, tables, p, 1, work)
            restore_turn(st, r, copy)
        elif phase == SITE:
            copy_into(copy, 0, st, 0, STATE_SIZE)
            value = site_value(copy, kingdoms, tables, p, action - cfg[SITE_BASE], work)
        else:
            copy_into(copy, 0, st, 0, STATE_SIZE)
            apply(copy, kingdoms, tables, action, work[7])
            value = value_after(phase, copy, kingdoms, tables, p, 1, work)
        if value > best:
            best = value
            tied = 0
        if value == best:
            ties[tied] = action
            tied += 1
    choice = ties[0]
    if tied > 1:
        choice = ties[int(uniform(rng) * tied)]
    if phase == PLACE:
        keep_placed(st, kingdoms, tables, r, choice - PLACE_BASE, found, work)
    elif phase == SITE and cfg[BUILDING + BUILDING_SIZE * st[BOARD_AT + st[CHOSEN]] + B_CROWNS]:
        forget_kingdom(work)
    return int(choice)


@jit_inline
def forget_kingdom(work: Any) -> None:
    """Marks the memo of `work` (the pad figures and gains of one realm's kingdom, and its
    labels) as nobody's: the next greedy decision computes them again. Whoever changes a
    kingdom other than by a greedy decision's own move calls it (a placement, a crowned
    building), and whoever labels another kingdom with `work`'s labels."""
    work[15][0] = -1


@jit
def keep_placed(
    st: Array, kingdoms: Any, tables: Any, r: int, code: int, found: int, work: Any
) -> None:
    """After a greedy placement's search (the labels of realm r's kingdom before it in
    `work`, and its pad in `work[11][0]`): the memo made the kingdom's once `code` is played
    (`placed_pad`, `relabel`, with no gains), so that the turn's next decisions, and the
    batch's pad figures, need not label it again."""
    _, grid, crowns, info = kingdoms
    cfg, dominoes = tables
    memo = work[5]
    domino = st[PLACING + st[TURN]]
    decoded = work[18]
    g1 = decoded[D_SQUARE1, code]
    g2 = decoded[D_SQUARE2, code]
    placed_pad(
        grid,
        cfg,
        dominoes,
        r,
        g1,
        g2,
        domino,
        work[3],
        work[4],
        work[6],
        work[11][0],
        memo[MAX_DOMINOES + 1 :],
    )
    box = work[10]
    for k in range(4):
        box[k] = info[r, k]
    lay(kingdoms, r, code, domino, dominoes, cfg, decoded)
    relabel(grid, crowns, cfg, r, g1, g2, work[3], work[4], found, work[12])
    lift(kingdoms, r, code, domino, dominoes, cfg, decoded, box)
    forget_gains(st, memo)
    memo[MAX_DOMINOES] = 1
    work[15][0] = r


@jit_inline
def random_action(st: Array, kingdoms: Any, tables: Any, rng: Array, work: Any) -> int:
    """`core.driver.random_choice`: legal[int(u * n)], one uniform even for one action."""
    u = uniform(rng)
    legal = work[1][0]
    n = legal_actions(st, kingdoms, tables, work[0], legal)
    return int(legal[int(u * n)])


@entry
def _make_work(cfg: Array, squares: int) -> Any:
    """The scratch bundle of a turn and of the policies (made once per kernel call)."""
    actions = cfg[NUM_ACTIONS]
    decoded = np.zeros((DECODED, 4 * cfg[CELLS]), np.int64)
    decode_placements(cfg, decoded)
    return (
        np.zeros((3, cfg[SIDE] + 2), np.int64),  # 0 lanes
        np.zeros((DEPTH + 1, actions), np.int64),  # 1 legal actions by depth
        np.zeros(4 * cfg[CELLS], np.int64),  # 2 codes (best gains)
        np.zeros(squares, np.int64),  # 3 labels
        np.zeros((3, squares), np.int64),  # 4 territories
        np.full(MAX_DOMINOES + 2 + LAYERS, -1, np.int64),  # 5 the gains' and pad's memo
        np.zeros(8, np.int64),  # 6 seen
        np.full(2 * squares, -1, np.int64),  # 7 marks and stack of a flood
        np.zeros((DEPTH + 1, STATE_SIZE), np.int64),  # 8 state copies by depth
        np.zeros(actions, np.int64),  # 9 ties
        np.zeros(4, np.int64),  # 10 a bounding box
        np.zeros((3, MAX_REALMS + LAYERS + 2), np.int64),  # 11 the final pads
        np.zeros(2 * squares + 4, np.int64),  # 12 labels put back after a placement
        np.zeros((FAST, Q_ORDER + 1, 4 * cfg[CELLS]), np.int64),  # 13 `gains_before` tables
        np.zeros((3, FAST), np.int64),  # 14 their dominoes, placement counts, terrains shared
        np.full(1, -1, np.int64),  # 15 the realm whose kingdom the memo holds, or -1
        np.zeros((6, cfg[SIDE] + 2), np.int64),  # 16 a placement's `near` rows
        np.arange(squares) // cfg[GRID_WIDTH],  # 17 the row of each grid square
        decoded,  # 18 every placement code decoded (`decode_placements`)
    )


# -- playouts -----------------------------------------------------------------------------
@jit
def play_out(
    st: Array,
    kingdoms: Any,
    tables: Any,
    work: Any,
    policy: int,
    searcher: int,
    epsilon: float,
    rng: Array,
) -> None:
    """Plays the game in the arrays to its end (`bots.playouts.playout`)."""
    cfg = tables[0]
    while True:
        phase = st[PHASE]
        if phase == OVER:
            return
        if phase in (DRAW, BOARD, ORDER):
            apply_chance(st, cfg, sample_chance(st, cfg, uniform(rng)))
            continue
        greedy = policy == GREEDY
        if policy == EPSILON_GREEDY:
            greedy = not uniform(rng) < epsilon
        elif policy == PLAYER_GREEDY:
            greedy = current_player(st) == searcher
        if greedy:
            action = greedy_action(st, kingdoms, tables, rng, work)
        else:
            action = random_action(st, kingdoms, tables, rng, work)
            forget_kingdom(work)
        apply(st, kingdoms, tables, action, work[7])


@jit
def final_results(
    st: Array, kingdoms: Any, cfg: Array, work: Any, scores: Array, returns: Array
) -> None:
    """`Queendomino.scores` and `returns`: the realms' totals; the best total wins, then the
    largest territory, else the victory is shared (by every player of the realms)."""
    forget_kingdom(work)  # its labels are every realm's in turn
    realms = cfg[REALMS]
    totals = work[11][0]
    largest = work[11][1]
    kingdom = work[11][2]
    for r in range(realms):
        kingdom_pad(kingdoms, cfg, r, work[3], work[4], kingdom)
        totals[r] = st[realm_at(r) + COINS] // 3 + pad_points(st, r, kingdom)
        largest[r] = kingdom[1]
    best = totals[0]
    for r in range(realms):
        best = max(best, totals[r])
    most = -1
    for r in range(realms):
        if totals[r] == best:
            most = max(most, largest[r])
    winners = 0
    for p in range(cfg[PLAYERS]):
        r = cfg[REALM_OF + p]
        if totals[r] == best and largest[r] == most:
            winners += 1
    for p in range(cfg[PLAYERS]):
        r = cfg[REALM_OF + p]
        scores[p] = float(totals[r])
        returns[p] = 1.0 / winners if totals[r] == best and largest[r] == most else 0.0


@entry
def playouts(
    start: Any,
    tables: Any,
    policy: int,
    searcher: int,
    epsilon: float,
    seed: Array,
    scores: Array,
    returns: Array,
) -> None:
    """`len(scores)` playouts from `start` = (st, rows, grid, crowns, info); the stream of
    uniforms (SplitMix64 from `seed[0]`) goes on from one playout to the next and its state
    is left in `seed[0]`."""
    st0, rows0, grid0, crowns0, info0 = start
    st = st0.copy()
    kingdoms = (rows0.copy(), grid0.copy(), crowns0.copy(), info0.copy())
    rows, grid, crowns, info = kingdoms
    work = _make_work(tables[0], grid0.shape[1])
    rng = seed.copy()
    for k in range(scores.shape[0]):
        st[:] = st0
        rows[:] = rows0
        grid[:] = grid0
        crowns[:] = crowns0
        info[:] = info0
        forget_kingdom(work)
        play_out(st, kingdoms, tables, work, policy, searcher, epsilon, rng)
        final_results(st, kingdoms, tables[0], work, scores[k], returns[k])
    seed[0] = rng[0]


# -- batch entry points (tests) ---------------------------------------------------------
@entry
def legal_lists(states: Any, tables: Any, out: Array) -> None:
    """Row i of `out`: the count, then the legal actions of state i of `states` (st, rows,
    grid, crowns, info stacked)."""
    st, rows, grid, crowns, info = states
    work = _make_work(tables[0], grid.shape[2])
    for i in range(st.shape[0]):
        kingdoms = (rows[i], grid[i], crowns[i], info[i])
        out[i, 0] = legal_actions(st[i], kingdoms, tables, work[0], out[i, 1:])


@entry
def apply_all(states: Any, tables: Any, actions: Array) -> None:
    """`apply(state i, actions[i])` in place, for every i."""
    st, rows, grid, crowns, info = states
    work = _make_work(tables[0], grid.shape[2])
    for i in range(st.shape[0]):
        kingdoms = (rows[i], grid[i], crowns[i], info[i])
        apply(st[i], kingdoms, tables, actions[i], work[7])


@entry
def evaluations(states: Any, tables: Any, out: Array, results: Array) -> None:
    """`evaluate(state i, p)` for every player p (row i of `out`), and the final scores then
    returns of each (row i of `results`)."""
    st, rows, grid, crowns, info = states
    cfg = tables[0]
    work = _make_work(cfg, grid.shape[2])
    players = cfg[PLAYERS]
    for i in range(st.shape[0]):
        kingdoms = (rows[i], grid[i], crowns[i], info[i])
        for p in range(players):
            work[5][:] = -1
            out[i, p] = evaluate(st[i], kingdoms, tables, p, work)
        final_results(st[i], kingdoms, cfg, work, results[i, :players], results[i, players:])


@entry
def greedy_actions(states: Any, tables: Any, seed: Array, out: Array) -> None:
    """The greedy action of each state i (ties from one stream)."""
    st, rows, grid, crowns, info = states
    work = _make_work(tables[0], grid.shape[2])
    for i in range(st.shape[0]):
        kingdoms = (rows[i], grid[i], crowns[i], info[i])
        forget_kingdom(work)
        out[i] = greedy_action(st[i], kingdoms, tables, seed, work)
