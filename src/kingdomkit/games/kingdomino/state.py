"""Kingdomino's state: a frozen value, its phases, and the distinct king orders.

See rules.py for the state machine that moves between phases.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from typing import NamedTuple

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import NUM_DOMINOES

DRAW, ORDER, CLAIM, PLACE, OVER = range(5)
PHASE_NAMES = ("draw", "order", "claim", "place", "over")
CLAIMS = 4
ALL_DOMINOES = (1 << NUM_DOMINOES) - 1
UNCLAIMED = -1


class KingdominoState(NamedTuple):
    """A Kingdomino position. Frozen; build new ones with `apply`."""

    phase: int
    lines_drawn: int  # lines completed so far in this game
    deck: int  # bit n - 1 set while domino n may still be drawn
    line: tuple[int, ...]  # the newest line, ascending (partial while drawing)
    claims: tuple[int, ...]  # owner of the king on each slot of `line`, or UNCLAIMED
    placing: tuple[int, ...]  # the previous line's claimed dominoes, in line order
    placers: tuple[int, ...]  # their owners, who act in this order
    turn: int  # the king to act: into `order` in the first round, else into `placers`
    order: tuple[int, ...]  # owners of the kings in shuffled order (first line)
    kingdoms: tuple[kd.Kingdom, ...]
    game_number: int  # 0, 1, 2 in a dynasty
    past_scores: tuple[tuple[int, ...], ...]  # scores of finished games of a dynasty


@cache
def king_orders(players: int, kings: int) -> tuple[tuple[int, ...], ...]:
    """The distinct orders of the kings' owners, sorted (2 players: 6 orders of 0, 0, 1, 1)."""
    owners = tuple(king % players for king in range(kings))
    return tuple(sorted(set(permutations(owners))))
