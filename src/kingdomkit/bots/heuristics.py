"""What a game tells its bots beyond the rules (a game's `heuristics` capability).

The rules say what is legal and who won; a bot that stops before the end, or looks only one
turn ahead, also needs to know what a position is worth and where a turn ends. A game gives
that as a `Heuristics` object (its package's heuristics.py, named in its shape); a game that
gives none is played with `Plain`: the score as the value, no playouts in Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from kingdomkit.bots.grading import Grading
from kingdomkit.core.protocol import Game
from kingdomkit.core.registry import shape_of
from kingdomkit.core.shape import capability


class Heuristics(Protocol):
    """A game's knowledge for search and greedy bots (see `Plain` for the defaults)."""

    def evaluate(self, state: Any, player: int) -> float:
        """A heuristic value of `state` for `player`: what a greedy bot maximises."""
        ...

    def forecast(self, state: Any, player: int) -> float:
        """An estimate of `player`'s final score, for search bots that stop before the end
        (`evaluate` says what the position is worth now; this may add what it will bring
        later, such as Queendomino's knights and coins)."""
        ...

    def playout_depth(self) -> int | None:
        """How far a search bot's simulations go when the game has no compiled playouts
        (with them, they always play to the end): None to the end, with greedy moves; D > 0
        that many decisions, then `forecast`; 0 no playout, the new position's `forecast` at
        once, since pure-Python greedy playouts are too slow for most games."""
        ...

    def is_draft(self, state: Any) -> bool:
        """True when the player to act picks what it will have later rather than changing
        its position now (Kingdomino's claims); the "greedy placement, random draft" bot
        plays these at random."""
        ...

    def grading(self, players: int) -> Grading | None:
        """The analyst of hints and reviews with `players`, and the losses that make a move a
        mistake or a blunder, as measured (docs/bots.md); None when not measured."""
        ...

    def turn_continues(self, before: Any, after: Any) -> bool:
        """True when `after` is still the same player's turn (the next micro-action of one
        compound turn); bots that look one turn ahead stop where this is False."""
        ...

    def levels(self) -> Mapping[str, str]:
        """This game's own specs for some levels (bots/levels.py), where the general ones
        do not stand in order of strength here (as measured, docs/strength.md)."""
        ...


class Plain:
    """The heuristics of a game that declares none: the score is the value and the
    forecast, no playouts in Python, no drafts, and a turn lasts while the same player is
    still to act."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def evaluate(self, state: Any, player: int) -> float:
        return self.game.scores(state)[player]

    def forecast(self, state: Any, player: int) -> float:
        return self.evaluate(state, player)

    def playout_depth(self) -> int | None:
        return 0

    def is_draft(self, state: Any) -> bool:
        return False

    def grading(self, players: int) -> Grading | None:
        return None

    def turn_continues(self, before: Any, after: Any) -> bool:
        player = self.game.current_player(before)
        return player >= 0 and self.game.current_player(after) == player

    def levels(self) -> Mapping[str, str]:
        return {}


def heuristics(game: Game[Any]) -> Heuristics:
    """The heuristics of the configured `game`: its shape's, else `Plain`; made once per
    game (bind it outside a hot loop: the lookup costs a few dictionary reads)."""
    provider = shape_of(game).capabilities.heuristics
    made = capability(game, "heuristics", provider if provider is not None else Plain)
    assert made is not None  # a provider was given
    return made
