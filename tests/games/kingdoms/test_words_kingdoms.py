"""Kingdoms' moves in words (games/kingdoms/words.py): every label and sentence of random games
is readable (spaces by row and column, tiles by name) and the labels of a position tell its
moves apart; hand-picked moves read exactly as written here; the log never names a tile that
only its holder has seen."""

from __future__ import annotations

from typing import Any

import pytest

from boards import drawn
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdoms.actions import DRAW_ACTION, PASS_ACTION
from kingdomkit.games.kingdoms.board import EMPTY, SPACES
from kingdomkit.games.kingdoms.rules import Kingdoms
from kingdomkit.games.kingdoms.state import PLACE
from kingdomkit.games.kingdoms.tiles import TYPES
from kingdoms_oracle import MODES
from words import chance_sentences, check_random_games, decisions, first_move, said


@pytest.mark.parametrize("options", MODES)
def test_random_games_read_as_words(options: dict[str, Any]) -> None:
    assert check_random_games(make_game("kingdoms", options), range(6)) > 100


TROLL = next(t.index for t in TYPES if t.name == "Troll")
GAME = Kingdoms({"players": 2})


def test_castle() -> None:
    state, action = first_move(GAME, 1, "castle 2 3,4")
    assert said(GAME, state, action) == (
        "Place a rank-2 castle on row 3, column 4",
        "Ann placed a rank-2 castle on row 3, column 4",
    )


def test_a_drawn_tile_is_named_when_it_is_put_face_up() -> None:
    state, action = first_move(GAME, 1, "draw")
    assert said(GAME, state, action) == ("Draw a tile", "Ann chose to draw a tile")
    state, action = next((s, a) for s, _, a in decisions(GAME, 1) if s.phase == PLACE)
    state = state._replace(held=TROLL, board=(EMPTY,) * SPACES)
    action = GAME.parse_action(state, "place 3,4")
    assert said(GAME, state, action) == (
        "Put the Troll (\u22126) on row 3, column 4",
        "Ann drew the Troll (\u22126) and put it on row 3, column 4",
    )


def test_the_draw_never_names_the_tile() -> None:
    """The sentence of a draw is written before the tile is seen, and is the same whatever
    the tile: nothing for the other players to learn from the log."""
    for seed in range(3):
        for state, _, action in decisions(GAME, seed):
            if action == DRAW_ACTION:
                after = GAME.apply(state, action)
                sentence = drawn(GAME).move_sentence(state, action, after, "Ann")
                assert sentence == "Ann chose to draw a tile"


def test_starting_tile_is_named_when_played() -> None:
    state, action = first_move(GAME, 1, "castle 2 3,4")
    player = GAME.current_player(state)
    starting = list(state.starting)
    starting[player] = TROLL
    state = state._replace(starting=tuple(starting), board=(EMPTY,) * SPACES)
    action = GAME.parse_action(state, "start 2,5")
    assert said(GAME, state, action) == (
        "Place your starting tile, the Troll (\u22126), on row 2, column 5",
        "Ann played their starting tile, the Troll (\u22126), on row 2, column 5",
    )


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Village", "a Village (+1)"),
        ("Dire Wolves", "the Dire Wolves (\u22123)"),
        ("Mountain", "a Mountain"),
        ("Dragon", "the Dragon"),
        ("Gold Mine", "the Gold Mine"),
        ("Wizard", "the Wizard"),
        ("", "a +4 resource"),
    ],
)
def test_no_luck_take(name: str, words: str) -> None:
    game = Kingdoms({"players": 3, "no_luck": True})
    kind = next(t for t in TYPES if t.name == name and (name or t.value == 4))
    state = next(s for s, legal, _ in decisions(game, 1) if game.current_player(s) >= 0)
    state = state._replace(supply=tuple(1 if t.index == kind.index else 0 for t in TYPES))
    action = game.parse_action(state, f"take {kind.label}")
    assert said(game, state, action) == (f"Take {words}", f"Ann took {words}")


def test_pass() -> None:
    state, _ = first_move(GAME, 1, "castle 2 3,4")
    after = GAME.apply(state, PASS_ACTION)
    assert drawn(GAME).move_label(state, PASS_ACTION) == "Pass (nothing else is possible)"
    sentence = drawn(GAME).move_sentence(state, PASS_ACTION, after, "Ann")
    assert sentence == "Ann passed (nothing else was possible)"


def test_chance_says_who_starts_an_epoch_and_nothing_else() -> None:
    """The tiles dealt face down and drawn are never told; who starts each epoch is."""
    told = [said for _, _, said in chance_sentences(GAME, 0)]
    assert told == [
        "Epoch 1: Player 2 starts",
        "Epoch 2: Player 1 starts",
        "Epoch 3: Player 2 starts",
    ]
