"""Queendomino's state: a frozen value, its realms, and its phases.

A realm is one kingdom with the coins, knights, buildings and towers that go with it (a
player's, or a team's in team play). See rules.py for the state machine.
"""

from __future__ import annotations

from typing import NamedTuple

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.geometry import Bitboard, Cell

DRAW, BOARD, ORDER, CLAIM, PLACE, TAX, BUILD, SITE, DRAGON, OVER = range(10)
PHASE_NAMES = (
    "draw",
    "board",
    "order",
    "claim",
    "place",
    "tax",
    "build",
    "site",
    "dragon",
    "over",
)
MAX_LINE = 8  # the longest line (Royal Wedding, 5 to 8 players)
PLACE_BASE = MAX_LINE  # the first place action (after the claims)
SPACES = 6  # the Builders' Board; a space's index is its price (rulebook: 0 .. 5)
EMPTY = -1  # an empty space of the Builders' Board
UNCLAIMED = -1
NOBODY = -1  # the Queen before anyone has a tower
KNIGHTS = 22  # the supply (rulebook "Contents"), starting knights included
TOWERS = 15
START_COINS = 7
START_KNIGHTS = 1
BOTH_SQUARES = 3  # `knighted` when no square of this turn's domino can take a knight


class Realm(NamedTuple):
    """One kingdom and its economy."""

    kingdom: kd.Kingdom  # town crowns come from buildings, added on their squares
    coins: int
    guard: int  # knights not yet sent out
    knights: Bitboard  # squares holding a knight (one at most each)
    buildings: tuple[tuple[int, Cell], ...]  # (building index, square), in build order
    sites: Bitboard  # town squares holding a building
    towers: int

    @property
    def knights_owned(self) -> int:
        """Knights in the kingdom and in the guard (rulebook: "used and unused")."""
        return self.guard + self.knights.bit_count()


class QueendominoState(NamedTuple):
    """A Queendomino position. Frozen; build new ones with `apply`."""

    phase: int
    lines_drawn: int  # lines completed so far
    deck: int  # bit i set while domino id i may still be drawn
    line: tuple[int, ...]  # the newest line, domino ids ascending (partial while drawing)
    claims: tuple[int, ...]  # the player whose king is on each slot of `line`, or UNCLAIMED
    placing: tuple[int, ...]  # the previous line's claimed dominoes, in line order
    placers: tuple[int, ...]  # their kings' owners, who act in this order
    turn: int  # into `order` in the first round, else into `placers`
    order: tuple[int, ...]  # the first line's king order (owners), drawn one by one
    realms: tuple[Realm, ...]
    board: tuple[int, ...]  # building index on each space (index = price), or EMPTY
    pile: int  # bit b set while building b is face down in the draw pile (not the top)
    dragon_ready: bool  # the Dragon is in its cave
    queen: int  # the realm hosting the Queen, or NOBODY
    knighted: int  # this turn's domino: bit 0 square 1 has a knight, bit 1 square 2
    chosen: int  # SITE: the space of the building being built; else EMPTY
    top: int  # the pile's top tile, face up for all to see (rulebook), or EMPTY
