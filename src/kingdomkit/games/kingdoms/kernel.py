"""Compiled Kingdoms (numba): legal actions, apply (chance included), epoch scoring, the end,
and the bots' four playout policies, move for move and draw for draw as the pure-Python
engine (rules.py) and `kingdomkit.bots.playouts` play them. Imported only by
accelerator.py, only when numba is asked for.

A game is one int64 array `st` (no allocation in the inner loops):

    PHASE EPOCH FIRST TURN HELD SCORED   the scalars of `KingdomsState`
    BOARD + s (30)                        the squares (board.py: -1 empty, 0..15 a tile,
                                          16 + 4p + r - 1 a castle; -2 a HIDDEN tile)
    SUPPLY + t (16)                       the supply, by tile type
    STARTING + p (4)                      starting tiles (NO_TILE -1, HIDDEN -2)
    CASTLES + 4p + r - 1 (16)             castles in hand
    GOLD + p (4)
    EMPTIES TILES                         derived: empty spaces, sum of the supply

`cfg` holds the configured game and the tile tables (the CSV data, passed in so that the
disk cache never keeps old data); the board's geometry is fixed and lives in module tables.
The rules' constants (phases, the action layout, the geometry) are compiled in, and numba's
disk cache checks only this file: after changing them, delete the numba files (*.nbi, *.nbc)
in this package's `__pycache__`.
The history fields of a state (`placed`, `past`) are for score sheets and never read by
the rules: the kernel does not keep them.

Hidden tiles: the search bots play out determinised states (`resample`), but a view (HIDDEN
tiles) is played exactly as the Python engine plays it too: a HIDDEN square is a blank that
fills its space, and `supply_size` leaves the hidden tiles out.

Draws follow bots/playouts.py: one SplitMix64 stream (`uniform`); FIRST the
int(u * candidates)-th candidate; DEAL and DRAW the int(u * supply)-th tile in type order;
random legal[int(u * n)]; greedy one uniform only for 2+ tied best actions; epsilon-greedy
u < epsilon -> random (a second uniform). Greedy values are `KingdomsHeuristics.evaluate`
at the end of the turn (a take of no_luck goes on to its placement, as `turn_continues`
says).

Speed: everything a playout or a batch step runs is compiled without numba's reference
counting (`jit`; the entry points, which allocate, are `entry`), and the greedy values a
castle or a plain tile from a table of segments made once per decision (`segments`); the
same games as before, as the differential tests check.

Versions: 1, the first (mirrors Kingdoms rules version 1, every option); the same games
since, only faster. The rules version
is checked at import: a rules change the kernel does not follow stops it loading.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from kingdomkit.games.compiling import Array, entry, jit, jit_inline, uniform
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.actions import (
    DRAW_ACTION,
    NUM_ACTIONS,
    PASS_ACTION,
    PLACE_BASE,
    START_BASE,
    TAKE_BASE,
)
from kingdomkit.games.kingdoms.options import EPOCHS
from kingdomkit.games.kingdoms.rules import Kingdoms
from kingdomkit.games.kingdoms.state import DEAL, DRAW, FIRST, HIDDEN, NO_TILE, OVER, PLACE, PLAY
from kingdomkit.games.kingdoms.tiles import RANKS, TYPES

RULES_VERSION = 1  # the version of Kingdoms' rules this kernel mirrors
if Kingdoms.version != RULES_VERSION:
    raise ImportError(
        f"the compiled Kingdoms kernel mirrors rules version {RULES_VERSION}, not"
        f" {Kingdoms.version}: update kingdoms/kernel.py"
    )


SPACES = bd.SPACES
NTYPES = len(TYPES)
MAX_PLAYERS = 4
# st: one game.
PHASE, EPOCH, FIRST_PLAYER, TURN, HELD, SCORED = 0, 1, 2, 3, 4, 5
BOARD = 6
SUPPLY = BOARD + SPACES
STARTING = SUPPLY + NTYPES
CASTLES = STARTING + MAX_PLAYERS
GOLD = CASTLES + MAX_PLAYERS * RANKS
EMPTIES = GOLD + MAX_PLAYERS  # derived counts, kept up to date: empty spaces,
TILES = EMPTIES + 1  # and the sum of `supply`
STATE_SIZE = TILES + 1
# cfg: the configured game and the tiles.
PLAYERS, LAST_CASTLE, NO_LUCK, AS_YOU_GO, MTN, DRG, GLD, WIZ = 0, 1, 2, 3, 4, 5, 6, 7
VALUE = 8
IS_RESOURCE = VALUE + NTYPES
FULL_SUPPLY = IS_RESOURCE + NTYPES
FULL_TILES = FULL_SUPPLY + NTYPES
CONFIG_SIZE = FULL_TILES + 1

EMPTY = bd.EMPTY
CASTLE = bd.CASTLE
NLINES = len(bd.LINES)
# The board's geometry (board.py), padded with -1.
LINES = np.full((NLINES, max(len(line) for line in bd.LINES)), -1, np.int64)
for _i, _line in enumerate(bd.LINES):
    LINES[_i, : len(_line)] = _line
LINE_LENGTH = np.array([len(line) for line in bd.LINES], np.int64)
LINES_OF_SPACE = np.array(
    [[i for i, line in enumerate(bd.LINES) if s in line] for s in range(SPACES)], np.int64
)
NEIGHBOURS = np.full((SPACES, 4), -1, np.int64)
for _s, _near in enumerate(bd.NEIGHBOURS):
    NEIGHBOURS[_s, : len(_near)] = _near
NEIGHBOUR_COUNT = np.array([len(near) for near in bd.NEIGHBOURS], np.int64)


# The policies' codes: their places in kingdomkit.bots.playouts.POLICIES.
RANDOM, GREEDY, EPSILON_GREEDY, PLAYER_GREEDY = 0, 1, 2, 3
NO_VALUE = -(1 << 62)
# The fields of a space's segment (the run of spaces between mountains around it) in each of
# its two lines, for the greedy player: the segment's base gold (doubled by a gold mine), the
# multiplier (1, 2 with a gold mine, 0 in a scored line), whether a dragon is in it, and the
# player's ranks in it (wizards included).
SEG_BASE, SEG_MULT, SEG_DRAGON, SEG_RANK = 0, 1, 2, 3
SEGMENT_FIELDS = 4


# -- scoring (board.py) -------------------------------------------------------------------
@jit
def add_line_gold(st: Array, cfg: Array, line: int, gains: Array, ranks: Array) -> None:
    """Adds what each player gains from `line` (`board.line_gold`) into `gains`."""
    players = cfg[PLAYERS]
    mountain, dragon_tile, gold_tile, wizard = cfg[MTN], cfg[DRG], cfg[GLD], cfg[WIZ]
    length = LINE_LENGTH[line]
    start = 0
    for i in range(length + 1):
        if i < length and st[BOARD + LINES[line, i]] != mountain:
            continue
        if i > start:
            dragon = False
            gold_mine = False
            for j in range(start, i):
                square = st[BOARD + LINES[line, j]]
                if square == dragon_tile:
                    dragon = True
                elif square == gold_tile:
                    gold_mine = True
            base = 0
            for q in range(players):
                ranks[q] = 0
            for j in range(start, i):
                space = LINES[line, j]
                square = st[BOARD + space]
                if square >= CASTLE:
                    rank = (square - CASTLE) % 4 + 1
                    for k in range(NEIGHBOUR_COUNT[space]):
                        if st[BOARD + NEIGHBOURS[space, k]] == wizard:
                            rank += 1
                    ranks[(square - CASTLE) // 4] += rank
                elif square >= 0 and not (dragon and cfg[IS_RESOURCE + square]):
                    base += cfg[VALUE + square]
            if gold_mine:
                base *= 2
            if base != 0:
                for q in range(players):
                    gains[q] += base * ranks[q]
        start = i + 1


@jit
def evaluate(st: Array, cfg: Array, p: int, gains: Array, ranks: Array) -> int:
    """`KingdomsHeuristics.evaluate`: p's gold and what the lines not yet scored would pay."""
    gains[:] = 0
    scored = st[SCORED]
    for line in range(NLINES):
        if not scored >> line & 1:
            add_line_gold(st, cfg, line, gains, ranks)
    return int(st[GOLD + p] + gains[p])


@jit
def score_line(st: Array, cfg: Array, line: int, gains: Array, ranks: Array) -> None:
    gains[:] = 0
    add_line_gold(st, cfg, line, gains, ranks)
    for q in range(cfg[PLAYERS]):
        st[GOLD + q] += gains[q]
    st[SCORED] |= 1 << line


# -- the rules (rules.py) -------------------------------------------------------------------
@jit_inline
def supply_size(st: Array, cfg: Array) -> int:
    """Tiles face down in the supply (`rules.supply_size`: hidden tiles left out)."""
    size = st[TILES]
    for q in range(cfg[PLAYERS]):
        if st[STARTING + q] == HIDDEN:
            size -= 1
    if st[HELD] == HIDDEN:
        size -= 1
    return int(size)


@jit
def legal_actions(st: Array, cfg: Array, out: Array) -> int:
    """The sorted legal actions of the player to act into `out`; their number (0 at chance
    and at the end)."""
    phase = st[PHASE]
    n = 0
    if phase == PLACE:
        for s in range(SPACES):
            if st[BOARD + s] == EMPTY:
                out[n] = PLACE_BASE + s
                n += 1
        return n
    if phase != PLAY:
        return 0
    p = st[TURN]
    for rank in range(RANKS):
        if st[CASTLES + 4 * p + rank]:
            for s in range(SPACES):
                if st[BOARD + s] == EMPTY:
                    out[n] = rank * SPACES + s
                    n += 1
    if not cfg[NO_LUCK] and supply_size(st, cfg) > 0:
        out[n] = DRAW_ACTION
        n += 1
    if st[STARTING + p] != NO_TILE:
        for s in range(SPACES):
            if st[BOARD + s] == EMPTY:
                out[n] = START_BASE + s
                n += 1
    if cfg[NO_LUCK]:
        for t in range(NTYPES):
            if st[SUPPLY + t]:
                out[n] = TAKE_BASE + t
                n += 1
    if n == 0:
        out[0] = PASS_ACTION
        n = 1
    return n


@jit_inline
def sample_chance(st: Array, cfg: Array, u: float) -> int:
    """`Kingdoms.sample_chance` from the uniform `u`."""
    players = cfg[PLAYERS]
    if st[PHASE] == FIRST:
        if st[EPOCH] == 0:
            return int(u * players)
        most = st[GOLD]
        for q in range(1, players):
            most = max(most, st[GOLD + q])
        tied = 0
        for q in range(players):
            if st[GOLD + q] == most:
                tied += 1
        pick = int(u * tied)
        for q in range(players):
            if st[GOLD + q] == most:
                if pick == 0:
                    return q
                pick -= 1
        return -1
    pick = int(u * st[TILES])
    for t in range(NTYPES):
        if pick < st[SUPPLY + t]:
            return t
        pick -= st[SUPPLY + t]
    return -1


@jit
def end_epoch(st: Array, cfg: Array, gains: Array, ranks: Array) -> None:
    """Every line not yet scored, then the game's end or the next epoch (`_end_epoch`)."""
    players = cfg[PLAYERS]
    for line in range(NLINES):
        if not st[SCORED] >> line & 1:
            score_line(st, cfg, line, gains, ranks)
    if cfg[LAST_CASTLE]:
        over = False
        for q in range(players):
            left = 0
            for r in range(RANKS):
                left += st[CASTLES + 4 * q + r]
            if left == 0:
                over = True
    else:
        over = st[EPOCH] + 1 == EPOCHS
    if over:
        st[PHASE] = OVER
        st[HELD] = NO_TILE
        return
    if not cfg[LAST_CASTLE]:
        # Rank-1 castles go back to their owners; the others leave the game.
        for s in range(SPACES):
            square = st[BOARD + s]
            if square >= CASTLE and (square - CASTLE) % 4 == 0:
                st[CASTLES + 4 * ((square - CASTLE) // 4)] += 1
    st[PHASE] = FIRST
    st[EPOCH] += 1
    for s in range(SPACES):
        st[BOARD + s] = EMPTY
    for t in range(NTYPES):
        st[SUPPLY + t] = cfg[FULL_SUPPLY + t]
    st[TILES] = cfg[FULL_TILES]
    st[EMPTIES] = SPACES
    for q in range(players):
        st[STARTING + q] = NO_TILE
    st[FIRST_PLAYER] = 0
    st[TURN] = 0
    st[HELD] = NO_TILE
    st[SCORED] = 0


@jit_inline
def next_turn(st: Array, cfg: Array, gains: Array, ranks: Array) -> None:
    players = cfg[PLAYERS]
    can_act = supply_size(st, cfg) > 0
    if not can_act:
        for q in range(players):
            if st[STARTING + q] != NO_TILE:
                can_act = True
            for r in range(RANKS):
                if st[CASTLES + 4 * q + r]:
                    can_act = True
    if st[EMPTIES] == 0 or not can_act:
        end_epoch(st, cfg, gains, ranks)
    else:
        st[PHASE] = PLAY
        st[TURN] = (st[TURN] + 1) % players


@jit_inline
def after_placement(st: Array, cfg: Array, space: int, gains: Array, ranks: Array) -> None:
    st[EMPTIES] -= 1
    if cfg[AS_YOU_GO]:
        for k in range(2):
            line = LINES_OF_SPACE[space, k]
            if st[SCORED] >> line & 1:
                continue
            full = True
            for j in range(LINE_LENGTH[line]):
                if st[BOARD + LINES[line, j]] == EMPTY:
                    full = False
            if full:
                score_line(st, cfg, line, gains, ranks)
    next_turn(st, cfg, gains, ranks)


@jit_inline
def apply(st: Array, cfg: Array, action: int, gains: Array, ranks: Array) -> None:
    """`Kingdoms.apply` in place: a decision, or a chance outcome at FIRST, DEAL and DRAW."""
    phase = st[PHASE]
    if phase == PLAY:
        p = st[TURN]
        if action < DRAW_ACTION:
            rank = action // SPACES
            space = action % SPACES
            st[CASTLES + 4 * p + rank] -= 1
            st[BOARD + space] = CASTLE + 4 * p + rank
            after_placement(st, cfg, space, gains, ranks)
        elif action == DRAW_ACTION:
            st[PHASE] = DRAW
        elif action < PLACE_BASE:
            space = action - START_BASE
            st[BOARD + space] = st[STARTING + p]
            st[STARTING + p] = NO_TILE
            after_placement(st, cfg, space, gains, ranks)
        elif action == PASS_ACTION:
            next_turn(st, cfg, gains, ranks)
        else:
            tile = action - TAKE_BASE
            st[SUPPLY + tile] -= 1
            st[TILES] -= 1
            st[PHASE] = PLACE
            st[HELD] = tile
    elif phase == PLACE:
        space = action - PLACE_BASE
        st[BOARD + space] = st[HELD]
        st[HELD] = NO_TILE
        after_placement(st, cfg, space, gains, ranks)
    elif phase == DRAW:
        st[SUPPLY + action] -= 1
        st[TILES] -= 1
        st[PHASE] = PLACE
        st[HELD] = action
    elif phase == DEAL:
        p = st[TURN]
        st[SUPPLY + action] -= 1
        st[TILES] -= 1
        st[STARTING + p] = action
        if p + 1 < cfg[PLAYERS]:
            st[TURN] = p + 1
        else:
            st[PHASE] = PLAY
            st[TURN] = st[FIRST_PLAYER]
    elif phase == FIRST:
        st[FIRST_PLAYER] = action
        if cfg[NO_LUCK]:
            st[PHASE] = PLAY
            st[TURN] = action
        else:
            st[PHASE] = DEAL
            st[TURN] = 0


@jit_inline
def current_player(st: Array) -> int:
    """The player to act, -1 at chance and at the end."""
    phase = st[PHASE]
    if phase in (PLAY, PLACE):
        return int(st[TURN])
    return -1


# -- the playout policies (bots/playouts.py, bots/greedy.py) ------------------------------
def work_arrays() -> tuple[Array, Array, Array, Array, Array, Array]:
    """Scratch: the legal list, ties, gains, ranks, each line's gold for the greedy player,
    and the greedy player's segment of each space (`segments`)."""
    return (
        np.zeros(NUM_ACTIONS, np.int64),
        np.zeros(NUM_ACTIONS, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(NLINES, np.int64),
        np.zeros((SPACES, 2, SEGMENT_FIELDS), np.int64),
    )


make_work = numba.njit(cache=True)(work_arrays)


@jit
def line_gold_of(st: Array, cfg: Array, line: int, p: int) -> int:
    """What player p gains from `line` (`board.line_gold(...)[p]`)."""
    mountain, dragon_tile, gold_tile, wizard = cfg[MTN], cfg[DRG], cfg[GLD], cfg[WIZ]
    length = LINE_LENGTH[line]
    gold = 0
    start = 0
    for i in range(length + 1):
        if i < length and st[BOARD + LINES[line, i]] != mountain:
            continue
        if i > start:
            dragon = False
            gold_mine = False
            for j in range(start, i):
                square = st[BOARD + LINES[line, j]]
                if square == dragon_tile:
                    dragon = True
                elif square == gold_tile:
                    gold_mine = True
            base = 0
            rank = 0
            for j in range(start, i):
                space = LINES[line, j]
                square = st[BOARD + space]
                if square >= CASTLE:
                    if (square - CASTLE) // 4 == p:
                        rank += (square - CASTLE) % 4 + 1
                        for k in range(NEIGHBOUR_COUNT[space]):
                            if st[BOARD + NEIGHBOURS[space, k]] == wizard:
                                rank += 1
                elif square >= 0 and not (dragon and cfg[IS_RESOURCE + square]):
                    base += cfg[VALUE + square]
            if gold_mine:
                base *= 2
            gold += base * rank
        start = i + 1
    return gold


@jit
def segments(st: Array, cfg: Array, p: int, lines: Array, table: Array) -> None:
    """p's gold from each line into `lines` (0 for a scored line), as `line_gold_of`, and the
    segment of every space in each of its lines into `table[space, k]` (k: the line's place
    in LINES_OF_SPACE), so that a castle or a plain tile is valued in a few operations
    (`quick_value`)."""
    mountain, dragon_tile, gold_tile, wizard = cfg[MTN], cfg[DRG], cfg[GLD], cfg[WIZ]
    scored = st[SCORED]
    for line in range(NLINES):
        open_line = not scored >> line & 1
        length = LINE_LENGTH[line]
        gold = 0
        start = 0
        for i in range(length + 1):
            if i < length and st[BOARD + LINES[line, i]] != mountain:
                continue
            base = 0
            rank = 0
            dragon = False
            gold_mine = False
            if i > start:
                for j in range(start, i):
                    square = st[BOARD + LINES[line, j]]
                    if square == dragon_tile:
                        dragon = True
                    elif square == gold_tile:
                        gold_mine = True
                for j in range(start, i):
                    space = LINES[line, j]
                    square = st[BOARD + space]
                    if square >= CASTLE:
                        if (square - CASTLE) // 4 == p:
                            rank += (square - CASTLE) % 4 + 1
                            for k in range(NEIGHBOUR_COUNT[space]):
                                if st[BOARD + NEIGHBOURS[space, k]] == wizard:
                                    rank += 1
                    elif square >= 0 and not (dragon and cfg[IS_RESOURCE + square]):
                        base += cfg[VALUE + square]
                multiplier = 2 if gold_mine else 1
                gold += base * multiplier * rank
                for j in range(start, i):
                    space = LINES[line, j]
                    k = 0 if LINES_OF_SPACE[space, 0] == line else 1
                    if open_line:
                        table[space, k, SEG_BASE] = base * multiplier
                        table[space, k, SEG_MULT] = multiplier
                        table[space, k, SEG_DRAGON] = dragon
                        table[space, k, SEG_RANK] = rank
                    else:
                        table[space, k, :] = 0
            start = i + 1
        lines[line] = gold if open_line else 0


@jit_inline
def quick_value(cfg: Array, p: int, space: int, square: int, table: Array, st: Array) -> int:
    """`placement_value` of a castle or of a tile that changes no segment (not a mountain,
    dragon, gold mine or wizard) from `segments`' table; NO_VALUE for the others. A castle
    of rank r adds r (and a rank per wizard beside it) to p's ranks in both segments; a tile
    adds its value (none for a resource beside a dragon) to both bases."""
    if square >= CASTLE:
        rank = (square - CASTLE) % 4 + 1
        for k in range(NEIGHBOUR_COUNT[space]):
            if st[BOARD + NEIGHBOURS[space, k]] == cfg[WIZ]:
                rank += 1
        return int((table[space, 0, SEG_BASE] + table[space, 1, SEG_BASE]) * rank)
    if (
        square < 0
        or square == cfg[MTN]
        or square == cfg[DRG]
        or square == cfg[GLD]
        or square == cfg[WIZ]
    ):
        return NO_VALUE
    value = cfg[VALUE + square]
    resource = cfg[IS_RESOURCE + square]
    change = 0
    for k in range(2):
        if not (resource and table[space, k, SEG_DRAGON]):
            change += value * table[space, k, SEG_MULT] * table[space, k, SEG_RANK]
    return int(change)


@jit_inline
def move_value(
    st: Array, cfg: Array, p: int, space: int, square: int, lines: Array, table: Array
) -> int:
    """`placement_value`, by `quick_value` where it can."""
    value = quick_value(cfg, p, space, square, table, st)
    if value == NO_VALUE:
        value = placement_value(st, cfg, p, space, square, lines)
    return value


@jit
def placement_value(st: Array, cfg: Array, p: int, space: int, square: int, lines: Array) -> int:
    """`evaluate(after, p)` minus `evaluate(st, p)` for a placement of `square` on `space`
    (`lines[l]`: p's gold from line l now, 0 for a scored line). Whatever the placement
    triggers (a line scored as you go, the epoch's end, the game's), the value after it is
    the gold before it plus what the lines not yet scored pay on the board with it: a scored
    line's gold moves into the gold, and a new epoch's empty board pays nothing. Only the
    lines through the space change, and, for a wizard, those through its neighbours."""
    scored = st[SCORED]
    touched = 0
    for k in range(2):
        touched |= 1 << LINES_OF_SPACE[space, k]
    if square == cfg[WIZ]:
        for n in range(NEIGHBOUR_COUNT[space]):
            near = NEIGHBOURS[space, n]
            for k in range(2):
                touched |= 1 << LINES_OF_SPACE[near, k]
    touched &= ~scored
    st[BOARD + space] = square
    change = 0
    for line in range(NLINES):
        if touched >> line & 1:
            change += line_gold_of(st, cfg, line, p) - lines[line]
    st[BOARD + space] = EMPTY
    return change


@jit
def greedy_action(st: Array, cfg: Array, rng: Array, work: Any) -> int:
    """`bots.greedy.greedy_action`: the best `evaluate` for the player to act at the end of
    its turn, ties in action order broken by one uniform (drawn only for 2+ ties). A value
    is found without playing the action: from the segments' table (`segments`, made once
    per decision) for castles and plain tiles, by `placement_value` for the tiles that
    change a segment; no_luck's take is valued by
    the best placement of its tile, which ends the turn (`turn_continues`)."""
    legal, ties, lines, table = work[0], work[1], work[4], work[5]
    n = legal_actions(st, cfg, legal)
    if n == 1:
        return int(legal[0])
    p = current_player(st)
    segments(st, cfg, p, lines, table)
    phase = st[PHASE]
    best = NO_VALUE
    tied = 0
    for i in range(n):
        action = legal[i]
        if phase == PLACE:
            value = move_value(st, cfg, p, action - PLACE_BASE, st[HELD], lines, table)
        elif action < DRAW_ACTION:
            rank = action // SPACES
            value = move_value(st, cfg, p, action % SPACES, CASTLE + 4 * p + rank, lines, table)
        elif action in (DRAW_ACTION, PASS_ACTION):
            value = 0
        elif action < PLACE_BASE:
            value = move_value(st, cfg, p, action - START_BASE, st[STARTING + p], lines, table)
        else:
            tile = action - TAKE_BASE
            value = NO_VALUE
            for s in range(SPACES):
                if st[BOARD + s] == EMPTY:
                    value = max(value, move_value(st, cfg, p, s, tile, lines, table))
        if value > best:
            best = value
            tied = 0
        if value == best:
            ties[tied] = action
            tied += 1
    if tied > 1:
        return int(ties[int(uniform(rng) * tied)])
    return int(ties[0])


@jit_inline
def random_action(st: Array, cfg: Array, rng: Array, work: Any) -> int:
    """`core.driver.random_choice`: legal[int(u * n)], one uniform even for one action;
    the action is found from its place in the sorted list without listing them."""
    u = uniform(rng)
    empties = st[EMPTIES]
    if st[PHASE] == PLACE:
        return PLACE_BASE + nth_empty(st, int(u * empties))
    p = st[TURN]
    ranks = 0
    for rank in range(RANKS):
        if st[CASTLES + 4 * p + rank]:
            ranks += 1
    no_luck = cfg[NO_LUCK]
    draw = 0 if no_luck or supply_size(st, cfg) == 0 else 1
    start = empties if st[STARTING + p] != NO_TILE else 0
    takes = 0
    if no_luck:
        for t in range(NTYPES):
            if st[SUPPLY + t]:
                takes += 1
    n = ranks * empties + draw + start + takes
    if n == 0:
        return PASS_ACTION
    k = int(u * n)
    if k < ranks * empties:
        for rank in range(RANKS):
            if st[CASTLES + 4 * p + rank]:
                if k < empties:
                    return rank * SPACES + nth_empty(st, k)
                k -= empties
    k -= ranks * empties
    if k < draw:
        return DRAW_ACTION
    k -= draw
    if k < start:
        return START_BASE + nth_empty(st, k)
    k -= start
    for t in range(NTYPES):
        if st[SUPPLY + t]:
            if k == 0:
                return TAKE_BASE + t
            k -= 1
    return -1


@jit_inline
def nth_empty(st: Array, k: int) -> int:
    """The k-th empty space (from 0), in board order."""
    for s in range(SPACES):
        if st[BOARD + s] == EMPTY:
            if k == 0:
                return s
            k -= 1
    return -1


@jit
def play_out(
    st: Array, cfg: Array, work: Any, policy: int, searcher: int, epsilon: float, rng: Array
) -> None:
    """Plays the game in `st` to its end (`bots.playouts.playout`)."""
    gains, ranks = work[2], work[3]
    while True:
        phase = st[PHASE]
        if phase == OVER:
            return
        if phase != PLAY and phase != PLACE:
            apply(st, cfg, sample_chance(st, cfg, uniform(rng)), gains, ranks)
            continue
        greedy = policy == GREEDY
        if policy == EPSILON_GREEDY:
            greedy = not uniform(rng) < epsilon
        elif policy == PLAYER_GREEDY:
            greedy = current_player(st) == searcher
        if greedy:
            action = greedy_action(st, cfg, rng, work)
        else:
            action = random_action(st, cfg, rng, work)
        apply(st, cfg, action, gains, ranks)


@jit
def final_results(st: Array, cfg: Array, scores: Array, returns: Array) -> None:
    """`game.scores` (the gold) and `game.returns` (1/k to each of k richest)."""
    players = cfg[PLAYERS]
    most = st[GOLD]
    for q in range(players):
        most = max(most, st[GOLD + q])
    winners = 0
    for q in range(players):
        if st[GOLD + q] == most:
            winners += 1
    for q in range(players):
        scores[q] = float(st[GOLD + q])
        returns[q] = 1.0 / winners if st[GOLD + q] == most else 0.0


@entry
def playouts(
    st0: Array,
    cfg: Array,
    policy: int,
    searcher: int,
    epsilon: float,
    seed: Array,
    scores: Array,
    returns: Array,
) -> None:
    """`len(scores)` playouts from `st0`; the stream of uniforms (SplitMix64 from
    `seed[0]`) goes on from one playout to the next and its state is left in `seed[0]`."""
    st = st0.copy()
    work = make_work()
    rng = seed.copy()
    for k in range(scores.shape[0]):
        st[:] = st0
        play_out(st, cfg, work, policy, searcher, epsilon, rng)
        final_results(st, cfg, scores[k], returns[k])
    seed[0] = rng[0]


# -- batch entry points (tests) ---------------------------------------------------------
@entry
def legal_lists(states: Array, cfg: Array, out: Array) -> None:
    """Row i of `out`: the count, then the legal actions of `states[i]`."""
    for i in range(states.shape[0]):
        out[i, 0] = legal_actions(states[i], cfg, out[i, 1:])


@entry
def apply_all(states: Array, cfg: Array, actions: Array) -> None:
    """`apply(states[i], actions[i])` in place, for every i."""
    gains = np.zeros(MAX_PLAYERS, np.int64)
    ranks = np.zeros(MAX_PLAYERS, np.int64)
    for i in range(states.shape[0]):
        apply(states[i], cfg, actions[i], gains, ranks)


@entry
def evaluations(states: Array, cfg: Array, out: Array) -> None:
    """`evaluate(states[i], p)` for every player p (row i of `out`)."""
    gains = np.zeros(MAX_PLAYERS, np.int64)
    ranks = np.zeros(MAX_PLAYERS, np.int64)
    for i in range(states.shape[0]):
        for p in range(cfg[PLAYERS]):
            out[i, p] = evaluate(states[i], cfg, p, gains, ranks)
