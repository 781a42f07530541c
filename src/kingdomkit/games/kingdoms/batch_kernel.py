"""Compiled steps of many Kingdoms games at once (numba), for the batched simulator of
batch.py: each game's learner decisions come in, chance and the bots' moves are played
inside (kernel.py's), and the next observation (the arrays of encoding.py, byte for byte,
from the observer's view: the other players' starting tiles and a tile another player drew
stay hidden), action mask and how the games ended go out. Imported only by batch.py, only
when numba is there.

The games' arrays: st (N, STATE_SIZE) as kernel.py's, one SplitMix64 state per game in
`streams` (N,), and per game `seat` (the learner's seat this episode, or -1 in self-play),
`actor` (who made the last decision) and `pending` (1: the episode has ended, the next step
starts a new one).

Uniforms are drawn from a game's stream in this order, the order of `bots.playouts`: at the
start of an episode one for the learner's seat when it is drawn each episode; then, as the game
goes, one per chance node (`Kingdoms.sample_chance`) and the bots' own (random: one per
decision; greedy: one only to break a tie). The learner's decisions draw nothing. So the
reference engine fed the same `SplitMix64` stream and the same learner actions plays the very
same games (tests/games/kingdoms/test_kingdoms_batch.py checks it).

numba's disk cache checks only this file, not kernel.py whose functions are compiled into
these: after changing kernel.py, delete this package's numba files (*.nbi, *.nbc) in
`__pycache__`, as kernel.py says.

Observers: a learner is shown its own decisions and the end of its game, so a tile another
player drew never shows to it there; `observe` hides it all the same, as `Kingdoms.view`
does.

Versions (Kingdoms rules version 1, observation layout version 1): 1, the first.
"""

from __future__ import annotations

from typing import Any

import numba

from kingdomkit.games.compiling import jit, uniform
from kingdomkit.games.kingdoms import kernel as kn
from kingdomkit.games.kingdoms.state import (
    DEAL,
    DRAW,
    HIDDEN,
    NO_TILE,
    OVER,
    PHASE_NAMES,
    PLACE,
    PLAY,
)
from kingdomkit.games.kingdoms.tiles import RANKS
from kingdomkit.rl.compiled_batch import DRAWN_SEAT, FIXED_SEAT, LEARNER, SELF_PLAY

Array = Any  # numpy arrays; numba types them at compile time

PHASES = len(PHASE_NAMES)
SPACES = kn.SPACES
NTYPES = kn.NTYPES


@jit
def advance(st: Array, cfg: Array, work: Any, rng: Array, seat: int, policies: Array) -> None:
    """Chance and the bots' moves until a learner decides (`seat`, or anyone when -1) or the
    game is over; `policies[p]` is seat p's policy (kernel.RANDOM or GREEDY)."""
    gains, ranks = work[2], work[3]
    while True:
        phase = st[kn.PHASE]
        if phase == OVER:
            return
        if phase != PLAY and phase != PLACE:
            kn.apply(st, cfg, kn.sample_chance(st, cfg, uniform(rng)), gains, ranks)
            continue
        player = st[kn.TURN]
        if seat < 0 or player == seat:
            return
        if policies[player] == kn.GREEDY:
            action = kn.greedy_action(st, cfg, rng, work)
        else:
            action = kn.random_action(st, cfg, rng, work)
        kn.apply(st, cfg, action, gains, ranks)


@jit
def is_legal(st: Array, cfg: Array, action: int, work: Any) -> bool:
    """Whether `action` is legal now (the learner's input is checked)."""
    legal = work[0]
    n = kn.legal_actions(st, cfg, legal)
    found = False
    for j in range(n):
        found |= legal[j] == action
    return found


@jit
def legal_mask(st: Array, cfg: Array, work: Any, mask: Array) -> None:
    """1 on the legal actions of the player to act."""
    mask[:] = 0
    legal = work[0]
    n = kn.legal_actions(st, cfg, legal)
    for j in range(n):
        mask[legal[j]] = 1


@jit
def observe(st: Array, cfg: Array, observer: int, obs: Any, i: int) -> None:
    """Game i's observation from `observer`'s seat into row i of the `obs` arrays, as
    `KingdomsEncoder.observe` makes it from `Kingdoms.view(state, observer)`."""
    board_out, tiles_out, seats_out, counters_out = obs
    players = cfg[kn.PLAYERS]
    phase = st[kn.PHASE]
    tiles = tiles_out[i]
    tiles[:] = 0
    # The view: the others' starting tiles and a tile another player drew go back unseen.
    for t in range(NTYPES):
        tiles[2, t] = st[kn.SUPPLY + t]
    for q in range(players):
        tile = st[kn.STARTING + q]
        if q != observer and tile >= 0:
            tiles[2, tile] += 1
    held = st[kn.HELD]
    if phase == PLACE and st[kn.TURN] != observer and held >= 0 and not cfg[kn.NO_LUCK]:
        tiles[2, held] += 1
        held = HIDDEN
    own = st[kn.STARTING + observer]
    if own >= 0:
        tiles[0, own] = 1
    if phase == PLACE and held >= 0:
        tiles[1, held] = 1
    seats = seats_out[i]
    seats[:] = 0
    acting = phase in (PLAY, PLACE)
    starts = phase in (DEAL, PLAY, DRAW, PLACE)
    for s in range(players):
        q = (observer + s) % players
        seats[s, 0] = st[kn.GOLD + q]
        for r in range(RANKS):
            seats[s, 1 + r] = st[kn.CASTLES + 4 * q + r]
        seats[s, 5] = st[kn.STARTING + q] != NO_TILE
        seats[s, 6] = starts and st[kn.FIRST_PLAYER] == q
        seats[s, 7] = acting and st[kn.TURN] == q
    counters = counters_out[i]
    counters[:] = 0
    counters[phase] = 1
    counters[PHASES] = st[kn.EPOCH]
    counters[PHASES + 1] = kn.supply_size(st, cfg)
    counters[PHASES + 2] = held == HIDDEN
    scored = st[kn.SCORED]
    for line in range(kn.NLINES):
        counters[PHASES + 3 + line] = scored >> line & 1
    planes = board_out[i]  # (planes, SPACES)
    planes[:] = 0
    empty = NTYPES + RANKS * players
    wizard = cfg[kn.WIZ]
    for space in range(SPACES):
        square = st[kn.BOARD + space]
        if square == kn.EMPTY:
            planes[empty, space] = 1
        elif square >= kn.CASTLE:
            owner = (square - kn.CASTLE) // 4
            printed = (square - kn.CASTLE) % 4
            seat = (owner - observer) % players
            planes[NTYPES + RANKS * seat + printed, space] = 1
            rank = printed + 1
            for k in range(kn.NEIGHBOUR_COUNT[space]):
                if st[kn.BOARD + kn.NEIGHBOURS[space, k]] == wizard:
                    rank += 1
            planes[empty + 2, space] = rank
        elif square >= 0:
            planes[square, space] = 1
            planes[empty + 1, space] = cfg[kn.VALUE + square]


@jit
def start_episode(
    st: Array, initial: Array, cfg: Array, work: Any, rng: Array, settings: Array, policies: Array
) -> int:
    """A new game (the learner's seat drawn first when it is drawn each episode), played on
    to the learner's first decision. Returns the learner's seat (-1 in self-play)."""
    for k in range(st.shape[0]):  # no slice copy: it would need numba's runtime (compiling.jit)
        st[k] = initial[k]
    seat = LEARNER
    if not settings[SELF_PLAY]:
        seat = settings[FIXED_SEAT]
        if settings[DRAWN_SEAT]:
            seat = int(uniform(rng) * cfg[kn.PLAYERS])
    advance(st, cfg, work, rng, seat, policies[max(seat, 0)])
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
    st_all, streams, seat_all, actor_all, pending = arrays
    cfg, initial = tables
    mask_out, terminated_out, illegal_out, player_out, returns_out, scores_out = out
    st = st_all[i]
    rng = streams[i : i + 1]
    mask = mask_out[i]
    terminated_out[i] = 0
    illegal_out[i] = 0
    returns_out[i, :] = 0.0
    scores_out[i, :] = 0.0
    if pending[i]:
        pending[i] = 0
        seat_all[i] = start_episode(st, initial, cfg, work, rng, settings, policies)
        actor_all[i] = -1
    else:
        seat = seat_all[i]
        action = actions[i]
        actor_all[i] = kn.current_player(st)
        if not is_legal(st, cfg, action, work):
            # An illegal action ends the episode (as the single-agent environment does).
            terminated_out[i] = 1
            illegal_out[i] = 1
            pending[i] = 1
        else:
            kn.apply(st, cfg, action, work[2], work[3])
            advance(st, cfg, work, rng, seat, policies[max(seat, 0)])
            if st[kn.PHASE] == OVER:
                kn.final_results(st, cfg, scores_out[i], returns_out[i])
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
    observe(st, cfg, observer, obs, i)
    if over:
        mask[:] = 0
    else:
        legal_mask(st, cfg, work, mask)


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
    blocks = max(1, min(count, threads))
    for block in numba.prange(blocks):
        work = kn.make_work()
        for i in range(block * count // blocks, (block + 1) * count // blocks):
            step_one(i, actions, arrays, tables, work, settings, policies, obs, out)
