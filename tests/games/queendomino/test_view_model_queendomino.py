"""Queendomino's view model (games/queendomino/view.py) on hand-made positions: the exact
model of a first claim, of a build and what it did, each move as a board offers it, and the
Royal Wedding's deck sent as counts (docs/view-model.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from boards import drawn
from kingdomkit.games.queendomino.rules import Queendomino, QueendominoState
from kingdomkit.server.live import model

GAME = Queendomino({"players": 2})
SCHEMA = drawn(GAME).view_model_schema()


def validator(definition: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{definition}"})


def action(state: QueendominoState, **wanted: Any) -> int:
    """The legal action whose move model has every field of `wanted`."""
    for a in GAME.legal_actions(state):
        move = drawn(GAME).move_model(state, a)
        if all(move.get(key) == value for key, value in wanted.items()):
            return a
    raise AssertionError(f"no legal move {wanted}")


def placing(state: QueendominoState, *squares: tuple[int, int]) -> int:
    for a in GAME.legal_actions(state):
        move = drawn(GAME).move_model(state, a)
        if [(q["x"], q["y"]) for q in move.get("squares", ())] == list(squares):
            return a
    raise AssertionError(f"no placement on {squares}")


def first_claim() -> QueendominoState:
    """The Builders' Board B09 B17 B01 B03 B05 B07 with B15 on the pile, the first line
    9, 30, 41, 42, and player 0's king drawn first."""
    state = GAME.initial_state()
    for outcome in (8, 16, 0, 2, 4, 6, 14, 8, 29, 40, 41, 0):
        state = GAME.apply(state, outcome)
    return state


def face(terrain: str, crowns: int = 0) -> dict[str, Any]:
    return {"terrain": terrain, "crowns": crowns}


def new(domino: int, label: str, slot: int, *squares: dict[str, Any]) -> dict[str, Any]:
    """A free slot of the new line."""
    return {"domino": domino, "label": label, "squares": list(squares), "slot": slot, "king": None}


def at(x: int, y: int, terrain: str, crowns: int = 0) -> dict[str, Any]:
    return {"x": x, "y": y, "terrain": terrain, "crowns": crowns}


def empty_realm(player: int) -> dict[str, Any]:
    return {
        "players": [player],
        "kingdom": {
            "castle": {"x": 0, "y": 0},
            "frame": {"size": 7, "min_x": 0, "max_x": 0, "min_y": 0, "max_y": 0},
            "pieces": [],
            "discarded": [],
            "crowns": 0,
        },
        "coins": 7,
        "guard": 1,
        "knights": [],
        "towers": 0,
        "buildings": [],
        "free_towns": [],
        "queen": False,
        "score": 2,  # 7 coins: 2 points of wealth
    }


def space(index: int, building: int | None, tile: str | None) -> dict[str, Any]:
    return {"space": index, "price": index, "building": building, "tile": tile}


def test_the_first_claim() -> None:
    state = first_claim()
    shown = drawn(GAME).view_model(state, 0)
    assert shown == {
        "phase": "claim",
        "players": 2,
        "teams": False,
        "frame": 7,
        "realms": [empty_realm(0), empty_realm(1)],
        "builders_board": [
            space(0, 8, "B09"),
            space(1, 16, "B17"),
            space(2, 0, "B01"),
            space(3, 2, "B03"),
            space(4, 4, "B05"),
            space(5, 6, "B07"),
        ],
        "top": {"building": 14, "tile": "B15"},
        "pile": 25,  # 32 tiles: 6 on the board, 1 face up
        "burnt": [],
        "queen": None,
        "dragon": "cave",
        "supply": {"knights": 20, "towers": 15},
        "lines": {
            "placing": [],
            "new": [
                new(8, "9", 0, face("lake"), face("lake")),
                new(29, "30", 1, face("forest", 1), face("town")),
                new(40, "41", 2, face("town"), face("lake")),
                new(41, "42", 3, face("town"), face("lake")),
            ],
        },
        "lines_drawn": 1,
        "lines_total": 12,
        "to_come": 44,
        "unseen": [
            {"domino": d, "label": str(d + 1)} for d in range(48) if d not in (8, 29, 40, 41)
        ],
        "turn": {"player": 0, "realm": 0, "domino": None},
    }
    assert drawn(GAME).view_model(state, None) == shown  # no secrets: a spectator sees the same
    assert [drawn(GAME).move_model(state, a) for a in GAME.legal_actions(state)] == [
        {"kind": "claim", "domino": 8, "label": "9", "slot": 0},
        {"kind": "claim", "domino": 29, "label": "30", "slot": 1},
        {"kind": "claim", "domino": 40, "label": "41", "slot": 2},
        {"kind": "claim", "domino": 41, "label": "42", "slot": 3},
    ]


def a_round() -> list[tuple[QueendominoState, int, QueendominoState]]:
    """The first round claimed (player 0 on 30 and 41, player 1 on 9 and 42), the next line
    1 to 4; player 1 places 9 right of the castle, sends a knight, burns B07 and claims 1;
    player 0 places 30 left of it (the town outside), passes the tax and builds B09 there.
    Each decision with the position before it and the one after (draws made)."""
    state = first_claim()
    made: list[tuple[QueendominoState, int, QueendominoState]] = []
    for slot in (1, 0, 3, 2):
        before, state = state, GAME.apply(state, action(state, kind="claim", slot=slot))
        made.append((before, action(before, kind="claim", slot=slot), state))
    for domino in (0, 1, 2, 3):
        state = GAME.apply(state, domino)
    made[-1] = (made[-1][0], made[-1][1], state)
    steps: list[Callable[[QueendominoState], int]] = [
        lambda s: placing(s, (1, 0), (2, 0)),
        lambda s: action(s, kind="knight", square=1),
        lambda s: action(s, kind="burn", space=5),
        lambda s: action(s, kind="claim", slot=0),
        lambda s: placing(s, (-1, 0), (-2, 0)),
        lambda s: action(s, kind="pass"),
        lambda s: action(s, kind="build", space=0),
        lambda s: action(s, kind="site"),
    ]
    for choose in steps:
        chosen = choose(state)
        before, state = state, GAME.apply(state, chosen)
        made.append((before, chosen, state))
    return made


def test_what_each_decision_did() -> None:
    lasts = [drawn(GAME).last_model(before, a, after) for before, a, after in a_round()]
    check = validator("last")
    for last in lasts:
        check.validate(last)
    squares = [at(1, 0, "lake"), at(2, 0, "lake")]
    assert lasts[3] == {
        "player": 0,
        "realm": 0,
        "kind": "claim",
        "domino": 40,
        "label": "41",
        "slot": 2,
        "new_line": [{"domino": d, "label": str(d + 1)} for d in (0, 1, 2, 3)],
    }
    assert lasts[4:] == [
        {"player": 1, "realm": 1, "kind": "place", "domino": 8, "label": "9", "squares": squares},
        {
            "player": 1,
            "realm": 1,
            "kind": "knight",
            "square": 1,
            "cell": {"x": 1, "y": 0},
            "coins": 2,
        },
        {"player": 1, "realm": 1, "kind": "burn", "space": 5, "building": 6, "tile": "B07"},
        {"player": 1, "realm": 1, "kind": "claim", "domino": 0, "label": "1", "slot": 0},
        {
            "player": 0,
            "realm": 0,
            "kind": "place",
            "domino": 29,
            "label": "30",
            "squares": [at(-1, 0, "forest", 1), at(-2, 0, "town")],
        },
        {"player": 0, "realm": 0, "kind": "pass", "step": "tax"},
        {
            "player": 0,
            "realm": 0,
            "kind": "build",
            "space": 0,
            "building": 8,
            "tile": "B09",
            "price": 0,
        },
        {
            "player": 0,
            "realm": 0,
            "kind": "site",
            "cell": {"x": -2, "y": 0},
            "building": 8,
            "space": 0,
            "price": 0,
            "knights": 1,  # the Magic School: a knight and a tower
            "towers": 1,
            "queen": {"from": None, "to": 0},  # the first tower brings the Queen
        },
    ]


def test_a_build_and_its_square() -> None:
    made = a_round()
    site = made[-1][0]
    assert [drawn(GAME).move_model(site, a) for a in GAME.legal_actions(site)] == [
        {"kind": "site", "cell": {"x": -2, "y": 0}, "building": 8, "space": 0}
    ]
    assert drawn(GAME).view_model(site, 0)["phase"] == "site"
    assert drawn(GAME).view_model(site, 0)["turn"] == {
        "player": 0,
        "realm": 0,
        "domino": {"domino": 29, "label": "30"},
        "placed": {
            "domino": 29,
            "label": "30",
            "squares": [at(-1, 0, "forest", 1), at(-2, 0, "town")],
        },
        "knights": [],
        "building": 8,
        "space": 0,
    }
    tax = made[5][0]  # player 1 after placing 9: two squares to tax, or pass
    assert [drawn(GAME).move_model(tax, a) for a in GAME.legal_actions(tax)] == [
        {"kind": "knight", "square": 1, "cell": {"x": 1, "y": 0}, "coins": 2},
        {"kind": "knight", "square": 2, "cell": {"x": 2, "y": 0}, "coins": 2},
        {"kind": "pass", "step": "tax"},
    ]
    after = drawn(GAME).view_model(made[-1][2], None)
    assert after["phase"] == "claim"
    assert after["realms"][0] | {"kingdom": None} == {
        "players": [0],
        "kingdom": None,
        "coins": 7,
        "guard": 2,
        "knights": [],
        "towers": 1,
        "buildings": [{"building": 8, "tile": "B09", "cell": {"x": -2, "y": 0}}],
        "free_towns": [],
        "queen": True,
        "score": 4,  # 1 crown x 1 forest, 2 of wealth, the Queen's crown on the forest
    }
    assert after["realms"][1]["knights"] == [{"x": 1, "y": 0}]
    assert (after["realms"][1]["coins"], after["realms"][1]["guard"]) == (8, 0)
    assert after["builders_board"] == [
        space(0, None, None),
        space(1, 16, "B17"),
        space(2, 0, "B01"),
        space(3, 2, "B03"),
        space(4, 4, "B05"),
        space(5, None, None),
    ]
    assert (after["queen"], after["dragon"], after["burnt"]) == (0, "away", [6])
    assert after["supply"] == {"knights": 19, "towers": 14}
    assert [(i["domino"], i["king"], i["done"]) for i in after["lines"]["placing"]] == [
        (8, 1, True),
        (29, 0, True),
        (40, 0, False),
        (41, 1, False),
    ]
    assert (after["lines_drawn"], after["to_come"], len(after["unseen"])) == (2, 40, 40)


def test_the_server_sends_the_latest_decision_with_the_model() -> None:
    before, chosen, after = a_round()[-1]
    sent = model(GAME, after, 1, (before, chosen))
    assert sent["version"] == 1
    assert sent["last"]["kind"] == "site" and sent["last"]["queen"] == {"from": None, "to": 0}
    validator("model").validate(sent)
    assert "last" not in model(GAME, after, 1, None)


@pytest.mark.parametrize("options", [{"players": 6, "royal_wedding": True, "teams": True}])
def test_the_royal_wedding_deck_is_sent_as_counts(options: dict[str, Any]) -> None:
    game = Queendomino(options)
    state = game.initial_state()
    while game.is_chance(state):
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    assert state.deck.bit_length() > 53  # the state's deck: beyond JavaScript's integers
    shown = drawn(game).view_model(state, 3)
    assert "deck" not in shown
    assert (shown["to_come"], shown["lines_drawn"], shown["lines_total"]) == (88, 1, 12)
    assert [d["label"] for d in shown["unseen"]][7:10] == ["Q16", "Q17", "Q18"]
    assert shown["unseen"][-1] == {"domino": 95, "label": "K48"}
    assert [realm["players"] for realm in shown["realms"]] == [[0, 1], [2, 3], [4, 5]]
    assert [item["label"] for item in shown["lines"]["new"]] == [f"Q{n}" for n in range(1, 9)]
    assert shown["turn"] == {"player": game.current_player(state), "realm": 0, "domino": None}


def test_the_box_says_what_the_table_lacks_and_how_to_load_yours() -> None:
    box = drawn(GAME).components()
    by_tile = {b["tile"]: b for b in box["buildings"]}
    assert by_tile["B09"]["unknown"] == [] and by_tile["B09"]["verified"]
    assert by_tile["B01"]["unknown"] == ["immediate"] and not by_tile["B01"]["verified"]
    assert by_tile["B11"]["unknown"] == ["immediate", "ongoing"]
    assert box["buildings_table"]["source"] == "shipped"
    assert "--buildings FILE" in box["buildings_table"]["how_to_load"]
