"""Kingdomino's rules as a pure state machine (version history at the bottom of this card).

A round, as micro-steps (rulebook "Setup" A-C and "Playing the game" D1-D2):

    DRAW   chance, one domino at a time until the new line is full; the line is kept
           in ascending order, as the rulebook displays it
    ORDER  chance, first line only: the shuffled kings, one outcome per distinct order
    CLAIM  first line: each king in shuffled order claims a domino of the line
    PLACE  later lines: the kings act in the order of their dominoes in the previous line;
           each places (or, only when no placement is legal, discards) its domino, then
    CLAIM  claims a domino of the new line. In the last round there is no new line: place only.

Actions (one fixed range per frame size; cells = geometry cells, guard column included:
90 for 5x5, 182 for 7x7):

    0 .. 3                     claim the domino in slot i of the new line
    4 .. 4 + 4 * cells - 1     place: 4 + direction * cells + cell of square 1
    4 + 4 * cells              discard (legal only when no placement is)

Chance outcomes: DRAW, domino number - 1 (0 .. 47); ORDER, an index into `king_orders`.

With `dynasty`, three games follow one another in one state; `past_scores` keeps the scores
of the finished ones and the totals decide.

Versions: 1, the first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from kingdomkit.core.protocol import (
    CHANCE,
    TERMINAL,
    Event,
    Game,
    IllegalActionError,
    KingdomkitError,
    check_move_length,
    excerpt,
)
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino import records
from kingdomkit.games.kingdomino.dominoes import DOMINOES, NUM_DOMINOES, Domino
from kingdomkit.games.kingdomino.geometry import (
    Geometry,
    geometry,
)
from kingdomkit.games.kingdomino.options import Setup, parse_options
from kingdomkit.games.kingdomino.records import breakdown_json
from kingdomkit.games.kingdomino.state import (
    ALL_DOMINOES,
    CLAIM,
    CLAIMS,
    DRAW,
    ORDER,
    OVER,
    PHASE_NAMES,
    PLACE,
    UNCLAIMED,
    KingdominoState,
    king_orders,
)


class Breakdown(NamedTuple):
    """One player's score as a score pad shows it."""

    territories: tuple[kd.Territory, ...]
    territory_points: int
    middle_kingdom: int
    harmony: int
    total: int
    largest_territory: int
    crowns: int


class Kingdomino(Game[KingdominoState]):
    name = "kingdomino"
    version = 1
    min_players = 2
    max_players = 4

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.setup: Setup = parse_options(options or {})
        self.options = self.setup.to_options()
        self.num_players = self.setup.players
        self.geo: Geometry = geometry(self.setup.size)
        self.cells = self.geo.cells
        self.discard_action = CLAIMS + 4 * self.cells
        self.num_actions = self.discard_action + 1
        self.num_chance_outcomes = NUM_DOMINOES
        self.orders = king_orders(self.setup.players, self.setup.kings)
        self._empty = kd.empty_kingdom(self.geo)

    def __repr__(self) -> str:
        return f"Kingdomino({self.options})"

    def max_game_length(self) -> int:
        """Exact, every game the same length: per game the draws, the king order, and each
        king's claim and placement (or discard) of every line."""
        setup = self.setup
        return setup.games * (setup.lines * setup.line_size + 1 + 2 * setup.kings * setup.lines)

    # -- the state machine -------------------------------------------------------------
    def initial_state(self) -> KingdominoState:
        return self._new_game(0, ())

    def _new_game(self, number: int, past: tuple[tuple[int, ...], ...]) -> KingdominoState:
        kingdoms = (self._empty,) * self.num_players
        return KingdominoState(DRAW, 0, ALL_DOMINOES, (), (), (), (), 0, (), kingdoms, number, past)

    def current_player(self, state: KingdominoState) -> int:
        phase = state.phase
        if phase == PLACE:
            return state.placers[state.turn]
        if phase == CLAIM:
            return state.placers[state.turn] if state.placers else state.order[state.turn]
        return TERMINAL if phase == OVER else CHANCE

    def legal_actions(self, state: KingdominoState) -> tuple[int, ...]:
        phase = state.phase
        if phase == PLACE:
            player = state.placers[state.turn]
            domino = DOMINOES[state.placing[state.turn] - 1]
            codes = kd.legal_placements(self.geo, state.kingdoms[player], domino, CLAIMS)
            return tuple(codes) if codes else (self.discard_action,)
        if phase == CLAIM:
            return tuple(slot for slot, owner in enumerate(state.claims) if owner == UNCLAIMED)
        return ()

    def chance_outcomes(self, state: KingdominoState) -> tuple[tuple[int, float], ...]:
        if state.phase == DRAW:
            remaining = [n for n in range(NUM_DOMINOES) if state.deck >> n & 1]
            probability = 1.0 / len(remaining)
            return tuple((outcome, probability) for outcome in remaining)
        if state.phase == ORDER:
            probability = 1.0 / len(self.orders)
            return tuple((index, probability) for index in range(len(self.orders)))
        return ()

    def sample_chance(self, state: KingdominoState, rng: random.Random) -> int:
        """Uniform draws, picked without building the outcome list (the driver's hot path)."""
        if state.phase == ORDER:
            return int(rng.random() * len(self.orders))
        deck = state.deck
        skip = int(rng.random() * deck.bit_count())
        for _ in range(skip):
            deck &= deck - 1
        return (deck & -deck).bit_length() - 1

    def apply(self, state: KingdominoState, action: int) -> KingdominoState:
        phase = state.phase
        if phase == PLACE:
            return self._place(state, action)
        if phase == CLAIM:
            return self._claim(state, action)
        if phase == DRAW:
            return self._draw(state, action)
        if phase == ORDER:
            return state._replace(phase=CLAIM, order=self.orders[action], turn=0)
        raise IllegalActionError("the game is over; no action can be played")

    # The three transitions below build states field by field: NamedTuple._replace costs
    # more than the rest of a step on the playout path.
    def _draw(self, state: KingdominoState, outcome: int) -> KingdominoState:
        number = outcome + 1
        line = tuple(sorted((*state.line, number)))
        deck = state.deck & ~(1 << outcome)
        full = len(line) == self.setup.line_size
        lines_drawn = state.lines_drawn + 1 if full else state.lines_drawn
        return KingdominoState(
            (ORDER if lines_drawn == 1 else PLACE) if full else DRAW,
            lines_drawn,
            deck,
            line,
            (UNCLAIMED,) * len(line) if full else (),
            state.placing,
            state.placers,
            0,
            state.order,
            state.kingdoms,
            state.game_number,
            state.past_scores,
        )

    def _claim(self, state: KingdominoState, slot: int) -> KingdominoState:
        placers = state.placers
        turn = state.turn
        player = placers[turn] if placers else state.order[turn]
        claims = state.claims
        claims = (*claims[:slot], player, *claims[slot + 1 :])
        turn += 1
        if turn < (len(placers) if placers else len(state.order)):
            return KingdominoState(
                PLACE if placers else CLAIM,
                state.lines_drawn,
                state.deck,
                state.line,
                claims,
                state.placing,
                placers,
                turn,
                state.order,
                state.kingdoms,
                state.game_number,
                state.past_scores,
            )
        # Every king has claimed: the line becomes the one to place; with lines of 4 for 3
        # players (draw_four), the unclaimed domino is discarded here.
        line = state.line
        placing = tuple(n for n, owner in zip(line, claims, strict=True) if owner >= 0)
        return KingdominoState(
            DRAW if state.lines_drawn < self.setup.lines else PLACE,
            state.lines_drawn,
            state.deck,
            (),
            (),
            placing,
            tuple(owner for owner in claims if owner >= 0),
            0,
            state.order,
            state.kingdoms,
            state.game_number,
            state.past_scores,
        )

    def _place(self, state: KingdominoState, action: int) -> KingdominoState:
        turn = state.turn
        placers = state.placers
        player = placers[turn]
        domino = DOMINOES[state.placing[turn] - 1]
        kingdoms = state.kingdoms
        if action == self.discard_action:
            kingdom = kd.discard(kingdoms[player], domino)
        else:
            code = action - CLAIMS
            cell1 = code % self.cells
            cell2 = cell1 + self.geo.deltas[code // self.cells]
            kingdom = kd.place(self.geo, kingdoms[player], domino, cell1, cell2)
        kingdoms = (*kingdoms[:player], kingdom, *kingdoms[player + 1 :])
        if not state.line:
            turn += 1
            if turn == len(placers):
                return self._finish_game(state._replace(kingdoms=kingdoms, turn=turn))
        return KingdominoState(
            CLAIM if state.line else PLACE,
            state.lines_drawn,
            state.deck,
            state.line,
            state.claims,
            state.placing,
            placers,
            turn,
            state.order,
            kingdoms,
            state.game_number,
            state.past_scores,
        )

    def _finish_game(self, state: KingdominoState) -> KingdominoState:
        if state.game_number + 1 < self.setup.games:
            past = (*state.past_scores, self.game_scores(state))
            return self._new_game(state.game_number + 1, past)
        return state._replace(phase=OVER, placing=(), placers=(), turn=0)

    # -- scores ------------------------------------------------------------------------
    def breakdown(self, state: KingdominoState, player: int) -> Breakdown:
        """The score pad of `player` in the game being played (or the last one)."""
        return self.kingdom_breakdown(state.kingdoms[player])

    def kingdom_breakdown(self, kingdom: kd.Kingdom, harmony: bool | None = None) -> Breakdown:
        """The score pad of one kingdom; `harmony` overrides the no-discard test."""
        found = kd.territories(self.geo, kingdom)
        points = sum(t.points for t in found)
        middle, bonus = self._bonuses(kingdom, harmony)
        largest = max((t.size for t in found), default=0)
        return Breakdown(
            found, points, middle, bonus, points + middle + bonus, largest, kd.crown_count(kingdom)
        )

    def kingdom_score(self, kingdom: kd.Kingdom) -> int:
        """Territory points plus the bonuses in play (the fast path of `kingdom_breakdown`)."""
        middle, harmony = self._bonuses(kingdom)
        return kd.territory_score(self.geo, kingdom) + middle + harmony

    def _bonuses(self, kingdom: kd.Kingdom, harmony: bool | None = None) -> tuple[int, int]:
        """The Middle Kingdom and Harmony points in play for `kingdom` (rulebook, "Additional
        rules"). Harmony means no discard unless `harmony` says otherwise."""
        setup = self.setup
        middle = (
            kd.MIDDLE_KINGDOM_BONUS
            if setup.middle_kingdom and kd.castle_in_middle(self.geo, kingdom)
            else 0
        )
        if not setup.harmony:
            return middle, 0
        if harmony is None:
            harmony = not kingdom.discarded
        return middle, kd.HARMONY_BONUS if harmony else 0

    def game_scores(self, state: KingdominoState) -> tuple[int, ...]:
        """The scores of the game being played (the last one, at the end of a dynasty)."""
        return tuple(self.kingdom_score(k) for k in state.kingdoms)

    def scores(self, state: KingdominoState) -> tuple[float, ...]:
        scores = self.game_scores(state)
        for past in state.past_scores:
            scores = tuple(a + b for a, b in zip(scores, past, strict=True))
        return tuple(float(s) for s in scores)

    def winners(self, state: KingdominoState) -> tuple[int, ...]:
        return self.decision(state)[0]

    def decision(self, state: KingdominoState) -> tuple[tuple[int, ...], str]:
        """The winners and the rule that decided: "score", "largest_territory", "crowns" or
        "shared". Highest score; then largest territory; then most crowns; then shared
        (rulebook, "End of the game"). A dynasty is decided by the totals alone
        (docs/rules-notes.md), so ties there are "shared"."""
        scores = self.scores(state)
        best = max(scores)
        leaders = tuple(p for p, score in enumerate(scores) if score == best)
        if len(leaders) == 1:
            return leaders, "score"
        if self.setup.dynasty:
            return leaders, "shared"
        pads = {p: self.kingdom_breakdown(state.kingdoms[p]) for p in leaders}
        largest = max(pad.largest_territory for pad in pads.values())
        leaders = tuple(p for p in leaders if pads[p].largest_territory == largest)
        if len(leaders) == 1:
            return leaders, "largest_territory"
        crowns = max(pads[p].crowns for p in leaders)
        leaders = tuple(p for p in leaders if pads[p].crowns == crowns)
        return leaders, "crowns" if len(leaders) == 1 else "shared"

    # -- reading and writing actions -----------------------------------------------------
    def acting_domino(self, state: KingdominoState) -> Domino:
        """The domino the player to act must place (PLACE phase only)."""
        return DOMINOES[state.placing[state.turn] - 1]

    def placement_cells(self, action: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """Castle-relative (x, y) of square 1 and square 2 of a placement action."""
        cell1, cell2 = kd.decode_placement(self.geo, action - CLAIMS)
        return self.geo.xy(cell1), self.geo.xy(cell2)

    def placement_action(
        self, state: KingdominoState, first: tuple[int, int], second: tuple[int, int]
    ) -> int:
        """The action placing the acting domino's square 1 on `first`, square 2 on `second`;
        for a domino with two like squares either way round names the same action."""
        if state.phase != PLACE:
            raise IllegalActionError("no domino is waiting to be placed now")
        geo = self.geo
        try:
            cell1, cell2 = geo.cell(*first), geo.cell(*second)
        except ValueError as error:
            raise IllegalActionError(str(error)) from None
        if (
            cell2 - cell1 not in geo.deltas
            or abs(first[0] - second[0]) + abs(first[1] - second[1]) != 1
        ):
            raise IllegalActionError(f"{first} and {second} are not side by side")
        domino = self.acting_domino(state)
        direction = geo.deltas.index(cell2 - cell1)
        if domino.symmetric and direction >= 2:
            cell1, direction = cell2, direction - 2
        action = CLAIMS + direction * geo.cells + cell1
        if action not in self.legal_actions(state):
            raise IllegalActionError(self._why_illegal(state, domino, first, second))
        return action

    def _why_illegal(
        self,
        state: KingdominoState,
        domino: Domino,
        first: tuple[int, int],
        second: tuple[int, int],
    ) -> str:
        kingdom = state.kingdoms[self.current_player(state)]
        geo = self.geo
        cells = (geo.cell(*first), geo.cell(*second))
        if any(kingdom.occupied >> cell & 1 for cell in cells):
            return "that place is already taken"
        xs = (kingdom.min_x, kingdom.max_x, first[0], second[0])
        ys = (kingdom.min_y, kingdom.max_y, first[1], second[1])
        if max(xs) - min(xs) >= geo.size or max(ys) - min(ys) >= geo.size:
            return f"the kingdom would not fit in {geo.size}x{geo.size}"
        if self.discard_action in self.legal_actions(state):
            return f"domino {domino.number} fits nowhere and must be discarded"
        return "neither square touches the castle or a square of its own terrain (connection rules)"

    def action_to_string(self, state: KingdominoState, action: int) -> str:
        phase = state.phase
        if phase == DRAW:
            return f"draw {action + 1}"
        if phase == ORDER:
            return "order " + ",".join(str(p) for p in self.orders[action])
        if phase == CLAIM:
            return f"claim {state.line[action]}"
        if phase == PLACE:
            number = state.placing[state.turn]
            if action == self.discard_action:
                return f"discard {number}"
            (x1, y1), (x2, y2) = self.placement_cells(action)
            return f"place {number} {x1},{y1} {x2},{y2}"
        return f"action {action}"

    def parse_action(self, state: KingdominoState, text: str) -> int:
        """Reads `claim N`, `place N x1,y1 x2,y2`, `discard N` (the domino number optional)."""
        check_move_length(text)
        words = text.replace("(", " ").replace(")", " ").split()
        if not words:
            raise IllegalActionError("empty move")
        verb, args = words[0].lower(), words[1:]
        phase = state.phase
        if phase not in (CLAIM, PLACE):
            raise IllegalActionError(f"no player moves now (the {PHASE_NAMES[phase]} step)")
        try:
            if phase == CLAIM:
                if verb != "claim" or len(args) != 1:
                    raise IllegalActionError("it is time to claim: write 'claim N'")
                number = int(args[0])
                if number not in state.line:
                    raise IllegalActionError(f"domino {number} is not in the new line")
                slot = state.line.index(number)
                if state.claims[slot] != UNCLAIMED:
                    raise IllegalActionError(f"domino {number} is already claimed")
                return slot
            domino = self.acting_domino(state)
            if args and args[0].lstrip("-").isdigit() and "," not in args[0]:
                if int(args[0]) != domino.number:
                    raise IllegalActionError(f"the domino to place is {domino.number}")
                args = args[1:]
            if verb == "discard" and not args:
                if self.discard_action not in self.legal_actions(state):
                    raise IllegalActionError(
                        f"domino {domino.number} can be placed, so it may not be discarded"
                    )
                return self.discard_action
            if verb != "place" or len(args) != 2:
                raise IllegalActionError("it is time to place: write 'place N x1,y1 x2,y2'")
            first, second = (_parse_xy(arg) for arg in args)
            return self.placement_action(state, first, second)
        except ValueError:
            raise IllegalActionError(f"cannot read {excerpt(text)}") from None

    # -- records (records.py) ----------------------------------------------------------
    def events(self, before: KingdominoState, action: int, after: KingdominoState) -> list[Event]:
        return records.events(self, before, action, after)

    def event_actions(self, state: KingdominoState, event: Event) -> list[int]:
        return records.event_actions(self, state, event)

    def canonical_event(self, state: KingdominoState, event: Event) -> Event:
        return records.canonical_event(self, state, event)

    def result(self, state: KingdominoState) -> dict[str, Any]:
        return records.result(self, state)

    def record_body(
        self, header: Mapping[str, Any], events: list[Event], state: KingdominoState
    ) -> dict[str, Any]:
        return records.record_body(self, header, events, state)

    def record_events(self, record: Mapping[str, Any]) -> list[Event]:
        return records.record_events(self, record)

    # -- serialisation -------------------------------------------------------------------
    def state_to_json(self, state: KingdominoState) -> dict[str, Any]:
        data = state._asdict()
        data["kingdoms"] = [
            {
                "placed": [list(p) for p in k.placed],
                "discarded": list(k.discarded),
            }
            for k in state.kingdoms
        ]
        for key in ("line", "claims", "placing", "placers", "order"):
            data[key] = list(data[key])
        data["past_scores"] = [list(s) for s in state.past_scores]
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> KingdominoState:
        try:
            kingdoms = []
            for entry in data["kingdoms"]:
                kingdom = self._empty
                for number, cell1, cell2 in entry["placed"]:
                    kingdom = kd.place(self.geo, kingdom, DOMINOES[number - 1], cell1, cell2)
                for number in entry["discarded"]:
                    kingdom = kd.discard(kingdom, DOMINOES[number - 1])
                kingdoms.append(kingdom)
            return KingdominoState(
                int(data["phase"]),
                int(data["lines_drawn"]),
                int(data["deck"]),
                tuple(data["line"]),
                tuple(data["claims"]),
                tuple(data["placing"]),
                tuple(data["placers"]),
                int(data["turn"]),
                tuple(data["order"]),
                tuple(kingdoms),
                int(data["game_number"]),
                tuple(tuple(s) for s in data["past_scores"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise KingdomkitError(f"malformed Kingdomino state: {error}") from None

    def render(self, state: KingdominoState, player: int | None = None) -> str:
        from kingdomkit.games.kingdomino.render import render_text

        return render_text(self, state)


def _parse_xy(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The state and record modules' names, re-exported: callers see one rules module.
__all__ = [
    "ALL_DOMINOES",
    "CLAIM",
    "CLAIMS",
    "DRAW",
    "ORDER",
    "OVER",
    "PHASE_NAMES",
    "PLACE",
    "UNCLAIMED",
    "Breakdown",
    "Kingdomino",
    "KingdominoState",
    "breakdown_json",
    "king_orders",
]
