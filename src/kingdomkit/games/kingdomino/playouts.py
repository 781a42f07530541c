"""Kingdomino's compiled playout policies (numba): the bots' playout policies
(`kingdomkit.bots.playouts`: random, greedy, epsilon-greedy, player-greedy) and the playout
loop, on the compiled mirror of the rules (kernel.py). accelerator.py binds them to a
configured game as its `playouts` capability; batch_kernel.py plays opponents with them.

A policy is a code, the policy's place in `kingdomkit.bots.playouts.POLICIES` (the names
are the bots'; a test checks the codes against them). The order of the draws is the bots'
contract (bots/playouts.py): one SplitMix64 stream; DRAW one uniform, the
int(u * remaining)-th lowest domino; ORDER int(u * orders); random legal[int(u * n)];
greedy one uniform only for 2+ tied best actions; epsilon-greedy u < epsilon -> random.
Greedy values are `KingdominoHeuristics.evaluate` through the rest of the turn, found with
territory labels: the gain of a placement only involves the territories next to its two
squares.

Every function takes kernel.py's three bundles: kingdoms = (rows, grid, crowns, info),
tables = (cfg, dominoes, orders) and the scratch `work` (kernel.work_arrays). numba compiles
the kernel's functions into these (the machine code is the same as when they shared one
module), and its disk cache checks only this file: after changing kernel.py, delete the
`__pycache__` numba files (*.nbi, *.nbc) of this package, as for batch_kernel.py.

Versions: 1, the first (moved out of kernel.py, move for move; mirrors Kingdomino rules
version 1, every option including dynasty).
"""

from __future__ import annotations

from typing import Any

from kingdomkit.games.compiling import Array, entry, jit, jit_inline, uniform
from kingdomkit.games.kingdomino.kernel import (
    CLAIMED,
    DISCARD,
    EMPTY_VALUE,
    GAME,
    GAMES,
    KINGS,
    LINE,
    NLINE,
    NO_VALUE,
    NPLACERS,
    ORDER_AT,
    ORDERS,
    PHASE,
    PLACERS,
    PLACING,
    TURN,
    best_gain,
    claim,
    copy_into,
    current_player,
    draw,
    final_results,
    kingdom_score,
    legal_placements,
    place,
    place_move,
    unplace,
    work_arrays,
)
from kingdomkit.games.kingdomino.state import CLAIM, DRAW, ORDER, OVER, PLACE, UNCLAIMED

# The policies' codes: their places in kingdomkit.bots.playouts.POLICIES.
RANDOM, GREEDY, EPSILON_GREEDY, PLAYER_GREEDY = 0, 1, 2, 3


@jit
def pending_sum(st: Array, p: int, first: int, kingdoms: Any, tables: Any, work: Any) -> int:
    """The best gains of the dominoes p has claimed in the line (slot `memo[0]`, when >= 0,
    counted as claimed by p) and of `placing[first:]` that are p's, in p's labelled
    kingdom. `memo[1 + number]` keeps the gains found so far (-1: not yet)."""
    rows, grid, _, info = kingdoms
    cfg, dominoes, _ = tables
    lanes, labels, terr, seen, memo = work[0], work[4], work[5], work[6], work[7]
    total = 0
    extra = memo[0]
    for i in range(st[NLINE] + max(0, st[NPLACERS] - first)):
        if i < st[NLINE]:
            if not (st[CLAIMED + i] == p or i == extra):
                continue
            number = st[LINE + i]
        else:
            j = first + i - st[NLINE]
            if st[PLACERS + j] != p:
                continue
            number = st[PLACING + j]
        if memo[1 + number] < 0:
            memo[1 + number] = best_gain(
                rows, grid, info, p, number, dominoes, cfg, lanes, labels, terr, seen
            )
        total += memo[1 + number]
    return int(total)


@jit
def after_place_value(st: Array, p: int, kingdoms: Any, tables: Any, work: Any) -> int:
    """`evaluate` through the rest of p's turn once its domino is in (greedy's `_turn_value`):
    the best claim after it, or the state reached when there is no line to claim from."""
    _, grid, crowns, info = kingdoms
    cfg = tables[0]
    memo = work[7]
    turn = st[TURN]
    base = kingdom_score(grid, crowns, info, p, cfg, work[4], work[5])
    memo[:] = -1
    if st[NLINE] == 0:
        if turn + 1 < st[NPLACERS]:
            return base + pending_sum(st, p, turn + 1, kingdoms, tables, work)
        if st[GAME] + 1 < cfg[GAMES]:
            return int(cfg[EMPTY_VALUE])  # a dynasty's next game starts with empty kingdoms
        return base
    best = NO_VALUE
    for slot in range(st[NLINE]):
        if st[CLAIMED + slot] == UNCLAIMED:
            memo[0] = slot
            best = max(best, base + pending_sum(st, p, turn + 1, kingdoms, tables, work))
    return best


@jit_inline
def random_action(st: Array, rng: Array, kingdoms: Any, tables: Any, work: Any) -> int:
    """A uniform legal action: a placement code (-1 the discard) or a slot to claim."""
    return random_move(st, rng, kingdoms[0], kingdoms[3], tables[0], tables[1], work[0], work[1])


@jit_inline
def random_move(
    st: Array,
    rng: Array,
    rows: Array,
    info: Array,
    cfg: Array,
    dominoes: Array,
    lanes: Array,
    codes: Array,
) -> int:
    """`random_action` on the bundles' arrays (a loop that unpacks them once calls this)."""
    u = uniform(rng)
    if st[PHASE] == PLACE:
        p = st[PLACERS + st[TURN]]
        number = st[PLACING + st[TURN]]
        count = legal_placements(rows, info, p, number, dominoes, cfg, lanes, codes)
        if count == 0:
            return DISCARD
        return int(codes[int(u * count)])
    free = 0
    for slot in range(st[NLINE]):
        if st[CLAIMED + slot] == UNCLAIMED:
            free += 1
    pick = int(u * free)
    for slot in range(st[NLINE]):
        if st[CLAIMED + slot] == UNCLAIMED:
            if pick == 0:
                return slot
            pick -= 1
    return -1


@jit
def greedy_action(st: Array, rng: Array, kingdoms: Any, tables: Any, work: Any) -> int:
    """`bots.greedy.greedy_action`: the best `evaluate` at the end of the turn, ties in action
    order broken by one uniform (drawn only for 2+ ties)."""
    rows, grid, crowns, info = kingdoms
    cfg, dominoes, _ = tables
    codes, ties, memo, box = work[1], work[3], work[7], work[8]
    turn = st[TURN]
    p = current_player(st)
    best = NO_VALUE
    tied = 0
    if st[PHASE] == PLACE:
        number = st[PLACING + turn]
        count = legal_placements(rows, info, p, number, dominoes, cfg, work[0], codes)
        if count == 0:
            return DISCARD
        if count == 1:
            return int(codes[0])
        for i in range(4):
            box[i] = info[p, i]
        for i in range(count):
            code = codes[i]
            place(rows, grid, crowns, info, p, code, number, dominoes, cfg)
            value = after_place_value(st, p, kingdoms, tables, work)
            unplace(rows, grid, crowns, info, p, code, number, dominoes, cfg, box)
            if value > best:
                best = value
                tied = 0
            if value == best:
                ties[tied] = code
                tied += 1
    else:
        free = 0
        for slot in range(st[NLINE]):
            if st[CLAIMED + slot] == UNCLAIMED:
                codes[free] = slot
                free += 1
        if free == 1:
            return int(codes[0])
        base = kingdom_score(grid, crowns, info, p, cfg, work[4], work[5])
        memo[:] = -1
        # After the claim the next king acts: placing[turn + 1:] is still to be placed.
        first = turn + 1 if st[NPLACERS] > 0 else 0
        for i in range(free):
            memo[0] = codes[i]
            value = base + pending_sum(st, p, first, kingdoms, tables, work)
            if value > best:
                best = value
                tied = 0
            if value == best:
                ties[tied] = codes[i]
                tied += 1
    if tied > 1:
        return int(ties[int(uniform(rng) * tied)])
    return int(ties[0])


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
    # Unpacked once: each unpacking in the loop would count references anew.
    rows, grid, crowns, info = kingdoms
    cfg, dominoes, orders = tables
    lanes, codes, labels, terr = work[0], work[1], work[4], work[5]
    while True:
        phase = st[PHASE]
        if phase == OVER:
            return
        if phase == DRAW:
            draw(st, uniform(rng), cfg)
            continue
        if phase == ORDER:
            index = int(uniform(rng) * cfg[ORDERS])
            for i in range(cfg[KINGS]):
                st[ORDER_AT + i] = orders[index, i]
            st[PHASE] = CLAIM
            st[TURN] = 0
            continue
        greedy = policy == GREEDY
        if policy == EPSILON_GREEDY:
            greedy = not uniform(rng) < epsilon
        elif policy == PLAYER_GREEDY:
            greedy = current_player(st) == searcher
        if greedy:
            action = greedy_action(st, rng, kingdoms, tables, work)
        else:
            action = random_move(st, rng, rows, info, cfg, dominoes, lanes, codes)
        if phase == PLACE:
            place_move(st, action, rows, grid, crowns, info, cfg, dominoes, labels, terr)
        else:
            claim(st, action, cfg)


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
    """`len(scores)` playouts from the state `start` = (st, rows, grid, crowns, info); the
    stream of uniforms (SplitMix64 from `seed[0]`) goes on from one playout to the next and
    its state is left in `seed[0]`."""
    st0, rows0, grid0, crowns0, info0 = start
    kingdoms = (rows0.copy(), grid0.copy(), crowns0.copy(), info0.copy())
    work = work_arrays(tables[0], grid0.shape[1])
    play_outs(
        start, st0.copy(), kingdoms, tables, work, policy, searcher, epsilon, seed, scores, returns
    )


@jit
def play_outs(
    start: Any,
    st: Array,
    kingdoms: Any,
    tables: Any,
    work: Any,
    policy: int,
    searcher: int,
    epsilon: float,
    rng: Array,
    scores: Array,
    returns: Array,
) -> None:
    """`playouts` on its copies of the start (`st`, `kingdoms`) and scratch, compiled without
    reference counting (compiling.jit): it allocates nothing."""
    st0, rows0, grid0, crowns0, info0 = start
    rows, grid, crowns, info = kingdoms
    for k in range(scores.shape[0]):
        copy_into(st, st0)
        copy_into(rows, rows0)
        copy_into(grid, grid0)
        copy_into(crowns, crowns0)
        copy_into(info, info0)
        play_out(st, kingdoms, tables, work, policy, searcher, epsilon, rng)
        final_results(st, kingdoms, tables, work, scores[k], returns[k])
