"""Kingdoms' state: a frozen value and its phases (rules.py moves between them).

The last two fields remember what has been (the spaces filled this epoch in order, each scored
epoch's last board): the rules never read them; the score sheets (sheets.py) of the browser's
view model (view.py) do. What the latest decision did is the server's to tell
(`KingdomsBoard.last_model`, from the decision and the positions around it).

Secrets: the order of the face-down supply is never stored (each draw is a chance node when
the tile is revealed); each player's starting tile is. A view (`Kingdoms.view`) replaces what
its viewer may not see by HIDDEN and adds those tiles back into `supply`, which then counts
every tile the viewer has not seen; the supply's size stays known to all.
"""

from __future__ import annotations

from typing import NamedTuple

FIRST, DEAL, PLAY, DRAW, PLACE, OVER = range(6)
PHASE_NAMES = ("first", "deal", "play", "draw", "place", "over")
NO_TILE = -1
HIDDEN = -2  # a tile this view may not see


class KingdomsState(NamedTuple):
    """A Kingdoms position. Frozen; build new ones with `apply`."""

    phase: int
    epoch: int  # 0, 1, 2 (more with down_to_the_last_castle)
    board: tuple[int, ...]  # 30 squares (board.py)
    supply: tuple[int, ...]  # tiles by type in the face-down supply (a view: all unseen ones)
    starting: tuple[int, ...]  # each player's starting tile: a type, NO_TILE, or HIDDEN
    castles: tuple[tuple[int, ...], ...]  # each player's castles in hand, rank 1 .. 4
    gold: tuple[int, ...]
    first: int  # the player who starts the epoch
    turn: int  # the player to act (PLAY, DRAW, PLACE) or to be dealt a tile (DEAL)
    held: int  # PLACE: the tile drawn (or taken), to be placed; else NO_TILE
    scored: int  # bit i: line i (board.LINES) has scored this epoch
    # What has been, for the score sheets (never the rules):
    placed: tuple[int, ...] = ()  # the spaces filled this epoch, in order
    past: tuple[Scored, ...] = ()  # every epoch scored so far


class Scored(NamedTuple):
    """An epoch as it was scored: its last board and the order its spaces filled (with
    score_as_you_go a line paid when it filled, before later wizards stood by its castles)."""

    board: tuple[int, ...]
    placed: tuple[int, ...]
