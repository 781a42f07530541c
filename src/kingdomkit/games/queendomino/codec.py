"""Queendomino's actions as text, both ways: what logs and records show, and what people type.

    claim 12                      claim domino 12 of the new line (Royal Wedding: K12, Q12)
    place 12 0,-1 1,-1            place it: square 1 on (0, -1), square 2 on (1, -1)
    discard 12                    only when it fits nowhere
    knight 1,-1                   a knight onto that square of the domino just placed
    build B09                     buy that building (by tile id, or by name if only one
                                  building of that name is on the board) ...
    at 2,0                        ... and put it on that town square
    burn B09                      bribe the Dragon
    pass                          skip the optional step

Cells are (x, y) from the castle, x to the right and y downward. The domino number after
`place` and `discard` may be left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.core.protocol import IllegalActionError, check_move_length, excerpt
from kingdomkit.games.queendomino.dominoes import (
    BOX_LETTERS,
    DOMINOES,
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
    PHASE_NAMES,
    PLACE,
    PLACE_BASE,
    SITE,
    TAX,
    UNCLAIMED,
    QueendominoState,
)

if TYPE_CHECKING:
    from kingdomkit.games.queendomino.rules import Queendomino

Point = tuple[int, int]


def domino_label(game: Queendomino, domino_id: int) -> str:
    """The printed number; in a Royal Wedding with the box's letter first (Q12, K12)."""
    if game.setup.royal_wedding:
        return f"{BOX_LETTERS[box_of(domino_id)]}{printed(domino_id)}"
    return str(printed(domino_id))


def point_text(point: Point) -> str:
    return f"{point[0]},{point[1]}"


def action_to_string(game: Queendomino, state: QueendominoState, action: int) -> str:
    phase = state.phase
    if phase == DRAW:
        return f"draw {domino_label(game, action)}"
    if phase == BOARD:
        return f"reveal {game.table[action].tile}"
    if phase == ORDER:
        return f"king of player {action}"
    if phase == CLAIM:
        return f"claim {domino_label(game, state.line[action])}"
    if action == game.pass_action:
        return "pass"
    if phase == PLACE:
        label = domino_label(game, state.placing[state.turn])
        if action == game.discard_action:
            return f"discard {label}"
        first, second = placement_points(game, action)
        return f"place {label} {point_text(first)} {point_text(second)}"
    if phase == TAX:
        return f"knight {point_text(knight_point(game, state, action))}"
    if phase == BUILD:
        return f"build {game.building_on(state, action - game.build_base).tile}"
    if phase == SITE:
        return f"at {point_text(game.geo.xy(action - game.site_base))}"
    if phase == DRAGON:
        return f"burn {game.building_on(state, action - game.burn_base).tile}"
    return f"action {action}"


def placement_points(game: Queendomino, action: int) -> tuple[Point, Point]:
    geo = game.geo
    direction, cell1 = divmod(action - PLACE_BASE, geo.cells)
    return geo.xy(cell1), geo.xy(cell1 + geo.deltas[direction])


def knight_point(game: Queendomino, state: QueendominoState, action: int) -> Point:
    """The square a knight action sends the knight to."""
    realm = state.realms[game.acting_realm(state)]
    _, cell1, cell2 = realm.kingdom.placed[-1]
    return game.geo.xy(cell1 if action == game.knight_base else cell2)


def parse_action(game: Queendomino, state: QueendominoState, text: str) -> int:
    check_move_length(text)
    words = text.replace("(", " ").replace(")", " ").split()
    if not words:
        raise IllegalActionError("empty move")
    verb, args = words[0].lower(), words[1:]
    phase = state.phase
    if phase not in (CLAIM, PLACE, TAX, BUILD, SITE, DRAGON):
        raise IllegalActionError(f"no player moves now (the {PHASE_NAMES[phase]} step)")
    legal = game.legal_actions(state)
    if verb == "pass" and not args:
        if game.pass_action not in legal:
            raise IllegalActionError(f"there is nothing to pass now: {_due(game, state)}")
        return game.pass_action
    try:
        if phase == CLAIM:
            return _parse_claim(game, state, verb, args)
        if phase == PLACE:
            return _parse_place(game, state, verb, args)
        if phase == TAX:
            return _parse_knight(game, state, verb, args)
        if phase == SITE:
            return _parse_site(game, state, verb, args)
        return _parse_building(game, state, verb, args)
    except ValueError:
        raise IllegalActionError(f"cannot read {excerpt(text)}: {_due(game, state)}") from None


def _due(game: Queendomino, state: QueendominoState) -> str:
    """What the player to act should write now."""
    phase = state.phase
    if phase == CLAIM:
        return "write 'claim N'"
    if phase == PLACE:
        return "write 'place N x1,y1 x2,y2' (or 'discard N' when it fits nowhere)"
    if phase == TAX:
        return "write 'knight x,y' on a square of the domino just placed, or 'pass'"
    if phase == BUILD:
        return "write 'build TILE' (e.g. 'build B09'), or 'pass'"
    if phase == SITE:
        return "write 'at x,y' for the empty town square the building goes on"
    if phase == DRAGON:
        return "write 'burn TILE' to bribe the Dragon, or 'pass'"
    return "no move is due"


def _point(text: str) -> Point:
    x, y = text.split(",")
    return int(x), int(y)


def _domino_matches(game: Queendomino, domino_id: int, text: str) -> bool:
    return text.upper() in (domino_label(game, domino_id), str(printed(domino_id)))


def _parse_claim(game: Queendomino, state: QueendominoState, verb: str, args: list[str]) -> int:
    if verb != "claim" or len(args) != 1:
        raise IllegalActionError(f"it is time to claim: {_due(game, state)}")
    slots = [s for s, d in enumerate(state.line) if _domino_matches(game, d, args[0])]
    if not slots:
        raise IllegalActionError(f"domino {excerpt(args[0], quoted=False)} is not in the new line")
    if state.claims[slots[0]] != UNCLAIMED:
        raise IllegalActionError(f"domino {excerpt(args[0], quoted=False)} is already claimed")
    return slots[0]


def _parse_place(game: Queendomino, state: QueendominoState, verb: str, args: list[str]) -> int:
    domino_id = state.placing[state.turn]
    label = domino_label(game, domino_id)
    if args and "," not in args[0]:
        if not _domino_matches(game, domino_id, args[0]):
            raise IllegalActionError(f"the domino to place is {label}")
        args = args[1:]
    legal = game.legal_actions(state)
    if verb == "discard" and not args:
        if game.discard_action not in legal:
            raise IllegalActionError(f"domino {label} can be placed, so it may not be discarded")
        return game.discard_action
    if verb != "place" or len(args) != 2:
        raise IllegalActionError(f"it is time to place: {_due(game, state)}")
    return placement_action(game, state, _point(args[0]), _point(args[1]))


def placement_action(
    game: Queendomino, state: QueendominoState, first: Point, second: Point
) -> int:
    """The action placing square 1 on `first` and square 2 on `second`; for a domino with
    two like squares either way round names the same action."""
    geo = game.geo
    try:
        cell1, cell2 = geo.cell(*first), geo.cell(*second)
    except ValueError as error:
        raise IllegalActionError(str(error)) from None
    if abs(first[0] - second[0]) + abs(first[1] - second[1]) != 1:
        raise IllegalActionError(
            f"{point_text(first)} and {point_text(second)} are not side by side"
        )
    domino = DOMINOES[state.placing[state.turn]]
    direction = geo.deltas.index(cell2 - cell1)
    if domino.symmetric and direction >= 2:
        cell1, direction = cell2, direction - 2
    action = PLACE_BASE + direction * geo.cells + cell1
    if action in game.legal_actions(state):
        return action
    kingdom = state.realms[game.acting_realm(state)].kingdom
    if kingdom.occupied >> cell1 & 1 or kingdom.occupied >> cell2 & 1:
        raise IllegalActionError("that place is already taken")
    xs = (kingdom.min_x, kingdom.max_x, first[0], second[0])
    ys = (kingdom.min_y, kingdom.max_y, first[1], second[1])
    if max(xs) - min(xs) >= geo.size or max(ys) - min(ys) >= geo.size:
        raise IllegalActionError(f"the kingdom would not fit in {geo.size}x{geo.size}")
    if game.discard_action in game.legal_actions(state):
        raise IllegalActionError(
            f"domino {domino_label(game, state.placing[state.turn])} "
            "fits nowhere and must be discarded"
        )
    raise IllegalActionError(
        "neither square touches the castle or a square of its own terrain (connection rules)"
    )


def _parse_knight(game: Queendomino, state: QueendominoState, verb: str, args: list[str]) -> int:
    if verb != "knight" or len(args) != 1:
        raise IllegalActionError(f"it is time to collect tax: {_due(game, state)}")
    point = _point(args[0])
    for action in game.legal_actions(state):
        if action != game.pass_action and knight_point(game, state, action) == point:
            return action
    raise IllegalActionError(
        f"{point_text(point)} is not a square of the domino just placed without a knight"
    )


def _parse_site(game: Queendomino, state: QueendominoState, verb: str, args: list[str]) -> int:
    if verb in ("at", "site", "on") and len(args) == 1:
        point = _point(args[0])
    elif not args and "," in verb:  # the bare "x,y"
        point = _point(verb)
    else:
        raise IllegalActionError(f"choose the square: {_due(game, state)}")
    try:
        action = game.site_base + game.geo.cell(*point)
    except ValueError as error:
        raise IllegalActionError(str(error)) from None
    if action not in game.legal_actions(state):
        raise IllegalActionError(f"{point_text(point)} is not an empty town square of the kingdom")
    return action


def _parse_building(game: Queendomino, state: QueendominoState, verb: str, args: list[str]) -> int:
    phase = state.phase
    wanted = "build" if phase == BUILD else "burn"
    if verb != wanted or not args:
        raise IllegalActionError(f"{_due(game, state)}")
    name = " ".join(args).lower()
    spaces = [
        space
        for space, b in enumerate(state.board)
        if b != EMPTY and name in (game.table[b].tile.lower(), game.table[b].name.lower())
    ]
    if not spaces:
        raise IllegalActionError(f"no building {excerpt(' '.join(args))} on the Builders' Board")
    if len(spaces) > 1:
        tiles = ", ".join(game.table[state.board[s]].tile for s in spaces)
        raise IllegalActionError(f"several buildings are called that ({tiles}): name the tile")
    space = spaces[0]
    base = game.build_base if phase == BUILD else game.burn_base
    if base + space not in game.legal_actions(state):
        price = game.price(state, game.acting_realm(state), space)
        raise IllegalActionError(
            f"{game.table[state.board[space]].tile} costs {price} coins, more than the realm has"
        )
    return base + space


__all__ = ["DRAGON", "action_to_string", "domino_label", "parse_action", "placement_action"]
