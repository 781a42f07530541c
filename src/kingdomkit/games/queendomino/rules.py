"""Queendomino's rules as a pure state machine, with the Royal Wedding (version history at the
bottom of this card).

Set-up (rulebook "Set up" steps 1 and 2), as chance nodes:

    BOARD   the pile's new top tile, turned face up (the rulebook's pile lies "grey face
            up", so everyone sees the next building to come); the top moves at once onto
            the cheapest empty space of the Builders' Board, if there is one, and the next
            tile is turned up, until the board is full or the pile is out
    DRAW    one domino at a time until the new line is full (kept in ascending order)
    ORDER   the first line's king order, one owner at a time (2 players: the first player,
            then the order is first, second, second, first as the rulebook says)
    CLAIM   first line: each king in that order claims a domino

A round: the kings act in the order of their dominoes in the previous line, each turn as
micro-steps (rulebook "Playing the Game" A to E). A step with nothing to choose is skipped;
an optional step with a choice offers `pass`.

    PLACE   A: place the domino, or discard it when no placement is legal
    TAX     B: a knight from the guard onto square 1 or square 2 of that domino (each at most
            once), collecting coins; or pass
    BUILD   C: pick a building on the Builders' Board that the realm can pay for; or pass
    SITE       ... and the empty town square it goes on
    DRAGON  D: pay 1 coin to burn a building on the board (Dragon in its cave, Queen not
            hosted); or pass
    CLAIM   E: claim a domino of the new line (not in the last round)

After the last turn of a round: the Dragon goes back, the buildings slide to the cheapest
spaces, the face-up top fills the cheapest empty space and BOARD turns up the next top (again
while spaces are empty), DRAW lays the next line.

Actions (one fixed range per frame size; cells = geometry cells, guard column included:
90 for 5x5, 182 for 7x7):

    0 .. 7                       claim the domino in slot i of the new line
    8 .. 8 + 4 * cells - 1       place: 8 + direction * cells + cell of square 1
    discard                      8 + 4 * cells
    knight on square 1, 2        discard + 1, discard + 2
    build from space s (price s) discard + 3 + s,      s in 0 .. 5
    site on cell c               discard + 9 + c
    burn the building on space s discard + 9 + cells + s
    pass                         discard + 15 + cells (the last action)

Chance outcomes: DRAW, a domino id (dominoes.py); BOARD, a building's index in the table
(the new top); ORDER, a player.

Versions: 1, the first; 2, the pile's top tile is public (`state.top`), turned up by BOARD
whenever the old top leaves the pile (issue 23): one more BOARD chance node at set-up, and the
refills take the known top instead of a hidden draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdomkit.core.protocol import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    KingdomkitError,
)
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.geometry import Cell, Geometry, geometry
from kingdomkit.games.queendomino import codec, records
from kingdomkit.games.queendomino import scoring as sc
from kingdomkit.games.queendomino.buildings import (
    Building,
    BuildingTable,
    load_buildings,
)
from kingdomkit.games.queendomino.dominoes import (
    BOX_MASKS,
    BOX_SIZE,
    DOMINOES,
    TERRAINS,
    TOWN,
)
from kingdomkit.games.queendomino.options import Setup, parse_options
from kingdomkit.games.queendomino.state import (
    BOARD,
    BOTH_SQUARES,
    BUILD,
    CLAIM,
    DRAGON,
    DRAW,
    EMPTY,
    KNIGHTS,
    NOBODY,
    ORDER,
    OVER,
    PHASE_NAMES,
    PLACE,
    PLACE_BASE,
    SITE,
    SPACES,
    START_COINS,
    START_KNIGHTS,
    TAX,
    TOWERS,
    UNCLAIMED,
    QueendominoState,
    Realm,
)


class Queendomino(Game[QueendominoState]):
    name = "queendomino"
    version = 2
    min_players = 2
    max_players = 8

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.setup: Setup = parse_options(options or {})
        self.options = self.setup.to_options()
        self.num_players = self.setup.players
        self.num_realms = self.setup.realms
        self.realm_of = tuple(self.setup.realm_of(p) for p in range(self.num_players))
        self.table: BuildingTable = load_buildings(self.setup.buildings)
        self.geo: Geometry = geometry(self.setup.size)
        cells = self.cells = self.geo.cells
        self.discard_action = PLACE_BASE + 4 * cells
        self.knight_base = self.discard_action + 1
        self.build_base = self.knight_base + 2
        self.site_base = self.build_base + SPACES
        self.burn_base = self.site_base + cells
        self.pass_action = self.burn_base + SPACES
        self.num_actions = self.pass_action + 1
        self.num_chance_outcomes = max(2 * BOX_SIZE, len(self.table), self.num_players)
        self.full_deck = BOX_MASKS[0] | (BOX_MASKS[1] if self.setup.royal_wedding else 0)
        self.full_pile = (1 << len(self.table)) - 1
        self._per_knight = tuple(b.ongoing == "coin_per_knight" for b in self.table.buildings)
        self._per_tower = tuple(b.ongoing == "coin_per_tower" for b in self.table.buildings)
        self._start = Realm(
            kd.empty_kingdom(self.geo, len(TERRAINS)), START_COINS, START_KNIGHTS, 0, (), 0, 0
        )

    def __repr__(self) -> str:
        return f"Queendomino({self.options})"

    def max_game_length(self) -> int:
        """A bound: the draws, every building turned up, the king order, and at most 7
        steps a turn (place, two knights, build and site, burn, claim) for each king's turn
        of every line."""
        setup = self.setup
        turns = setup.kings * setup.lines
        return setup.lines * setup.line_size + len(self.table) + 1 + setup.kings + 7 * turns

    # -- the state machine -------------------------------------------------------------
    def initial_state(self) -> QueendominoState:
        return QueendominoState(
            BOARD,
            0,
            self.full_deck,
            (),
            (),
            (),
            (),
            0,
            (),
            (self._start,) * self.num_realms,
            (EMPTY,) * SPACES,
            self.full_pile,
            True,
            NOBODY,
            0,
            EMPTY,
            EMPTY,
        )

    def current_player(self, state: QueendominoState) -> int:
        phase = state.phase
        if phase >= PLACE:
            return TERMINAL if phase == OVER else state.placers[state.turn]
        if phase == CLAIM:
            return state.placers[state.turn] if state.placers else state.order[state.turn]
        return CHANCE

    def acting_realm(self, state: QueendominoState) -> int:
        return self.realm_of[self.current_player(state)]

    def legal_actions(self, state: QueendominoState) -> tuple[int, ...]:
        phase = state.phase
        if phase == PLACE:
            realm = state.realms[self.realm_of[state.placers[state.turn]]]
            domino = DOMINOES[state.placing[state.turn]]
            codes = kd.legal_placements(self.geo, realm.kingdom, domino, PLACE_BASE)
            return tuple(codes) if codes else (self.discard_action,)
        if phase == CLAIM:
            return tuple(slot for slot, owner in enumerate(state.claims) if owner == UNCLAIMED)
        if phase == TAX:
            knight = self.knight_base
            free = ~state.knighted
            return (*(knight + i for i in (0, 1) if free >> i & 1), self.pass_action)
        if phase == BUILD:
            r = self.realm_of[state.placers[state.turn]]
            if not self.free_towns(state.realms[r]):
                return (self.pass_action,)
            coins = state.realms[r].coins
            discount = 1 if state.queen == r else 0
            base = self.build_base
            return (
                *(
                    base + space
                    for space, building in enumerate(state.board)
                    if building != EMPTY and max(0, space - discount) <= coins
                ),
                self.pass_action,
            )
        if phase == SITE:
            realm = state.realms[self.realm_of[state.placers[state.turn]]]
            return tuple(self.site_base + cell for cell in _cells(self.free_towns(realm)))
        if phase == DRAGON:
            base = self.burn_base
            return (
                *(base + space for space, b in enumerate(state.board) if b != EMPTY),
                self.pass_action,
            )
        return ()

    def chance_outcomes(self, state: QueendominoState) -> tuple[tuple[int, float], ...]:
        phase = state.phase
        if phase == DRAW:
            remaining = _cells(self._drawable(state))
        elif phase == BOARD:
            remaining = _cells(state.pile)
        elif phase == ORDER:
            remaining = self._unordered(state)
        else:
            return ()
        probability = 1.0 / len(remaining)
        return tuple((outcome, probability) for outcome in remaining)

    def sample_chance(self, state: QueendominoState, rng: random.Random) -> int:
        """Uniform draws, picked without building the outcome list (the driver's hot path)."""
        phase = state.phase
        if phase == ORDER:
            outcomes = self._unordered(state)
            return outcomes[int(rng.random() * len(outcomes))]
        bits = self._drawable(state) if phase == DRAW else state.pile
        for _ in range(int(rng.random() * bits.bit_count())):
            bits &= bits - 1
        return (bits & -bits).bit_length() - 1

    def _drawable(self, state: QueendominoState) -> int:
        """The dominoes the line being drawn may take: the box whose turn it is."""
        return state.deck & BOX_MASKS[state.lines_drawn % self.setup.boxes]

    def _unordered(self, state: QueendominoState) -> list[int]:
        if self.num_players == 2:
            return [0, 1]
        return [p for p in range(self.num_players) if p not in state.order]

    def apply(self, state: QueendominoState, action: int) -> QueendominoState:
        phase = state.phase
        if phase == PLACE:
            return self._place(state, action)
        if phase == TAX:
            return self._tax(state, action)
        if phase == BUILD:
            if action == self.pass_action:
                return self._step(state, DRAGON)
            return _update(state, phase=SITE, chosen=action - self.build_base)
        if phase == SITE:
            return self._site(state, action - self.site_base)
        if phase == DRAGON:
            return self._dragon(state, action)
        if phase == CLAIM:
            return self._claim(state, action)
        if phase == DRAW:
            return self._draw(state, action)
        if phase == BOARD:
            return self._reveal(state, action)
        if phase == ORDER:
            return self._order(state, action)
        raise IllegalActionError("the game is over; no action can be played")

    # Set-up and round changes --------------------------------------------------------
    def _reveal(self, state: QueendominoState, building: int) -> QueendominoState:
        """`building` is turned up on top of the pile."""
        return self._after_board(_update(state, top=building, pile=state.pile & ~(1 << building)))

    def _after_board(self, state: QueendominoState) -> QueendominoState:
        """The face-up top onto the cheapest empty space, if any; then a new top is turned
        up (BOARD) whenever the old one has left the pile and tiles remain."""
        if state.top != EMPTY and EMPTY in state.board:
            board = list(state.board)
            board[board.index(EMPTY)] = state.top
            state = _update(state, board=tuple(board), top=EMPTY)
        if state.top == EMPTY and state.pile:
            return _phase(state, BOARD)
        if state.lines_drawn < self.setup.lines:
            return _phase(state, DRAW)
        return _update(state, phase=PLACE, turn=0)

    def _draw(self, state: QueendominoState, outcome: int) -> QueendominoState:
        line = tuple(sorted((*state.line, outcome)))
        deck = state.deck & ~(1 << outcome)
        if len(line) < self.setup.line_size:
            return _update(state, line=line, deck=deck)
        lines_drawn = state.lines_drawn + 1
        return _update(
            state,
            phase=ORDER if lines_drawn == 1 else PLACE,
            lines_drawn=lines_drawn,
            deck=deck,
            line=line,
            claims=(UNCLAIMED,) * len(line),
            turn=0,
        )

    def _order(self, state: QueendominoState, player: int) -> QueendominoState:
        if self.num_players == 2:
            # Rulebook, 2 players: one king is drawn; its owner claims, the other player
            # places two kings, then the first player places their second king.
            other = 1 - player
            return _update(state, phase=CLAIM, order=(player, other, other, player), turn=0)
        order = (*state.order, player)
        return _update(state, phase=CLAIM if len(order) == self.setup.kings else ORDER, order=order)

    def _claim(self, state: QueendominoState, slot: int) -> QueendominoState:
        placers = state.placers
        player = placers[state.turn] if placers else state.order[state.turn]
        claims = (*state.claims[:slot], player, *state.claims[slot + 1 :])
        turn = state.turn + 1
        if turn < (len(placers) if placers else len(state.order)):
            return _update(state, phase=PLACE if placers else CLAIM, claims=claims, turn=turn)
        # Every king has claimed: the round ends (the unclaimed dominoes are discarded).
        line = state.line
        placing = tuple(d for d, owner in zip(line, claims, strict=True) if owner != UNCLAIMED)
        slid = tuple(b for b in state.board if b != EMPTY)
        return self._after_board(
            _update(
                state,
                line=(),
                claims=(),
                placing=placing,
                placers=tuple(owner for owner in claims if owner != UNCLAIMED),
                turn=0,
                board=slid + (EMPTY,) * (SPACES - len(slid)),
                dragon_ready=True,
            )
        )

    # A turn ------------------------------------------------------------------------------
    def _place(self, state: QueendominoState, action: int) -> QueendominoState:
        r = self.realm_of[state.placers[state.turn]]
        realm = state.realms[r]
        domino = DOMINOES[state.placing[state.turn]]
        if action == self.discard_action:
            kingdom = kd.discard(realm.kingdom, domino)
            knighted = BOTH_SQUARES
        else:
            code = action - PLACE_BASE
            cell1 = code % self.cells
            cell2 = cell1 + self.geo.deltas[code // self.cells]
            kingdom = kd.place(self.geo, realm.kingdom, domino, cell1, cell2)
            knighted = 0
        realms = _with(state.realms, r, _new(Realm, (kingdom, *realm[1:])))
        return self._step(_update(state, realms=realms, knighted=knighted), TAX)

    def _step(self, state: QueendominoState, phase: int) -> QueendominoState:
        """The first step from `phase` on in which the player to act has a choice."""
        r = self.realm_of[state.placers[state.turn]]
        realm = state.realms[r]
        if phase == TAX:
            if realm.guard and state.knighted != BOTH_SQUARES:
                return _phase(state, TAX)
            phase = BUILD
        if phase == BUILD:
            if self.can_build(state, r):
                return _phase(state, BUILD)
            phase = DRAGON
        if (
            state.dragon_ready
            and state.queen != r
            and realm.coins >= 1
            and any(b != EMPTY for b in state.board)
        ):
            return _phase(state, DRAGON)
        return self._end_turn(state)

    def _end_turn(self, state: QueendominoState) -> QueendominoState:
        if state.line:
            return _phase(state, CLAIM)
        turn = state.turn + 1
        if turn == len(state.placers):
            return _update(state, phase=OVER, turn=turn)
        return _update(state, phase=PLACE, turn=turn)

    def _tax(self, state: QueendominoState, action: int) -> QueendominoState:
        if action == self.pass_action:
            return self._step(state, BUILD)
        square = action - self.knight_base
        r = self.realm_of[state.placers[state.turn]]
        realm = state.realms[r]
        kingdom = realm.kingdom
        number, cell1, cell2 = kingdom.placed[-1]
        domino = DOMINOES[number - 1]
        cell, terrain = (cell1, domino.terrain1) if square == 0 else (cell2, domino.terrain2)
        coins = realm.coins + self.tax(realm, kingdom.terrains[terrain], cell)
        realm = realm._replace(
            coins=coins, guard=realm.guard - 1, knights=realm.knights | 1 << cell
        )
        knighted = state.knighted | 1 << square
        state = _update(state, realms=_with(state.realms, r, realm), knighted=knighted)
        return self._step(state, TAX)

    def tax(self, realm: Realm, land: int, cell: Cell) -> int:
        """The coins a knight collects on `cell` (a square of `land`): the size of its
        territory, plus each ongoing bonus of the realm's buildings (rulebook B, and the
        building effects "+1 coin per knight", "+1 coin per tower")."""
        coins = sc.territory_size(self.geo, land, cell)
        for index, _ in realm.buildings:
            if self._per_knight[index]:
                coins += realm.knights_owned
            elif self._per_tower[index]:
                coins += realm.towers
        return coins

    def free_towns(self, realm: Realm) -> int:
        """Town squares with no building yet."""
        return realm.kingdom.terrains[TOWN] & ~realm.sites

    def price(self, state: QueendominoState, realm: int, space: int) -> int:
        """The price of the building on `space` for `realm`: the Queen takes 1 off."""
        return max(0, space - 1) if state.queen == realm else space

    def can_build(self, state: QueendominoState, r: int) -> bool:
        realm = state.realms[r]
        if not self.free_towns(realm):
            return False
        return any(
            b != EMPTY and self.price(state, r, space) <= realm.coins
            for space, b in enumerate(state.board)
        )

    def _site(self, state: QueendominoState, cell: Cell) -> QueendominoState:
        r = self.realm_of[state.placers[state.turn]]
        realm = state.realms[r]
        space = state.chosen
        index = state.board[space]
        building = self.table[index]
        knights = min(building.knights, self.knight_supply(state))
        towers = min(building.towers, self.tower_supply(state))
        kingdom = realm.kingdom
        bit = 1 << cell
        if building.crowns:
            kingdom = kingdom._replace(
                crowns1=kingdom.crowns1 | (bit if building.crowns & 1 else 0),
                crowns2=kingdom.crowns2 | (bit if building.crowns & 2 else 0),
            )
        realm = Realm(
            kingdom,
            realm.coins - self.price(state, r, space),
            realm.guard + knights,
            realm.knights,
            (*realm.buildings, (index, cell)),
            realm.sites | bit,
            realm.towers + towers,
        )
        realms = _with(state.realms, r, realm)
        queen = state.queen
        # "As soon as your kingdom has acquired the most Towers (even in the case of a tie
        # with another player), it hosts the Queen" (rulebook C).
        if towers and all(realm.towers >= other.towers for other in realms):
            queen = r
        board = _with(state.board, space, EMPTY)
        state = _update(state, realms=realms, board=board, queen=queen, chosen=EMPTY)
        return self._step(state, DRAGON)

    def _dragon(self, state: QueendominoState, action: int) -> QueendominoState:
        if action == self.pass_action:
            return self._end_turn(state)
        r = self.realm_of[state.placers[state.turn]]
        realm = state.realms[r]
        realms = _with(state.realms, r, realm._replace(coins=realm.coins - 1))
        board = _with(state.board, action - self.burn_base, EMPTY)
        return self._end_turn(_update(state, realms=realms, board=board, dragon_ready=False))

    # -- the supply and what has happened to the buildings ---------------------------------
    def knight_supply(self, state: QueendominoState) -> int:
        return KNIGHTS - sum(realm.knights_owned for realm in state.realms)

    def tower_supply(self, state: QueendominoState) -> int:
        return TOWERS - sum(realm.towers for realm in state.realms)

    def pile_size(self, state: QueendominoState) -> int:
        """The tiles in the draw pile, its face-up top included."""
        return state.pile.bit_count() + (state.top != EMPTY)

    def burnt(self, state: QueendominoState) -> tuple[int, ...]:
        """The buildings the Dragon has burnt: neither in the pile, on the board, nor built."""
        out = {*state.board, state.top}
        out.update(index for realm in state.realms for index, _ in realm.buildings)
        return tuple(b for b in range(len(self.table)) if not state.pile >> b & 1 and b not in out)

    # -- scores ------------------------------------------------------------------------
    def breakdown(self, state: QueendominoState, realm: int) -> sc.Breakdown:
        """The score pad of `realm` (as things stand; final at the end)."""
        return sc.breakdown(self.geo, self.table, state.realms[realm], state.queen == realm)

    def realm_scores(self, state: QueendominoState) -> tuple[int, ...]:
        return tuple(self.breakdown(state, r).total for r in range(self.num_realms))

    def scores(self, state: QueendominoState) -> tuple[float, ...]:
        per_realm = self.realm_scores(state)
        return tuple(float(per_realm[r]) for r in self.realm_of)

    def winners(self, state: QueendominoState) -> tuple[int, ...]:
        realms = self.winning_realms(state)[0]
        return tuple(p for p, r in enumerate(self.realm_of) if r in realms)

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """One side per realm: a team's two players, or a player alone."""
        return tuple(
            tuple(p for p, r in enumerate(self.realm_of) if r == realm)
            for realm in range(self.num_realms)
        )

    def winning_realms(self, state: QueendominoState) -> tuple[tuple[int, ...], str]:
        """The realms sharing the victory and the rule that decided: "score",
        "largest_territory" or "shared" (rulebook "End of the Game")."""
        pads = [self.breakdown(state, r) for r in range(self.num_realms)]
        best = max(pad.total for pad in pads)
        leaders = tuple(r for r, pad in enumerate(pads) if pad.total == best)
        if len(leaders) == 1:
            return leaders, "score"
        largest = max(pads[r].largest_territory for r in leaders)
        leaders = tuple(r for r in leaders if pads[r].largest_territory == largest)
        return leaders, "largest_territory" if len(leaders) == 1 else "shared"

    # -- what is still to come (the bots' forecast counts on it: heuristics.py) ---------
    def waiting(self, state: QueendominoState, r: int) -> list[int]:
        """The dominoes of the round being played that `r` has still to place."""
        if not state.placers or state.phase == OVER:
            return []
        # Between rounds every domino of `placing` waits; in a turn, those after it (and at
        # PLACE the one being placed).
        first = 0 if state.phase in (DRAW, BOARD) else state.turn + (state.phase != PLACE)
        return [
            d
            for d, owner in zip(state.placing[first:], state.placers[first:], strict=True)
            if self.realm_of[owner] == r
        ]

    def placements_left(self, state: QueendominoState, r: int) -> int:
        """How many more dominoes realm `r` will place: those waiting in this round, one per
        king in the line being claimed, and one per king in every line still to draw."""
        kings = sum(1 for owner in self.setup.king_owners if self.realm_of[owner] == r)
        # a line is counted in `lines_drawn` once it is full, not while it is being drawn
        claiming = 1 if state.line and state.phase != DRAW else 0
        lines = self.setup.lines - state.lines_drawn + claiming
        return len(self.waiting(state, r)) + kings * lines

    # -- reading and writing actions, records: codec.py and records.py, whose functions take
    # the game first, so that they serve as its methods ------------------------------------
    action_to_string = codec.action_to_string
    parse_action = codec.parse_action
    events = records.events
    event_actions = records.event_actions
    canonical_event = records.canonical_event
    result = records.result
    record_body = records.record_body
    record_events = records.record_events

    def building_on(self, state: QueendominoState, space: int) -> Building:
        return self.table[state.board[space]]

    # -- serialisation -------------------------------------------------------------------
    def state_to_json(self, state: QueendominoState) -> dict[str, Any]:
        data = state._asdict()
        data["realms"] = [
            {
                "placed": [[number - 1, c1, c2] for number, c1, c2 in realm.kingdom.placed],
                "discarded": [number - 1 for number in realm.kingdom.discarded],
                "coins": realm.coins,
                "guard": realm.guard,
                "knights": _cells(realm.knights),
                "buildings": [list(b) for b in realm.buildings],
                "towers": realm.towers,
            }
            for realm in state.realms
        ]
        for key in ("line", "claims", "placing", "placers", "order", "board"):
            data[key] = list(data[key])
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> QueendominoState:
        try:
            realms = tuple(self._realm_from_json(entry) for entry in data["realms"])
            if len(realms) != self.num_realms:
                raise ValueError(f"{len(realms)} realms, not {self.num_realms}")
            board = tuple(int(b) for b in data["board"])
            if len(board) != SPACES:
                raise ValueError("the Builders' Board has 6 spaces")
            return QueendominoState(
                int(data["phase"]),
                int(data["lines_drawn"]),
                int(data["deck"]),
                tuple(int(d) for d in data["line"]),
                tuple(int(c) for c in data["claims"]),
                tuple(int(d) for d in data["placing"]),
                tuple(int(p) for p in data["placers"]),
                int(data["turn"]),
                tuple(int(p) for p in data["order"]),
                realms,
                board,
                int(data["pile"]),
                bool(data["dragon_ready"]),
                int(data["queen"]),
                int(data["knighted"]),
                int(data["chosen"]),
                int(data["top"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise KingdomkitError(f"malformed Queendomino state: {error}") from None

    def _realm_from_json(self, entry: Mapping[str, Any]) -> Realm:
        kingdom = self._start.kingdom
        for domino, cell1, cell2 in entry["placed"]:
            kingdom = kd.place(self.geo, kingdom, DOMINOES[domino], cell1, cell2)
        for domino in entry["discarded"]:
            kingdom = kd.discard(kingdom, DOMINOES[domino])
        knights = 0
        for cell in entry["knights"]:
            knights |= 1 << cell
        sites = 0
        buildings = []
        for index, cell in entry["buildings"]:
            crowns = self.table[index].crowns
            bit = 1 << cell
            kingdom = kingdom._replace(
                crowns1=kingdom.crowns1 | (bit if crowns & 1 else 0),
                crowns2=kingdom.crowns2 | (bit if crowns & 2 else 0),
            )
            sites |= bit
            buildings.append((int(index), int(cell)))
        return Realm(
            kingdom,
            int(entry["coins"]),
            int(entry["guard"]),
            knights,
            tuple(buildings),
            sites,
            int(entry["towers"]),
        )

    def render(self, state: QueendominoState, player: int | None = None) -> str:
        from kingdomkit.games.queendomino.render import render_text

        return render_text(self, state)


_FIELDS = {name: index for index, name in enumerate(QueendominoState._fields)}
_new = tuple.__new__


# States are rebuilt field by field: NamedTuple._replace costs more than half of a
# playout step, these a third of it.
def _update(state: QueendominoState, **changes: Any) -> QueendominoState:
    values = list(state)
    for name, value in changes.items():
        values[_FIELDS[name]] = value
    return _new(QueendominoState, values)


def _phase(state: QueendominoState, phase: int) -> QueendominoState:
    return _new(QueendominoState, (phase, *state[1:]))


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _cells(board: int) -> list[int]:
    """The set bits of `board`, lowest first."""
    found = []
    while board:
        low = board & -board
        found.append(low.bit_length() - 1)
        board ^= low
    return found


__all__ = [
    "BOARD",
    "BUILD",
    "CLAIM",
    "DRAGON",
    "DRAW",
    "EMPTY",
    "NOBODY",
    "ORDER",
    "OVER",
    "PHASE_NAMES",
    "PLACE",
    "SITE",
    "TAX",
    "UNCLAIMED",
    "Queendomino",
    "QueendominoState",
    "Realm",
]
