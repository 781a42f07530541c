"""The text notation of a Queendomino realm: its kingdom with buildings and knights, and the
coins, guard, towers and Queen that go with it. For people scoring real games and for test
positions (docs/queendomino-notation.md).

The kingdom is drawn as in Kingdomino (kingdomino/notation.py): one line per row, cells
separated by spaces, `C` the castle, `.` empty, a terrain letter with its crowns (`G2`),
and `T` for a town square. Two marks are added:

    T:B27      a town square holding a building, by tile id (its crowns come from the table)
    G2*  T:B03*    `*` last: a knight stands on the square (one at most)

Fields, one `name: value` per line, above or below the kingdom:

    coins: 11      coins left                   0 if left out
    guard: 1       knights not sent out yet     0 if left out
    towers: 3      towers in the kingdom        needed when a building brings towers
    queen: yes     the realm hosts the Queen    yes or no; no if left out

Towers are written, not derived from the buildings: when the supply runs out a building
brings fewer than it shows. They are checked against what the buildings can bring, when
every building's immediate effect is known. Blank lines and `#` comments are ignored, and
letters may be lower case. The rulebook's Scoring Example (71 points):

    W1    W  W     F1    F
    L2    L  L     T:B03 T:B13*
    G1*   G1 C     S1    F1
    G1    G  T:B17 M2*   T:B21
    T:B23 F  T:B27 M1    M1
    coins: 11
    guard: 1
    towers: 3
    queen: yes
"""

from __future__ import annotations

import re
from typing import NamedTuple

from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.geometry import Geometry
from kingdomkit.games.kingdomino.notation import CASTLE, CROWN_DIGITS, EMPTY, NotationError
from kingdomkit.games.queendomino.buildings import Building, BuildingTable
from kingdomkit.games.queendomino.dominoes import TERRAIN_LETTERS, TERRAINS, TOWN, square_label
from kingdomkit.games.queendomino.state import KNIGHTS, TOWERS, Realm

KNIGHT = "*"
BUILT = ":"
FIELDS = ("coins", "guard", "towers", "queen")
ANSWERS = {"yes": True, "no": False}
# A field line: a name of two letters or more, then a colon. `T:B27` (one letter) is a cell.
FIELD_LINE = re.compile(r"(\s*)([A-Za-z][A-Za-z_]+)(\s*:\s*)(.*?)\s*$")

__all__ = ["NotationError", "parse_realm", "realm_to_notation"]


class _Square(NamedTuple):
    """What one token writes (not the castle's or an empty cell's)."""

    terrain: int | None  # None for the castle
    crowns: int  # the square's own crowns; a building's come from the table
    building: Building | None
    knight: bool


CASTLE_SQUARE = _Square(None, 0, None, False)


class _Cell(NamedTuple):
    """A written square, (x, y) from the castle, and where it was written."""

    x: int
    y: int
    line: int
    column: int
    square: _Square


class _Field(NamedTuple):
    value: int | bool
    line: int
    column: int


def _read_token(token: str, line: int, column: int, table: BuildingTable) -> _Square | None:
    """The square a token writes; None for an empty cell."""
    knight = token.endswith(KNIGHT)
    body = token[:-1] if knight else token
    if KNIGHT in body:
        raise NotationError(line, column, f"{token!r}: a square holds one knight at most")
    head, built, tile = body.partition(BUILT)
    word = head.upper()
    if word in (CASTLE, EMPTY):
        if knight or built:
            what = "the castle" if word == CASTLE else "an empty cell"
            raise NotationError(
                line, column, f"{token!r}: {what} holds no {'knight' if knight else 'building'}"
            )
        return None if word == EMPTY else CASTLE_SQUARE
    letter, crowns = word[:1], word[1:]
    if not letter or letter not in TERRAIN_LETTERS:
        raise NotationError(
            line,
            column,
            f"unknown cell {token!r} (terrains are {' '.join(TERRAIN_LETTERS)}; C is the "
            "castle, . is empty, T:B27 a building, * a knight)",
        )
    if crowns and crowns not in CROWN_DIGITS:
        raise NotationError(line, column, f"{token!r}: a square has 0 to 3 crowns")
    terrain = TERRAIN_LETTERS.index(letter)
    if terrain == TOWN and int(crowns or 0):
        raise NotationError(
            line, column, f"{token!r}: a town square has no crowns; they come from its building"
        )
    building = None
    if built:
        if terrain != TOWN:
            raise NotationError(
                line, column, f"{token!r}: a building stands on a town square (T), not {letter}"
            )
        building = _building(tile, line, column + len(head) + 1, table)
    return _Square(terrain, int(crowns or 0), building, knight)


def _building(tile: str, line: int, column: int, table: BuildingTable) -> Building:
    for building in table.buildings:
        if building.tile.upper() == tile.upper():
            return building
    raise NotationError(
        line, column, f"no building {tile!r} in the building table ({table.source})"
    )


def _read_field(fields: dict[str, _Field], match: re.Match[str], line: int) -> None:
    indent, name, colon, value = match.groups()
    key = name.lower()
    column = len(indent) + 1
    if key not in FIELDS:
        raise NotationError(
            line, column, f"unknown field {name!r} (the fields are {', '.join(FIELDS)})"
        )
    if key in fields:
        raise NotationError(
            line, column, f"{key} is written twice (first on line {fields[key].line})"
        )
    at = len(indent) + len(name) + len(colon) + 1
    if key == "queen":
        answer = ANSWERS.get(value.lower())
        if answer is None:
            raise NotationError(line, at, f"queen: write yes or no, not {value!r}")
        fields[key] = _Field(answer, line, at)
        return
    if not (value.isascii() and value.isdigit()):
        raise NotationError(line, at, f"{key}: write a whole number, not {value!r}")
    limit = {"towers": TOWERS, "guard": KNIGHTS}.get(key)
    if limit is not None and int(value) > limit:
        pieces = "knights" if key == "guard" else key
        raise NotationError(line, at, f"{key}: the game has {limit} {pieces}, not more")
    fields[key] = _Field(int(value), line, at)


def _tokens(raw: str) -> list[tuple[int, str]]:
    """The tokens of a line with the column each starts at."""
    found = []
    position = 0
    for token in raw.split():
        position = raw.index(token, position)
        found.append((position + 1, token))
        position += len(token)
    return found


def _read(text: str, table: BuildingTable) -> tuple[list[_Cell], dict[str, _Field]]:
    """The written squares, (x, y) from the castle, and the fields."""
    written: list[_Cell] = []  # x, y count cells and rows of the text until the castle is known
    fields: dict[str, _Field] = {}
    first: tuple[int, int] | None = None  # the first row: its line and how many cells
    rows = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        match = FIELD_LINE.match(raw)
        if match:
            _read_field(fields, match, number)
            continue
        tokens = _tokens(raw)
        if first is None:
            first = (number, len(tokens))
        elif len(tokens) != first[1]:
            raise NotationError(
                number, 1, f"this row has {len(tokens)} cells, the first row has {first[1]}"
            )
        for x, (column, token) in enumerate(tokens):
            square = _read_token(token, number, column, table)
            if square is not None:
                written.append(_Cell(x, rows, number, column, square))
        rows += 1
    if first is None:
        raise NotationError(1, 1, "no kingdom: the text has no row of squares")
    castles = [cell for cell in written if cell.square.terrain is None]
    if not castles:
        raise NotationError(first[0], 1, "no castle (C) in the kingdom")
    if len(castles) > 1:
        raise NotationError(castles[1].line, castles[1].column, "a kingdom has one castle, not two")
    x0, y0 = castles[0].x, castles[0].y
    return [c._replace(x=c.x - x0, y=c.y - y0) for c in written], fields


def _check_frame(geo: Geometry, squares: list[_Cell]) -> None:
    for name, values in (("wide", [c.x for c in squares]), ("tall", [c.y for c in squares])):
        extent = max(values) - min(values) + 1
        if extent > geo.size:
            # The square farthest from the castle is the one to move.
            far = squares[max(range(len(values)), key=lambda i: abs(values[i]))]
            raise NotationError(
                far.line,
                far.column,
                f"the kingdom is {extent} squares {name}; it must fit in {geo.size}x{geo.size}",
            )


def parse_realm(text: str, geo: Geometry, table: BuildingTable) -> tuple[Realm, bool]:
    """The realm that `text` writes, in a frame of `geo.size`, with its buildings from
    `table`, and whether it hosts the Queen; raises NotationError (line, column)."""
    written, fields = _read(text, table)
    _check_frame(geo, written)
    terrains = [0] * len(TERRAINS)
    crowns1 = crowns2 = knights = sites = 0
    occupied = geo.castle_bit
    built: dict[int, _Cell] = {}  # building index: where it was written
    buildings: list[tuple[int, int]] = []
    for entry in written:
        terrain, crowns, building, knight = entry.square
        if terrain is None:
            continue
        cell = geo.cell(entry.x, entry.y)
        bit = 1 << cell
        terrains[terrain] |= bit
        occupied |= bit
        if building is not None:
            if building.index in built:
                first = built[building.index]
                raise NotationError(
                    entry.line,
                    entry.column,
                    f"building {building.tile} is already built on line {first.line}, "
                    f"column {first.column}; each tile is built once",
                )
            built[building.index] = entry
            buildings.append((building.index, cell))
            sites |= bit
            crowns = building.crowns
        crowns1 |= bit if crowns & 1 else 0
        crowns2 |= bit if crowns & 2 else 0
        knights |= bit if knight else 0
    xs = [entry.x for entry in written]
    ys = [entry.y for entry in written]
    kingdom = kd.Kingdom(
        tuple(terrains), crowns1, crowns2, occupied, min(xs), max(xs), min(ys), max(ys), (), ()
    )

    def number(key: str) -> int:
        return int(fields[key].value) if key in fields else 0

    realm = Realm(
        kingdom,
        number("coins"),
        number("guard"),
        knights,
        tuple(buildings),
        sites,
        number("towers"),
    )
    hosts_queen = bool(fields["queen"].value) if "queen" in fields else False
    _check_pieces(realm, hosts_queen, fields, written)
    return realm, hosts_queen


def _check_pieces(
    realm: Realm, hosts_queen: bool, fields: dict[str, _Field], written: list[_Cell]
) -> None:
    """What the pieces of the game allow: the knights and towers in the box, the towers the
    buildings bring, and the Queen only with a realm that has towers (rulebook C)."""
    if realm.knights_owned > KNIGHTS:
        # The guard holds 22 at most, so this realm has knights in its kingdom.
        last = [entry for entry in written if entry.square.knight][-1]
        at = fields["guard"] if "guard" in fields else _Field(0, last.line, last.column)
        raise NotationError(
            at.line,
            at.column,
            f"the realm owns {realm.knights_owned} knights; the game has {KNIGHTS}",
        )
    built = [(entry, entry.square.building) for entry in written if entry.square.building]
    bringing = [(entry, building) for entry, building in built if building.towers]
    if bringing and "towers" not in fields:
        entry, building = bringing[0]
        raise NotationError(
            entry.line,
            entry.column,
            f"{building.tile} brings towers: write how many the realm has (towers: N)",
        )
    most = sum(building.towers for _, building in built)
    known = all(building.immediate_known for _, building in built)
    if "towers" in fields and realm.towers > most and known:
        at = fields["towers"]
        brought = ", ".join(f"{b.tile} {b.towers}" for _, b in bringing) or "none"
        raise NotationError(
            at.line,
            at.column,
            f"{realm.towers} towers, but the buildings bring {most} at most ({brought})",
        )
    if hosts_queen and not realm.towers:
        at = fields["queen"]
        raise NotationError(
            at.line, at.column, "the Queen goes only to a realm with towers (towers: 0)"
        )


def square_token(geo: Geometry, table: BuildingTable, realm: Realm, x: int, y: int) -> str:
    """The notation of one cell: `C`, `.`, `G2`, `T:B27`, with `*` for a knight."""
    if x == 0 and y == 0:
        return CASTLE
    cell = geo.cell(x, y)
    found = kd.square(realm.kingdom, cell)
    if found is None:
        return EMPTY
    terrain, crowns = found
    if terrain == TOWN:
        token = square_label(TOWN, 0)
        built = [index for index, at in realm.buildings if at == cell]
        if built:
            token += BUILT + table[built[0]].tile
    else:
        token = square_label(terrain, crowns)
    return token + (KNIGHT if realm.knights >> cell & 1 else "")


def realm_to_notation(geo: Geometry, table: BuildingTable, realm: Realm, hosts_queen: bool) -> str:
    """The notation of `realm`: its kingdom's bounding box, columns lined up, then every
    field."""
    kingdom = realm.kingdom
    columns = range(kingdom.min_x, kingdom.max_x + 1)
    grid = [
        [square_token(geo, table, realm, x, y) for x in columns]
        for y in range(kingdom.min_y, kingdom.max_y + 1)
    ]
    widths = [max(2, *(len(row[i]) for row in grid)) for i in range(len(columns))]
    lines = [
        " ".join(token.ljust(width) for token, width in zip(row, widths, strict=True)).rstrip()
        for row in grid
    ]
    lines += [
        f"coins: {realm.coins}",
        f"guard: {realm.guard}",
        f"towers: {realm.towers}",
        f"queen: {'yes' if hosts_queen else 'no'}",
    ]
    return "\n".join(lines) + "\n"
