"""Queendomino's options and the set-up they give (rulebook "Set up" and "Variations with
Kingdomino"; the issue's player counts).

    mode                 players  realms  kings  line  lines  boxes       frame
    Queendomino          2        2       4      4     12     Q           7x7
                         3, 4     3, 4    3, 4   4     12     Q           5x5
    Royal Wedding        3, 4     3, 4    3, 4   4     24     Q, K, ...   7x7
                         5 .. 8   5 .. 8  5 .. 8 8     12     Q, K, ...   5x5
    Royal Wedding teams  6, 8     3, 4    6, 8   8     12     Q, K, ...   7x7

A realm is one kingdom with its coins, knights and towers: a player's, or a team's. In team
play players 2t and 2t + 1 form team t and share realm t; each player has their own king.
Unclaimed dominoes of a line (lines longer than the kings) are discarded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import read_flags
from kingdomkit.core.shape import Variant

TITLE = "Queendomino"
# Each option as the rules print it, for people choosing a set-up.
VARIANTS = (
    Variant(
        "royal_wedding",
        "Royal Wedding",
        "Queendomino and Kingdomino together: 3 to 8 players, more dominoes",
    ),
    Variant("teams", "Teams", "the Royal Wedding for 6 or 8: partners share one kingdom"),
)
FLAGS = tuple(variant.option for variant in VARIANTS)
NAMES = {variant.option: variant.name for variant in VARIANTS}
FILE_OPTIONS = ("buildings",)
BOX_DOMINOES = 48


@dataclass(frozen=True)
class Setup:
    """Everything the options decide."""

    players: int
    royal_wedding: bool = False
    teams: bool = False
    buildings: str | None = None  # a corrected building table (path); None: the shipped one

    @property
    def realms(self) -> int:
        return self.players // 2 if self.teams else self.players

    def realm_of(self, player: int) -> int:
        return player // 2 if self.teams else player

    @property
    def kings(self) -> int:
        return 4 if self.players == 2 else self.players

    @property
    def king_owners(self) -> tuple[int, ...]:
        """The owner of each king (2 players: two kings each)."""
        return tuple(king % self.players for king in range(self.kings))

    @property
    def line_size(self) -> int:
        return 8 if self.royal_wedding and self.players >= 5 else 4

    @property
    def boxes(self) -> int:
        return 2 if self.royal_wedding else 1

    @property
    def lines(self) -> int:
        return self.boxes * BOX_DOMINOES // self.line_size

    @property
    def size(self) -> int:
        if self.royal_wedding:
            return 7 if self.teams or self.players <= 4 else 5
        return 7 if self.players == 2 else 5

    def to_options(self) -> dict[str, Any]:
        """The options as records store them: players, the flags that are on, the table."""
        options: dict[str, Any] = {"players": self.players}
        options.update({flag: True for flag in FLAGS if getattr(self, flag)})
        if self.buildings is not None:
            options["buildings"] = self.buildings
        return options


def parse_options(options: Mapping[str, Any]) -> Setup:
    """The set-up for `options`; raises OptionError naming what is wrong."""
    flags = read_flags("Queendomino", options, FLAGS, ("players", *FLAGS, *FILE_OPTIONS))
    wedding, teams = flags["royal_wedding"], flags["teams"]
    players = options.get("players", 4)
    teams_name, wedding_name = NAMES["teams"], NAMES["royal_wedding"]
    if isinstance(players, bool) or not isinstance(players, int):
        raise OptionError(f"the number of players must be a whole number, not {players!r}")
    if teams and not wedding:
        raise OptionError(
            "teams is a Royal Wedding mode: add the royal_wedding option",
            f"{teams_name} is a way to play the {wedding_name}: choose the {wedding_name} too",
        )
    if teams and players not in (6, 8):
        raise OptionError(
            f"the Royal Wedding in teams is for 6 or 8 players, not {players}",
            f"{teams_name} is for 6 or 8 players",
        )
    if wedding and not 3 <= players <= 8:
        raise OptionError(
            f"the Royal Wedding is for 3 to 8 players, not {players}",
            f"the {wedding_name} is for 3 to 8 players",
        )
    if not wedding and not 2 <= players <= 4:
        raise OptionError(
            f"Queendomino is for 2 to 4 players, not {players} (5 to 8: add royal_wedding)",
            f"Queendomino is for 2 to 4 players; 5 to 8 play the {wedding_name}",
        )
    buildings = options.get("buildings")
    if buildings is not None and (not isinstance(buildings, str) or not buildings.strip()):
        raise OptionError(f"option 'buildings' is the path of a table file, not {buildings!r}")
    return Setup(players, wedding, teams, buildings)
