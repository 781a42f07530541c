"""Knizia's Kingdoms options (rulebook "Setup" and "Game Variants").

    players                  2, 3 or 4; rank-1 castles by player count (castles data file)
    down_to_the_last_castle  every castle of the colour; all castles leave the board after
                             each epoch; the game ends after the epoch in which a player
                             placed their last castle
    no_luck                  the tiles lie face up; no starting tiles; a player picks the
                             tile to place
    score_as_you_go          each row and column scores as soon as it is full

All three combine (docs/rules-notes.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import read_flags
from kingdomkit.core.shape import Variant
from kingdomkit.games.kingdoms.tiles import ALL_CASTLES, CASTLES

TITLE = "Kingdoms"
# Each option as the rules print it ("Game Variants"), for people choosing a set-up.
VARIANTS = (
    Variant(
        "down_to_the_last_castle",
        "Down to the Last Castle",
        "every castle of your colour; the game ends when someone has placed their last",
    ),
    Variant("no_luck", "No Luck", "the tiles lie face up and you choose which to place"),
    Variant("score_as_you_go", "Score as You Go", "a row or column scores as soon as it is full"),
)
FLAGS = tuple(variant.option for variant in VARIANTS)
UNIT = "gold"  # what a score counts
EPOCHS = 3
START_GOLD = 50


@dataclass(frozen=True)
class Setup:
    players: int
    down_to_the_last_castle: bool = False
    no_luck: bool = False
    score_as_you_go: bool = False

    @property
    def castles(self) -> tuple[int, ...]:
        """Castles of rank 1 .. 4 each player starts with."""
        return ALL_CASTLES if self.down_to_the_last_castle else CASTLES[self.players]

    def to_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"players": self.players}
        options.update({flag: True for flag in FLAGS if getattr(self, flag)})
        return options


def parse_options(options: Mapping[str, Any]) -> Setup:
    flags = read_flags("Kingdoms", options, FLAGS, ("players", *FLAGS))
    players = options.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int) or players not in CASTLES:
        raise OptionError(f"Kingdoms is for 2 to 4 players, not {players!r}")
    return Setup(players, **flags)
