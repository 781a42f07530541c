"""Kingdomino's observation encoding: a position as one player sees it, as fixed-shape numpy
arrays for learning (its `observation` capability, kingdomkit.rl.observation), and its eight
symmetries.

Version 1. P = players; seat i is player (observer + i) % P, so the observer is always seat
0; S = side of the frame centred on the castle (9 for 5x5, 13 for 7x7: every cell a kingdom can
reach). A cell (x, y) relative to the castle (x to the right, y downward) is plane element
[y + reach, x + reach].

    kingdoms  (P * 9, S, S) uint8    9 planes per seat, seat-major (plane 9 * seat + c):
                                       c 0..5  wheat, forest, lake, grassland, swamp, mine:
                                               1 on the squares of that terrain
                                       c 6     crowns on the square (0..3)
                                       c 7     the castle (1 on the centre)
                                       c 8     room: the empty cells a square may still go
                                               on (inside the size x size frame that the
                                               kingdom's bounding box leaves)
    line      (4, 16 + P) uint8      the new line's slots (ascending numbers; empty rows
                                     when shorter or not drawn yet):
                                       0 present, 1..15 the domino (below),
                                       16 + i claimed by seat i
    kings     (4, 19 + P) uint8      the kings in acting order (first round: the shuffled
                                     order; later rounds: the order of the previous line):
                                       0 present, 1 + i owned by seat i, P + 1 has finished
                                       its turn, P + 2 acts now, P + 3 has placed its domino
                                       this round, P + 4 .. P + 18 the domino it places
                                       (later rounds; zeros in the first); all rows
                                       zeros once the game is over
    unseen    (48,) uint8            1 for each domino not drawn yet (number - 1)
    seats     (P, 5) int16           per seat: score of the game being played (bonuses
                                     included), total of the finished games of a dynasty,
                                     discarded dominoes, crowns, largest territory
    counters  (9,) int16             phase one-hot (draw, order, claim, place, over), lines
                                     drawn, lines per game, game number (0..2), games

A domino is 15 values: square 1's terrain one-hot (6) and crowns, square 2's terrain one-hot
(6) and crowns, the printed number.

Actions are the game's own (rules.py): 4 claims, 4 * cells placements (cells with the guard
column, so some codes are never legal), 1 discard.

Symmetries: the kingdom square has the 8 symmetries of the square (rotations, reflections).
Turning every kingdom plane the same way gives a position the rules treat alike (scores,
bonuses and the connection and frame rules do not change); placements turn with it, claims
and the discard stay. A domino whose squares are alike is only offered facing right or down,
so its images are brought back to that form. Meant for the acting player's observation.

Versions: 1, the first.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from numpy.typing import NDArray

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES, NUM_DOMINOES, TERRAINS, Domino
from kingdomkit.games.kingdomino.geometry import Bitboard, Geometry
from kingdomkit.games.kingdomino.state import CLAIM, CLAIMS, OVER, PHASE_NAMES, PLACE
from kingdomkit.rl.observation import ArraySpec, Observation, Symmetry

if TYPE_CHECKING:
    from kingdomkit.games.kingdomino.rules import Kingdomino, KingdominoState

VERSION = 1
PLANES = 9  # planes per kingdom
CROWN_PLANE = 6
CASTLE_PLANE = 7
ROOM_PLANE = 8
DOMINO_WIDTH = 15
SEAT_FEATURES = 5
ROWS = NUM_DOMINOES + 1  # rows of the domino table (row 0: no domino)
DONE, ACTING, PLACED = 1, 2, 4  # a king's flags
FLAGS = 8
KINGDOM_CACHE = 1 << 12  # kingdoms kept (a game has about 50; a few MB at most)
Array = NDArray[Any]

# The 8 symmetries of the square, as matrices (a, b, c, d) taking castle-relative (x, y) to
# (a x + b y, c x + d y); the identity first.
DIHEDRAL = (
    (1, 0, 0, 1),
    (0, -1, 1, 0),
    (-1, 0, 0, -1),
    (0, 1, -1, 0),
    (-1, 0, 0, 1),
    (1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, -1, -1, 0),
)
INT16_MAX = 32767


def turn(matrix: tuple[int, int, int, int], x: int, y: int) -> tuple[int, int]:
    a, b, c, d = matrix
    return a * x + b * y, c * x + d * y


def domino_features(dominoes: tuple[Domino, ...], terrains: int) -> Array:
    """Row n (a domino's `number`; row 0 zeros) of a domino's features: each square's terrain
    one-hot and crowns, then the number: 2 * (terrains + 1) + 1 values."""
    table = np.zeros((len(dominoes) + 1, 2 * terrains + 3), np.uint8)
    for domino in dominoes:
        row = table[domino.number]
        row[domino.terrain1] = 1
        row[terrains] = domino.crowns1
        row[terrains + 1 + domino.terrain2] = 1
        row[2 * terrains + 1] = domino.crowns2
        row[2 * terrains + 2] = domino.number
    return table


class PlaneMaker:
    """Turns bitboards of one geometry into S x S planes (one unpacking for all of them)."""

    def __init__(self, geo: Geometry) -> None:
        self.side = geo.side
        self.width = geo.width
        self.cells = geo.cells
        self.stride = (geo.cells + 7) // 8 * 8  # bits per board, whole bytes

    def planes(self, boards: list[Bitboard]) -> Array:
        """(len(boards), S, S) uint8 of 0 and 1 (a view: copy before changing it)."""
        packed = 0
        shift = 0
        stride = self.stride
        for board in boards:
            packed |= board << shift
            shift += stride
        raw = np.frombuffer(packed.to_bytes(shift // 8, "little"), np.uint8)
        bits = np.unpackbits(raw, bitorder="little").reshape(len(boards), stride)
        # a row of the board is `width` bits, the last the guard column
        rows = bits[:, : self.cells].reshape(len(boards), self.side, self.width)
        return rows[:, :, : self.side]


def line_rows(dominoes: Array, players: int) -> Array:
    """Every row of `line`: row owner * ROWS + number, owner 0 unclaimed or 1 + seat; number
    0 is an empty slot (all zeros)."""
    width = len(dominoes[0])
    table = np.zeros((players + 1, len(dominoes), 1 + width + players), np.uint8)
    table[:, 1:, 0] = 1
    table[:, 1:, 1 : 1 + width] = dominoes[1:]
    for seat in range(players):
        table[1 + seat, 1:, 1 + width + seat] = 1
    return table.reshape(-1, table.shape[-1])


def king_rows(dominoes: Array, players: int) -> Array:
    """Every row of `kings`: row (seat * FLAGS + flags) * ROWS + number (number 0: no domino
    to place yet), and last an absent king (all zeros)."""
    width = len(dominoes[0])
    table = np.zeros((players, FLAGS, len(dominoes), 4 + width + players), np.uint8)
    table[..., 0] = 1
    for seat in range(players):
        table[seat, ..., 1 + seat] = 1
    for flags in range(FLAGS):
        for bit, column in ((DONE, 1), (ACTING, 2), (PLACED, 3)):
            if flags & bit:
                table[:, flags, :, players + column] = 1
    table[..., 4 + players :] = dominoes
    rows = table.reshape(-1, table.shape[-1])
    return np.concatenate([rows, np.zeros_like(rows[:1])])


def line_indices(
    line: tuple[int, ...],
    claims: tuple[int, ...],
    player: int,
    players: int,
    rows: int,
    size: int,
    offset: int = 0,
) -> list[int]:
    """The rows of `line_rows` that encode a line and its claims for `player`, padded to
    `size` slots with empty rows; `rows` is the domino table's length, and a domino of the
    line is its row less `offset` (Kingdomino lists numbers: 0; Queendomino ids: 1)."""
    found = [0] * size  # row 0: an empty slot
    for slot, domino in enumerate(line):
        owner = claims[slot] if claims else -1
        found[slot] = (0 if owner < 0 else 1 + (owner - player) % players) * rows + domino + offset
    return found


class Round(Protocol):
    """The fields of a state that say who acts in a round (both games' states have them)."""

    @property
    def placers(self) -> tuple[int, ...]: ...
    @property
    def order(self) -> tuple[int, ...]: ...
    @property
    def placing(self) -> tuple[int, ...]: ...
    @property
    def turn(self) -> int: ...


def king_indices(
    state: Round,
    player: int,
    players: int,
    acting: bool,
    placed: int,
    rows: int,
    size: int,
    offset: int = 0,
) -> list[int]:
    """The rows of `king_rows` that encode the kings of a round for `player`: in acting order
    (the first round's `order`, later the `placers`), padded to `size` with absent kings.
    `acting`: the king at `turn` is acting now; `placed`: how many kings have placed their
    domino this round. A domino of `placing` is its table row less `offset`."""
    absent = players * FLAGS * rows
    found = [absent] * size
    placers = state.placers
    turn = state.turn
    placing = state.placing
    for king, owner in enumerate(placers or state.order):
        flags = DONE if king < turn else ACTING if king == turn and acting else 0
        if placers and king < placed:
            flags |= PLACED
        domino = placing[king] + offset if placers else 0
        found[king] = (((owner - player) % players) * FLAGS + flags) * rows + domino
    return found


def room(geo: Geometry, kingdom: kd.Kingdom) -> Bitboard:
    """The empty cells that the frame still leaves to `kingdom`."""
    allowed = geo.allowed(kingdom.min_x, kingdom.max_x, kingdom.min_y, kingdom.max_y)
    return allowed & ~kingdom.occupied


def bits(value: int, count: int) -> Array:
    """The low `count` bits of `value`, lowest first, as uint8."""
    raw = np.frombuffer(value.to_bytes((count + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[:count]


def one_hot(index: int, size: int) -> list[int]:
    return [1 if i == index else 0 for i in range(size)]


class KingdominoEncoder:
    """The encoding for one configured game, with its tables built once. Rows of `line` and
    `kings` are looked up whole in tables; a kingdom's planes and score are kept per kingdom
    (positions share their unchanged kingdoms, so most steps encode one new kingdom)."""

    version = VERSION  # the layout: Observer.version

    def __init__(self, game: Kingdomino) -> None:
        self.game = game
        self.geo = geo = game.geo
        self.players = players = game.num_players
        self.maker = PlaneMaker(geo)
        self.dominoes = dominoes = domino_features(DOMINOES, len(TERRAINS))
        self.line_rows = line_rows(dominoes, players)
        self.king_rows = king_rows(dominoes, players)
        self.absent_king = len(self.king_rows) - 1
        self.kingdoms: dict[kd.Kingdom, tuple[Array, tuple[int, int, int, int]]] = {}

    def spec(self) -> dict[str, ArraySpec]:
        p, side = self.players, self.geo.side
        lines = self.game.setup.lines
        return {
            "kingdoms": ArraySpec((p * PLANES, side, side), "uint8", 0, 3),
            "line": ArraySpec((CLAIMS, 1 + DOMINO_WIDTH + p), "uint8", 0, NUM_DOMINOES),
            "kings": ArraySpec((CLAIMS, 4 + DOMINO_WIDTH + p), "uint8", 0, NUM_DOMINOES),
            "unseen": ArraySpec((NUM_DOMINOES,), "uint8", 0, 1),
            "seats": ArraySpec((p, SEAT_FEATURES), "int16", 0, INT16_MAX),
            "counters": ArraySpec((len(PHASE_NAMES) + 4,), "int16", 0, max(lines, 3)),
        }

    def observe(self, state: KingdominoState, player: int) -> Observation:
        game = self.game
        state = game.view(state, player)
        p = self.players
        seats = [(player + i) % p for i in range(p)]
        found = [self.kingdom(state.kingdoms[seat]) for seat in seats]
        past = state.past_scores
        return {
            "kingdoms": np.concatenate([planes for planes, _ in found]),
            "line": self.line(state, player),
            "kings": self.kings(state, player),
            "unseen": bits(state.deck, NUM_DOMINOES),
            "seats": np.array(
                [
                    (total, sum(scores[seat] for scores in past), *rest)
                    for seat, (_, (total, *rest)) in zip(seats, found, strict=True)
                ],
                np.int16,
            ),
            "counters": np.array(
                [
                    *one_hot(state.phase, len(PHASE_NAMES)),
                    state.lines_drawn,
                    game.setup.lines,
                    state.game_number,
                    game.setup.games,
                ],
                np.int16,
            ),
        }

    def kingdom(self, kingdom: kd.Kingdom) -> tuple[Array, tuple[int, int, int, int]]:
        """A kingdom's 9 planes, and its score, discards, crowns and largest territory."""
        found = self.kingdoms.get(kingdom)
        if found is None:
            if len(self.kingdoms) >= KINGDOM_CACHE:
                self.kingdoms.clear()
            geo = self.geo
            boards = [
                *kingdom.terrains,
                kingdom.crowns1,
                geo.castle_bit,
                room(geo, kingdom),
                kingdom.crowns2,
            ]
            unpacked = self.maker.planes(boards)
            planes = unpacked[:PLANES].copy()
            planes[CROWN_PLANE] += unpacked[PLANES] << 1
            pad = self.game.kingdom_breakdown(kingdom)
            row = (pad.total, len(kingdom.discarded), pad.crowns, pad.largest_territory)
            found = self.kingdoms[kingdom] = (planes, row)
        return found

    def line(self, state: KingdominoState, player: int) -> Array:
        rows = line_indices(state.line, state.claims, player, self.players, ROWS, CLAIMS)
        return self.line_rows.take(rows, axis=0)

    def kings(self, state: KingdominoState, player: int) -> Array:
        phase = state.phase
        if phase == OVER:
            rows = [self.absent_king] * CLAIMS
        else:
            placed = state.turn + (1 if phase == CLAIM else 0)
            rows = king_indices(
                state, player, self.players, phase in (CLAIM, PLACE), placed, ROWS, CLAIMS
            )
        return self.king_rows.take(rows, axis=0)

    def action_cells(self) -> tuple[int, Array]:
        """The board's actions on the kingdom planes, for a network's board policy: 4 planes
        (a domino facing right, down, left, up), a placement's element the plane of its
        facing at its first square; -1 for claims and the discard."""
        return 4, placement_cells(self.geo, CLAIMS, self.game.num_actions)

    # -- symmetries ------------------------------------------------------------------------
    def symmetries(self, observation: Observation, action_mask: Array) -> list[Symmetry]:
        p = self.players
        phase = int(np.argmax(observation["counters"][: len(PHASE_NAMES)]))
        alike = phase == PLACE and acting_domino_alike(observation["kings"], p, len(TERRAINS))
        maps = placement_maps(self.geo, CLAIMS, self.game.num_actions, alike)
        return turned(self.geo, observation, action_mask, "kingdoms", maps)


def acting_domino_alike(kings: Array, players: int, terrains: int) -> bool:
    """True when the acting king's domino (a `kings` array) has two alike squares."""
    acting = np.flatnonzero(kings[:, players + 2])
    if not len(acting):
        return False
    squares = kings[acting[0], players + 4 :]
    half = terrains + 1
    return bool(np.array_equal(squares[:half], squares[half : 2 * half]))


def turned(
    geo: Geometry,
    observation: Observation,
    action_mask: Array,
    key: str,
    action_maps: tuple[Array, ...],
) -> list[Symmetry]:
    """The 8 symmetries of an observation whose array `key` holds S x S planes, with the
    action maps of `placement_maps`."""
    side = geo.side
    planes = observation[key]
    flat = planes.reshape(len(planes), side * side)
    found = []
    for permutation, actions in zip(plane_maps(geo), action_maps, strict=True):
        image = dict(observation)
        image[key] = flat[:, permutation].reshape(len(planes), side, side)
        mask = np.zeros_like(action_mask)
        mask[actions] = action_mask
        found.append(Symmetry(image, mask, actions))
    return found


@cache
def plane_maps(geo: Geometry) -> tuple[Array, ...]:
    """For each symmetry, the permutation of a flattened S x S plane: new[i] = old[map[i]]."""
    reach, side = geo.reach, geo.side
    maps = []
    for transform in DIHEDRAL:
        source = np.zeros(side * side, np.intp)
        for y in range(-reach, reach + 1):
            for x in range(-reach, reach + 1):
                tx, ty = turn(transform, x, y)
                source[(ty + reach) * side + tx + reach] = (y + reach) * side + x + reach
        maps.append(source)
    return tuple(maps)


@cache
def placement_maps(
    geo: Geometry, base: int, num_actions: int, alike: bool, cell_bases: tuple[int, ...] = ()
) -> tuple[Array, ...]:
    """For each symmetry, the image of every action (a permutation of range(num_actions)):
    placements `base + direction * cells + cell` turn with the kingdom, and so do the actions
    `cell_base + cell` for each of `cell_bases` (Queendomino's building sites); the others stay.
    With `alike` (a domino whose squares are alike, offered facing right or down only) a
    placement facing right or down maps to the image facing right or down, the others to the
    reverse, so that the map stays a permutation."""
    cells, deltas = geo.cells, geo.deltas
    maps = []
    for transform in DIHEDRAL:
        image = np.arange(num_actions)  # the codes that are never a placement stay
        for code, direction, cell1, cell2 in placements(geo):
            new1 = geo.cell(*turn(transform, *geo.xy(cell1)))
            new2 = geo.cell(*turn(transform, *geo.xy(cell2)))
            facing = deltas.index(new2 - new1)
            if alike and (facing >= 2) != (direction >= 2):
                new1, facing = new2, (facing + 2) % 4
            image[base + code] = base + facing * cells + new1
        for cell_base in cell_bases:
            for cell in range(cells):
                if _real(geo, cell):
                    image[cell_base + cell] = cell_base + geo.cell(*turn(transform, *geo.xy(cell)))
        maps.append(image)
    return tuple(maps)


@cache
def placement_cells(geo: Geometry, base: int, num_actions: int) -> Array:
    """Per action, the element of a flattened (4, S, S) stack that places a domino's first
    square on that cell facing that way (plane = the direction of `geo.deltas`: right, down,
    left, up), -1 for the other actions and the codes that are never a placement."""
    side, reach = geo.side, geo.reach
    found = np.full(num_actions, -1, np.intp)
    for code, direction, cell1, _ in placements(geo):
        x, y = geo.xy(cell1)
        found[base + code] = (direction * side + y + reach) * side + x + reach
    found.flags.writeable = False
    return found


@cache
def placements(geo: Geometry) -> tuple[tuple[int, int, int, int], ...]:
    """Every placement code (direction * cells + first square's cell) that can be one, with
    its direction and its two squares' cells; the others join a guard cell or wrap a row."""
    cells, deltas = geo.cells, geo.deltas
    found = []
    for code in range(4 * cells):
        direction, cell1 = divmod(code, cells)
        cell2 = cell1 + deltas[direction]
        if (
            _real(geo, cell1)
            and _real(geo, cell2)
            and abs(geo.xs[cell1] - geo.xs[cell2]) + abs(geo.ys[cell1] - geo.ys[cell2]) == 1
        ):
            found.append((code, direction, cell1, cell2))
    return tuple(found)


def _real(geo: Geometry, cell: int) -> bool:
    return 0 <= cell < geo.cells and geo.xs[cell] <= geo.reach
