"""A slow, obviously-correct model of Queendomino, to test the fast engine against.

Written from the rulebook (shared/rules/queendomino-rulebook.txt) and the rule choices listed in
docs/rules-notes.md, not from the engine: a realm is a few dicts and sets, and a whole game is
one generator that reads like the rulebook, top to bottom, yielding whenever chance or a player
must choose. Placement and territories come from the Kingdomino oracle
(tests/support/oracle.py), whose
terrains are plain ints, so towns are one more terrain there. Only the component data (dominoes,
building tiles) is shared with the engine.

    Tabletop.play()   set-up, then rounds of turns A to E, then the end (rulebook order)
    tax               rulebook B, with the ongoing effects "+1 coin per knight / per tower"
    score_pad         rulebook "End of the Game": wealth, territories, the Queen, buildings
    winners           the highest score, then the largest territory, then shared

Moves are readable pairs: ("claim", domino id), ("place", (square 1 xy, square 2 xy)),
("discard", None), ("knight", 1 or 2: the square of the domino just placed), ("build", space),
("site", xy), ("burn", space), ("pass", None). A space of the Builders' Board is its price.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import oracle
from kingdomkit.games.queendomino.buildings import Building
from kingdomkit.games.queendomino.dominoes import DOMINOES, TERRAINS
from oracle import XY, Square

TOWN = TERRAINS.index("town")
BOX = 48  # dominoes in a box; ids 0 .. 47 the Queendomino box, 48 .. 95 the Kingdomino box
SPACES = 6  # the Builders' Board, prices 0 .. 5
START_COINS, START_KNIGHTS = 7, 1  # rulebook "Set up"; per team in team play
KNIGHTS, TOWERS = 22, 15  # rulebook "Contents": the whole supply
COINS_PER_POINT = 3

Move = tuple[str, Any]
PASS: Move = ("pass", None)
DISCARD: Move = ("discard", None)
DOMINO, BUILDING, KING = "domino", "building", "king"  # what a chance node draws


class Chance(NamedTuple):
    """Chance draws one of `outcomes`, each as likely: a domino id, a building, a king."""

    kind: str
    outcomes: frozenset[int]


class Decision(NamedTuple):
    player: int
    options: frozenset[Move]


Request = Chance | Decision
Answer = int | Move
Play = Generator[Request, Answer, None]


def chance(kind: str, outcomes: Iterable[int]) -> Generator[Request, Answer, int]:
    choices = frozenset(outcomes)
    answer = yield Chance(kind, choices)
    assert isinstance(answer, int) and answer in choices, f"{answer} is not a possible {kind}"
    return answer


def decide(player: int, options: Iterable[Move]) -> Generator[Request, Answer, Move]:
    choices = frozenset(options)
    answer = yield Decision(player, choices)
    assert isinstance(answer, tuple) and answer in choices, f"{answer} is not a legal move"
    return answer


# -- a realm and its scoring ----------------------------------------------------------------
@dataclass
class Realm:
    """A kingdom with its economy: one player's, or one team's."""

    squares: dict[XY, Square] = field(default_factory=dict)  # printed terrain and crowns
    coins: int = START_COINS
    guard: int = START_KNIGHTS
    knights: set[XY] = field(default_factory=set)
    buildings: dict[XY, int] = field(default_factory=dict)  # tile index on each town square
    towers: int = 0
    discarded: list[int] = field(default_factory=list)

    @property
    def knights_owned(self) -> int:
        """Placed and unplaced (rulebook, Knight bonus)."""
        return self.guard + len(self.knights)

    def free_towns(self) -> set[XY]:
        """Town squares with no building: buildings do not stack (rulebook C)."""
        return {
            xy
            for xy, (terrain, _) in self.squares.items()
            if terrain == TOWN and xy not in self.buildings
        }

    def crowned(self, table: Sequence[Building]) -> dict[XY, Square]:
        """The squares with the crowns of the buildings on them added."""
        squares = dict(self.squares)
        for xy, index in self.buildings.items():
            terrain, crowns = squares[xy]
            squares[xy] = (terrain, crowns + table[index].crowns)
        return squares


def territory_size(squares: dict[XY, Square], xy: XY) -> int:
    return next(len(region) for _, region, _ in oracle.territories(squares) if xy in region)


def tax(realm: Realm, table: Sequence[Building], xy: XY) -> int:
    """Coins a knight sent to `xy` collects: the size of its territory, plus, for each
    building with an ongoing effect, the knights owned or the towers (rulebook B and the
    lower left corner of the tiles)."""
    coins = territory_size(realm.squares, xy)
    for index in realm.buildings.values():
        if table[index].ongoing == "coin_per_knight":
            coins += realm.knights_owned
        elif table[index].ongoing == "coin_per_tower":
            coins += realm.towers
    return coins


class Pad(NamedTuple):
    """A realm's line of the score pad."""

    wealth: int
    territories: int  # size x crowns over every territory, towns included, no Queen
    queen: int
    buildings: tuple[tuple[int, int], ...]  # (tile index, points), in build order
    total: int
    largest: int  # the largest territory (the tie-break)


def building_points(building: Building, realm: Realm, terrains: list[int]) -> int:
    """Lower right corner: fixed points, per tower, per knight owned, or per separate
    territory of one terrain (`terrains` lists the terrain of every territory)."""
    points = building.endgame_points
    if building.endgame == "fixed":
        return points
    if building.endgame == "per_tower":
        return points * realm.towers
    if building.endgame == "per_knight":
        return points * realm.knights_owned
    if building.endgame == "per_separate_territory":
        return points * sum(1 for terrain in terrains if terrain == building.endgame_terrain)
    return 0


def score_pad(realm: Realm, table: Sequence[Building], hosts_queen: bool) -> Pad:
    """Rulebook "End of the Game": 1 point per 3 coins, size x crowns per territory, the Queen
    as one more crown on the largest territory, then the buildings one by one."""
    found = oracle.territories(realm.crowned(table))
    territories = sum(len(region) * crowns for _, region, crowns in found)
    largest = max((len(region) for _, region, _ in found), default=0)
    queen = largest if hosts_queen else 0
    terrains = [terrain for terrain, _, _ in found]
    buildings = tuple(
        (index, building_points(table[index], realm, terrains))
        for index in realm.buildings.values()
    )
    wealth = realm.coins // COINS_PER_POINT
    total = wealth + territories + queen + sum(points for _, points in buildings)
    return Pad(wealth, territories, queen, buildings, total, largest)


def winners(pads: Sequence[Pad]) -> tuple[tuple[int, ...], str]:
    """The realms sharing the victory and what decided: the highest score, then the largest
    territory, then the victory is shared."""
    best = max(pad.total for pad in pads)
    leaders = [r for r, pad in enumerate(pads) if pad.total == best]
    if len(leaders) == 1:
        return tuple(leaders), "score"
    largest = max(pads[r].largest for r in leaders)
    leaders = [r for r in leaders if pads[r].largest == largest]
    return tuple(leaders), "largest_territory" if len(leaders) == 1 else "shared"


# -- the set-up each mode asks for ----------------------------------------------------------
# Every mode the rulebook describes: Queendomino alone, the Royal Wedding played individually
# (7 or 8 players "possible, but not recommended") and in teams of 2.
MODES: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 3},
    {"players": 4},
    *({"players": n, "royal_wedding": True} for n in range(3, 9)),
    {"players": 6, "royal_wedding": True, "teams": True},
    {"players": 8, "royal_wedding": True, "teams": True},
)


class Mode(NamedTuple):
    size: int  # the frame: 5x5 or 7x7
    line: int  # dominoes in a line
    boxes: int  # 1, or 2 for the Royal Wedding


def mode(players: int, royal_wedding: bool, teams: bool) -> Mode:
    """Rulebook "Set up", and "Variations with Kingdomino" (play individually, in teams)."""
    if teams:
        return Mode(7, 8, 2)
    if royal_wedding:
        return Mode(7, 4, 2) if players <= 4 else Mode(5, 8, 2)
    return Mode(7 if players == 2 else 5, 4, 1)


# -- the game -------------------------------------------------------------------------------
class Tabletop:
    """Everything on the table, and the game played on it (`play`)."""

    def __init__(
        self,
        players: int,
        table: Sequence[Building],
        royal_wedding: bool = False,
        teams: bool = False,
    ) -> None:
        self.players = players
        self.table = table
        self.teams = teams
        self.size, self.line_size, self.boxes = mode(players, royal_wedding, teams)
        self.lines = self.boxes * BOX // self.line_size
        self.realms = [Realm() for _ in range(players // 2 if teams else players)]
        self.decks = [set(range(box * BOX, (box + 1) * BOX)) for box in range(self.boxes)]
        self.lines_drawn = 0
        self.line: list[int] = []  # the newest line, ascending
        self.domino = -1  # the domino of the turn being played
        self.board: list[int | None] = [None] * SPACES
        self.pile = set(range(len(table)))  # face down
        self.top: int | None = None  # the pile's top tile, face up (rulebook: "grey face up")
        self.burnt: set[int] = set()
        self.dragon_ready = True
        self.queen: int | None = None  # the realm hosting the Queen

    def realm_of(self, player: int) -> int:
        """Team play: players 2t and 2t + 1 share realm t."""
        return player // 2 if self.teams else player

    def price(self, realm: int, space: int) -> int:
        """The Queen lowers her host's construction costs by 1 coin, never below 0."""
        return max(0, space - 1) if self.queen == realm else space

    def pads(self) -> list[Pad]:
        return [
            score_pad(realm, self.table, self.queen == r) for r, realm in enumerate(self.realms)
        ]

    def play(self) -> Play:
        # Set up, step 1: the pile, face up, and six tiles from it onto the Builders' Board.
        # Step 2: the first line, the kings drawn one by one, each claiming a domino of it.
        yield from self.turn_up()
        yield from self.refill()
        yield from self.draw_line()
        claimed: dict[int, int] = {}
        for player in (yield from self.king_order()):
            claimed[(yield from self.claim(player, claimed))] = player
        while True:
            # A round: the kings act in the order of their dominoes in the line (unclaimed
            # ones are discarded), after the board is made ready and the next line laid out.
            placing = [(domino, claimed[domino]) for domino in self.line if domino in claimed]
            self.new_round()
            yield from self.refill()
            last = self.lines_drawn == self.lines  # "End of the Game": A to D only
            if not last:
                yield from self.draw_line()
            claimed = {}
            for domino, player in placing:
                yield from self.turn(player, domino)
                if not last:
                    claimed[(yield from self.claim(player, claimed))] = player
            if last:
                return

    def refill(self) -> Play:
        """Empty spaces take the pile's face-up top, cheapest first, while it lasts; each time
        the next tile of the pile is turned up."""
        for space in range(SPACES):
            if self.board[space] is None and self.top is not None:
                self.board[space], self.top = self.top, None
                yield from self.turn_up()

    def turn_up(self) -> Play:
        """The pile's new top, seen by everyone, while the pile lasts."""
        if self.top is None and self.pile:
            tile = yield from chance(BUILDING, self.pile)
            self.pile.remove(tile)
            self.top = tile

    def new_round(self) -> None:
        """Rulebook "Starting a New Round": the Dragon goes back to its cave, and the tiles
        left slide over to the cheapest spots (the refill follows)."""
        self.dragon_ready = True
        kept = [tile for tile in self.board if tile is not None]
        self.board = [*kept, *[None] * (SPACES - len(kept))]

    def draw_line(self) -> Play:
        """A line from the box whose turn it is (Royal Wedding: Queendomino's first, then
        alternately), laid out in ascending order."""
        deck = self.decks[self.lines_drawn % self.boxes]
        line = []
        for _ in range(self.line_size):
            domino = yield from chance(DOMINO, deck)
            deck.remove(domino)
            line.append(domino)
        self.line = sorted(line)
        self.lines_drawn += 1

    def king_order(self) -> Generator[Request, Answer, list[int]]:
        """The owners of the kings as drawn. 2 players: one king is drawn; its owner claims
        first, the other player twice, then the first player again."""
        if self.players == 2:
            first = yield from chance(KING, (0, 1))
            return [first, 1 - first, 1 - first, first]
        order: list[int] = []
        while len(order) < self.players:
            order.append((yield from chance(KING, set(range(self.players)) - set(order))))
        return order

    def claim(self, player: int, claimed: dict[int, int]) -> Generator[Request, Answer, int]:
        """E: a king onto a free domino of the new line."""
        move = yield from decide(player, {("claim", d) for d in self.line if d not in claimed})
        domino: int = move[1]
        return domino

    def turn(self, player: int, domino: int) -> Play:
        """Rulebook "Playing the Game", A to D (E is `claim`)."""
        r = self.realm_of(player)
        realm = self.realms[r]
        tile = DOMINOES[domino]
        self.domino = domino
        # A: the domino goes in by the connection rules, or is discarded if it fits nowhere.
        placements = oracle.legal_placements(realm.squares, tile, self.size)
        fresh: dict[int, XY] = {}
        if placements:
            move = yield from decide(player, {("place", p) for p in placements})
            first, second = move[1]
            realm.squares = oracle.place(realm.squares, tile, (first, second))
            fresh = {1: first, 2: second}
        else:
            yield from decide(player, {DISCARD})
            realm.discarded.append(domino)
        # B: knights from the guard onto the squares just placed, one each at most.
        while realm.guard and fresh:
            move = yield from decide(player, {("knight", n) for n in fresh} | {PASS})
            if move == PASS:
                break
            xy = fresh.pop(move[1])
            realm.coins += tax(realm, self.table, xy)
            realm.guard -= 1
            realm.knights.add(xy)
        # C: a building from the board onto a free town square, if the realm can pay.
        if self.may_build(r):
            move = yield from decide(
                player, {("build", space) for space in self.affordable(r)} | {PASS}
            )
            if move != PASS:
                site = yield from decide(player, {("site", xy) for xy in realm.free_towns()})
                self.build(r, move[1], site[1])
        # D: the Dragon burns a tile of the board.
        if self.may_bribe(r):
            move = yield from decide(
                player, {("burn", space) for space in self.on_board()} | {PASS}
            )
            if move != PASS:
                self.burn(r, move[1])

    def on_board(self) -> list[int]:
        return [space for space, tile in enumerate(self.board) if tile is not None]

    def affordable(self, r: int) -> list[int]:
        """The spaces whose tile realm `r` can pay for."""
        coins = self.realms[r].coins
        return [space for space in self.on_board() if self.price(r, space) <= coins]

    def may_build(self, r: int) -> bool:
        """C needs a free town square (rulebook) and a tile the realm can pay for."""
        return bool(self.realms[r].free_towns() and self.affordable(r))

    def may_bribe(self, r: int) -> bool:
        """D: only while the Dragon is in its cave, never for the Queen's host, for 1 coin."""
        return (
            self.dragon_ready
            and self.queen != r
            and self.realms[r].coins >= 1
            and bool(self.on_board())
        )

    def burn(self, r: int, space: int) -> None:
        tile = self.board[space]
        assert tile is not None
        self.burnt.add(tile)
        self.board[space] = None  # the Dragon sits there until the round ends
        self.realms[r].coins -= 1
        self.dragon_ready = False

    def build(self, r: int, space: int, xy: XY) -> None:
        """C: pay, put the tile on `xy`, take its knights and towers (as many as the supply
        has left); most towers, even tied, brings the Queen."""
        realm = self.realms[r]
        index = self.board[space]
        assert index is not None
        building = self.table[index]
        realm.coins -= self.price(r, space)
        realm.buildings[xy] = index
        self.board[space] = None
        knights_left = KNIGHTS - sum(other.knights_owned for other in self.realms)
        towers_left = TOWERS - sum(other.towers for other in self.realms)
        realm.guard += min(building.knights, knights_left)
        towers = min(building.towers, towers_left)
        realm.towers += towers
        if towers and realm.towers >= max(other.towers for other in self.realms):
            self.queen = r
