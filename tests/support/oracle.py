"""A slow, obviously-correct model of a Kingdomino kingdom, to test the fast engine against.

Written from the rule texts, not from the engine: a kingdom is a dict {(x, y): (terrain,
crowns)} of the squares of its dominoes, with the castle at (0, 0) (never in the dict), x to the
right and y downward. Nothing here uses the engine's bitboards; only the domino data is shared.

    legal_placements   rulebook "Connection rules"; online rules, restrictions 1 and 2
    territories/score  rulebook "End of the game": size x crowns per property
    middle_kingdom     rulebook "Additional rules": the castle in the centre of the kingdom
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

from kingdomkit.games.kingdomino.dominoes import Domino

XY = tuple[int, int]
Square = tuple[int, int]  # (terrain, crowns)
Squares = Mapping[XY, Square]
Placement = tuple[XY, XY]  # (where square 1 goes, where square 2 goes)

CASTLE: XY = (0, 0)
STEPS: tuple[XY, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))


def neighbours(xy: XY) -> list[XY]:
    """The four orthogonal neighbours of a cell."""
    x, y = xy
    return [(x + dx, y + dy) for dx, dy in STEPS]


def cells(squares: Squares) -> set[XY]:
    """Every occupied cell, the castle included."""
    return {*squares, CASTLE}


def span(values: Iterable[int]) -> int:
    """How many rows (or columns) the values run over."""
    values = list(values)
    return max(values) - min(values) + 1


def connects(squares: Squares, where: XY, terrain: int) -> bool:
    """True when a square of `terrain` on `where` touches the castle (wild) or a square of
    the same terrain (connection rules)."""
    for other in neighbours(where):
        if other == CASTLE:
            return True
        if other in squares and squares[other][0] == terrain:
            return True
    return False


def legal_placements(squares: Squares, domino: Domino, size: int) -> set[Placement]:
    """Every (square 1 cell, square 2 cell) where `domino` may go, both ways round: both cells
    free, the whole kingdom within size x size, and a square connected (connection rules)."""
    occupied = cells(squares)
    xs = [x for x, _ in occupied]
    ys = [y for _, y in occupied]
    reach = size - 1  # with the castle inside a size x size frame, |x| and |y| are at most this
    found: set[Placement] = set()
    for x in range(-reach, reach + 1):
        for y in range(-reach, reach + 1):
            first = (x, y)
            for dx, dy in STEPS:
                second = (x + dx, y + dy)
                if first in occupied or second in occupied:
                    continue
                if span([*xs, x, x + dx]) > size or span([*ys, y, y + dy]) > size:
                    continue
                if connects(squares, first, domino.terrain1) or connects(
                    squares, second, domino.terrain2
                ):
                    found.add((first, second))
    return found


def place(squares: Squares, domino: Domino, placement: Placement) -> dict[XY, Square]:
    """The kingdom with `domino` put down (no legality check)."""
    first, second = placement
    new = dict(squares)
    new[first] = (domino.terrain1, domino.crowns1)
    new[second] = (domino.terrain2, domino.crowns2)
    return new


def territories(squares: Squares) -> list[tuple[int, frozenset[XY], int]]:
    """Every territory as (terrain, its cells, its crowns), found by breadth-first search."""
    seen: set[XY] = set()
    found = []
    for start in sorted(squares):
        if start in seen:
            continue
        terrain = squares[start][0]
        region = {start}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for other in neighbours(here):
                if other in squares and other not in region and squares[other][0] == terrain:
                    region.add(other)
                    queue.append(other)
        seen |= region
        found.append((terrain, frozenset(region), sum(squares[xy][1] for xy in region)))
    return found


def score(squares: Squares) -> int:
    """Territory points: the sum of size x crowns (no bonuses)."""
    return sum(len(region) * crowns for _, region, crowns in territories(squares))


def largest_territory(squares: Squares) -> int:
    """The size of the largest territory, crowned or not (first tie-break); 0 if none."""
    return max((len(region) for _, region, _ in territories(squares)), default=0)


def crowns(squares: Squares) -> int:
    """All the crowns in the kingdom (second tie-break)."""
    return sum(crowns for _, crowns in squares.values())


def middle_kingdom(squares: Squares, size: int) -> bool:
    """True when some size x size frame holding the whole kingdom has the castle at its centre.

    Tried literally: every frame position that holds the kingdom, and whether its middle cell
    is the castle."""
    occupied = cells(squares)
    half = size // 2
    for left in range(-size, 1):
        for top in range(-size, 1):
            inside = all(left <= x < left + size and top <= y < top + size for x, y in occupied)
            if inside and (left + half, top + half) == CASTLE:
                return True
    return False


def complete(squares: Squares, size: int) -> bool:
    """Every square of the size x size frame is filled (harmony's "no gaps")."""
    return len(cells(squares)) == size * size


def winners(keys: list[tuple[int, int, int]]) -> tuple[int, ...]:
    """The players sharing victory given (score, largest territory, crowns) for each: highest
    score, then largest territory, then most crowns, then shared (rulebook, "End of the game")."""
    contenders = list(range(len(keys)))
    for criterion in range(3):
        best = max(keys[p][criterion] for p in contenders)
        contenders = [p for p in contenders if keys[p][criterion] == best]
    return tuple(contenders)
