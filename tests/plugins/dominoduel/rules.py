"""The rules of Domino Duel, a two-player drafting game in four rounds.

Twelve dominoes, numbered 1 to 12: domino n shows terrain (n - 1) % 3 (wheat, forest, lake)
and (n - 1) // 4 crowns. Each round three dominoes are turned face up, one by one (chance);
the round's first player (the players take turns at it) takes one, the other takes one of
the two left, and the last is set aside. At the end each player scores, for each terrain,
the number of their dominoes of it times the crowns on them; the higher total wins, then the
more crowns; a tie still is shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kingdomkit.core.protocol import (
    CHANCE,
    TERMINAL,
    Event,
    Game,
    IllegalActionError,
    KingdomkitError,
    OptionError,
    RecordError,
)

DOMINOES = 12
ROUNDS = 4
SHOWN = 3
TERRAINS = ("wheat", "forest", "lake")


def terrain(domino: int) -> int:
    return (domino - 1) % len(TERRAINS)


def crowns(domino: int) -> int:
    return (domino - 1) // 4


@dataclass(frozen=True)
class DuelState:
    drawn: tuple[int, ...] = ()  # every domino turned face up so far, in order
    shown: tuple[int, ...] = ()  # this round's dominoes still on the table
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    round: int = 0
    picks: int = 0  # dominoes taken this round


class DominoDuel(Game[DuelState]):
    name: ClassVar[str] = "dominoduel"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        options = dict(options or {})
        unknown = sorted(set(options) - {"players"})
        if unknown:
            raise OptionError(f"unknown dominoduel option {unknown[0]!r} (known: players)")
        if options.get("players", 2) != 2:
            raise OptionError("Domino Duel is for 2 players")
        self.options = {"players": 2}
        self.num_players = 2
        self.num_actions = DOMINOES  # action d: take domino d + 1
        self.num_chance_outcomes = DOMINOES  # outcome d: domino d + 1 turned face up

    def __repr__(self) -> str:
        return "DominoDuel()"

    # -- the state machine ---------------------------------------------------------------
    def initial_state(self) -> DuelState:
        return DuelState()

    def current_player(self, state: DuelState) -> int:
        if state.round == ROUNDS:
            return TERMINAL
        if state.picks == 0 and len(state.shown) < SHOWN:
            return CHANCE
        return (state.round + state.picks) % 2

    def legal_actions(self, state: DuelState) -> tuple[int, ...]:
        if self.current_player(state) < 0:
            return ()
        return tuple(sorted(domino - 1 for domino in state.shown))

    def chance_outcomes(self, state: DuelState) -> tuple[tuple[int, float], ...]:
        if self.current_player(state) != CHANCE:
            return ()
        left = [d for d in range(1, DOMINOES + 1) if d not in state.drawn]
        return tuple((domino - 1, 1.0 / len(left)) for domino in left)

    def apply(self, state: DuelState, action: int) -> DuelState:
        domino = action + 1
        player = self.current_player(state)
        if player == CHANCE:
            return DuelState(
                (*state.drawn, domino), (*state.shown, domino), state.hands, state.round, 0
            )
        hands = list(state.hands)
        hands[player] = (*hands[player], domino)
        shown = tuple(d for d in state.shown if d != domino)
        if state.picks + 1 < SHOWN - 1:
            return DuelState(state.drawn, shown, (hands[0], hands[1]), state.round, 1)
        return DuelState(state.drawn, (), (hands[0], hands[1]), state.round + 1, 0)

    def scores(self, state: DuelState) -> tuple[float, ...]:
        return tuple(float(score(hand)) for hand in state.hands)

    def winners(self, state: DuelState) -> tuple[int, ...]:
        keys = [(score(hand), sum(crowns(d) for d in hand)) for hand in state.hands]
        best = max(keys)
        return tuple(player for player, key in enumerate(keys) if key == best)

    # -- text codec ----------------------------------------------------------------------
    def action_to_string(self, state: DuelState, action: int) -> str:
        verb = "reveal" if self.current_player(state) == CHANCE else "take"
        return f"{verb} {action + 1}"

    def parse_action(self, state: DuelState, text: str) -> int:
        words = text.split()
        if len(words) == 2 and words[0] == "take":
            words = words[1:]
        if len(words) != 1 or not words[0].isdigit():
            raise IllegalActionError(f"write the domino to take, as 'take 7', not {text!r}")
        action = int(words[0]) - 1
        if action not in self.legal_actions(state):
            shown = ", ".join(str(d) for d in sorted(state.shown)) or "none"
            raise IllegalActionError(f"domino {action + 1} is not on offer (on offer: {shown})")
        return action

    # -- records ---------------------------------------------------------------------------
    def events(self, before: DuelState, action: int, after: DuelState) -> list[Event]:
        player = self.current_player(before)
        if player == CHANCE:
            return [{"type": "reveal", "domino": action + 1}]
        return [{"type": "take", "player": player, "domino": action + 1}]

    def event_actions(self, state: DuelState, event: Event) -> list[int]:
        domino = event.get("domino")
        if not isinstance(domino, int) or isinstance(domino, bool):
            raise RecordError(f"an event names its domino: {event!r}")
        kind = "reveal" if self.current_player(state) == CHANCE else "take"
        possible = self.chance_outcomes(state) if kind == "reveal" else ()
        legal = [a for a, _ in possible] if kind == "reveal" else self.legal_actions(state)
        if event.get("type") != kind or domino - 1 not in legal:
            raise RecordError(f"event {event!r} cannot happen here")
        return [domino - 1]

    def result(self, state: DuelState) -> dict[str, Any]:
        scores = [score(hand) for hand in state.hands]
        return {"scores": scores, "winners": list(self.winners(state))}

    # -- serialisation -------------------------------------------------------------------
    def state_to_json(self, state: DuelState) -> dict[str, Any]:
        return {
            "drawn": list(state.drawn),
            "shown": list(state.shown),
            "hands": [list(hand) for hand in state.hands],
            "round": state.round,
            "picks": state.picks,
        }

    def state_from_json(self, data: Mapping[str, Any]) -> DuelState:
        try:
            hands = data["hands"]
            return DuelState(
                tuple(int(d) for d in data["drawn"]),
                tuple(int(d) for d in data["shown"]),
                (tuple(int(d) for d in hands[0]), tuple(int(d) for d in hands[1])),
                int(data["round"]),
                int(data["picks"]),
            )
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise KingdomkitError(f"not a Domino Duel state: {error}") from None

    def render(self, state: DuelState, player: int | None = None) -> str:
        lines = [f"Round {min(state.round + 1, ROUNDS)} of {ROUNDS}"]
        lines.append("On offer: " + (", ".join(describe(d) for d in state.shown) or "nothing"))
        for seat, hand in enumerate(state.hands):
            held = ", ".join(describe(d) for d in hand) or "nothing"
            lines.append(f"Player {seat + 1} ({score(hand)} points): {held}")
        return "\n".join(lines)


def score(hand: tuple[int, ...]) -> int:
    total = 0
    for kind in range(len(TERRAINS)):
        mine = [d for d in hand if terrain(d) == kind]
        total += len(mine) * sum(crowns(d) for d in mine)
    return total


def describe(domino: int) -> str:
    return f"{domino} ({TERRAINS[terrain(domino)]}, {crowns(domino)} crowns)"
