"""Queendomino's record events (docs/records.md): what each action writes, and the actions
that each event stands for when a record is replayed.

    {"type": "top", "building": "B07"}                     a tile turned face up on the pile
    {"type": "reveal", "building": "B07", "price": 3}      the face-up top onto the board: it
                                                           follows the top event or the claim
                                                           that emptied the top's old place
    {"type": "line", "dominoes": [n, ...]}                 a line, ascending (Royal Wedding:
                                                           also "box": "queendomino"/"kingdomino")
    {"type": "order", "kings": [player, ...]}              the first line's king order
    {"type": "claim", "player": p, "domino": n}
    {"type": "place", "player": p, "domino": n, "cells": [[x, y], [x, y]]}
    {"type": "discard", "player": p, "domino": n}
    {"type": "tax", "player": p, "cell": [x, y], "coins": c}
    {"type": "build", "player": p, "building": "B07", "cell": [x, y], "price": paid,
     "knights": k, "towers": t}                            knights and towers actually taken
    {"type": "queen", "realm": r, "from": r or null}       follows the build that moved her
    {"type": "burn", "player": p, "building": "B07"}       the Dragon, for 1 coin
    {"type": "pass", "player": p, "step": "tax" | "build" | "dragon"}

`realm` is the player, or the team in team play. Domino numbers are the printed ones; the
line event's box says which box a Royal Wedding line came from. The record also names the
building table it was played with (`buildings`: source and sha256), and a replay refuses a
record made with another table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kingdomkit.core.protocol import Event, Game, RecordError
from kingdomkit.games.kingdomino.records import placement_in_order
from kingdomkit.games.queendomino import codec
from kingdomkit.games.queendomino.dominoes import (
    BOX_NAMES,
    BOX_SIZE,
    DOMINOES,
    TERRAINS,
    domino_id,
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
    OVER,
    PHASE_NAMES,
    PLACE,
    SITE,
    TAX,
    QueendominoState,
)

if TYPE_CHECKING:
    from kingdomkit.games.queendomino.rules import Queendomino
    from kingdomkit.games.queendomino.scoring import Breakdown

PASS_STEPS = {TAX: "tax", BUILD: "build", DRAGON: "dragon"}


def events(
    game: Queendomino, before: QueendominoState, action: int, after: QueendominoState
) -> list[Event]:
    phase = before.phase
    if phase == DRAW:
        if after.phase == DRAW:
            return []
        event: Event = {"type": "line", "dominoes": [printed(d) for d in after.line]}
        if game.setup.royal_wedding:
            event["box"] = BOX_NAMES[(after.lines_drawn - 1) % 2]
        return [event]
    if phase == BOARD:
        written: list[Event] = [{"type": "top", "building": game.table[action].tile}]
        if after.top != action:
            written.append(_onto_board(game, action, after))
        return written
    if phase == ORDER:
        return [] if after.phase == ORDER else [{"type": "order", "kings": list(after.order)}]
    player = game.current_player(before)
    if action == game.pass_action:
        return [{"type": "pass", "player": player, "step": PASS_STEPS[phase]}]
    if phase == CLAIM:
        claim: list[Event] = [
            {"type": "claim", "player": player, "domino": printed(before.line[action])}
        ]
        if before.top != EMPTY and after.top != before.top:
            claim.append(_onto_board(game, before.top, after))
        return claim
    if phase == PLACE:
        number = printed(before.placing[before.turn])
        if action == game.discard_action:
            return [{"type": "discard", "player": player, "domino": number}]
        first, second = codec.placement_points(game, action)
        return [
            {
                "type": "place",
                "player": player,
                "domino": number,
                "cells": [list(first), list(second)],
            }
        ]
    r = game.realm_of[player]
    if phase == TAX:
        coins = after.realms[r].coins - before.realms[r].coins
        cell = codec.knight_point(game, before, action)
        return [{"type": "tax", "player": player, "cell": list(cell), "coins": coins}]
    if phase == BUILD:
        return []
    if phase == SITE:
        was, now = before.realms[r], after.realms[r]
        written = [
            {
                "type": "build",
                "player": player,
                "building": game.table[before.board[before.chosen]].tile,
                "cell": list(game.geo.xy(action - game.site_base)),
                "price": was.coins - now.coins,
                "knights": now.guard - was.guard,
                "towers": now.towers - was.towers,
            }
        ]
        if after.queen != before.queen:
            written.append(
                {"type": "queen", "realm": after.queen, "from": _realm_or_none(before.queen)}
            )
        return written
    # DRAGON
    building = game.table[before.board[action - game.burn_base]].tile
    return [{"type": "burn", "player": player, "building": building}]


def _onto_board(game: Queendomino, building: int, after: QueendominoState) -> Event:
    """The face-up top `building` has gone onto the Builders' Board."""
    return {
        "type": "reveal",
        "building": game.table[building].tile,
        "price": after.board.index(building),
    }


def _realm_or_none(realm: int) -> int | None:
    return realm if realm >= 0 else None


def event_actions(game: Queendomino, state: QueendominoState, event: Event) -> list[int]:
    kind = event.get("type")
    phase = state.phase
    if phase == OVER:
        raise RecordError("the game is already over")
    due = _due(game, state)
    if kind == "line" and phase == DRAW and not state.line:
        return _line_actions(game, state, event)
    if kind == "top" and phase == BOARD:
        return [_pile_building(game, state, event.get("building"))]
    if kind == "reveal":
        raise RecordError(
            "the pile's top goes onto the board only right after a top event or the claim "
            "that ends a round, when a space is empty"
        )
    if kind == "order" and phase == ORDER and not state.order:
        return _order_actions(game, event.get("kings"))
    if kind == "queen":
        raise RecordError("the Queen moves only right after a build that brings towers")
    if phase in (CLAIM, PLACE, TAX, BUILD, DRAGON) and kind in (
        "claim",
        "place",
        "discard",
        "tax",
        "build",
        "burn",
        "pass",
    ):
        player = game.current_player(state)
        if event.get("player") != player:
            raise RecordError(f"it is player {player}'s turn, not {event.get('player')!r}'s")
        return _move_actions(game, state, event, due)
    raise RecordError(f"{due} is due, not {kind!r}")


def _due(game: Queendomino, state: QueendominoState) -> str:
    phase = state.phase
    if phase in PASS_STEPS:
        others = {TAX: "a tax", BUILD: "a build", DRAGON: "a burn"}[phase]
        return f"{others} or a pass event"
    names = {
        DRAW: "a line event",
        BOARD: "a top event",
        ORDER: "an order event",
        CLAIM: "a claim event",
        PLACE: "a place or discard event",
        SITE: "a build event",
    }
    return names.get(phase, f"nothing (the {PHASE_NAMES[phase]} step)")


def _line_actions(game: Queendomino, state: QueendominoState, event: Event) -> list[int]:
    numbers = event.get("dominoes")
    size = game.setup.line_size
    if not (isinstance(numbers, list) and all(_is_int(n) for n in numbers)):
        raise RecordError("'dominoes' must be a list of domino numbers")
    if len(numbers) != size:
        raise RecordError(f"a line holds {size} dominoes, not {len(numbers)}")
    if numbers != sorted(set(numbers)):
        raise RecordError("a line is shown in ascending order, without repeats")
    box = state.lines_drawn % game.setup.boxes
    if game.setup.royal_wedding and event.get("box") != BOX_NAMES[box]:
        raise RecordError(f"this line comes from the {BOX_NAMES[box]} box")
    actions = []
    for number in numbers:
        if not 1 <= number <= BOX_SIZE:
            raise RecordError(f"domino {number} does not exist (the box holds 1 to {BOX_SIZE})")
        if not state.deck >> domino_id(box, number) & 1:
            raise RecordError(f"domino {number} cannot be drawn: it is already out")
        actions.append(domino_id(box, number))
    return actions


def _pile_building(game: Queendomino, state: QueendominoState, tile: Any) -> int:
    for building in game.table.buildings:
        if building.tile == tile:
            if not state.pile >> building.index & 1:
                raise RecordError(f"building {tile} is not in the pile any more")
            return building.index
    raise RecordError(f"no building {tile!r} in the building table")


def _order_actions(game: Queendomino, kings: Any) -> list[int]:
    setup = game.setup
    if not (isinstance(kings, list) and all(_is_int(k) for k in kings)):
        raise RecordError("'kings' must be a list of players")
    if game.num_players == 2:
        if len(kings) == 4 and kings[0] in (0, 1):
            return [kings[0]]
    elif sorted(kings) == list(range(setup.players)):
        return list(kings)
    raise RecordError(f"{kings!r} is not an order of the kings in this game")


def _move_actions(game: Queendomino, state: QueendominoState, event: Event, due: str) -> list[int]:
    kind = event["type"]
    phase = state.phase
    if kind == "pass":
        if PASS_STEPS.get(phase) != event.get("step"):
            raise RecordError(f"{due} is due, not a pass of the {event.get('step')!r} step")
        return [game.parse_action(state, "pass")]
    wanted = {
        CLAIM: ("claim",),
        PLACE: ("place", "discard"),
        TAX: ("tax",),
        BUILD: ("build",),
        DRAGON: ("burn",),
    }[phase]
    if kind not in wanted:
        raise RecordError(f"{due} is due, not {kind!r}{_why_skipped(game, state, kind)}")
    if kind == "claim":
        number = event.get("domino")
        if not any(printed(d) == number for d in state.line):
            raise RecordError(f"domino {number!r} is not in the line")
        return [game.parse_action(state, f"claim {number}")]
    if kind in ("place", "discard"):
        number = event.get("domino")
        if number != printed(state.placing[state.turn]):
            raise RecordError(
                f"the domino to place is {printed(state.placing[state.turn])}, not {number!r}"
            )
        if kind == "discard":
            return [game.parse_action(state, "discard")]
        cells = event.get("cells")
        if not (isinstance(cells, list) and len(cells) == 2 and all(_is_point(c) for c in cells)):
            raise RecordError("'cells' must be two [x, y] pairs")
        return [codec.placement_action(game, state, tuple(cells[0]), tuple(cells[1]))]
    if kind == "tax":
        cell = _point(event, "cell")
        return [game.parse_action(state, f"knight {cell[0]},{cell[1]}")]
    tile = event.get("building")
    if not isinstance(tile, str):
        raise RecordError("'building' must be a tile id such as \"B07\"")
    verb = "build" if kind == "build" else "burn"
    action = game.parse_action(state, f"{verb} {tile}")
    if kind == "burn":
        return [action]
    cell = _point(event, "cell")
    after = game.apply(state, action)
    return [action, game.parse_action(after, f"at {cell[0]},{cell[1]}")]


def _why_skipped(game: Queendomino, state: QueendominoState, kind: str) -> str:
    """Why an optional step the event stands for was not offered this turn (or nothing)."""
    r = game.acting_realm(state)
    realm = state.realms[r]
    reasons: list[str] = []
    if kind == "burn":
        if not state.dragon_ready:
            reasons.append("the Dragon has already burnt a building this round")
        elif state.queen == r:
            reasons.append("the Queen's host may not bribe the Dragon")
        elif realm.coins < 1:
            reasons.append("bribing the Dragon costs 1 coin")
    elif kind == "tax" and not realm.guard:
        reasons.append("no knight is left in the guard")
    elif kind == "build" and not game.free_towns(realm):
        reasons.append("the kingdom has no empty town square")
    elif kind == "build":
        reasons.append("the realm cannot pay for any building on the board")
    return f" ({reasons[0]})" if reasons else ""


def canonical_event(game: Queendomino, state: QueendominoState, event: Event) -> Event:
    """A domino with two like squares may be written facing left or up; the engine writes
    it facing right or down, square 1 first."""
    if event.get("type") != "place" or state.phase != PLACE:
        return event
    return placement_in_order(event, DOMINOES[state.placing[state.turn]])


def result(game: Queendomino, state: QueendominoState) -> dict[str, Any]:
    realms, rule = game.winning_realms(state)
    data: dict[str, Any] = {
        "scores": [int(s) for s in game.scores(state)],
        "winners": list(game.winners(state)),
        "decided_by": rule,
    }
    if game.setup.teams:
        data["teams"] = [
            [p for p in range(game.num_players) if game.realm_of[p] == r]
            for r in range(game.num_realms)
        ]
        data["team_scores"] = list(game.realm_scores(state))
        data["winning_teams"] = list(realms)
    data["breakdown"] = [breakdown_json(game.breakdown(state, r)) for r in range(game.num_realms)]
    return data


def breakdown_json(pad: Breakdown) -> dict[str, Any]:
    return {
        "coins": pad.coins,
        "wealth": pad.wealth,
        "territories": [
            {"terrain": TERRAINS[t.terrain], "size": t.size, "crowns": t.crowns, "points": t.points}
            for t in pad.territories
        ],
        "terrain_points": dict(zip(TERRAINS, pad.terrain_points, strict=True)),
        "queen": pad.queen,
        "queen_territory": TERRAINS[pad.queen_territory.terrain] if pad.queen_territory else None,
        "buildings": [
            {"building": b.tile, "name": b.name, "points": points, "verified": b.verified}
            for b, points in pad.buildings
        ],
        "building_points": pad.building_points,
        "total": pad.total,
        "largest_territory": pad.largest_territory,
    }


def record_body(
    game: Queendomino, header: Mapping[str, Any], events: list[Event], state: QueendominoState
) -> dict[str, Any]:
    body = Game.record_body(game, header, events, state)
    return {"buildings": {"source": game.table.source, "sha256": game.table.sha256}, **body}


def record_events(game: Queendomino, record: Mapping[str, Any]) -> list[Event]:
    table = record.get("buildings")
    if table is not None:
        if not isinstance(table, Mapping) or not isinstance(table.get("sha256"), str):
            raise RecordError("the record's 'buildings' names the table by its 'sha256'")
        if table["sha256"] != game.table.sha256:
            raise RecordError(
                f"the record was played with another building table ({table.get('source')!r}); "
                "load it with --buildings FILE"
            )
    return Game.record_events(game, record)


def _point(event: Event, key: str) -> tuple[int, int]:
    value = event.get(key)
    if not (isinstance(value, list) and _is_point(value)):
        raise RecordError(f"{key!r} must be an [x, y] pair")
    return value[0], value[1]


def _is_point(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["SITE", "breakdown_json", "event_actions", "events", "result"]
