"""A slow, obviously-correct model of Knizia's Kingdoms, to test the fast engine against.

Written from the rulebook (shared/rules/kingdoms-rulebook.txt) and the rule choices listed in
docs/rules-notes.md, not from the engine; not even the component data is shared. The board is a
dict {(row, column): piece}, rows 1-5 and columns 1-6 as the rulebook counts; a piece is a
tile's label (`+3`, `-6`, `MTN`, `DRG`, `GLD`, `WIZ`) or a Castle(player, rank); the supply
is a Counter of labels. A whole game is one generator that reads like the rulebook, yielding
whenever chance or a player must choose.

    line_gold / epoch_gold   rulebook "Scoring" (rows top to bottom, then columns)
    Tabletop.legal_moves     rulebook "Play"; "No Luck"
    Tabletop.play()          "Setup", epochs of turns, scoring, "The Second & Third Epochs",
                             "Game End"; "Down to the Last Castle", "Score as You Go"
    winners                  the most gold; equal gold shares the victory

Moves are readable pairs: ("castle", (rank, (row, column))), ("draw", None), ("start",
(row, column)), ("place", (row, column)), ("take", label), ("pass", None).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

# -- the box (rulebook "Components" and "Setup") -------------------------------------------------
ROWS = range(1, 6)
COLUMNS = range(1, 7)
POSITIONS = [(row, column) for row in ROWS for column in COLUMNS]
TILES: dict[str, int] = {
    **{f"+{value}": 2 for value in range(1, 7)},  # 12 resources
    **{f"-{value}": 1 for value in range(1, 7)},  # 6 hazards
    "MTN": 2,
    "DRG": 1,
    "GLD": 1,
    "WIZ": 1,
}
RANK_ONE_CASTLES = {2: 4, 3: 3, 4: 2}  # "Number of Castles per Player"
COLOUR = {1: 4, 2: 3, 3: 2, 4: 1}  # every castle of a colour, by rank
START_GOLD = 50
EPOCHS = 3

Pos = tuple[int, int]
Move = tuple[str, Any]
PASS: Move = ("pass", None)
DRAW: Move = ("draw", None)
FIRST, TILE = "first player", "tile"  # what a chance node draws


class Castle(NamedTuple):
    player: int
    rank: int  # printed: 1 to 4


Piece = str | Castle
Board = Mapping[Pos, Piece]

# The 5 rows, top to bottom, then the 6 columns, left to right: the scoring order.
LINES: list[list[Pos]] = [[(row, column) for column in COLUMNS] for row in ROWS] + [
    [(row, column) for row in ROWS] for column in COLUMNS
]


# -- scoring (rulebook "Scoring") -----------------------------------------------------------------
def neighbours(pos: Pos) -> list[Pos]:
    row, column = pos
    steps = ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
    return [(r, c) for r, c in steps if r in ROWS and c in COLUMNS]


def rank(board: Board, pos: Pos) -> int:
    """A castle's rank: printed, plus one for each wizard orthogonally next to it."""
    castle = board[pos]
    assert isinstance(castle, Castle)
    return castle.rank + sum(1 for other in neighbours(pos) if board.get(other) == "WIZ")


def parts(board: Board, line: Sequence[Pos]) -> list[list[Pos]]:
    """The line cut by its mountains into the parts scored separately."""
    found: list[list[Pos]] = [[]]
    for pos in line:
        if board.get(pos) == "MTN":
            found.append([])
        else:
            found[-1].append(pos)
    return found


def part_value(board: Board, part: Sequence[Pos]) -> int:
    """Resources plus hazards; a dragon cancels the resources; a gold mine doubles the rest."""
    tiles = [piece for pos in part if isinstance(piece := board.get(pos), str)]
    resources = sum(int(tile) for tile in tiles if tile.startswith("+"))
    hazards = sum(int(tile) for tile in tiles if tile.startswith("-"))
    if "DRG" in tiles:
        resources = 0
    value = resources + hazards
    if "GLD" in tiles:
        value *= 2
    return value


def line_gold(board: Board, line: Sequence[Pos], players: int) -> list[int]:
    """What each player collects from (or pays to) the bank for one row or column."""
    gold = [0] * players
    for part in parts(board, line):
        value = part_value(board, part)
        for pos in part:
            piece = board.get(pos)
            if isinstance(piece, Castle):
                gold[piece.player] += value * rank(board, pos)
    return gold


def epoch_gold(board: Board, players: int) -> list[int]:
    """The whole board, each row and then each column: what each player gains."""
    gold = [0] * players
    for line in LINES:
        for player, gain in enumerate(line_gold(board, line, players)):
            gold[player] += gain
    return gold


def winners(gold: Sequence[int]) -> list[int]:
    return [player for player, amount in enumerate(gold) if amount == max(gold)]


# -- requests: what the game asks of chance and of the players -------------------------------------
class Chance(NamedTuple):
    """Chance draws one of the keys of `weights`, each with odds in proportion to its weight:
    a player (who starts), or a tile's label (drawn from the face-down supply)."""

    kind: str
    weights: dict[Any, int]


class Decision(NamedTuple):
    player: int
    options: frozenset[Move]


Request = Chance | Decision
Answer = int | str | Move
Play = Generator[Request, Answer, None]


def decide(player: int, options: set[Move]) -> Generator[Request, Answer, Move]:
    choices = frozenset(options)
    answer = yield Decision(player, choices)
    assert isinstance(answer, tuple) and answer in choices, f"{answer} is not a legal move"
    return answer


# -- the table ------------------------------------------------------------------------------------
@dataclass
class Tabletop:
    """Everything on the table. A new one is a game about to start (rulebook "Setup")."""

    players: int
    down_to_the_last_castle: bool = False
    no_luck: bool = False
    score_as_you_go: bool = False
    epoch: int = 1
    board: dict[Pos, Piece] = field(default_factory=dict)
    supply: Counter[str] = field(default_factory=lambda: Counter(TILES))
    starting: list[str | None] = field(default_factory=list)
    hands: list[dict[int, int]] = field(default_factory=list)  # castles in hand, by rank
    gold: list[int] = field(default_factory=list)
    first: int = 0
    turn: int = 0
    held: str | None = None  # a tile drawn (or taken) and not yet placed
    scored: set[int] = field(default_factory=set)  # lines (indices into LINES) scored
    last_castle_placed: bool = False  # this epoch, by anyone (Down to the Last Castle)

    def __post_init__(self) -> None:
        if not self.hands:
            hand = dict(COLOUR)
            if not self.down_to_the_last_castle:
                hand[1] = RANK_ONE_CASTLES[self.players]
            self.hands = [dict(hand) for _ in range(self.players)]
        self.starting = self.starting or [None] * self.players
        self.gold = self.gold or [START_GOLD] * self.players

    # -- what a player may do -------------------------------------------------------------
    def empty(self) -> list[Pos]:
        return [pos for pos in POSITIONS if pos not in self.board]

    def legal_moves(self, player: int) -> set[Move]:
        """Place a castle, draw and place a tile (No Luck: take a face-up one), or place the
        starting tile, always on an empty space; pass only when none of these is possible."""
        empty = self.empty()
        moves: set[Move] = set()
        if not empty:
            return {PASS}
        for castle_rank, count in self.hands[player].items():
            if count > 0:
                moves |= {("castle", (castle_rank, pos)) for pos in empty}
        if self.no_luck:
            moves |= {("take", label) for label, count in self.supply.items() if count > 0}
        elif sum(self.supply.values()) > 0:
            moves.add(DRAW)
        if self.starting[player] is not None:
            moves |= {("start", pos) for pos in empty}
        return moves or {PASS}

    def first_candidates(self) -> list[int]:
        """Epoch 1: anyone; later, the player with the most gold (a tie: any of the tied)."""
        if self.epoch == 1:
            return list(range(self.players))
        return winners(self.gold)

    def epoch_over(self) -> bool:
        """The board is full, or (Down to the Last Castle) nobody can do anything but pass."""
        if not self.empty():
            return True
        return all(self.legal_moves(player) == {PASS} for player in range(self.players))

    def game_over(self) -> bool:
        if self.down_to_the_last_castle:
            return self.last_castle_placed
        return self.epoch == EPOCHS

    # -- the game, as the rulebook tells it ------------------------------------------------
    def play(self) -> Play:
        """The game from its set-up to its end."""
        while True:
            yield from self.set_up_epoch()
            yield from self.resume()
            if self.game_over():
                return
            self.next_epoch()

    def resume(self) -> Play:
        """The rest of the epoch from the turn of `turn`, then its scoring."""
        while not self.epoch_over():
            yield from self.take_turn(self.turn)
            self.turn = (self.turn + 1) % self.players  # clockwise: to the left
        for line in range(len(LINES)):
            if line not in self.scored:
                self.score(line)

    def finish(self) -> Play:
        """From a position in the middle of an epoch to the end of the game."""
        yield from self.resume()
        if not self.game_over():
            self.next_epoch()
            yield from self.play()

    def set_up_epoch(self) -> Play:
        # The order of these independent draws is the engine's (who starts, then the starting
        # tiles in seat order); it changes no odds.
        answer = yield Chance(FIRST, dict.fromkeys(self.first_candidates(), 1))
        assert isinstance(answer, int) and answer in self.first_candidates()
        self.first = self.turn = answer
        if not self.no_luck:
            for player in range(self.players):
                self.starting[player] = yield from self.draw()

    def draw(self) -> Generator[Request, Answer, str]:
        """A tile drawn at random from the face-down supply."""
        answer = yield Chance(TILE, {label: n for label, n in self.supply.items() if n > 0})
        assert isinstance(answer, str) and self.supply[answer] > 0
        self.supply[answer] -= 1
        return answer

    def take_turn(self, player: int) -> Play:
        verb, what = yield from decide(player, self.legal_moves(player))
        if verb == "castle":
            castle_rank, pos = what
            self.hands[player][castle_rank] -= 1
            if not any(self.hands[player].values()):
                self.last_castle_placed = True
            self.put(pos, Castle(player, castle_rank))
        elif verb == "start":
            tile = self.starting[player]
            assert tile is not None
            self.starting[player] = None
            self.put(what, tile)
        elif verb in ("draw", "take"):
            if verb == "draw":
                self.held = yield from self.draw()
            else:
                self.held = what
                self.supply[what] -= 1
            _, pos = yield from decide(player, {("place", pos) for pos in self.empty()})
            tile, self.held = self.held, None
            self.put(pos, tile)

    def put(self, pos: Pos, piece: Piece) -> None:
        assert pos not in self.board, "a piece on a piece"
        self.board[pos] = piece
        if self.score_as_you_go:
            for line, spaces in enumerate(LINES):
                if line not in self.scored and all(p in self.board for p in spaces):
                    self.score(line)

    def score(self, line: int) -> None:
        gains = line_gold(self.board, LINES[line], self.players)
        self.gold = [gold + gain for gold, gain in zip(self.gold, gains, strict=True)]
        self.scored.add(line)

    def next_epoch(self) -> None:
        """Rulebook "The Second & Third Epochs": rank-1 castles go back to their owners, the
        others into the box (Down to the Last Castle: every castle into the box); every tile
        back into the supply; new starting tiles."""
        for piece in self.board.values():
            if isinstance(piece, Castle) and piece.rank == 1 and not self.down_to_the_last_castle:
                self.hands[piece.player][1] += 1
        self.board = {}
        self.supply = Counter(TILES)
        self.starting = [None] * self.players
        self.scored = set()
        self.last_castle_placed = False
        self.epoch += 1


# Every player count and every variant, alone and all together (the lockstep tests and the
# conformance suite play these).
MODES: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "down_to_the_last_castle": True},
    {"players": 4, "down_to_the_last_castle": True},
    {"players": 3, "no_luck": True},
    {"players": 2, "score_as_you_go": True},
    {"players": 4, "score_as_you_go": True},
    {"players": 3, "down_to_the_last_castle": True, "no_luck": True, "score_as_you_go": True},
    {"players": 4, "down_to_the_last_castle": True, "no_luck": True, "score_as_you_go": True},
)


def tabletop(options: Mapping[str, Any]) -> Tabletop:
    return Tabletop(
        options["players"],
        options.get("down_to_the_last_castle", False),
        options.get("no_luck", False),
        options.get("score_as_you_go", False),
    )
