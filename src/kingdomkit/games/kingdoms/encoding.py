"""Kingdoms' observation encoding: a position as one player sees it, as fixed-shape numpy arrays
for learning (its `observation` capability, kingdomkit.rl.observation), and its four
symmetries. Always encoded from the player's view, so the other players' starting tiles and a
tile another player has drawn never show.

Version 1. P = players, seat i is player (observer + i) % P; the board is 5 rows x 6 columns
(plane element [row, column]); tile types in the order of tiles.py (+1 .. +6, -1 .. -6,
mountain, dragon, gold mine, wizard).

    board     (19 + 4P, 5, 6) int8   planes:
                                       0..15       a tile of that type
                                       16 + 4i + k a castle of seat i, printed rank k + 1
                                       16 + 4P     an empty space
                                       17 + 4P     the tile's value (resources +1..+6,
                                                   hazards -1..-6, 0 otherwise)
                                       18 + 4P     a castle's rank with its wizard (printed
                                                   rank + 1 per wizard next to it)
    tiles     (3, 16) uint8          row 0 the observer's own starting tile (one-hot, zeros
                                     when none); row 1 the tile being placed when the
                                     observer may see it (one-hot); row 2 by type, the tiles
                                     the observer has not seen (in the supply, another
                                     player's starting tile or hand)
    seats     (P, 8) int16           per seat: gold, castles in hand of rank 1..4, holds a
                                     starting tile still to place, starts this epoch (once
                                     drawn), acts now
    counters  (20,) int16            phase one-hot (first, deal, play, draw, place, over),
                                     epoch (0 first), tiles face down in the supply, a tile
                                     drawn by another player waits to be placed (unseen),
                                     then 1 for each line already scored this epoch (rows 1..5,
                                     columns 1..6)

Actions are the game's own (actions.py). Symmetries: a row and a column score the same read
either way, and a wizard helps its neighbours whatever the direction, so mirroring the board
left to right, top to bottom, or both is a symmetry (4 with the identity); actions on a space
move with it, and so do the lines already scored.

Versions: 1, the first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.actions import (
    CASTLE_BASE,
    PLACE_BASE,
    START_BASE,
)
from kingdomkit.games.kingdoms.state import DEAL, DRAW, HIDDEN, PHASE_NAMES, PLACE, PLAY
from kingdomkit.games.kingdoms.tiles import FULL_SUPPLY, RANKS, TYPES
from kingdomkit.rl.observation import ArraySpec, Observation, Symmetry

if TYPE_CHECKING:
    from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState

VERSION = 1
SEAT_FEATURES = 8
INT16_MIN, INT16_MAX = -32768, 32767
MIRRORS = ((False, False), (False, True), (True, False), (True, True))  # (rows, columns)
Array = NDArray[Any]


class KingdomsEncoder:
    """The encoding for one configured game."""

    version = VERSION  # the layout: Observer.version

    def __init__(self, game: Kingdoms) -> None:
        self.game = game
        self.players = game.num_players
        self.empty_plane = len(TYPES) + RANKS * self.players
        self.values = np.array(bd.TILE_VALUES, np.int8)

    def spec(self) -> dict[str, ArraySpec]:
        p = self.players
        return {
            "board": ArraySpec((self.empty_plane + 3, bd.ROWS, bd.COLUMNS), "int8", -6, 8),
            "tiles": ArraySpec((3, len(TYPES)), "uint8", 0, max(FULL_SUPPLY)),
            "seats": ArraySpec((p, SEAT_FEATURES), "int16", INT16_MIN, INT16_MAX),
            "counters": ArraySpec((len(PHASE_NAMES) + 3 + len(bd.LINES),), "int16", 0, 255),
        }

    def observe(self, state: KingdomsState, player: int) -> Observation:
        from kingdomkit.games.kingdoms.rules import supply_size

        game = self.game
        seen = game.view(state, player)
        p = self.players
        tiles = np.zeros((3, len(TYPES)), np.uint8)
        if seen.starting[player] >= 0:
            tiles[0, seen.starting[player]] = 1
        if seen.phase == PLACE and seen.held >= 0:
            tiles[1, seen.held] = 1
        tiles[2] = seen.supply
        seats = np.zeros((p, SEAT_FEATURES), np.int16)
        for i in range(p):
            other = (player + i) % p
            seats[i, 0] = seen.gold[other]
            seats[i, 1 : 1 + RANKS] = seen.castles[other]
            seats[i, 5] = seen.starting[other] != -1
            seats[i, 6] = seen.first == other and seen.phase in (DEAL, PLAY, DRAW, PLACE)
            seats[i, 7] = seen.turn == other and game.current_player(seen) == other
        counters = np.zeros(len(PHASE_NAMES) + 3 + len(bd.LINES), np.int16)
        counters[seen.phase] = 1
        counters[len(PHASE_NAMES)] = seen.epoch
        counters[len(PHASE_NAMES) + 1] = supply_size(seen)
        counters[len(PHASE_NAMES) + 2] = seen.held == HIDDEN
        for line in range(len(bd.LINES)):
            counters[len(PHASE_NAMES) + 3 + line] = seen.scored >> line & 1
        return {
            "board": self._board(seen.board, player),
            "tiles": tiles,
            "seats": seats,
            "counters": counters,
        }

    def _board(self, board: tuple[int, ...], player: int) -> Array:
        p = self.players
        planes = np.zeros((self.empty_plane + 3, bd.SPACES), np.int8)
        empty, value, rank = self.empty_plane, self.empty_plane + 1, self.empty_plane + 2
        for space, square in enumerate(board):
            if square == bd.EMPTY:
                planes[empty, space] = 1
            elif bd.is_castle(square):
                seat = (bd.castle_owner(square) - player) % p
                planes[len(TYPES) + RANKS * seat + bd.castle_rank(square) - 1, space] = 1
                planes[rank, space] = bd.rank_at(board, space)
            else:
                planes[square, space] = 1
                planes[value, space] = self.values[square]
        return planes.reshape(-1, bd.ROWS, bd.COLUMNS)

    # -- symmetries ------------------------------------------------------------------------
    def symmetries(self, observation: Observation, action_mask: Array) -> list[Symmetry]:
        found = []
        first_line = len(PHASE_NAMES) + 3
        for mirror, actions in zip(MIRRORS, mirror_maps(len(action_mask)), strict=True):
            rows, columns = mirror
            image = dict(observation)
            board = observation["board"]
            if rows:
                board = board[:, ::-1, :]
            if columns:
                board = board[:, :, ::-1]
            image["board"] = board.copy()
            counters = observation["counters"].copy()
            counters[first_line + mirror_lines(mirror)] = observation["counters"][first_line:]
            image["counters"] = counters
            mask = np.zeros_like(action_mask)
            mask[actions] = action_mask
            found.append(Symmetry(image, mask, actions))
        return found


def mirror_lines(mirror: tuple[bool, bool]) -> Array:
    """The image of each line (board.LINES: rows, then columns) in a mirrored board."""
    rows, columns = mirror
    row_lines = list(range(bd.ROWS))[::-1] if rows else list(range(bd.ROWS))
    column_lines = list(range(bd.COLUMNS))[::-1] if columns else list(range(bd.COLUMNS))
    return np.array(row_lines + [bd.ROWS + c for c in column_lines])


def mirror_maps(num_actions: int) -> list[Array]:
    """For each mirror of MIRRORS, the image of every action: castles and tiles placed on a
    space go to the mirrored space; drawing, taking and passing stay."""
    maps = []
    for rows, columns in MIRRORS:
        image = np.arange(num_actions)
        for space in range(bd.SPACES):
            row, column = divmod(space, bd.COLUMNS)
            if rows:
                row = bd.ROWS - 1 - row
            if columns:
                column = bd.COLUMNS - 1 - column
            mirrored = bd.space(row, column)
            for base in (
                *(CASTLE_BASE + rank * bd.SPACES for rank in range(RANKS)),
                START_BASE,
                PLACE_BASE,
            ):
                image[base + space] = base + mirrored
        maps.append(image)
    return maps
