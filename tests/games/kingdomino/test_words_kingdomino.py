"""Kingdomino's moves in words (games/kingdomino/words.py): every label and sentence of random
games is readable and the labels of a position tell its moves apart; hand-picked moves read
exactly as written here."""

from __future__ import annotations

import pytest

from boards import drawn
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdomino.rules import Kingdomino
from kingdomkit.games.kingdomino.state import CLAIM, PLACE, UNCLAIMED, KingdominoState
from kingdomkit.games.kingdomino.words import region_words
from words import chance_sentences, check_random_games, decisions, said


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 3, "draw_four": True},
        {"players": 2, "mighty_duel": True, "dynasty": True},
    ],
)
def test_random_games_read_as_words(options: dict[str, object]) -> None:
    assert check_random_games(make_game("kingdomino", options), range(12)) > 100


def _at(game: Kingdomino, phase: int) -> KingdominoState:
    """The first position of a seeded game in `phase`, with an empty kingdom to act on."""
    found: KingdominoState = next(s for s, _, _ in decisions(game, 1) if s.phase == phase)
    return found


def test_claim() -> None:
    game = Kingdomino({"players": 2})
    state = _at(game, CLAIM)._replace(line=(1, 29, 40, 45), claims=(UNCLAIMED,) * 4)
    assert said(game, state, 1) == (
        "Claim domino 29 (1-crown forest / grassland)",
        "Ann claimed domino 29 (1-crown forest / grassland)",
    )


@pytest.mark.parametrize(
    ("move", "where", "region"),
    [
        ("place 29 0,-1 0,-2", "1-crown forest 1 up, grassland 2 up", "just above"),
        ("place 29 -2,0 -1,0", "1-crown forest 2 left, grassland 1 left", "just to the left of"),
        (
            "place 29 1,0 1,1",
            "1-crown forest 1 right, grassland 1 right 1 down",
            "just to the right of",
        ),
    ],
)
def test_place(move: str, where: str, region: str) -> None:
    game = Kingdomino({"players": 2})
    state = _at(game, PLACE)
    player = game.current_player(state)
    state = state._replace(placing=(29, *state.placing[1:]))
    state = state._replace(kingdoms=(game._empty,) * 2, turn=0)
    assert game.current_player(state) == player
    action = game.parse_action(state, move)
    assert said(game, state, action) == (
        f"Place domino 29: {where} from your castle",
        f"Ann placed domino 29 (1-crown forest / grassland) {region} their castle",
    )


@pytest.mark.parametrize(
    ("first", "second", "region"),
    [
        ((0, -1), (-1, -1), "just above"),
        ((0, 2), (0, 3), "below"),
        ((-1, -2), (-2, -2), "above and to the left of"),
        ((-1, 2), (0, 2), "below"),  # across the castle's column: no side named
        ((3, 1), (3, 2), "below and to the right of"),
        ((2, 0), (3, 0), "to the right of"),
    ],
)
def test_the_log_says_where_a_domino_went_as_a_person_would(
    first: tuple[int, int], second: tuple[int, int], region: str
) -> None:
    assert region_words(first, second) == region


def test_discard() -> None:
    game = Kingdomino({"players": 2})
    state = _at(game, PLACE)
    state = state._replace(placing=(29, *state.placing[1:]), turn=0)
    label = drawn(game).move_label(state, game.discard_action)
    assert label == "Discard domino 29 (1-crown forest / grassland): it fits nowhere"
    after = game.apply(state, game.discard_action)
    sentence = drawn(game).move_sentence(state, game.discard_action, after, "Bob")
    assert sentence == "Bob discarded domino 29 (1-crown forest / grassland): it fitted nowhere"


def test_chance_tells_each_new_line_and_the_king_order() -> None:
    told = [said for _, _, said in chance_sentences(Kingdomino({"players": 2}), 0)]
    assert told[:3] == [
        "New line: dominoes 12, 20, 36 and 41",
        "The kings claim in this order: Player 2, Player 1, Player 1, Player 2",
        "New line: dominoes 13, 24, 28 and 45",
    ]
    assert len(told) == 6 + 1  # six lines and one order
