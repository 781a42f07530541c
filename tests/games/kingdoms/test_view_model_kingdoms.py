"""Kingdoms' view model (games/kingdoms/view.py): exact models of hand-made positions for a
player, their opponent and a spectator (hidden tiles never leak), the move models, and the
epoch score sheets, which must say exactly what each purse gained."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boards import drawn
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.rules import PLAY, Kingdoms, KingdomsState
from kingdomkit.games.kingdoms.state import Scored
from kingdomkit.games.kingdoms.tiles import FULL_SUPPLY, tile_type
from kingdoms_oracle import MODES


def tile(label: str) -> int:
    kind = tile_type(label)
    assert kind is not None, label
    return kind.index


def face(label: str) -> dict[str, Any]:
    """A tile's model, spelt out."""
    faces = {
        "+3": {"kind": "resource", "type": 2, "value": 3, "name": "Town", "title": "+3 Town"},
        "-6": {"kind": "hazard", "type": 11, "value": -6, "name": "Troll", "title": "-6 Troll"},
        "DRG": {"kind": "dragon", "type": 13, "value": 0, "name": "Dragon", "title": "Dragon"},
        "+6": {"kind": "resource", "type": 5, "value": 6, "name": "", "title": "+6"},
    }
    return faces[label]


def play(game: Kingdoms, state: KingdomsState, *steps: str | int) -> KingdomsState:
    """Chance outcomes as ints (a player, a tile type), decisions as readable moves."""
    for step in steps:
        action = step if isinstance(step, int) else game.parse_action(state, step)
        state = (
            game.apply_checked(state, action)
            if isinstance(step, str)
            else game.apply(state, action)
        )
    return state


def model(game: Kingdoms, state: KingdomsState, seat: int | None) -> dict[str, Any]:
    return drawn(game).view_model(game.view(state, seat), seat)


def last(
    game: Kingdoms, before: KingdomsState, step: str, seat: int | None
) -> dict[str, Any] | None:
    """What the server's model says `step` of `before` did, as `seat` sees it."""
    action = game.parse_action(before, step)
    after = game.apply_checked(before, action)
    return drawn(game).last_model(game.view(before, seat), action, game.view(after, seat))


def castle(player: int, rank: int, strength: int | None = None) -> dict[str, Any]:
    return {"kind": "castle", "player": player, "rank": rank, "strength": strength or rank}


def opening() -> tuple[Kingdoms, KingdomsState]:
    """2 players: A starts, A is dealt the +3 Town and B the -6 Troll; A puts a rank-2 castle
    on row 1, column 2; B draws the Dragon."""
    game = Kingdoms({"players": 2})
    state = play(game, game.initial_state(), 0, tile("+3"), tile("-6"), "castle 2 1,2", "draw")
    return game, play(game, state, tile("DRG"))


def test_the_drawer_sees_the_tile_they_drew_and_their_starting_tile_only() -> None:
    game, state = opening()
    board: list[Any] = [None] * 30
    board[1] = castle(0, 2)
    assert model(game, state, 1) == {
        "players": [
            {"gold": 50, "castles": [4, 2, 2, 1], "has_starting_tile": True},
            {
                "gold": 50,
                "castles": [4, 3, 2, 1],
                "has_starting_tile": True,
                "starting_tile": face("-6"),
            },
        ],
        "variants": {"down_to_the_last_castle": False, "no_luck": False, "score_as_you_go": False},
        "phase": "place",
        "epoch": 1,
        "epochs_in_game": 3,
        "turn": 1,
        "rows": 5,
        "columns": 6,
        "board": board,
        "scored": {"rows": [False] * 5, "columns": [False] * 6},
        "held": {"player": 1, "tile": face("DRG")},
        "supply": {"count": 20},
        "epochs": [],
    }


def test_the_others_see_a_drawn_tile_and_starting_tiles_face_down() -> None:
    game, state = opening()
    mine = model(game, state, 0)
    assert mine["held"] == {"player": 1}
    assert mine["players"][0]["starting_tile"] == face("+3")
    assert "starting_tile" not in mine["players"][1]
    watcher = model(game, state, None)
    assert watcher["held"] == {"player": 1}
    assert [p.get("starting_tile") for p in watcher["players"]] == [None, None]
    assert [p["has_starting_tile"] for p in watcher["players"]] == [True, True]
    assert watcher["supply"] == {"count": 20}
    assert "Dragon" not in str(watcher) and "Troll" not in str(mine)


def test_last_says_which_piece_went_where() -> None:
    game, state = opening()
    placed = play(game, state, "place 3,4")
    assert last(game, state, "place 3,4", None) == {
        "player": 1,
        "kind": "tile",
        "space": 2 * 6 + 3,
        "piece": face("DRG"),
    }
    assert model(game, placed, None)["board"][15] == face("DRG")
    started = play(game, placed, "start 5,6")
    assert last(game, placed, "start 5,6", 1) == {
        "player": 0,
        "kind": "starting_tile",
        "space": 29,
        "piece": face("+3"),
    }
    assert model(game, started, 1)["players"][0]["has_starting_tile"] is False
    assert last(game, started, "castle 1 1,1", 0) == {
        "player": 1,
        "kind": "castle",
        "space": 0,
        "piece": castle(1, 1),
    }


def test_move_models_name_the_piece_and_the_space() -> None:
    game, state = opening()
    before_draw = play(game, game.initial_state(), 0, tile("+3"), tile("-6"))
    moves = {
        game.action_to_string(before_draw, a): drawn(game).move_model(before_draw, a)
        for a in game.legal_actions(before_draw)
    }
    assert moves["castle 4 5,6"] == {"kind": "castle", "rank": 4, "space": 29}
    assert moves["draw"] == {"kind": "draw"}
    assert moves["start 2,1"] == {"kind": "starting_tile", "space": 6}
    assert drawn(game).move_model(state, game.parse_action(state, "place 1,1")) == {
        "kind": "tile",
        "space": 0,
    }
    no_luck = Kingdoms({"players": 2, "no_luck": True})
    first = play(no_luck, no_luck.initial_state(), 0)
    takes = [drawn(no_luck).move_model(first, a) for a in no_luck.legal_actions(first)]
    assert {"kind": "take", "tile": face("+6")} in takes
    assert drawn(no_luck).view_model(first, None)["supply"]["face_up"][5] == {
        "tile": face("+6"),
        "count": 2,
    }


def grid(*rows: str) -> tuple[int, ...]:
    squares = []
    for row in rows:
        for token in row.split():
            if token == ".":
                squares.append(bd.EMPTY)
            elif token[0] in "AB" and token[1:].isdigit():
                squares.append(bd.castle(ord(token[0]) - 65, int(token[1:])))
            else:
                squares.append(tile(token))
    assert len(squares) == 30
    return tuple(squares)


def last_space_position(game: Kingdoms) -> KingdomsState:
    """Epoch 1, every space filled but row 5, column 6, where B puts a rank-1 castle."""
    board = grid(
        "A4 +3 MTN B2 -6 +6",
        "WIZ A1 DRG +1 B3 .",
        "+2 . GLD -2 A2 +5",
        ". . . . . .",
        ". . . . . .",
    )
    board = (*tuple(tile("+1") if s == bd.EMPTY else s for s in board[:29]), bd.EMPTY)
    spaces = tuple(s for s in range(29))
    state = game.initial_state()._replace(
        phase=PLAY, board=board, placed=spaces, turn=1, castles=((0, 0, 0, 0), (1, 0, 0, 0))
    )
    return state._replace(supply=tuple(0 for _ in FULL_SUPPLY), starting=(-1, -1))


def test_the_epoch_sheet_has_every_line_each_castle_and_the_totals() -> None:
    game = Kingdoms({"players": 2})
    state = last_space_position(game)
    after = play(game, state, "castle 1 5,6")
    seen = model(game, after, None)
    assert seen["epoch"] == 2 and seen["board"] == [None] * 30
    assert last(game, state, "castle 1 5,6", None) == {
        "player": 1,
        "kind": "castle",
        "space": 29,
        "piece": castle(1, 1),
        "scored_epoch": 1,
    }
    (sheet,) = seen["epochs"]
    assert sheet["epoch"] == 1 and sheet["board"][29] == castle(1, 1)
    row1 = sheet["lines"][0]
    # A4 +3 | MTN | B2 -6 +6: the mountain splits the row; the left part, 3, pays A4 with the
    # wizard beneath it (strength 5) 15; the right part is worth 0.
    assert row1 == {
        "name": "row 1",
        "parts": [
            {
                "spaces": [0, 1],
                "value": 3,
                "dragon": False,
                "gold_mine": False,
                "castles": [{"space": 0, "player": 0, "rank": 4, "strength": 5, "gold": 15}],
            },
            {
                "spaces": [3, 4, 5],
                "value": 0,
                "dragon": False,
                "gold_mine": False,
                "castles": [{"space": 3, "player": 1, "rank": 2, "strength": 2, "gold": 0}],
            },
        ],
        "gold": [15, 0],
    }
    row2 = sheet["lines"][1]
    # WIZ A1 DRG +1 B3 +1: the dragon cancels the resources; A1 stands by the wizard.
    assert row2["parts"][0]["value"] == 0 and row2["parts"][0]["dragon"]
    assert row2["parts"][0]["castles"][0] == {
        "space": 7,
        "player": 0,
        "rank": 1,
        "strength": 2,
        "gold": 0,
    }
    row3 = sheet["lines"][2]
    # +2 +1 GLD -2 A2 +5: (2 + 1 - 2 + 5) x 2 = 12, x 2 for the rank-2 castle.
    assert row3["parts"][0]["value"] == 12 and row3["parts"][0]["gold_mine"]
    assert row3["gold"] == [24, 0]
    assert sheet["before"] == [50, 50]
    assert sheet["after"] == list(after.gold)
    assert [sum(line["gold"][p] for line in sheet["lines"]) for p in range(2)] == sheet["gold"]
    assert [a - b for a, b in zip(sheet["after"], sheet["before"], strict=True)] == sheet["gold"]


def test_a_line_paid_as_it_filled_keeps_the_ranks_it_had_then() -> None:
    game = Kingdoms({"players": 2, "score_as_you_go": True})
    # Row 1 fills first with A's castle on column 1; a wizard then arrives beneath it.
    board = grid(
        "A1 +6 +6 +5 +5 +4",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    )
    order = tuple(range(6))
    state = game.initial_state()._replace(
        phase=PLAY,
        board=board,
        placed=order,
        scored=1,
        gold=(50 + 26, 50),
        turn=1,
        castles=((0, 0, 0, 0), (0, 0, 0, 0)),
        starting=(-1, tile("WIZ")),
        supply=tuple(0 for _ in FULL_SUPPLY),
    )
    after = play(game, state, "start 2,1")  # nobody can act: the epoch ends
    sheet = model(game, after, None)["epochs"][0]
    assert sheet["lines"][0]["parts"][0]["castles"][0]["strength"] == 1
    assert sheet["lines"][0]["gold"] == [26, 0]
    assert sheet["board"][0] == castle(0, 1, strength=2)


@pytest.mark.parametrize("options", MODES, ids=str)
def test_every_sheet_says_what_the_purses_gained(options: dict[str, Any]) -> None:
    game = make_game("kingdoms", options)
    assert isinstance(game, Kingdoms)
    for seed in range(4):
        rng = random.Random(seed)
        state, gold_at_end = game.initial_state(), []
        while not game.is_terminal(state):
            if game.is_chance(state):
                action = game.sample_chance(state, rng)
            else:
                action = rng.choice(game.legal_actions(state))
            after = game.apply(state, action)
            if after.epoch != state.epoch or game.is_terminal(after):
                gold_at_end.append(list(after.gold))
            state = after
        sheets = drawn(game).view_model(state, None)["epochs"]
        assert [sheet["after"] for sheet in sheets] == gold_at_end
        for sheet in sheets:
            assert [a - b for a, b in zip(sheet["after"], sheet["before"], strict=True)] == sheet[
                "gold"
            ]
            for line in sheet["lines"]:
                earned = [0] * game.num_players
                for part in line["parts"]:
                    for c in part["castles"]:
                        earned[c["player"]] += c["gold"]
                assert earned == line["gold"]


def test_the_remembered_past_survives_the_json_round_trip() -> None:
    game = Kingdoms({"players": 2})
    after = play(game, last_space_position(game), "castle 1 5,6")
    assert after.past == (
        Scored((*last_space_position(game).board[:29], bd.castle(1, 1)), tuple(range(30))),
    )
    assert game.state_from_json(game.state_to_json(after)) == after
    old = {k: v for k, v in game.state_to_json(after).items() if k not in ("placed", "past")}
    assert game.state_from_json(old).past == ()
