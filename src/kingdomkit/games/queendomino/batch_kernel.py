"""Compiled steps of many Queendomino games at once (numba), for the batched simulator of
batch.py: each game's learner decisions come in, chance and the bots' moves are played
inside (kernel.py's functions), and the next observation (the arrays of encoding.py, byte
for byte), action mask and how the games ended go out. Imported only by batch.py, only when
numba is there.

The games' arrays are kernel.py's with one more leading index, the game: st (N, STATE_SIZE),
rows (N, MAX_REALMS, LAYERS, side + 2), grid and crowns (N, MAX_REALMS, gw * gw), info (N,
MAX_REALMS, INFO_SIZE); and two the encoding needs that the kernel does not keep (it counts
the knights and sums the buildings' effects): `knights` (N, MAX_REALMS, cells), 1 on each
square holding a knight, and `built` (N, MAX_REALMS, BUILDING_WIDTH), the sum of the features
of each realm's buildings (encoding.py's `realms` row). `decide` keeps both up to date for
every decision, the bots' included. Each realm's kingdom planes and score pad figures are kept
too, `planes` (N, MAX_REALMS, PLANES * S * S: flat) and `pads` (N, MAX_REALMS, PAD_SIZE), made again
only after a decision of that realm changed them (a placement, a knight, a building: `decide`
clears their FRESH flag; the pad figures, read from the kingdom alone, only after a placement
or a crowned building: PAD_FRESH), since most steps change one realm or none. One SplitMix64
state per game in `streams` (N,), and per game `seat` (the learner's seat this episode, or -1 in
self-play), `actor` (who made the last decision) and `pending` (1: the episode has ended, the
next step starts a new one).

Uniforms are drawn from a game's stream in this order, the order of `bots.playouts`: at the
start of an episode one for the learner's seat when it is drawn each episode; then, as the game
goes, one per chance node (`Queendomino.sample_chance`) and the bots' own (random: one per
decision; greedy: one only to break a tie). The learner's decisions draw nothing. So the
reference engine fed the same `SplitMix64` stream and the same learner actions plays the very
same games (tests/games/queendomino/test_queendomino_batch.py checks it).

Everything a step runs is compiled without numba's reference counting
(`kingdomkit.games.compiling.jit`): only `step_batch`, the entry point, allocates (each
thread's scratch).

numba's disk cache checks only this file, not kernel.py whose functions are compiled into
these: after changing kernel.py (or Kingdomino's kernel), delete this package's numba files
(*.nbi, *.nbc) in `__pycache__`, as kernel.py says.

Versions (Queendomino rules version 2, observation layout version 2): 1, the first; 2, the
same games and observations, faster (docs/benchmarks.md): the planes kept and copied flat, the
pad figures made again only when the kingdom changed; 3, the same again, a greedy bot's
placement leaving its kingdom's pad figures (kernel.py `keep_placed`); 4, the same again, a
realm's planes made from its rows' bits (only its occupied squares and its room looked at).
"""

from __future__ import annotations

from typing import Any

import numba

from kingdomkit.games.compiling import jit, jit_inline, uniform
from kingdomkit.games.kingdomino import kernel as kk
from kingdomkit.games.queendomino import kernel as kn
from kingdomkit.games.queendomino.encoding import (
    BUILDING_WIDTH,
    DOMINO_WIDTH,
    PLANES,
    REALM_FEATURES,
)
from kingdomkit.games.queendomino.state import (
    BOARD,
    BUILD,
    CLAIM,
    DRAGON,
    DRAW,
    EMPTY,
    KNIGHTS,
    ORDER,
    OVER,
    PHASE_NAMES,
    PLACE,
    SITE,
    SPACES,
    TAX,
    TOWERS,
)
from kingdomkit.rl.compiled_batch import DRAWN_SEAT, FIXED_SEAT, LEARNER, SELF_PLAY

Array = Any  # numpy arrays; numba types them at compile time

PHASES = len(PHASE_NAMES)
# The kingdom planes of encoding.py (module card there), by realm seat.
TOWN_PLANE = 6
CROWN_PLANE, CASTLE_PLANE, ROOM_PLANE, KNIGHT_PLANE, SITE_PLANE = 7, 8, 9, 10, 11
LAST1_PLANE, LAST2_PLANE = 12, 13
BOX = kn.BOX
PAD = 2 + kn.LAYERS - 1  # kernel.kingdom_pad's figures
FRESH = PAD  # pads[r, FRESH]: 1 while realm r's planes are up to date
PAD_FRESH = PAD + 1  # pads[r, PAD_FRESH]: 1 while its pad figures are (its kingdom unchanged)
PAD_SIZE = PAD + 2


@jit_inline
def turned(seat: int, by: int, seats: int) -> int:
    """(seat + by) % seats for seat in [0, seats) and by in (-seats, seats), without the
    division (a few of these in every observation)."""
    turned_seat = seat + by
    if turned_seat >= seats:
        return turned_seat - seats
    if turned_seat < 0:
        return turned_seat + seats
    return turned_seat


@jit
def acting_realm(st: Array, cfg: Array) -> int:
    return int(cfg[kn.REALM_OF + st[kn.PLACERS + st[kn.TURN]]])


@jit
def decide(
    st: Array, kingdoms: Any, tables: Any, action: int, work: Any, extra: Any, features: Array
) -> None:
    """`kn.apply` of a decision, keeping the squares of the knights and the sums of the
    buildings' features that the encoding shows and the kernel does not keep."""
    cfg = tables[0]
    knights, built, _, pads = extra
    phase = st[kn.PHASE]
    if phase == TAX and action != cfg[kn.PASS_ACTION]:
        r = acting_realm(st, cfg)
        square = action - cfg[kn.KNIGHT_BASE]
        knights[r, st[kn.realm_at(r) + kn.LAST_CELL1 + square]] = 1
        pads[r, FRESH] = 0  # a knight is no part of the kingdom: the pad stays
    elif phase == SITE:
        r = acting_realm(st, cfg)
        tile = st[kn.BOARD_AT + st[kn.CHOSEN]]
        row = features[tile + 1]
        for k in range(BUILDING_WIDTH):
            built[r, k] += row[k]
        pads[r, FRESH] = 0
        if cfg[kn.BUILDING + kn.BUILDING_SIZE * tile + kn.B_CROWNS] != 0:
            pads[r, PAD_FRESH] = 0  # only its crowns change the kingdom's territories
    elif phase == PLACE:
        r = acting_realm(st, cfg)
        pads[r, FRESH] = 0
        pads[r, PAD_FRESH] = 0
    kn.apply(st, kingdoms, tables, action, work[7])


@jit
def advance(
    st: Array,
    kingdoms: Any,
    tables: Any,
    work: Any,
    extra: Any,
    features: Array,
    rng: Array,
    seat: int,
    policies: Array,
) -> None:
    """Chance and the bots' moves until a learner decides (`seat`, or anyone when -1) or the
    game is over; `policies[p]` is seat p's policy (kernel.RANDOM or GREEDY)."""
    cfg = tables[0]
    while True:
        phase = st[kn.PHASE]
        if phase == OVER:
            return
        if phase in (DRAW, BOARD, ORDER):
            kn.apply_chance(st, cfg, kn.sample_chance(st, cfg, uniform(rng)))
            continue
        player = kn.current_player(st)
        if seat < 0 or player == seat:
            return
        placed = -1
        if policies[player] == kn.GREEDY:
            action = kn.greedy_action(st, kingdoms, tables, rng, work)
            if phase == PLACE and work[15][0] >= 0:
                placed = work[15][0]  # the memo holds the kingdom's pad once placed
        else:
            action = kn.random_action(st, kingdoms, tables, rng, work)
            kn.forget_kingdom(work)
        decide(st, kingdoms, tables, action, work, extra, features)
        if placed >= 0:
            pads = extra[3]
            kn.copy_into(pads[placed], 0, work[5], kn.MAX_DOMINOES + 1, PAD)
            pads[placed, PAD_FRESH] = 1


@jit
def is_legal(st: Array, kingdoms: Any, tables: Any, action: int, work: Any) -> bool:
    """Whether `action` is legal now (the learner's input is checked)."""
    if action < 0 or action >= tables[0][kn.NUM_ACTIONS]:
        return False
    legal = work[1][0]
    n = kn.legal_actions(st, kingdoms, tables, work[0], legal)
    found = False
    for j in range(n):
        found |= legal[j] == action
    return found


@jit
def legal_mask(st: Array, kingdoms: Any, tables: Any, work: Any, mask: Array) -> None:
    """1 on the legal actions of the player to act."""
    mask[:] = 0
    legal = work[1][0]
    n = kn.legal_actions(st, kingdoms, tables, work[0], legal)
    for j in range(n):
        mask[legal[j]] = 1


@jit
def copy_row(out: Array, at: int, table: Array, row: int, count: int) -> None:
    """out[at : at + count] = table[row, :count]."""
    for k in range(count):
        out[at + k] = table[row, k]


@jit
def render_realm(st: Array, kingdoms: Any, cfg: Array, work: Any, extra: Any, q: int) -> None:
    """Realm q's kingdom planes (encoding.py `_kingdoms`, flat: plane k, row r, column c at
    (k * S + r) * S + c) and score pad figures (kernel.kingdom_pad) into its `planes` and
    `pads`."""
    rows, grid, crowns, info = kingdoms
    knights, _, planes_all, pads = extra
    planes = planes_all[q]
    reach = cfg[kk.REACH]
    side = cfg[kk.SIDE]
    width = cfg[kk.WIDTH]
    gw = cfg[kk.GRID_WIDTH]
    area = side * side
    for k in range(planes.shape[0]):
        planes[k] = 0
    lo_c = info[q, kk.MAX_X]
    hi_c = info[q, kk.MIN_X] + 2 * reach
    lo_r = info[q, kk.MAX_Y]
    hi_r = info[q, kk.MIN_Y] + 2 * reach
    frame = ((1 << (hi_c + 1)) - 1) & ~((1 << lo_c) - 1)
    # Only the occupied squares and the free ones within the frame have a plane's 1: their
    # rows' bits say which (the kingdom's OCCUPIED rows), not a look at every square.
    for r in range(side):
        occupied = rows[q, kk.OCCUPIED, r + 1]
        sites = rows[q, kn.SITES, r + 1]
        room = frame & ~occupied if lo_r <= r <= hi_r else 0
        while room:
            c = kk.trailing_zeros(room)
            room &= room - 1
            planes[ROOM_PLANE * area + r * side + c] = 1
        while occupied:
            c = kk.trailing_zeros(occupied)
            occupied &= occupied - 1
            g = (r + 1) * gw + c + 1
            t = grid[q, g]
            at = r * side + c
            if t == kk.CASTLE:
                planes[CASTLE_PLANE * area + at] = 1
            else:
                planes[(TOWN_PLANE if t == kn.TOWN else t) * area + at] = 1
                planes[CROWN_PLANE * area + at] = crowns[q, g]
                planes[SITE_PLANE * area + at] = sites >> c & 1
                planes[KNIGHT_PLANE * area + at] = knights[q, r * width + c]
    at = kn.realm_at(q)
    for square in range(2):
        cell = st[at + kn.LAST_CELL1 + square]
        if cell >= 0:
            planes[(LAST1_PLANE + square) * area + cell // width * side + cell % width] = 1
    if not pads[q, PAD_FRESH]:
        kn.forget_kingdom(work)  # its labels become realm q's
        kn.kingdom_pad(kingdoms, cfg, q, work[3], work[4], pads[q])
        pads[q, PAD_FRESH] = 1
    pads[q, FRESH] = 1


@jit
def observe_kingdoms(
    st: Array, kingdoms: Any, cfg: Array, work: Any, extra: Any, own: int, out: Array
) -> None:
    """The kingdom planes of every realm seat (encoding.py `_kingdoms`, flat), each realm's
    made again only when a decision changed it."""
    planes_all, pads = extra[2], extra[3]
    realms = cfg[kn.REALMS]
    side = cfg[kk.SIDE]
    size = PLANES * side * side
    for j in range(realms):
        q = turned(own, j, realms)
        if not pads[q, FRESH]:
            render_realm(st, kingdoms, cfg, work, extra, q)
        planes = planes_all[q]
        # A view of the output and indices from 0: the copy is a loop of plain loads and
        # stores that the compiler turns into block moves.
        seat = out[j * size : (j + 1) * size]
        for k in range(size):
            seat[k] = planes[k]


@jit
def observe(
    st: Array,
    kingdoms: Any,
    tables: Any,
    codes: Any,
    work: Any,
    extra: Any,
    observer: int,
    obs: Any,
    i: int,
) -> None:
    """Game i's observation from `observer`'s seat into row i of the `obs` arrays, as
    `QueendominoEncoder.observe` makes it (encoding.py; Queendomino has no secrets)."""
    planes_out, line_out, kings_out, seats_out, realms_out, board_out = obs[:6]
    pile_out, top_out, unseen_out, counters_out = obs[6:]
    cfg = tables[0]
    dominoes, features = codes
    built, pads = extra[1], extra[3]
    players = cfg[kk.PLAYERS]
    realms = cfg[kn.REALMS]
    own = cfg[kn.REALM_OF + observer]
    phase = st[kn.PHASE]
    observe_kingdoms(st, kingdoms, cfg, work, extra, own, planes_out[i])
    line = line_out[i]
    line[:] = 0
    for slot in range(st[kn.NLINE]):  # observed only at a decision or the end: never drawing
        line[slot, 0] = 1
        copy_row(line[slot], 1, dominoes, st[kn.LINE + slot] + 1, DOMINO_WIDTH)
        owner = st[kn.CLAIMS + slot]
        if owner >= 0:
            line[slot, 1 + DOMINO_WIDTH + turned(owner, -observer, players)] = 1
    kings = kings_out[i]
    kings[:] = 0
    if phase != OVER:
        placers = st[kn.NPLACING]
        turn = st[kn.TURN]
        acting = phase in (CLAIM, PLACE, TAX, BUILD, SITE, DRAGON)
        placed = turn + (1 if phase in (TAX, BUILD, SITE, DRAGON, CLAIM) else 0)
        count = placers if placers > 0 else st[kn.NORDER]
        for king in range(count):
            owner = st[kn.PLACERS + king] if placers > 0 else st[kn.ORDER_AT + king]
            row = kings[king]
            row[0] = 1
            row[1 + turned(owner, -observer, players)] = 1
            if king < turn:
                row[players + 1] = 1
            elif king == turn and acting:
                row[players + 2] = 1
            if placers > 0:
                if king < placed:
                    row[players + 3] = 1
                copy_row(row, players + 4, dominoes, st[kn.PLACING + king] + 1, DOMINO_WIDTH)
    seats = seats_out[i]
    seats[:] = 0
    for s in range(players):
        seats[s, turned(cfg[kn.REALM_OF + turned(observer, s, players)], -own, realms)] = 1
    realm_rows = realms_out[i]
    knights_owned = 0
    towers_built = 0
    for j in range(realms):
        q = turned(own, j, realms)
        at = kn.realm_at(q)
        row = realm_rows[j]
        row[0] = st[at + kn.COINS]
        row[1] = st[at + kn.GUARD]
        row[2] = st[at + kn.KNIGHTS_OUT]
        row[3] = st[at + kn.TOWERS_BUILT]
        row[4] = st[kn.QUEEN] == q
        row[5] = st[at + kn.COINS] // 3 + kn.pad_points(st, q, pads[q])
        row[6] = st[at + kn.BUILT]
        for k in range(BUILDING_WIDTH):
            row[REALM_FEATURES + k] = built[q, k]
        knights_owned += st[at + kn.GUARD] + st[at + kn.KNIGHTS_OUT]
        towers_built += st[at + kn.TOWERS_BUILT]
    board = board_out[i]
    board[:] = 0
    for space in range(SPACES):
        copy_row(board[space], 0, features, st[kn.BOARD_AT + space] + 1, BUILDING_WIDTH)
    if phase == SITE and st[kn.CHOSEN] != EMPTY:
        board[st[kn.CHOSEN], BUILDING_WIDTH] = 1
    pile = pile_out[i]
    for b in range(pile.shape[0]):
        pile[b] = st[kn.PILE] >> b & 1
    copy_row(top_out[i], 0, features, st[kn.TOP] + 1, BUILDING_WIDTH)
    unseen = unseen_out[i]
    for n in range(unseen.shape[0]):
        box = n // BOX
        unseen[n] = st[kn.DECK + box] >> (n - box * BOX) & 1
    counters = counters_out[i]
    counters[:] = 0
    counters[phase] = 1
    counters[PHASES] = st[kn.LINES]
    counters[PHASES + 1] = cfg[kk.LINE_COUNT]
    counters[PHASES + 2] = st[kn.DRAGON_READY]
    counters[PHASES + 3] = KNIGHTS - knights_owned
    counters[PHASES + 4] = TOWERS - towers_built
    counters[PHASES + 5] = st[kn.KNIGHTED] & 1
    counters[PHASES + 6] = st[kn.KNIGHTED] >> 1 & 1


@jit
def start_episode(
    st: Array,
    kingdoms: Any,
    initial: Any,
    tables: Any,
    work: Any,
    extra: Any,
    features: Array,
    rng: Array,
    settings: Array,
    policies: Array,
) -> int:
    """A new game (the learner's seat drawn first when it is drawn each episode), played on
    to the learner's first decision. Returns the learner's seat (-1 in self-play)."""
    rows, grid, crowns, info = kingdoms
    st0, rows0, grid0, crowns0, info0 = initial
    cfg = tables[0]
    # No slice copies: they would need numba's runtime (`compiling.jit`).
    kn.copy_into(st, 0, st0, 0, st.shape[0])
    for r in range(rows.shape[0]):
        for layer in range(rows.shape[1]):
            kn.copy_into(rows[r, layer], 0, rows0[r, layer], 0, rows.shape[2])
        kn.copy_into(grid[r], 0, grid0[r], 0, grid.shape[1])
        kn.copy_into(crowns[r], 0, crowns0[r], 0, crowns.shape[1])
        kn.copy_into(info[r], 0, info0[r], 0, info.shape[1])
    knights, built, _, pads = extra
    knights[:] = 0
    built[:] = 0
    for r in range(pads.shape[0]):
        pads[r, FRESH] = 0
        pads[r, PAD_FRESH] = 0
    seat = LEARNER
    if not settings[SELF_PLAY]:
        seat = settings[FIXED_SEAT]
        if settings[DRAWN_SEAT]:
            seat = int(uniform(rng) * cfg[kk.PLAYERS])
    advance(st, kingdoms, tables, work, extra, features, rng, seat, policies[max(seat, 0)])
    return seat


@jit
def step_one(
    i: int,
    actions: Array,
    arrays: Any,
    tables: Any,
    codes: Any,
    work: Any,
    settings: Array,
    policies: Array,
    obs: Any,
    out: Any,
) -> None:
    """One step of game i (module card); a game whose episode ended starts a new one.
    `policies[s, p]`: the policy of player p when the learner sits at s."""
    st_all, rows, grid, crowns, info, knights, built, planes, pads = arrays[:9]
    streams, seat_all, actor_all, pending = arrays[9:13]
    initial = arrays[13:]
    mask_out, terminated_out, illegal_out, player_out, returns_out, scores_out = out
    cfg = tables[0]
    features = codes[1]
    st = st_all[i]
    kingdoms = (rows[i], grid[i], crowns[i], info[i])
    extra = (knights[i], built[i], planes[i], pads[i])
    rng = streams[i : i + 1]
    mask = mask_out[i]
    kn.forget_kingdom(work)  # the scratch's memo was another game's
    terminated_out[i] = 0
    illegal_out[i] = 0
    returns_out[i, :] = 0.0
    scores_out[i, :] = 0.0
    if pending[i]:
        pending[i] = 0
        seat_all[i] = start_episode(
            st, kingdoms, initial, tables, work, extra, features, rng, settings, policies
        )
        actor_all[i] = -1
    else:
        seat = seat_all[i]
        action = actions[i]
        actor_all[i] = kn.current_player(st)
        if not is_legal(st, kingdoms, tables, action, work):
            # An illegal action ends the episode (as the single-agent environment does).
            terminated_out[i] = 1
            illegal_out[i] = 1
            pending[i] = 1
        else:
            decide(st, kingdoms, tables, action, work, extra, features)
            advance(st, kingdoms, tables, work, extra, features, rng, seat, policies[max(seat, 0)])
            if st[kn.PHASE] == OVER:
                kn.final_results(st, kingdoms, cfg, work, scores_out[i], returns_out[i])
                terminated_out[i] = 1
                pending[i] = 1
    seat = seat_all[i]
    over = terminated_out[i] == 1
    if seat >= 0:
        observer = seat
    elif over:
        observer = actor_all[i]
    else:
        observer = kn.current_player(st)
    player_out[i] = observer
    observe(st, kingdoms, tables, codes, work, extra, observer, obs, i)
    if over:
        mask[:] = 0
    else:
        legal_mask(st, kingdoms, tables, work, mask)


@jit
def step_block(
    first: int,
    end: int,
    actions: Array,
    arrays: Any,
    tables: Any,
    codes: Any,
    work: Any,
    settings: Array,
    policies: Array,
    obs: Any,
    out: Any,
) -> None:
    """`step_one` for games first .. end - 1, with one thread's scratch."""
    for i in range(first, end):
        step_one(i, actions, arrays, tables, codes, work, settings, policies, obs, out)


@numba.njit(cache=True, nogil=True, parallel=True)
def step_batch(
    actions: Array,
    arrays: Any,
    tables: Any,
    codes: Any,
    settings: Array,
    policies: Array,
    obs: Any,
    out: Any,
    threads: int,
) -> None:
    """`step_one` for every game, the games split into a block per thread (each with its
    own scratch, the only allocation of a step)."""
    count = actions.shape[0]
    squares = arrays[2].shape[2]
    blocks = max(1, min(count, threads))
    for block in numba.prange(blocks):
        work = kn._make_work(tables[0], squares)
        first = block * count // blocks
        end = (block + 1) * count // blocks
        step_block(first, end, actions, arrays, tables, codes, work, settings, policies, obs, out)
