"""Kingdomino's view model (games/kingdomino/view.py) on hand-made positions: exact models, the
latest decision (`last`) a board marks and animates, and a dynasty's past scores."""

from __future__ import annotations

import random
from typing import Any

import jsonschema

from boards import drawn
from kingdomkit.games.kingdomino.rules import Kingdomino, KingdominoState
from kingdomkit.games.kingdomino.state import king_orders


def draw(game: Kingdomino, state: KingdominoState, *numbers: int) -> KingdominoState:
    for number in numbers:
        state = game.apply(state, number - 1)
    return state


def model(game: Kingdomino, state: KingdominoState) -> dict[str, Any]:
    board = drawn(game)
    found = {"version": board.view_model_version, **board.view_model(state, None)}
    jsonschema.Draft202012Validator(board.view_model_schema()).validate(found)
    return found


def square(x: int, y: int, terrain: str, crowns: int = 0) -> dict[str, Any]:
    return {"x": x, "y": y, "terrain": terrain, "crowns": crowns}


def face(terrain: str, crowns: int = 0) -> dict[str, Any]:
    return {"terrain": terrain, "crowns": crowns}


def free(number: int, terrain: str, slot: int) -> dict[str, Any]:
    """A free slot of the new line holding a domino of two like squares without crowns."""
    squares = [face(terrain), face(terrain)]
    return {"domino": number, "label": str(number), "squares": squares, "slot": slot, "king": None}


def two_players() -> tuple[Kingdomino, KingdominoState]:
    """2 players: line 1-4, kings in order 0, 1, 0, 1; they claim 4, 1, 2, 3; line 41-44."""
    game = Kingdomino({"players": 2})
    state = draw(game, game.initial_state(), 1, 2, 3, 4)
    state = game.apply(state, king_orders(2, 4).index((0, 1, 0, 1)))
    for slot in (3, 0, 1, 2):
        state = game.apply(state, slot)
    return game, draw(game, state, 41, 42, 43, 44)


def test_the_first_claim_of_a_game() -> None:
    game = Kingdomino({"players": 2})
    state = draw(game, game.initial_state(), 1, 2, 3, 4)
    state = game.apply(state, king_orders(2, 4).index((0, 1, 0, 1)))
    found = model(game, state)
    assert found["phase"] == "claim"
    assert found["acting"] == {"player": 0, "doing": "claim", "domino": None}
    assert found["lines"] == {
        "placing": [],
        "new": [
            free(1, "wheat", 0),
            free(2, "wheat", 1),
            free(3, "forest", 2),
            free(4, "forest", 3),
        ],
    }
    assert found["kingdoms"][0] == {
        "castle": {"x": 0, "y": 0},
        "frame": {"size": 5, "min_x": 0, "max_x": 0, "min_y": 0, "max_y": 0},
        "pieces": [],
        "discarded": [],
        "crowns": 0,
    }
    assert (found["lines_drawn"], found["lines_total"], found["to_come"]) == (1, 6, 20)
    assert len(found["unseen"]) == 44
    assert found["last"] is None
    assert found["dynasty"] is None
    claim = {"kind": "claim", "domino": 3, "label": "3", "slot": 2}
    assert drawn(game).move_model(state, 2) == claim


def test_a_placement_then_its_claim() -> None:
    game, state = two_players()
    before = model(game, state)
    # Seat 1 holds two claims on the line being placed: which was the later cannot be told.
    assert before["last"] == {"player": 1, "placed": None, "discarded": None, "claimed": None}
    one = {"domino": 1, "label": "1"}
    assert before["acting"] == {"player": 1, "doing": "place", "domino": one}
    assert before["to_come"] == 16

    place = game.placement_action(state, (1, 0), (2, 0))
    piece = {"domino": 1, "label": "1", "squares": [square(1, 0, "wheat"), square(2, 0, "wheat")]}
    assert drawn(game).move_model(state, place) == {"kind": "place", **piece}
    state = game.apply(state, place)
    found = model(game, state)
    assert found["phase"] == "claim"
    assert found["last"] == {"player": 1, "placed": piece, "discarded": None, "claimed": None}
    assert found["kingdoms"][1]["pieces"] == [piece]
    frame = {"size": 5, "min_x": 0, "max_x": 2, "min_y": 0, "max_y": 0}
    assert found["kingdoms"][1]["frame"] == frame
    placing = found["lines"]["placing"]
    assert [(i["domino"], i["king"], i["done"], i["acting"]) for i in placing] == [
        (1, 1, True, False),
        (2, 0, False, False),
        (3, 1, False, False),
        (4, 0, False, False),
    ]

    state = game.apply(state, 3)  # seat 1 claims domino 44
    found = model(game, state)
    assert found["last"] == {
        "player": 1,
        "placed": piece,
        "discarded": None,
        "claimed": {"domino": 44, "label": "44"},
    }
    assert found["lines"]["new"][3]["king"] == 1
    assert found["acting"] == {"player": 0, "doing": "place", "domino": {"domino": 2, "label": "2"}}
    assert [i["acting"] for i in found["lines"]["placing"]] == [False, True, False, False]


def test_the_just_placed_domino_is_the_latest_of_the_round() -> None:
    """At a new round the latest placement is the highest number of the round before (the
    kings place in line order), not a player's first domino of that round."""
    game, state = two_players()
    for first, second, slot in (
        ((1, 0), (2, 0), 3),  # seat 1 places 1, claims 44
        ((-1, 0), (-2, 0), 0),  # seat 0 places 2, claims 41
        ((0, 1), (0, 2), 1),  # seat 1 places 3, claims 42
        ((0, -1), (0, -2), 2),  # seat 0 places 4, claims 43
    ):
        state = game.apply(state, game.placement_action(state, first, second))
        state = game.apply(state, slot)
    state = draw(game, state, 5, 6, 7, 8)
    found = model(game, state)
    assert found["phase"] == "place"
    assert found["last"] == {
        "player": 0,
        "placed": {
            "domino": 4,
            "label": "4",
            # two like squares: the engine keeps the placement facing down
            "squares": [square(0, -2, "forest"), square(0, -1, "forest")],
        },
        "discarded": None,
        "claimed": None,  # seat 0 claimed 41 and 43: the later cannot be told
    }
    assert [(i["domino"], i["king"]) for i in found["lines"]["placing"]] == [
        (41, 0),
        (42, 1),
        (43, 0),
        (44, 1),
    ]
    assert [p["domino"] for p in found["kingdoms"][0]["pieces"]] == [2, 4]
    assert found["scores"][0]["total"] == 0
    assert (found["lines_drawn"], found["to_come"], len(found["unseen"])) == (3, 12, 36)


def test_the_first_rounds_last_claim_with_one_king_each() -> None:
    game = Kingdomino({"players": 4})
    state = draw(game, game.initial_state(), 1, 2, 3, 4)
    state = game.apply(state, king_orders(4, 4).index((2, 0, 3, 1)))
    state = game.apply(state, 0)  # seat 2 claims domino 1
    found = model(game, state)
    assert found["last"] == {
        "player": 2,
        "placed": None,
        "discarded": None,
        "claimed": {"domino": 1, "label": "1"},
    }
    for slot in (1, 2, 3):
        state = game.apply(state, slot)
    state = draw(game, state, 9, 10, 11, 12)
    found = model(game, state)
    assert found["last"] == {
        "player": 1,
        "placed": None,
        "discarded": None,
        "claimed": {"domino": 4, "label": "4"},
    }
    assert found["to_come"] == 40


def test_a_dynasty_shows_the_past_scores() -> None:
    game = Kingdomino({"players": 3, "dynasty": True})
    rng = random.Random(5)
    state = game.initial_state()
    while state.game_number == 0 or game.is_chance(state):
        actions = [a for a, _ in game.chance_outcomes(state)] or list(game.legal_actions(state))
        state = game.apply(state, rng.choice(actions))
    found = model(game, state)
    assert state.past_scores and len(state.past_scores[0]) == 3
    assert found["dynasty"] == {
        "game": 2,
        "games": 3,
        "past_scores": [list(state.past_scores[0])],
    }
    assert found["last"] is None  # a new game: nothing decided in it yet
    assert all(not k["pieces"] for k in found["kingdoms"])
    assert found["lines_total"] == 12 and found["to_come"] == 33


def test_a_discard_is_the_latest_decision() -> None:
    game = Kingdomino({"players": 2})
    rng = random.Random(11)
    state = game.initial_state()
    seen = 0
    while not game.is_terminal(state) and seen < 3:
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        legal = game.legal_actions(state)
        if legal == (game.discard_action,):
            number = state.placing[state.turn]
            assert drawn(game).move_model(state, game.discard_action) == {
                "kind": "discard",
                "domino": number,
                "label": str(number),
            }
            player = game.current_player(state)
            state = game.apply(state, game.discard_action)
            last = model(game, state)["last"]
            assert last["player"] == player and last["placed"] is None
            assert last["discarded"] == {"domino": number, "label": str(number)}
            seen += 1
            continue
        state = game.apply(state, rng.choice(legal))


def test_the_decision_itself_says_which_claim() -> None:
    """With the decision known (Board.last_model, as the server passes it), the claim of a
    king whose owner holds two is told, with the placement its king made just before."""
    game, state = two_players()
    place = game.placement_action(state, (1, 0), (2, 0))
    placed = game.apply(state, place)
    piece = {"domino": 1, "label": "1", "squares": [square(1, 0, "wheat"), square(2, 0, "wheat")]}
    assert drawn(game).last_model(state, place, placed) == {
        "player": 1,
        "placed": piece,
        "discarded": None,
        "claimed": None,
    }
    claimed = game.apply(placed, 2)  # seat 1 claims domino 43
    assert drawn(game).last_model(placed, 2, claimed) == {
        "player": 1,
        "placed": piece,
        "discarded": None,
        "claimed": {"domino": 43, "label": "43"},
    }
    first = Kingdomino({"players": 2})
    start = draw(first, first.initial_state(), 1, 2, 3, 4)
    start = first.apply(start, king_orders(2, 4).index((0, 1, 0, 1)))
    assert drawn(first).last_model(start, 1, first.apply(start, 1)) == {
        "player": 0,
        "placed": None,
        "discarded": None,
        "claimed": {"domino": 2, "label": "2"},
    }
