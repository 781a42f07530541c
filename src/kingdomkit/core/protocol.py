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

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from kingdomkit.core.sides import alone

if TYPE_CHECKING:
    from numpy.typing import NDArray

CHANCE = -1
TERMINAL = -2

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
Event = dict[str, Any]
# A player's observation: named numpy arrays of fixed shapes (numpy is only needed by the
# games' encoders and the RL adapter, never by the rest of the core).
Observation = dict[str, "NDArray[Any]"]


class ArraySpec(NamedTuple):
    """One array of an observation: its shape, numpy dtype name and bounds (every value v
    has low <= v <= high)."""

    shape: tuple[int, ...]
    dtype: str
    low: int
    high: int


class Symmetry(NamedTuple):
    """One symmetry of a position as a player sees it (`Game.symmetries`): the transformed
    observation and action mask, and `actions`, the image of every action (a permutation of
    range(num_actions)): a vector over actions v (a mask, a policy) becomes w with
    w[actions] = v."""

    observation: Observation
    action_mask: NDArray[Any]
    actions: NDArray[Any]


class BatchStep(NamedTuple):
    """What a batched simulator returns for its N games after a reset or a step (arrays
    with the game as first index, owned by the simulator: copy them to keep them)."""

    observation: Observation  # name -> (N, ...) array: `observe` from `player`'s seat
    action_mask: NDArray[Any]  # (N, num_actions) int8: 1 on the legal actions, 0 at the end
    reward: NDArray[Any]  # (N,) float64: the reward of the player who just decided
    terminated: NDArray[Any]  # (N,) bool: this step ended the game
    illegal: NDArray[Any]  # (N,) bool: ended by an illegal action
    player: NDArray[Any]  # (N,) int64: whose observation it is (the player to decide)
    seat: NDArray[Any]  # (N,) int64: the learner's seat, -1 in self-play
    rewards: NDArray[Any]  # (N, players) float64: every player's final reward, else 0
    scores: NDArray[Any]  # (N, players) float64: the final scores, else 0


class BatchSimulator(Protocol):
    """Many games stepped at once (`Game.batch_simulator`). Each game plays the learner's
    decisions given to `step`; chance and the opponents' moves are played inside. A game
    whose episode ended starts a new one at the next `step` (its action is ignored)."""

    num_envs: int

    def reset(self, seeds: Sequence[int] | None = None) -> BatchStep:
        """New episodes everywhere; game i's stream from seeds[i] (None: go on)."""
        ...

    def step(self, actions: NDArray[Any]) -> BatchStep:
        """Plays actions[i] in game i (an illegal one ends that episode)."""
        ...


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


class Encoder(Protocol[S_contra]):
    """A game's observation encoder (its encoding.py): what `Game.observe` and friends use."""

    def spec(self) -> dict[str, ArraySpec]: ...

    def observe(self, state: S_contra, player: int) -> Observation: ...

    def symmetries(self, observation: Observation, action_mask: NDArray[Any]) -> list[Symmetry]: ...


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

    # -- words for people (each game's words.py) ---------------------------------------------
    def move_label(self, state: S, action: int) -> str:
        """The legal `action` as the button its player clicks: imperative, second person, in
        the game's own words ("Claim domino 29 (1-crown forest / grassland)"); the labels of
        one state's legal actions are pairwise distinct. The default: the notation."""
        return self.action_to_string(state, action)

    def move_sentence(self, before: S, action: int, after: S, who: str) -> str:
        """What `who` did by playing `action` in `before`, as the table's log says it to
        everyone ("Ann claimed domino 29 (1-crown forest / grassland)"): past tense, third
        person, never naming what the other players may not see. The default: the notation."""
        return f"{who}: {self.action_to_string(before, action)}"

    def chance_sentence(
        self, before: S, outcome: int, after: S, names: Sequence[str]
    ) -> str | None:
        """What everyone saw happen by the chance `outcome`, for the log ("New line: dominoes
        5, 12, 20 and 37"), or None when it is worth no sentence or is a secret (a tile dealt
        face down). `names`: each seat's name. The default: None."""
        return None

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

    def batch_simulator(
        self,
        num_envs: int,
        opponents: Sequence[str] | None,
        seat: int | None,
        reward: str,
        illegal_reward: float,
    ) -> BatchSimulator | None:
        """A compiled simulator of `num_envs` games at once for learning, or None (the
        default). `opponents`: one playout policy name ("random", "greedy") per other seat,
        in seat order, or None for self-play (every decision is the learner's); `seat`: the
        learner's seat, None to draw it each episode; `reward`: "wdl" or "margin" (as
        `kingdomkit.rl`); `illegal_reward`: what an illegal action gets (it ends the game)."""
        return None

    def components(self) -> dict[str, Any]:
        """The box of this configured game as plain data, for clients that draw it (the
        dominoes, buildings or tiles with the ids `state_to_json` uses, the board's
        geometry). The default: nothing to tell."""
        return {}

    def view(self, state: S, player: int | None) -> S:
        """What `player` may see (None: a spectator). Games without secrets return the state."""
        return state

    # -- the view model: what a browser draws (docs/view-model.md) -----------------------------
    # The declared shape of `view_model` and `move_model` (the game's view_model.schema.json):
    # bumped whenever a field is added, removed or changes meaning, and checked by the client,
    # which reads nothing else of a state. 0: the game declares no view model.
    view_model_version: ClassVar[int] = 0

    def view_model(self, state: S, seat: int | None) -> dict[str, Any]:
        """The position as `seat` (None: a spectator) sees it, in the game's own words: named
        phases, the pieces on the table and in hand, each player's holdings. `state` is
        already `view(state, seat)`. JSON data only, every integer within JavaScript's safe
        range, so every browser reads it exactly."""
        return {}

    def view_model_schema(self) -> dict[str, Any]:
        """The declaration of `view_model` as a JSON Schema (draft 2020-12): the game
        package's view_model.schema.json, whose `$defs.move` declares `move_model`; {} when
        the game declares none."""
        if not self.view_model_version:
            return {}
        package = type(self).__module__.rpartition(".")[0]
        text = resources.files(package).joinpath("view_model.schema.json").read_text("utf-8")
        schema: dict[str, Any] = json.loads(text)
        return schema

    def move_model(self, state: S, action: int) -> dict[str, Any]:
        """One legal `action` as a board offers it: its kind and the pieces and squares it
        uses (the board maps clicks to moves with it, never by reading notation)."""
        return {}

    def last_model(self, before: S, action: int, after: S) -> dict[str, Any] | None:
        """What the latest decision did, for the view model's `last`: `action` played in
        `before`, `after` the position once the draws it set off are made (both already as
        the seat sees them). The pieces it moved, in the model's words; None (the default):
        the game tells nothing."""
        return None

    def resample(self, state: S, player: int, rng: random.Random) -> S:
        """A full state consistent with `player`'s view; games without secrets return it."""
        return state

    def conceal(self, actions: Sequence[int], player: int, rng: random.Random) -> list[int]:
        """The actions of a game (from the start) with every chance outcome that `player`
        has not seen drawn again from `rng`, consistently with what they have seen: the
        history a record may hold when the game stops early and is resumed later (it must
        give nothing away). Games whose draws are public when made return them unchanged."""
        return list(actions)

    # -- observations for learning (each game's encoding.py; numpy needed) -------------------
    # The layout of `observe`'s arrays; bumped whenever the layout or a meaning changes.
    # 0: the game has no encoding.
    observation_version: ClassVar[int] = 0

    def make_encoder(self) -> Encoder[S] | None:
        """A new observation encoder for this configured game (its encoding.py, imported
        here so that numpy is only needed by those who observe), or None (the default)."""
        return None

    def encoder(self) -> Encoder[S] | None:
        """The observation encoder, made once and kept (not pickled: see `__getstate__`)."""
        if "_encoder" not in self.__dict__:
            self.__dict__["_encoder"] = self.make_encoder()
        encoder: Encoder[S] | None = self.__dict__["_encoder"]
        return encoder

    def _required_encoder(self) -> Encoder[S]:
        encoder = self.encoder()
        if encoder is None:
            raise NotImplementedError(f"{self.name} has no observation encoding")
        return encoder

    def observation_spec(self) -> dict[str, ArraySpec]:
        """The arrays `observe` returns, by name, for this configured game (their shapes
        depend on the options, never on the state)."""
        return self._required_encoder().spec()

    def observe(self, state: S, player: int) -> Observation:
        """`state` as `player` sees it (always encoded from `view(state, player)`, so never a
        secret), as the arrays of `observation_spec`, seats ordered from `player` on."""
        return self._required_encoder().observe(state, player)

    def symmetries(self, observation: Observation, action_mask: NDArray[Any]) -> list[Symmetry]:
        """Every symmetry of the position behind `observation` (the identity first), for data
        augmentation: transformed observations that the rules treat alike, with the matching
        actions. Without an encoder: the identity alone."""
        encoder = self.encoder()
        if encoder is not None:
            return encoder.symmetries(observation, action_mask)
        import numpy

        identity = numpy.arange(len(action_mask))
        return [Symmetry(observation, action_mask, identity)]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what a process makes for itself when it needs it (the encoder,
        the capabilities of kingdomkit.core.shape.capability)."""
        state = dict(self.__dict__)
        state.pop("_encoder", None)
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
