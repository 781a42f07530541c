"""Compiled Kingdomino (numba): placements, scoring, draws and turns, move for move as the
pure-Python engine plays them: the compiled mirror of the rules. The playout policies that
play on it are playouts.py's. Imported only by playouts.py, accelerator.py and
batch_kernel.py, only when numba is asked for.

Everything is small int64 arrays; the inner loops allocate nothing (scratch arrays are made
once per kernel call). One kingdom, with r = y + reach and c = x + reach (0 .. side - 1):

    rows[p, t, 1 + r]      bit c: squares of terrain t (t = 0..5), the castle in all six
                           (it connects to every terrain); t = 6: every occupied square.
                           Rows 0 and side + 1 stay empty, so r - 1 and r + 1 need no test.
    grid[p, g], crowns[p, g]   g = (1 + r) * gw + 1 + c, gw = side + 2: the terrain of each
                           square (-1 empty, 6 the castle) and its crowns; the frame stays -1.
    info[p]                min_x, max_x, min_y, max_y, discards

One game (`st`, int64): phase, lines_drawn, deck, the line (count, 4 slots), its claims, the
placing dominoes and their placers (count, 4 + 4), turn, the king order, game number, and
the past games' score sums (dynasty). Placement codes are kingdom.py's (`direction * cells +
cell`, cell = r * (side + 1) + c); -1 is the discard. A playout passes three bundles (numba
tuples): the kingdoms (rows, grid, crowns, info), the tables (cfg, dominoes, orders) and the
scratch arrays (`work_arrays`).

Reference counts: numba counts the references to every array with atomic operations, at
each call, tuple unpacking and view; they took about 60% of a random game's time. So, as in
Queendomino's and Kingdoms' kernels, everything a playout or a batch step runs is compiled
without numba's runtime (`jit`, the `_nrt=False` option): it may only read and write the
arrays it is given. Only the entry points (`entry`: work_arrays, playouts and the batch
kernels) allocate; a bare function that makes an array fails numba's typing, and one that
assigns an array to a slice (`a[:] = b`, which may copy b first) fails to compile, hence
`copy_into`.

Draws follow bots/playouts.py exactly (one SplitMix64 stream, `uniform`): DRAW one uniform,
the int(u * remaining)-th lowest domino; ORDER int(u * orders) (playouts.py says the rest).

Versions: 1, the first (mirrors Kingdomino rules version 1, every option including dynasty);
the same games since, only faster (reference counts, then no runtime at all; best_gain
scoring placements where it finds them).
The rules' constants are imported from them, and the rules version it mirrors is checked at
import: a rules change that the kernel does not follow stops it loading, never plays wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import types
from numba.extending import intrinsic

from kingdomkit.games.compiling import Array, entry, jit, jit_inline
from kingdomkit.games.kingdomino.kingdom import HARMONY_BONUS, MIDDLE_KINGDOM_BONUS
from kingdomkit.games.kingdomino.rules import Kingdomino
from kingdomkit.games.kingdomino.state import (
    ALL_DOMINOES,
    CLAIM,
    DRAW,
    ORDER,
    OVER,
    PLACE,
    UNCLAIMED,
)

RULES_VERSION = 1  # the version of Kingdomino's rules this kernel mirrors
if Kingdomino.version != RULES_VERSION:
    raise ImportError(
        f"the compiled Kingdomino kernel mirrors rules version {RULES_VERSION}, not"
        f" {Kingdomino.version}: update kernel.py, playouts.py and batch_kernel.py"
    )


# st: the scalars of a game state.
PHASE, LINES, DECK, NLINE, LINE, CLAIMED, NPLACERS, PLACING, PLACERS = 0, 1, 2, 3, 4, 8, 12, 13, 17
TURN, ORDER_AT, GAME, PAST = 21, 22, 26, 27
STATE_SIZE = 31
# cfg: the configured game.
PLAYERS, KINGS, LINE_SIZE, LINE_COUNT, REACH, GAMES, MIDDLE, HARMONY = 0, 1, 2, 3, 4, 5, 6, 7
ORDERS, SIDE, WIDTH, CELLS, GRID_WIDTH, EMPTY_VALUE = 8, 9, 10, 11, 12, 13
CONFIG_SIZE = 14
# info: one kingdom's bounding box and discards.
MIN_X, MAX_X, MIN_Y, MAX_Y, DISCARDS = 0, 1, 2, 3, 4
INFO_SIZE = 5
OCCUPIED = 6  # the rows of every occupied square
LAYERS = 7
CASTLE = 6  # in grid
EMPTY = -1
DISCARD = -1  # the discard "code"
NO_VALUE = -(1 << 62)


@intrinsic
def _popcount(typingctx: Any, value: Any) -> Any:
    """Set bits of an int64 (LLVM ctpop)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _trailing_zeros(typingctx: Any, value: Any) -> Any:
    """The index of the lowest set bit of a non-zero int64 (LLVM cttz)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


popcount = cast(Callable[[int], int], _popcount)
trailing_zeros = cast(Callable[[int], int], _trailing_zeros)


@jit
def copy_into(target: Array, source: Array) -> None:
    """`target[:] = source` for arrays of one shape: numba's slice assignment may copy the
    source first (in case the two overlap), an allocation that needs its runtime."""
    flat_target = target.reshape(target.size)  # views of C-contiguous arrays: no allocation
    flat_source = source.reshape(source.size)
    for i in range(flat_source.size):
        flat_target[i] = flat_source[i]


# -- one kingdom ------------------------------------------------------------------------
@jit
def reset_kingdom(rows: Array, grid: Array, crowns: Array, info: Array, p: int, cfg: Array) -> None:
    """The castle alone."""
    reach = cfg[REACH]
    rows[p, :, :] = 0
    for t in range(LAYERS):
        rows[p, t, reach + 1] = 1 << reach
    grid[p, :] = EMPTY
    crowns[p, :] = 0
    grid[p, (reach + 1) * cfg[GRID_WIDTH] + reach + 1] = CASTLE
    info[p, :] = 0


@jit_inline
def placement_lanes(
    rows: Array, info: Array, p: int, t1: int, t2: int, cfg: Array, lanes: Array
) -> tuple[int, int]:
    """Fills `lanes` (3 x (side + 2) scratch whose first and last columns stay 0) for the
    placements of a domino of terrains t1 and t2 in kingdom p: the free squares, and those
    next to t1 and to t2. Returns the rows (lo_r, hi_r) a square 1 may be on."""
    reach = cfg[REACH]
    # Free squares that keep the kingdom within the frame (rulebook: "must fit in 5x5").
    lo_c = info[p, MAX_X]
    hi_c = info[p, MIN_X] + 2 * reach
    lo_r = info[p, MAX_Y]
    hi_r = info[p, MIN_Y] + 2 * reach
    columns = ((1 << (hi_c + 1)) - 1) & ~((1 << lo_c) - 1)
    free = lanes[0]
    link1 = lanes[1]
    link2 = lanes[2]
    # Rows lo_r - 1 and hi_r + 1 are read as neighbours: no square there may be free.
    free[lo_r] = 0
    free[hi_r + 2] = 0
    for r in range(lo_r, hi_r + 1):
        free[r + 1] = columns & ~rows[p, OCCUPIED, r + 1]
    # Squares next to the castle or to a square of the same terrain (connection rules); only
    # rows with free squares matter.
    for i in range(lo_r + 1, hi_r + 2):
        own = rows[p, t1, i]
        link1[i] = (own << 1) | (own >> 1) | rows[p, t1, i - 1] | rows[p, t1, i + 1]
        own = rows[p, t2, i]
        link2[i] = (own << 1) | (own >> 1) | rows[p, t2, i - 1] | rows[p, t2, i + 1]
    return lo_r, hi_r


@jit_inline
def placement_row(lanes: Array, i: int, direction: int) -> int:
    """Bit c: square 1 on (grid row i, column c) starts a legal placement in `direction`
    (0 east, 1 south, 2 west, 3 north of it is square 2)."""
    free = lanes[0]
    link1 = lanes[1]
    link2 = lanes[2]
    here = free[i]
    if direction == 0:
        return int(here & (here >> 1) & (link1[i] | (link2[i] >> 1)))
    if direction == 1:
        return int(here & free[i + 1] & (link1[i] | link2[i + 1]))
    if direction == 2:
        return int(here & (here << 1) & (link1[i] | (link2[i] << 1)))
    return int(here & free[i - 1] & (link1[i] | link2[i - 1]))


@jit
def legal_placements(
    rows: Array,
    info: Array,
    p: int,
    number: int,
    dominoes: Array,
    cfg: Array,
    lanes: Array,
    out: Array,
) -> int:
    """Writes the sorted placement codes of domino `number` in kingdom p to `out` (as
    `kingdom.legal_placements`); returns how many. `lanes` is placement_lanes' scratch."""
    t1, c1, t2, c2 = (
        dominoes[number, 0],
        dominoes[number, 1],
        dominoes[number, 2],
        dominoes[number, 3],
    )
    width = cfg[WIDTH]
    cells = cfg[CELLS]
    lo_r, hi_r = placement_lanes(rows, info, p, t1, t2, cfg, lanes)
    directions = 2 if t1 == t2 and c1 == c2 else 4
    count = 0
    for direction in range(directions):
        for r in range(lo_r, hi_r + 1):
            board = placement_row(lanes, r + 1, direction)
            base = direction * cells + r * width
            while board:
                out[count] = base + trailing_zeros(board)
                count += 1
                board &= board - 1
    return count


@jit
def decode(code: int, cfg: Array) -> tuple[int, int, int, int]:
    """(column, row) of square 1 and square 2 of a placement code."""
    cells = cfg[CELLS]
    width = cfg[WIDTH]
    direction = code // cells
    cell = code - direction * cells
    r1 = cell // width
    c1 = cell - r1 * width
    if direction == 0:
        return c1, r1, c1 + 1, r1
    if direction == 1:
        return c1, r1, c1, r1 + 1
    if direction == 2:
        return c1, r1, c1 - 1, r1
    return c1, r1, c1, r1 - 1


@jit
def set_square(
    rows: Array, grid: Array, crowns: Array, p: int, c: int, r: int, t: int, k: int, cfg: Array
) -> None:
    bit = 1 << c
    rows[p, t, r + 1] |= bit
    rows[p, OCCUPIED, r + 1] |= bit
    g = (r + 1) * cfg[GRID_WIDTH] + c + 1
    grid[p, g] = t
    crowns[p, g] = k


@jit
def clear_square(
    rows: Array, grid: Array, crowns: Array, p: int, c: int, r: int, t: int, cfg: Array
) -> None:
    bit = ~(1 << c)
    rows[p, t, r + 1] &= bit
    rows[p, OCCUPIED, r + 1] &= bit
    g = (r + 1) * cfg[GRID_WIDTH] + c + 1
    grid[p, g] = EMPTY
    crowns[p, g] = 0


@jit
def place(
    rows: Array,
    grid: Array,
    crowns: Array,
    info: Array,
    p: int,
    code: int,
    number: int,
    dominoes: Array,
    cfg: Array,
) -> None:
    """Places domino `number` by its placement code (unchecked, as `kingdom.place`)."""
    col1, row1, col2, row2 = decode(code, cfg)
    set_square(rows, grid, crowns, p, col1, row1, dominoes[number, 0], dominoes[number, 1], cfg)
    set_square(rows, grid, crowns, p, col2, row2, dominoes[number, 2], dominoes[number, 3], cfg)
    reach = cfg[REACH]
    info[p, MIN_X] = min(info[p, MIN_X], col1 - reach, col2 - reach)
    info[p, MAX_X] = max(info[p, MAX_X], col1 - reach, col2 - reach)
    info[p, MIN_Y] = min(info[p, MIN_Y], row1 - reach, row2 - reach)
    info[p, MAX_Y] = max(info[p, MAX_Y], row1 - reach, row2 - reach)


@jit
def unplace(
    rows: Array,
    grid: Array,
    crowns: Array,
    info: Array,
    p: int,
    code: int,
    number: int,
    dominoes: Array,
    cfg: Array,
    box: Array,
) -> None:
    """Takes back `place`; `box` is the bounding box from before."""
    col1, row1, col2, row2 = decode(code, cfg)
    clear_square(rows, grid, crowns, p, col1, row1, dominoes[number, 0], cfg)
    clear_square(rows, grid, crowns, p, col2, row2, dominoes[number, 2], cfg)
    for i in range(4):
        info[p, i] = box[i]


@jit
def in_middle(info: Array, p: int, cfg: Array) -> int:
    """1 when the castle is the centre of a frame holding the kingdom (`castle_in_middle`)."""
    half = cfg[REACH] // 2
    return int(
        -half <= info[p, MIN_X]
        and info[p, MAX_X] <= half
        and -half <= info[p, MIN_Y]
        and info[p, MAX_Y] <= half
    )


@jit
def bonuses(info: Array, p: int, cfg: Array) -> int:
    """Middle Kingdom and Harmony points in play (`Kingdomino._bonuses`)."""
    points = 0
    if cfg[MIDDLE] and in_middle(info, p, cfg):
        points += MIDDLE_KINGDOM_BONUS
    if cfg[HARMONY] and info[p, DISCARDS] == 0:
        points += HARMONY_BONUS
    return points


@jit
def label(
    grid: Array, crowns: Array, info: Array, p: int, cfg: Array, labels: Array, terr: Array
) -> tuple[int, int, int]:
    """Labels every territory of kingdom p: `labels[g]` its index, `terr[0, i]` its size,
    `terr[1, i]` its crowns (`terr[2]` is the flood-fill stack). Returns (territory points,
    largest territory, crowns)."""
    reach = cfg[REACH]
    gw = cfg[GRID_WIDTH]
    lo_c = info[p, MIN_X] + reach + 1
    hi_c = info[p, MAX_X] + reach + 1
    lo_r = info[p, MIN_Y] + reach + 1
    hi_r = info[p, MAX_Y] + reach + 1
    for r in range(lo_r, hi_r + 1):
        for c in range(lo_c, hi_c + 1):
            labels[r * gw + c] = -1
    stack = terr[2]
    found = 0
    points = 0
    largest = 0
    crown_total = 0
    for r in range(lo_r, hi_r + 1):
        for c in range(lo_c, hi_c + 1):
            g = r * gw + c
            t = grid[p, g]
            if t < 0 or t == CASTLE or labels[g] >= 0:
                continue
            labels[g] = found
            stack[0] = g
            top = 1
            size = 0
            crowned = 0
            while top:
                top -= 1
                h = stack[top]
                size += 1
                crowned += crowns[p, h]
                for n in (h + 1, h - 1, h + gw, h - gw):
                    if grid[p, n] == t and labels[n] < 0:
                        labels[n] = found
                        stack[top] = n
                        top += 1
            terr[0, found] = size
            terr[1, found] = crowned
            points += size * crowned
            largest = max(largest, size)
            crown_total += crowned
            found += 1
    return points, largest, crown_total


@jit
def kingdom_score(
    grid: Array, crowns: Array, info: Array, p: int, cfg: Array, labels: Array, terr: Array
) -> int:
    """Territory points plus bonuses (`Kingdomino.kingdom_score`)."""
    return label(grid, crowns, info, p, cfg, labels, terr)[0] + bonuses(info, p, cfg)


@jit_inline
def square_gain(
    grid: Array,
    p: int,
    g: int,
    t: int,
    k: int,
    gw: int,
    labels: Array,
    terr: Array,
    seen: Array,
    count: int,
    other: int,
    other_crowns: int,
) -> int:
    """Territory points gained by new squares of terrain t on g (and on `other` if it is >= 0,
    a neighbour of the same terrain): the merged territory's points less its parts'."""
    size = 1 if other < 0 else 2
    crowned = k + other_crowns
    old = 0
    for square in range(2):
        h = g if square == 0 else other
        if h < 0:
            break
        for n in (h + 1, h - 1, h + gw, h - gw):
            if grid[p, n] == t:
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
    return size * crowned - old


@jit_inline
def middle_change(
    info: Array, p: int, col1: int, row1: int, col2: int, row2: int, cfg: Array
) -> int:
    """The Middle Kingdom points that placing squares (col1, row1) and (col2, row2) adds."""
    reach = cfg[REACH]
    half = reach // 2
    before = in_middle(info, p, cfg)
    after = int(
        -half <= min(info[p, MIN_X], col1 - reach, col2 - reach)
        and max(info[p, MAX_X], col1 - reach, col2 - reach) <= half
        and -half <= min(info[p, MIN_Y], row1 - reach, row2 - reach)
        and max(info[p, MAX_Y], row1 - reach, row2 - reach) <= half
    )
    return MIDDLE_KINGDOM_BONUS * (after - before)


@jit
def best_gain(
    rows: Array,
    grid: Array,
    info: Array,
    p: int,
    number: int,
    dominoes: Array,
    cfg: Array,
    lanes: Array,
    labels: Array,
    terr: Array,
    seen: Array,
) -> int:
    """The most placing domino `number` adds to the labelled kingdom p (0 if it fits nowhere),
    as `kingdom.best_gain`: each legal placement (as legal_placements finds them) scored where
    it is found, its squares' grid indices known there."""
    t1, k1, t2, k2 = (
        dominoes[number, 0],
        dominoes[number, 1],
        dominoes[number, 2],
        dominoes[number, 3],
    )
    gw = cfg[GRID_WIDTH]
    middle = cfg[MIDDLE]
    lo_r, hi_r = placement_lanes(rows, info, p, t1, t2, cfg, lanes)
    directions = 2 if t1 == t2 and k1 == k2 else 4
    best = 0
    for direction in range(directions):
        # Square 2 is east, south, west or north of square 1.
        dc = 1 if direction == 0 else (-1 if direction == 2 else 0)
        dr = 1 if direction == 1 else (-1 if direction == 3 else 0)
        step = dc + dr * gw
        for r in range(lo_r, hi_r + 1):
            board = placement_row(lanes, r + 1, direction)
            while board:
                c = trailing_zeros(board)
                board &= board - 1
                g1 = (r + 1) * gw + c + 1
                g2 = g1 + step
                if t1 == t2:
                    gain = square_gain(grid, p, g1, t1, k1, gw, labels, terr, seen, 0, g2, k2)
                else:
                    gain = square_gain(grid, p, g1, t1, k1, gw, labels, terr, seen, 0, -1, 0)
                    gain += square_gain(grid, p, g2, t2, k2, gw, labels, terr, seen, 0, -1, 0)
                if middle:
                    gain += middle_change(info, p, c, r, c + dc, r + dr, cfg)
                best = max(best, gain)
    return best


# -- the state machine ---------------------------------------------------------------------
@jit
def new_game(
    st: Array, rows: Array, grid: Array, crowns: Array, info: Array, cfg: Array, number: int
) -> None:
    st[PHASE] = DRAW
    st[LINES] = 0
    st[DECK] = ALL_DOMINOES
    st[NLINE] = 0
    st[NPLACERS] = 0
    st[TURN] = 0
    st[GAME] = number
    for p in range(cfg[PLAYERS]):
        reset_kingdom(rows, grid, crowns, info, p, cfg)


@jit
def draw(st: Array, u: float, cfg: Array) -> None:
    """DRAW: the int(u * remaining)-th lowest remaining domino joins the line, kept sorted."""
    deck = st[DECK]
    skip = int(u * popcount(deck))
    for _ in range(skip):
        deck &= deck - 1
    index = trailing_zeros(deck)
    st[DECK] = st[DECK] & ~(1 << index)
    number = index + 1
    slot = st[NLINE]
    while slot > 0 and st[LINE + slot - 1] > number:
        st[LINE + slot] = st[LINE + slot - 1]
        slot -= 1
    st[LINE + slot] = number
    st[NLINE] += 1
    st[TURN] = 0
    if st[NLINE] == cfg[LINE_SIZE]:
        st[LINES] += 1
        st[PHASE] = ORDER if st[LINES] == 1 else PLACE
        for i in range(st[NLINE]):
            st[CLAIMED + i] = UNCLAIMED
    else:
        st[PHASE] = DRAW


@jit
def current_player(st: Array) -> int:
    if st[PHASE] == PLACE or st[NPLACERS] > 0:
        return int(st[PLACERS + st[TURN]])
    return int(st[ORDER_AT + st[TURN]])


@jit
def claim(st: Array, slot: int, cfg: Array) -> None:
    player = current_player(st)
    st[CLAIMED + slot] = player
    st[TURN] += 1
    placers = st[NPLACERS]
    if st[TURN] < (placers if placers > 0 else cfg[KINGS]):
        st[PHASE] = PLACE if placers > 0 else CLAIM
        return
    # Every king has claimed: the line becomes the one to place (draw_four: the unclaimed
    # domino is discarded here).
    count = 0
    for i in range(st[NLINE]):
        owner = st[CLAIMED + i]
        if owner >= 0:
            st[PLACING + count] = st[LINE + i]
            st[PLACERS + count] = owner
            count += 1
    st[NPLACERS] = count
    st[NLINE] = 0
    st[TURN] = 0
    st[PHASE] = DRAW if st[LINES] < cfg[LINE_COUNT] else PLACE


# A turn and the playouts (playouts.py) take three bundles (numba tuples of arrays):
#   kingdoms = (rows, grid, crowns, info)     the players' kingdoms
#   tables = (cfg, dominoes, orders)          the configured game, read only
#   work = (lanes, codes, inner, ties, labels, terr, seen, memo, box, tie)   scratch
@jit_inline
def place_step(st: Array, code: int, kingdoms: Any, tables: Any, work: Any) -> None:
    """PLACE: place (or discard) the acting domino, then claim, or end the game."""
    rows, grid, crowns, info = kingdoms
    cfg, dominoes, _ = tables
    place_move(st, code, rows, grid, crowns, info, cfg, dominoes, work[4], work[5])


@jit_inline
def place_move(
    st: Array,
    code: int,
    rows: Array,
    grid: Array,
    crowns: Array,
    info: Array,
    cfg: Array,
    dominoes: Array,
    labels: Array,
    terr: Array,
) -> None:
    """`place_step` on the bundles' arrays (a loop that unpacks them once calls this)."""
    turn = st[TURN]
    p = st[PLACERS + turn]
    if code == DISCARD:
        info[p, DISCARDS] += 1
    else:
        place(rows, grid, crowns, info, p, code, st[PLACING + turn], dominoes, cfg)
    if st[NLINE] > 0:
        st[PHASE] = CLAIM
        return
    turn += 1
    st[TURN] = turn
    if turn < st[NPLACERS]:
        return
    if st[GAME] + 1 < cfg[GAMES]:
        for q in range(cfg[PLAYERS]):
            st[PAST + q] += kingdom_score(grid, crowns, info, q, cfg, labels, terr)
        new_game(st, rows, grid, crowns, info, cfg, st[GAME] + 1)
        return
    st[PHASE] = OVER
    st[NPLACERS] = 0
    st[TURN] = 0


@jit
def final_results(
    st: Array, kingdoms: Any, tables: Any, work: Any, scores: Array, returns: Array
) -> None:
    """`Kingdomino.scores` and `returns`: highest score, then (not in a dynasty) largest
    territory, then most crowns, else shared."""
    _, grid, crowns, info = kingdoms
    cfg = tables[0]
    tie = work[9]
    players = cfg[PLAYERS]
    best = NO_VALUE
    for p in range(players):
        points, largest, crown_total = label(grid, crowns, info, p, cfg, work[4], work[5])
        total = points + bonuses(info, p, cfg) + st[PAST + p]
        scores[p] = total
        tie[0, p] = total
        tie[1, p] = largest
        tie[2, p] = crown_total
        best = max(best, total)
    leaders = 0
    for p in range(players):
        tie[3, p] = int(tie[0, p] == best)
        leaders += tie[3, p]
    rules = 3 if cfg[GAMES] == 1 else 1
    for rule in range(1, rules):
        if leaders == 1:
            break
        best = NO_VALUE
        for p in range(players):
            if tie[3, p]:
                best = max(best, tie[rule, p])
        leaders = 0
        for p in range(players):
            tie[3, p] = int(tie[3, p] == 1 and tie[rule, p] == best)
            leaders += tie[3, p]
    share = 1.0 / leaders
    for p in range(players):
        returns[p] = share if tie[3, p] else 0.0


@entry
def work_arrays(cfg: Array, squares: int) -> Any:
    """The scratch bundle `work` of a turn and of the policies (module card), for kingdoms
    of `squares` grid squares; one per thread."""
    cells = cfg[CELLS]
    return (
        np.zeros((3, cfg[SIDE] + 2), np.int64),  # lanes
        np.zeros(4 * cells, np.int64),  # codes
        np.zeros(4 * cells, np.int64),  # inner: free (best_gain writes no codes now)
        np.zeros(4 * cells, np.int64),  # ties
        np.zeros(squares, np.int64),  # labels
        np.zeros((3, squares), np.int64),  # terr
        np.zeros(8, np.int64),  # seen
        np.zeros(50, np.int64),  # memo
        np.zeros(4, np.int64),  # box
        np.zeros((4, cfg[PLAYERS]), np.int64),  # tie
    )


# -- batches for tests and benchmarks --------------------------------------------------------------
@entry
def placement_lists(
    rows: Array, info: Array, numbers: Array, dominoes: Array, cfg: Array, passes: int, out: Array
) -> int:
    """Legal placement lists of domino numbers[i] in kingdom i, `passes` times over; the
    last pass's codes go to out[i, 1:] with their count in out[i, 0]. Returns the lists made."""
    lanes = np.zeros((3, cfg[SIDE] + 2), np.int64)
    for _ in range(passes):
        for i in range(numbers.shape[0]):
            out[i, 0] = legal_placements(
                rows, info, i, numbers[i], dominoes, cfg, lanes, out[i, 1:]
            )
    return int(passes * numbers.shape[0])


@entry
def kingdom_scores(
    grid: Array, crowns: Array, info: Array, cfg: Array, passes: int, out: Array
) -> int:
    """`Kingdomino.kingdom_score` of kingdom i in out[i, 0], with its largest territory and
    crowns in out[i, 1:3], `passes` times over. Returns the scorings made."""
    labels = np.zeros(grid.shape[1], np.int64)
    terr = np.zeros((3, grid.shape[1]), np.int64)
    for _ in range(passes):
        for i in range(grid.shape[0]):
            points, largest, crown_total = label(grid, crowns, info, i, cfg, labels, terr)
            out[i, 0] = points + bonuses(info, i, cfg)
            out[i, 1] = largest
            out[i, 2] = crown_total
    return int(passes * grid.shape[0])
