"""Kingdomino's record events (docs/records.md): what each action writes, and the actions that
each event stands for when a record is replayed.

    {"type": "line", "dominoes": [n, ...]}          a line, as drawn, ascending
    {"type": "order", "kings": [player, ...]}        the first line's king order
    {"type": "claim", "player": p, "domino": n}
    {"type": "place", "player": p, "domino": n, "cells": [[x, y], [x, y]]}
    {"type": "discard", "player": p, "domino": n}

A dynasty's record holds one full record per game, each of which replays on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kingdomkit.core.protocol import Event, Game, RecordError
from kingdomkit.games.kingdomino.dominoes import NUM_DOMINOES, TERRAINS, Domino
from kingdomkit.games.kingdomino.state import CLAIM, DRAW, ORDER, OVER, PLACE, KingdominoState

if TYPE_CHECKING:
    from kingdomkit.games.kingdomino.rules import Breakdown, Kingdomino


def events(
    game: Kingdomino, before: KingdominoState, action: int, after: KingdominoState
) -> list[Event]:
    phase = before.phase
    if phase == DRAW:
        if after.phase == DRAW and after.game_number == before.game_number:
            return []
        return [{"type": "line", "dominoes": list(after.line)}]
    if phase == ORDER:
        return [{"type": "order", "kings": list(game.orders[action])}]
    player = game.current_player(before)
    if phase == CLAIM:
        return [{"type": "claim", "player": player, "domino": before.line[action]}]
    number = before.placing[before.turn]
    if action == game.discard_action:
        return [{"type": "discard", "player": player, "domino": number}]
    first, second = game.placement_cells(action)
    return [
        {
            "type": "place",
            "player": player,
            "domino": number,
            "cells": [list(first), list(second)],
        }
    ]


def event_actions(game: Kingdomino, state: KingdominoState, event: Event) -> list[int]:
    kind = event.get("type")
    phase = state.phase
    expected = {DRAW: "line", ORDER: "order", CLAIM: "claim", PLACE: "place or discard"}
    if phase == OVER:
        raise RecordError("the game is already over")
    if kind == "line" and phase == DRAW and not state.line:
        return line_actions(game, state, event.get("dominoes"))
    if kind == "order" and phase == ORDER:
        kings = event.get("kings")
        order = tuple(kings) if isinstance(kings, list) else None
        if order not in game.orders:
            raise RecordError(f"{kings!r} is not an order of the kings in this game")
        return [game.orders.index(order)]
    if kind in ("claim", "place", "discard") and phase in (CLAIM, PLACE):
        if (kind == "claim") != (phase == CLAIM):
            raise RecordError(f"a {expected[phase]} event is due, not {kind!r}")
        return [move_action(game, state, event)]
    raise RecordError(f"a {expected[phase]} event is due, not {kind!r}")


def canonical_event(game: Kingdomino, state: KingdominoState, event: Event) -> Event:
    """A domino with two like squares may be written facing left or up; the engine
    writes it facing right or down, square 1 first."""
    if event.get("type") != "place" or state.phase != PLACE:
        return event
    return placement_in_order(event, game.acting_domino(state))


def placement_in_order(event: Event, domino: Domino) -> Event:
    """The `place` event of `domino` with its cells as the engine writes them: for a domino
    with two like squares, the cell facing right or down first (Queendomino's too)."""
    cells = event.get("cells")
    if not domino.symmetric or not isinstance(cells, list) or len(cells) != 2:
        return event
    first, second = cells
    if isinstance(first, list) and isinstance(second, list) and second < first:
        return {**event, "cells": [second, first]}
    return event


def line_actions(game: Kingdomino, state: KingdominoState, dominoes: Any) -> list[int]:
    size = game.setup.line_size
    if not (isinstance(dominoes, list) and all(_is_int(n) for n in dominoes)):
        raise RecordError("'dominoes' must be a list of domino numbers")
    if len(dominoes) != size:
        raise RecordError(f"a line holds {size} dominoes, not {len(dominoes)}")
    if dominoes != sorted(set(dominoes)):
        raise RecordError("a line is shown in ascending order, without repeats")
    for number in dominoes:
        if not 1 <= number <= NUM_DOMINOES:
            raise RecordError(f"domino {number} does not exist (the box holds 1 to {NUM_DOMINOES})")
        if not state.deck >> (number - 1) & 1:
            raise RecordError(f"domino {number} cannot be drawn: it is already out")
    return [number - 1 for number in dominoes]


def move_action(game: Kingdomino, state: KingdominoState, event: Event) -> int:
    player = game.current_player(state)
    if event.get("player") != player:
        raise RecordError(f"it is player {player}'s turn, not {event.get('player')!r}'s")
    number = event.get("domino")
    kind = event["type"]
    if kind == "claim":
        if number not in state.line:
            raise RecordError(f"domino {number!r} is not in the line")
        return game.parse_action(state, f"claim {number}")
    if number != state.placing[state.turn]:
        raise RecordError(
            f"player {player} must place domino {state.placing[state.turn]}, not {number!r}"
        )
    if kind == "discard":
        return game.parse_action(state, "discard")
    cells = event.get("cells")
    if not (
        isinstance(cells, list)
        and len(cells) == 2
        and all(isinstance(c, list) and len(c) == 2 and all(map(_is_int, c)) for c in cells)
    ):
        raise RecordError("'cells' must be two [x, y] pairs")
    return game.placement_action(state, tuple(cells[0]), tuple(cells[1]))


def result(game: Kingdomino, state: KingdominoState) -> dict[str, Any]:
    result: dict[str, Any] = {
        "scores": [int(s) for s in game.scores(state)],
        "winners": list(game.winners(state)),
    }
    if not game.setup.dynasty:
        result["breakdown"] = [
            breakdown_json(game.breakdown(state, p)) for p in range(game.num_players)
        ]
    return result


def record_body(
    game: Kingdomino, header: Mapping[str, Any], events: list[Event], state: KingdominoState
) -> dict[str, Any]:
    """A dynasty record holds one full record per game, each of which replays on its own,
    and the totals in its result."""
    if not game.setup.dynasty:
        return Game.record_body(game, header, events, state)
    options = {k: v for k, v in game.options.items() if k != "dynasty"}
    single = type(game)(options)
    games = []
    for number, game_events in enumerate(split_games(events), start=1):
        game_header = {**header, "options": options, "dynasty_game": number}
        finished = number <= len(state.past_scores) or game.is_terminal(state)
        record = {**game_header, "events": game_events}
        if finished:
            record["result"] = single.result(replay_events(single, game_events))
        games.append(record)
    body: dict[str, Any] = {"games": games}
    if game.is_terminal(state):
        body["result"] = game.result(state)
    return body


def record_events(game: Kingdomino, record: Mapping[str, Any]) -> list[Event]:
    """A dynasty's events, after checking each game of it as a record of its own: same
    players and options as the whole, numbered in order, every game but the last one
    finished, each with a result that the rules confirm."""
    if not game.setup.dynasty:
        return Game.record_events(game, record)
    from kingdomkit.core.record import replay_record

    games = record.get("games")
    if not isinstance(games, list) or not all(
        isinstance(g, dict) and isinstance(g.get("events"), list) for g in games
    ):
        raise RecordError("a dynasty record has a list of 'games', each with 'events'")
    if not 1 <= len(games) <= game.setup.games:
        raise RecordError(f"a dynasty has 1 to {game.setup.games} games, not {len(games)}")
    options = {k: v for k, v in game.options.items() if k != "dynasty"}
    for number, single in enumerate(games, start=1):
        where = f"game {number} of the dynasty"
        for key, expected in (
            ("format", record.get("format")),
            ("game", game.name),
            ("players", record.get("players")),
            ("options", options),
            ("dynasty_game", number),
        ):
            if single.get(key) != expected:
                raise RecordError(f"{where}: {key!r} should be {expected!r}")
        try:
            replay = replay_record(single)
        except RecordError as error:
            raise RecordError(f"{where}: {error}") from None
        if number < len(games) and not replay.game.is_terminal(replay.final_state):
            raise RecordError(f"{where} is not finished, yet another game follows it")
    return [event for g in games for event in g["events"]]


def split_games(events: list[Event]) -> list[list[Event]]:
    """Cut a dynasty's events where a game starts: at the line that comes before each order."""
    starts = [i - 1 for i, event in enumerate(events) if event["type"] == "order"]
    bounds = [*starts[1:], len(events)]
    first = [0, *starts[1:]]
    return [events[a:b] for a, b in zip(first, bounds, strict=True)]


def replay_events(game: Kingdomino, events: list[Event]) -> KingdominoState:
    state = game.initial_state()
    for event in events:
        for action in game.event_actions(state, event):
            state = game.apply(state, action)
    return state


def breakdown_json(pad: Breakdown) -> dict[str, Any]:
    return {
        "territories": [
            {"terrain": TERRAINS[t.terrain], "size": t.size, "crowns": t.crowns, "points": t.points}
            for t in pad.territories
        ],
        "territory_points": pad.territory_points,
        "middle_kingdom": pad.middle_kingdom,
        "harmony": pad.harmony,
        "total": pad.total,
        "largest_territory": pad.largest_territory,
        "crowns": pad.crowns,
    }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
