"""Kingdomino's options and the set-up they give (rulebook "Setup" and "Additional rules";
online rules "Three player", "Two player", "The Mighty Duel").

    players  kings  line  lines  dominoes used  frame
    2        4      4     6      24 of 48       5x5    (mighty_duel: 12 lines, all 48, 7x7)
    3        3      3     12     36 of 48       5x5    (draw_four: lines of 4, all 48)
    4        4      4     12     48             5x5

Removing dominoes at random before the game and drawing lines from the rest is the same as
drawing lines from all 48 and stopping early, so the engine draws from all 48 and never
reveals the ones a physical game would have set aside.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import read_flags
from kingdomkit.core.shape import Variant

TITLE = "Kingdomino"
# Each option as the rules print it, for people choosing a set-up (docs/rules-notes.md).
VARIANTS = (
    Variant("mighty_duel", "Mighty Duel", "2 players build 7x7 kingdoms with all 48 dominoes"),
    Variant("middle_kingdom", "The Middle Kingdom", "10 more points for a castle in the centre"),
    Variant("harmony", "Harmony", "5 more points for a kingdom with no domino discarded"),
    Variant("dynasty", "Dynasty", "three games in a row; the totals decide"),
    Variant("draw_four", "Draw Four", "3 players draw lines of 4; the one left is discarded"),
)
FLAGS = tuple(variant.option for variant in VARIANTS)
NAMES = {variant.option: variant.name for variant in VARIANTS}
DYNASTY_GAMES = 3


@dataclass(frozen=True)
class Setup:
    """Everything the options decide."""

    players: int
    mighty_duel: bool = False
    middle_kingdom: bool = False
    harmony: bool = False
    dynasty: bool = False
    draw_four: bool = False

    @property
    def kings(self) -> int:
        return 4 if self.players == 2 else self.players

    @property
    def line_size(self) -> int:
        return 3 if self.players == 3 and not self.draw_four else 4

    @property
    def lines(self) -> int:
        return 6 if self.players == 2 and not self.mighty_duel else 12

    @property
    def size(self) -> int:
        return 7 if self.mighty_duel else 5

    @property
    def games(self) -> int:
        return DYNASTY_GAMES if self.dynasty else 1

    def to_options(self) -> dict[str, Any]:
        """The options as records store them: players, then the flags that are on."""
        options: dict[str, Any] = {"players": self.players}
        options.update({flag: True for flag in FLAGS if getattr(self, flag)})
        return options


def parse_options(options: Mapping[str, Any]) -> Setup:
    """The set-up for `options`; raises OptionError naming what is wrong."""
    flags = read_flags("Kingdomino", options, FLAGS, ("players", *FLAGS))
    players = options.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise OptionError(f"Kingdomino is for 2 to 4 players, not {players!r}")
    if flags["mighty_duel"] and players != 2:
        raise OptionError(
            "mighty_duel is a 2-player variant", f"{NAMES['mighty_duel']} is for 2 players"
        )
    if flags["draw_four"] and players != 3:
        raise OptionError("draw_four is a 3-player rule", f"{NAMES['draw_four']} is for 3 players")
    return Setup(players, **flags)
