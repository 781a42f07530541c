"""Kingdoms' action layout (198 actions), shared by the rules, the codec and the records.

0 .. 119     place a castle: (rank - 1) * 30 + space
120          draw a tile from the supply
121 .. 150   place the starting tile: 121 + space
151 .. 180   place the tile drawn or taken: 151 + space
181 .. 196   no_luck: take a face-up tile of type t: 181 + t
197          pass
"""

from __future__ import annotations

from kingdomkit.games.kingdoms.board import SPACES
from kingdomkit.games.kingdoms.tiles import RANKS, TYPES

CASTLE_BASE = 0
DRAW_ACTION = RANKS * SPACES
START_BASE = DRAW_ACTION + 1
PLACE_BASE = START_BASE + SPACES
TAKE_BASE = PLACE_BASE + SPACES
PASS_ACTION = TAKE_BASE + len(TYPES)
NUM_ACTIONS = PASS_ACTION + 1


def castle_action(rank: int, space: int) -> int:
    return CASTLE_BASE + (rank - 1) * SPACES + space
