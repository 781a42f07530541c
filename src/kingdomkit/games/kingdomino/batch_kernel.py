"""Compiled steps of many Kingdomino games at once (numba), for the batched simulator of
batch.py: each game's learner decisions come in, chance and the bots' moves are played
inside, and the next observation (the arrays of encoding.py, byte for byte), action mask
and how the games ended (their returns and scores) go out; what that is worth to a learner is
the RL layer's to say (kingdomkit.rl.batch). Imported only by batch.py, only when numba is
there.

The games' arrays are kernel.py's with one more leading index, the game: st (N, STATE_SIZE),
rows (N, P, LAYERS, side + 2), grid and crowns (N, P, gw * gw), info (N, P, INFO_SIZE), and one
SplitMix64 state per game in `streams` (N,). Three more arrays per game: `seat` (the learner's
seat this episode, or -1 in self-play), `actor` (who made the last decision) and `pending`
(1: the episode has ended, the next step starts a new one).

Uniforms are drawn from a game's stream in this order, the order of `bots.playouts`: at the
start of an episode one for the learner's seat when it is drawn each episode; then, as the game
goes, one per chance node (`Kingdomino.sample_chance`) and the bots' own (random: one per
decision; greedy: one only to break a tie). The learner's decisions draw nothing. So the
reference engine fed the same `SplitMix64` stream and the same learner actions plays the very
same games (tests/rl/test_rl_batch.py checks it).

Versions (Kingdomino rules version 1, observation layout version 1): 1, the first; 2, the
returns instead of the rewards (wdl, margin and the illegal action's reward moved to
kingdomkit.rl.batch, in numpy, after the kernel).
"""

from __future__ import annotations

from typing import Any

import numba

from kingdomkit.games.compiling import jit, uniform
from kingdomkit.games.kingdomino import kernel as kn
from kingdomkit.games.kingdomino import playouts as kp
from kingdomkit.games.kingdomino.dominoes import TERRAINS as TERRAIN_NAMES
from kingdomkit.games.kingdomino.encoding import CASTLE_PLANE, CROWN_PLANE, PLANES, ROOM_PLANE
from kingdomkit.games.kingdomino.state import (
    CLAIM,
    CLAIMS,
    DRAW,
    ORDER,
    OVER,
    PHASE_NAMES,
    PLACE,
    UNCLAIMED,
)
from kingdomkit.rl.compiled_batch import DRAWN_SEAT, FIXED_SEAT, LEARNER, SELF_PLAY

Array = Any  # numpy arrays; numba types them at compile time

# The encoding's layout and the rules' counts, taken from them (never written again here).
TERRAINS = len(TERRAIN_NAMES)
PHASES = len(PHASE_NAMES)


@jit
def decide(st: Array, action: int, kingdoms: Any, tables: Any, work: Any) -> None:
    """Plays a decision given as a kernel action (a placement code, -1 the discard, a slot)."""
    if st[kn.PHASE] == PLACE:
        kn.place_step(st, action, kingdoms, tables, work)
    else:
        kn.claim(st, action, tables[0])


@jit
def advance(
    st: Array, kingdoms: Any, tables: Any, work: Any, rng: Array, seat: int, policies: Array
) -> None:
    """Chance and the bots' moves until a learner decides (`seat`, or anyone when -1) or the
    game is over; `policies[p]` is seat p's policy (kernel.RANDOM or GREEDY). The chance part
    is kernel.play_out's, written again: play_out calling a shared helper measured 20% fewer
    random playouts a second."""
    cfg, _, orders = tables
    while True:
        phase = st[kn.PHASE]
        if phase == OVER:
            return
        if phase == DRAW:
            kn.draw(st, uniform(rng), cfg)
            continue
        if phase == ORDER:
            index = int(uniform(rng) * cfg[kn.ORDERS])
            for i in range(cfg[kn.KINGS]):
                st[kn.ORDER_AT + i] = orders[index, i]
            st[kn.PHASE] = CLAIM
            st[kn.TURN] = 0
            continue
        player = kn.current_player(st)
        if seat < 0 or player == seat:
            return
        if policies[player] == kp.GREEDY:
            action = kp.greedy_action(st, rng, kingdoms, tables, work)
        else:
            action = kp.random_action(st, rng, kingdoms, tables, work)
        decide(st, action, kingdoms, tables, work)


@jit
def acting_placements(st: Array, kingdoms: Any, tables: Any, work: Any) -> int:
    """The legal placement codes of the acting king's domino, in `work[1]`; returns how many."""
    rows, _, _, info = kingdoms
    cfg, dominoes, _ = tables
    turn = st[kn.TURN]
    return int(
        kn.legal_placements(
            rows,
            info,
            st[kn.PLACERS + turn],
            st[kn.PLACING + turn],
            dominoes,
            cfg,
            work[0],
            work[1],
        )
    )


@jit
def legal_mask(st: Array, kingdoms: Any, tables: Any, work: Any, mask: Array) -> None:
    """1 on the legal actions (the game's numbering: claims, CLAIMS + code, the discard)."""
    mask[:] = 0
    phase = st[kn.PHASE]
    if phase == CLAIM:
        for slot in range(st[kn.NLINE]):
            if st[kn.CLAIMED + slot] == UNCLAIMED:
                mask[slot] = 1
    elif phase == PLACE:
        codes = work[1]
        count = acting_placements(st, kingdoms, tables, work)
        if count == 0:
            mask[len(mask) - 1] = 1
        for i in range(count):
            mask[CLAIMS + codes[i]] = 1


@jit
def is_legal(
    st: Array, action: int, num_actions: int, kingdoms: Any, tables: Any, work: Any
) -> bool:
    """Whether the game action `action` is legal now (the learner's input is checked)."""
    if action < 0 or action >= num_actions:
        return False
    if st[kn.PHASE] == CLAIM:
        return bool(action < st[kn.NLINE] and st[kn.CLAIMED + action] == UNCLAIMED)
    if action < CLAIMS:
        return False
    codes = work[1]
    count = acting_placements(st, kingdoms, tables, work)
    if count == 0:
        return action == num_actions - 1
    found = False
    for j in range(count):
        found |= codes[j] == action - CLAIMS
    return found


@jit
def kernel_action(action: int, num_actions: int) -> int:
    """The kernel's form of a game action (the discard is -1, a placement its bare code)."""
    if action == num_actions - 1:
        return kn.DISCARD
    if action >= CLAIMS:
        return action - CLAIMS
    return action


@jit
def domino_row(out: Array, at: int, number: int, dominoes: Array) -> None:
    """encoding.domino_features of domino `number` into out[at : at + 15]."""
    out[at + dominoes[number, 0]] = 1
    out[at + TERRAINS] = dominoes[number, 1]
    out[at + TERRAINS + 1 + dominoes[number, 2]] = 1
    out[at + 2 * TERRAINS + 1] = dominoes[number, 3]
    out[at + 2 * TERRAINS + 2] = number


@jit
def observe(
    st: Array, kingdoms: Any, tables: Any, work: Any, observer: int, obs: Any, i: int
) -> None:
    """Game i's observation from `observer`'s seat into row i of the `obs` arrays, as
    `KingdominoEncoder.observe` makes it (encoding.py)."""
    planes_out, line_out, kings_out, unseen_out, seats_out, counters_out = obs
    _, grid, crowns, info = kingdoms
    cfg, dominoes, _ = tables
    players = cfg[kn.PLAYERS]
    reach = cfg[kn.REACH]
    side = cfg[kn.SIDE]
    gw = cfg[kn.GRID_WIDTH]
    planes = planes_out[i]
    planes[:] = 0
    seats = seats_out[i]
    for s in range(players):
        q = (observer + s) % players
        base = s * PLANES
        lo_c = info[q, kn.MAX_X]
        hi_c = info[q, kn.MIN_X] + 2 * reach
        lo_r = info[q, kn.MAX_Y]
        hi_r = info[q, kn.MIN_Y] + 2 * reach
        for r in range(side):
            for c in range(side):
                g = (r + 1) * gw + c + 1
                t = grid[q, g]
                if t == kn.EMPTY:
                    if lo_r <= r <= hi_r and lo_c <= c <= hi_c:
                        planes[base + ROOM_PLANE, r, c] = 1
                elif t == kn.CASTLE:
                    planes[base + CASTLE_PLANE, r, c] = 1
                else:
                    planes[base + t, r, c] = 1
                    planes[base + CROWN_PLANE, r, c] = crowns[q, g]
        points, largest, crown_total = kn.label(grid, crowns, info, q, cfg, work[4], work[5])
        seats[s, 0] = points + kn.bonuses(info, q, cfg)
        seats[s, 1] = st[kn.PAST + q]
        seats[s, 2] = info[q, kn.DISCARDS]
        seats[s, 3] = crown_total
        seats[s, 4] = largest
    phase = st[kn.PHASE]
    line = line_out[i]
    line[:] = 0
    for slot in range(st[kn.NLINE]):  # observed only at a decision or the end: never drawing
        line[slot, 0] = 1
        domino_row(line[slot], 1, st[kn.LINE + slot], dominoes)
        owner = st[kn.CLAIMED + slot]
        if owner >= 0:
            line[slot, 16 + (owner - observer) % players] = 1
    kings = kings_out[i]
    kings[:] = 0
    if phase != OVER:
        placers = st[kn.NPLACERS]
        turn = st[kn.TURN]
        acting = phase in (CLAIM, PLACE)
        placed = turn + (1 if phase == CLAIM else 0)
        count = placers if placers > 0 else cfg[kn.KINGS]
        for king in range(count):
            owner = st[kn.PLACERS + king] if placers > 0 else st[kn.ORDER_AT + king]
            row = kings[king]
            row[0] = 1
            row[1 + (owner - observer) % players] = 1
            if king < turn:
                row[players + 1] = 1
            elif king == turn and acting:
                row[players + 2] = 1
            if placers > 0:
                if king < placed:
                    row[players + 3] = 1
                domino_row(row, players + 4, st[kn.PLACING + king], dominoes)
    unseen = unseen_out[i]
    deck = st[kn.DECK]
    for n in range(len(unseen)):
        unseen[n] = (deck >> n) & 1
    counters = counters_out[i]
    counters[:] = 0
    counters[phase] = 1
    counters[PHASES] = st[kn.LINES]
    counters[PHASES + 1] = cfg[kn.LINE_COUNT]
    counters[PHASES + 2] = st[kn.GAME]
    counters[PHASES + 3] = cfg[kn.GAMES]


@jit
def start_episode(
    st: Array, kingdoms: Any, tables: Any, work: Any, rng: Array, settings: Array, policies: Array
) -> int:
    """A new game (the learner's seat drawn first when it is drawn each episode), played on
    to the learner's first decision. Returns the learner's seat (-1 in self-play)."""
    rows, grid, crowns, info = kingdoms
    cfg = tables[0]
    kn.new_game(st, rows, grid, crowns, info, cfg, 0)
    st[kn.PAST : kn.PAST + 4] = 0
    seat = LEARNER
    if not settings[SELF_PLAY]:
        seat = settings[FIXED_SEAT]
        if settings[DRAWN_SEAT]:
            seat = int(uniform(rng) * cfg[kn.PLAYERS])
    advance(st, kingdoms, tables, work, rng, seat, policies[max(seat, 0)])
    return seat


@jit
def step_one(
    i: int,
    actions: Array,
    arrays: Any,
    tables: Any,
    work: Any,
    settings: Array,
    policies: Array,
    obs: Any,
    out: Any,
) -> None:
    """One step of game i (module card); a game whose episode ended starts a new one.
    `policies[s, p]`: the policy of player p when the learner sits at s."""
    st_all, rows, grid, crowns, info, streams, seat_all, actor_all, pending = arrays
    mask_out, terminated_out, illegal_out, player_out, returns_out, scores_out = out
    st = st_all[i]
    kingdoms = (rows[i], grid[i], crowns[i], info[i])
    rng = streams[i : i + 1]
    num_actions = mask_out.shape[1]
    mask = mask_out[i]
    terminated_out[i] = 0
    illegal_out[i] = 0
    returns_out[i, :] = 0.0
    scores_out[i, :] = 0.0
    if pending[i]:
        pending[i] = 0
        seat_all[i] = start_episode(st, kingdoms, tables, work, rng, settings, policies)
        actor_all[i] = -1
    else:
        seat = seat_all[i]
        action = actions[i]
        actor = kn.current_player(st)
        actor_all[i] = actor
        if not is_legal(st, action, num_actions, kingdoms, tables, work):
            # An illegal action ends the episode (as the single-agent environment does).
            terminated_out[i] = 1
            illegal_out[i] = 1
            pending[i] = 1
        else:
            decide(st, kernel_action(action, num_actions), kingdoms, tables, work)
            advance(st, kingdoms, tables, work, rng, seat, policies[max(seat, 0)])
            if st[kn.PHASE] == OVER:
                kn.final_results(st, kingdoms, tables, work, scores_out[i], returns_out[i])
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
    observe(st, kingdoms, tables, work, observer, obs, i)
    if over:
        mask[:] = 0
    else:
        legal_mask(st, kingdoms, tables, work, mask)


@numba.njit(cache=True, nogil=True, parallel=True)
def step_batch(
    actions: Array,
    arrays: Any,
    tables: Any,
    settings: Array,
    policies: Array,
    obs: Any,
    out: Any,
    threads: int,
) -> None:
    """`step_one` for every game, the games split into a block per thread."""
    count = actions.shape[0]
    squares = arrays[2].shape[2]
    blocks = max(1, min(count, threads))
    for block in numba.prange(blocks):
        work = kn.work_arrays(tables[0], squares)
        for i in range(block * count // blocks, (block + 1) * count // blocks):
            step_one(i, actions, arrays, tables, work, settings, policies, obs, out)
