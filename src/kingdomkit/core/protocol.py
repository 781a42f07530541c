"""The game protocol: what every game offers to bots, drivers, records and servers.

A `Game` is a configured rule set (a game with its options); a state is a frozen value. All
transitions are pure: `apply(state, action)` returns a new state and never changes the old one,
so states can be cached, shared and compared with `==`.

    current_player(state)
        >= 0       a player must decide: legal_actions(state) is a sorted tuple of ints
                   in [0, num_actions)
        CHANCE     nature moves: chance_outcomes(state) lists (outcome, probability);
                   the driver (never the state) samples one and applies it
        TERMINAL   the game is over: returns(state) and scores(state) are final

Chance outcomes are ints too, in their own range [0, num_chance_outcomes); what they mean depends
on the phase (a domino drawn, a king order). Every random draw is made when it is revealed, so no
search can peek at a shuffled future.

Two paths into a state, as in python-chess: `apply` trusts its caller (bots, rollouts);
`apply_checked` and `parse_action` are for people and files, and raise `IllegalActionError`
with a message that says what is wrong.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from kingdomkit.core.sides import alone

CHANCE = -1
TERMINAL = -2

S = TypeVar("S")
Event = dict[str, Any]
T = TypeVar("T")


def narrowed(value: object, kind: type[T]) -> T:
    """`value` as a `kind`, for code written for one game that is handed something else (a
    programming error, never a person's): TypeError naming both."""
    if not isinstance(value, kind):
        raise TypeError(f"expected a {kind.__name__}, not {value!r}")
    return value


class KingdomkitError(Exception):
    """Base of every error kingdomkit raises on purpose; its message is meant for a person."""


class IllegalActionError(KingdomkitError):
    """An action that the rules forbid in this state, or one that cannot be read."""


class OptionError(KingdomkitError):
    """An unknown option, or options that cannot be combined. Its message names options as
    they are typed (`mighty_duel`); `words`, when given, says the same for people who choose
    from a form, with the variants' printed names ("Mighty Duel is for 2 players")."""

    def __init__(self, message: str, words: str | None = None) -> None:
        super().__init__(message)
        self.words = words if words is not None else message


class RecordError(KingdomkitError):
    """A game record that is malformed or breaks a rule; names the event when it can."""


class NotADecisionError(KingdomkitError):
    """A bot asked to choose where no player chooses: at a draw, or after the game's end."""


def check_decision(game: Game[Any], state: Any, bot: str) -> None:
    """NotADecisionError unless a player chooses in `state`: each bot's first step, so that a
    program asking one to act at a draw or after the end is told why in words (searches
    otherwise fail deep inside with an IndexError or a division by zero)."""
    if game.is_terminal(state):
        raise NotADecisionError(f"{bot}: the game is over, there is nothing to choose")
    if game.is_chance(state):
        raise NotADecisionError(
            f"{bot}: this state is a draw (a chance node), not a player's choice: apply one "
            "of game.chance_outcomes(state), or game.sample_chance(state, rng), first"
        )


SHOWN = 40


def excerpt(text: str, limit: int = SHOWN, quoted: bool = True) -> str:
    """`text` for an error message (quoted unless `quoted` is false), cut after `limit`
    characters with its length told, so that a huge input is not echoed back whole."""
    if len(text) <= limit:
        return repr(text) if quoted else text
    return f"{text[:limit]!r}... ({len(text)} characters)"


MOVE_CHARS = 200


def check_move_length(text: str) -> None:
    """Refuse a move longer than any game's longest (a few dozen characters) before reading
    it, so that no reader meets a 100,000-digit number."""
    if len(text) > MOVE_CHARS:
        raise IllegalActionError(
            f"cannot read {excerpt(text.strip())}: a move is at most {MOVE_CHARS} characters"
        )


class Game(ABC, Generic[S]):
    """A game with fixed options. Subclasses declare their static facts as class attributes."""

    name: ClassVar[str]
    version: ClassVar[int]
    # What the score counts, in words for people ("points"; Kingdoms: "gold"): reviews,
    # hints and score lines say it, so that nobody reads "points" for gold.
    score_unit: ClassVar[str] = "points"
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    options: Mapping[str, Any]
    num_players: int
    num_actions: int
    num_chance_outcomes: int

    # -- the state machine -------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> S:
        """The state before the first chance node or decision."""

    @abstractmethod
    def current_player(self, state: S) -> int:
        """The player to act, or CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_actions(self, state: S) -> tuple[int, ...]:
        """Sorted, unique legal actions of the player to act (empty at chance and terminal)."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> tuple[tuple[int, float], ...]:
        """Sorted (outcome, probability) pairs at a chance node; probabilities sum to 1."""

    @abstractmethod
    def apply(self, state: S, action: int) -> S:
        """The state after `action` (a decision or a chance outcome). Unchecked: fast path."""

    @abstractmethod
    def scores(self, state: S) -> tuple[float, ...]:
        """Each player's points as the game counts them (final at a terminal state)."""

    @abstractmethod
    def winners(self, state: S) -> tuple[int, ...]:
        """The players sharing the victory at a terminal state, after all tie-breaks."""

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides of this configured game, each the players who win or lose together, in
        order (Queendomino's Royal Wedding in teams: players 2t and 2t + 1 form side t).
        Results, margins and ratings count sides, not seats. The default: each player alone."""
        return alone(self.num_players)

    # -- text codec ----------------------------------------------------------------------
    @abstractmethod
    def action_to_string(self, state: S, action: int) -> str:
        """A short readable form of an action (or chance outcome) in this state."""

    @abstractmethod
    def parse_action(self, state: S, text: str) -> int:
        """The legal action that `text` names; raises IllegalActionError with the reason."""

    # -- records ---------------------------------------------------------------------------
    @abstractmethod
    def events(self, before: S, action: int, after: S) -> list[Event]:
        """The record events that applying `action` to `before` produced (possibly none)."""

    @abstractmethod
    def event_actions(self, state: S, event: Event) -> list[int]:
        """The actions that reproduce `event` from `state`; raises RecordError if it cannot."""

    def canonical_event(self, state: S, event: Event) -> Event:
        """The event as `events` would write it, for an event that can be written several ways
        (a replay compares the two). The default: events have one spelling."""
        return event

    @abstractmethod
    def result(self, state: S) -> dict[str, Any]:
        """The `result` object of a record of a finished game."""

    # -- serialisation -------------------------------------------------------------------
    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]:
        """A JSON-ready description of the whole state."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """The state that `state_to_json` described; raises KingdomkitError if malformed."""

    # -- defaults that games may override for speed or for hidden information --------------
    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def is_chance(self, state: S) -> bool:
        return self.current_player(state) == CHANCE

    def legal_mask(self, state: S) -> list[bool]:
        """A list of `num_actions` booleans, True where the action is legal."""
        mask = [False] * self.num_actions
        for action in self.legal_actions(state):
            mask[action] = True
        return mask

    def sample_chance(self, state: S, rng: random.Random) -> int:
        """Draw a chance outcome with `rng` (which the caller owns) by its probability."""
        outcomes = self.chance_outcomes(state)
        threshold = rng.random()
        total = 0.0
        for outcome, probability in outcomes:
            total += probability
            if threshold < total:
                return outcome
        return outcomes[-1][0]

    def apply_checked(self, state: S, action: int) -> S:
        """`apply`, after checking that `action` is legal here (or a possible chance outcome)."""
        player = self.current_player(state)
        if player == TERMINAL:
            raise IllegalActionError("the game is over; no action can be played")
        if player == CHANCE:
            possible: Sequence[int] = [outcome for outcome, _ in self.chance_outcomes(state)]
        else:
            possible = self.legal_actions(state)
        if not isinstance(action, int) or action not in possible:
            raise IllegalActionError(f"action {action!r} is not legal here")
        return self.apply(state, action)

    def returns(self, state: S) -> tuple[float, ...]:
        """Win shares at a terminal state: 1/k to each of k tied winners, 0 to the others."""
        winners = self.winners(state)
        share = 1.0 / len(winners)
        return tuple(share if player in winners else 0.0 for player in range(self.num_players))

    def max_game_length(self) -> int | None:
        """An upper bound on the actions and chance outcomes of a whole game (OpenSpiel's
        `GameInfo` asks for one), or None when the game does not know one."""
        return None

    def view(self, state: S, player: int | None) -> S:
        """What `player` may see (None: a spectator). Games without secrets return the state."""
        return state

    def resample(self, state: S, player: int, rng: random.Random) -> S:
        """A full state consistent with `player`'s view; games without secrets return it."""
        return state

    def conceal(self, actions: Sequence[int], player: int, rng: random.Random) -> list[int]:
        """The actions of a game (from the start) with every chance outcome that `player`
        has not seen drawn again from `rng`, consistently with what they have seen: the
        history a record may hold when the game stops early and is resumed later (it must
        give nothing away). Games whose draws are public when made return them unchanged."""
        return list(actions)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what a process makes for itself when it needs it (its
        capabilities, kingdomkit.core.shape.capability's)."""
        state = dict(self.__dict__)
        state.pop("_capabilities", None)
        return state

    def record_body(
        self, header: Mapping[str, Any], events: list[Event], state: S
    ) -> dict[str, Any]:
        """The game-specific part of a record (after `header`, the format, game, options,
        seed and players): its events and, when finished, its result."""
        body: dict[str, Any] = {"events": events}
        if self.is_terminal(state):
            body["result"] = self.result(state)
        return body

    def record_events(self, record: Mapping[str, Any]) -> list[Event]:
        """The flat list of events in a record that `record_body` wrote."""
        events = record.get("events")
        if not isinstance(events, list):
            raise RecordError("the record has no list of 'events'")
        return events

    def render(self, state: S, player: int | None = None) -> str:
        """A plain-text picture of the state as `player` sees it."""
        return repr(self.view(state, player))
