"""Queendomino's moves in words, for the buttons a player clicks and the table's log.

    Claim domino 12 (town / 1-crown forest)               Ann claimed domino 12 (...)
    Place domino 12: town 1 right, 1-crown forest 2 right from your castle
        Ann placed domino 12 (town / 1-crown forest) just to the right of their castle
    Send a knight to the lake (+4 coins)                   Ann sent a knight to the lake (+4 coins)
    Buy the Sawmill for 3 coins                            Bob bought the Sawmill for 3 coins
    Build the Sawmill on the town 1 right 1 up from your castle
    Pay the Dragon 1 coin to burn the Sawmill              Bob paid the Dragon 1 coin to burn ...
    Send no knight / Build nothing / Leave the Dragon in its cave   (the passes)

Squares are named from the castle as in Kingdomino (games/kingdomino/words.py). Buildings are
named by their names, never by their tile ids; two alike on the board at the same price are
told apart by the space they lie on. In a Royal Wedding a domino is named with its box
("the Kingdomino domino 12").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kingdomkit.games.kingdomino.words import (
    line_words,
    offset_words,
    placement_words,
    region_words,
    square_words,
)
from kingdomkit.games.queendomino.codec import placement_points
from kingdomkit.games.queendomino.dominoes import (
    BOX_NAMES,
    DOMINOES,
    TERRAINS,
    box_of,
    printed,
)
from kingdomkit.games.queendomino.state import (
    BOARD,
    BUILD,
    CLAIM,
    DRAGON,
    DRAW,
    EMPTY,
    ORDER,
    PLACE,
    SITE,
    TAX,
    QueendominoState,
)

if TYPE_CHECKING:
    from kingdomkit.games.queendomino.rules import Queendomino

BOXES = tuple(name.capitalize() for name in BOX_NAMES)  # Queendomino, Kingdomino


def domino_name(game: Queendomino, domino_id: int) -> str:
    """`domino 12`, or in a Royal Wedding `the Kingdomino domino 12`."""
    if game.setup.royal_wedding:
        return f"the {BOXES[box_of(domino_id)]} domino {printed(domino_id)}"
    return f"domino {printed(domino_id)}"


def domino_words(domino_id: int) -> str:
    """`town / 1-crown forest`: its squares, square 1 first."""
    d = DOMINOES[domino_id]
    one = square_words(d.terrain1, d.crowns1, TERRAINS)
    return f"{one} / {square_words(d.terrain2, d.crowns2, TERRAINS)}"


def coins(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


def move_label(game: Queendomino, state: QueendominoState, action: int) -> str:
    return _words(game, state, action, None)


def move_sentence(
    game: Queendomino, before: QueendominoState, action: int, after: QueendominoState, who: str
) -> str:
    return _words(game, before, action, who)


def _said(who: str | None, label: str, sentence: str) -> str:
    """The label when there is no `who`, else `who` and the sentence's verb phrase."""
    return label if who is None else f"{who} {sentence}"


def _words(game: Queendomino, state: QueendominoState, action: int, who: str | None) -> str:
    """The label (`who` None) or the log's sentence (`who` did it) of a decision."""
    phase = state.phase
    whose = "your" if who is None else "their"
    if phase == CLAIM:
        named = f"{domino_name(game, state.line[action])} ({domino_words(state.line[action])})"
        return _said(who, f"Claim {named}", f"claimed {named}")
    if action == game.pass_action:
        return {
            TAX: _said(who, "Send no knight", "sent no knight"),
            BUILD: _said(who, "Build nothing", "built nothing"),
            DRAGON: _said(who, "Leave the Dragon in its cave", "left the Dragon in its cave"),
        }.get(phase, _said(who, "Pass", "passed"))
    if phase == PLACE:
        domino_id = state.placing[state.turn]
        named = domino_name(game, domino_id)
        if action == game.discard_action:
            named = f"{named} ({domino_words(domino_id)})"
            return _said(
                who, f"Discard {named}: it fits nowhere", f"discarded {named}: it fitted nowhere"
            )
        first, second = placement_points(game, action)
        where = placement_words(DOMINOES[domino_id], first, second, whose, TERRAINS)
        went = f"{named} ({domino_words(domino_id)}) {region_words(first, second)} their castle"
        return _said(who, f"Place {named}: {where}", f"placed {went}")
    if phase == TAX:
        return _tax(game, state, action, who)
    if phase == BUILD:
        space = action - game.build_base
        named = _building(game, state, space, priced=True)
        price = coins(game.price(state, game.acting_realm(state), space))
        return _said(who, f"Buy {named} for {price}", f"bought {named} for {price}")
    if phase == SITE:
        name = game.table[state.board[state.chosen]].name
        where = offset_words(game.geo.xy(action - game.site_base))
        place = f"on the town {where} from {whose} castle"
        return _said(who, f"Build the {name} {place}", f"built the {name} {place}")
    if phase == DRAGON:
        named = _building(game, state, action - game.burn_base, priced=False)
        return _said(
            who,
            f"Pay the Dragon 1 coin to burn {named}",
            f"paid the Dragon 1 coin to burn {named}",
        )
    return game.action_to_string(state, action)


def _tax(game: Queendomino, state: QueendominoState, action: int, who: str | None) -> str:
    """A knight sent to a square of the domino just placed, with the coins it collects; the
    label names the square's place too when the other square reads alike."""
    realm = state.realms[game.acting_realm(state)]
    number, cell1, cell2 = realm.kingdom.placed[-1]
    domino = DOMINOES[number - 1]
    squares = (
        (cell1, domino.terrain1, domino.crowns1),
        (cell2, domino.terrain2, domino.crowns2),
    )
    square = action - game.knight_base
    cell, terrain, crowns = squares[square]
    _, other_terrain, other_crowns = squares[1 - square]
    target = square_words(terrain, crowns, TERRAINS)
    got = f"(+{coins(game.tax(realm, realm.kingdom.terrains[terrain], cell))})"
    if who is not None:
        return f"{who} sent a knight to the {target} {got}"
    alike = (other_terrain, other_crowns) == (terrain, crowns)
    where = f" {offset_words(game.geo.xy(cell))} from your castle" if alike else ""
    return f"Send a knight to the {target}{where} {got}"


def _building(game: Queendomino, state: QueendominoState, space: int, priced: bool) -> str:
    """`the Sawmill`; with its space when another of that name on the board reads alike
    (when `priced`, one bought at the same price; else any other: the Dragon burns either)."""
    name = game.building_on(state, space).name
    realm = game.acting_realm(state)
    price = game.price(state, realm, space)
    twin = any(
        other != space
        and b != EMPTY
        and game.table[b].name == name
        and (not priced or game.price(state, realm, other) == price)
        for other, b in enumerate(state.board)
    )
    return f"the {name} on the {space}-coin space" if twin else f"the {name}"


def chance_sentence(
    game: Queendomino,
    before: QueendominoState,
    outcome: int,
    after: QueendominoState,
    names: Sequence[str],
) -> str | None:
    """A building turned up on the pile, a new line once complete, the first line's king
    order once drawn."""
    if before.phase == BOARD:
        return f"Turned up on the pile: the {game.table[outcome].name}"
    if before.phase == DRAW and after.phase != DRAW:
        numbers = [str(printed(d)) for d in after.line]
        if game.setup.royal_wedding:  # a line is drawn from one box
            return line_words(numbers, BOXES[box_of(after.line[0])])
        return line_words(numbers)
    if before.phase == ORDER and after.phase != ORDER:
        return f"The kings claim in this order: {', '.join(names[p] for p in after.order)}"
    return None
