"""Kingdomino's moves in words, for the buttons a player clicks and the table's log.

    label      Claim domino 29 (1-crown forest / grassland)
    label      Place domino 29: 1-crown forest 2 left 1 up, grassland 2 left 2 up from your castle
    label      Discard domino 29 (1-crown forest / grassland): it fits nowhere
    sentence   Ann placed domino 29 (1-crown forest / grassland) above and to the left of
               their castle

A square of a kingdom is named by how far it is from the castle: so many squares right or left,
then so many up or down ("2 left 1 up"; "1 right" is the square just right of the castle). Each
square of a placed domino is named with its terrain, so the two ways round read apart: a button
must tell every legal placement apart. The log only has to say what happened, so it says where
the domino went as a person would ("just above their castle"); the board marks the exact squares.
Queendomino's words reuse these (its own terrains add the town).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kingdomkit.games.kingdomino.dominoes import DOMINOES, TERRAINS, Domino
from kingdomkit.games.kingdomino.state import CLAIM, DRAW, ORDER, PLACE, KingdominoState

if TYPE_CHECKING:
    from kingdomkit.games.kingdomino.rules import Kingdomino

Point = tuple[int, int]


def square_words(terrain: int, crowns: int, terrains: Sequence[str] = TERRAINS) -> str:
    """`forest`, `2-crown mine`."""
    name = terrains[terrain]
    return f"{crowns}-crown {name}" if crowns else name


def domino_words(domino: Domino, terrains: Sequence[str] = TERRAINS) -> str:
    """`1-crown forest / grassland`: its squares, square 1 first."""
    first = square_words(domino.terrain1, domino.crowns1, terrains)
    return f"{first} / {square_words(domino.terrain2, domino.crowns2, terrains)}"


def offset_words(point: Point) -> str:
    """Where `point` (x right, y down) is from the castle: `2 left 1 up`, `1 right`."""
    x, y = point
    parts = []
    if x:
        parts.append(f"{abs(x)} {'right' if x > 0 else 'left'}")
    if y:
        parts.append(f"{abs(y)} {'down' if y > 0 else 'up'}")
    return " ".join(parts) or "on"


def placement_words(
    domino: Domino, first: Point, second: Point, whose: str, terrains: Sequence[str] = TERRAINS
) -> str:
    """`1-crown forest 2 left 1 up, grassland 2 left 2 up from your castle`."""
    one = square_words(domino.terrain1, domino.crowns1, terrains)
    two = square_words(domino.terrain2, domino.crowns2, terrains)
    return f"{one} {offset_words(first)}, {two} {offset_words(second)} from {whose} castle"


def region_words(first: Point, second: Point) -> str:
    """Where a domino on `first` and `second` lies from the castle, as a person says it:
    `just above`, `to the left of`, `below and to the right of`. Its two squares share a row
    or a column, and neither is the castle's, so at least one side is always named."""
    cells = (first, second)
    across = {(x > 0) - (x < 0) for x, _ in cells}
    down = {(y > 0) - (y < 0) for _, y in cells}
    vertical = {-1: "above", 1: "below"}.get(down.pop()) if len(down) == 1 else None
    horizontal = (
        {-1: "to the left of", 1: "to the right of"}.get(across.pop()) if len(across) == 1 else None
    )
    named = " and ".join(side for side in (vertical, horizontal) if side)
    touching = any(abs(x) + abs(y) == 1 for x, y in cells)
    return f"just {named}" if touching else named


def move_label(game: Kingdomino, state: KingdominoState, action: int) -> str:
    return _words(game, state, action, None)


def move_sentence(
    game: Kingdomino, before: KingdominoState, action: int, after: KingdominoState, who: str
) -> str:
    return _words(game, before, action, who)


def _words(game: Kingdomino, state: KingdominoState, action: int, who: str | None) -> str:
    """The label (`who` None) or the log's sentence (`who` did it) of a decision."""
    if state.phase == CLAIM:
        number = state.line[action]
        named = f"domino {number} ({domino_words(DOMINOES[number - 1])})"
        return f"Claim {named}" if who is None else f"{who} claimed {named}"
    if state.phase == PLACE:
        domino = game.acting_domino(state)
        if action == game.discard_action:
            named = f"domino {domino.number} ({domino_words(domino)})"
            if who is None:
                return f"Discard {named}: it fits nowhere"
            return f"{who} discarded {named}: it fitted nowhere"
        first, second = game.placement_cells(action)
        if who is None:
            return f"Place domino {domino.number}: {placement_words(domino, first, second, 'your')}"
        named = f"domino {domino.number} ({domino_words(domino)})"
        return f"{who} placed {named} {region_words(first, second)} their castle"
    return game.action_to_string(state, action)


def listed(items: Iterable[str]) -> str:
    """`5, 12, 20 and 37`."""
    words = list(items)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def line_words(numbers: Iterable[str], box: str = "") -> str:
    """`New line: dominoes 5, 12, 20 and 37` (Royal Wedding: `Kingdomino dominoes ...`)."""
    return f"New line: {box + ' ' if box else ''}dominoes {listed(numbers)}"


def chance_sentence(
    game: Kingdomino,
    before: KingdominoState,
    outcome: int,
    after: KingdominoState,
    names: Sequence[str],
) -> str | None:
    """A new line once it is complete (its dominoes are drawn one by one), the first line's
    king order once drawn."""
    if before.phase == DRAW and after.phase != DRAW:
        return line_words(str(n) for n in after.line)
    if before.phase == ORDER:
        return f"The kings claim in this order: {', '.join(names[p] for p in after.order)}"
    return None
