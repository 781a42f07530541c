"""Queendomino's moves in words (games/queendomino/words.py): every label and sentence of
random games is readable (no tile ids, no coordinates) and the labels of a position tell its
moves apart; hand-picked moves of each kind read exactly as written here."""

from __future__ import annotations

from typing import Any

import pytest

from boards import drawn
from kingdomkit.core.registry import make_game
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.state import BUILD, DRAGON, EMPTY, TAX
from queendomino_oracle import MODES
from words import chance_sentences, check_random_games, decisions, first_move, said


@pytest.mark.parametrize("options", MODES)
def test_random_games_read_as_words(options: dict[str, Any]) -> None:
    assert check_random_games(make_game("queendomino", options), range(6)) > 100


GAME = Queendomino({"players": 2})
SEED = 7  # a random game in which each kind of move below is played or legal


@pytest.mark.parametrize(
    ("notation", "label", "sentence"),
    [
        (
            "claim 25",
            "Claim domino 25 (1-crown swamp / wheat)",
            "Ann claimed domino 25 (1-crown swamp / wheat)",
        ),
        (
            "place 2 -1,-1 0,-1",
            "Place domino 2: wheat 1 left 1 up, wheat 1 up from your castle",
            "Ann placed domino 2 (wheat / wheat) just above their castle",
        ),
        (
            # both squares are wheat: the label says which one
            "knight -1,-1",
            "Send a knight to the wheat 1 left 1 up from your castle (+2 coins)",
            "Ann sent a knight to the wheat (+2 coins)",
        ),
        ("pass", "Send no knight", "Ann sent no knight"),
        (
            "burn B11",
            "Pay the Dragon 1 coin to burn the Foundry",
            "Ann paid the Dragon 1 coin to burn the Foundry",
        ),
        ("build B13", "Buy the Church for 4 coins", "Ann bought the Church for 4 coins"),
        (
            "at 1,0",
            "Build the Church on the town 1 right from your castle",
            "Ann built the Church on the town 1 right from their castle",
        ),
    ],
)
def test_moves_of_each_kind(notation: str, label: str, sentence: str) -> None:
    state, action = first_move(GAME, SEED, notation)
    assert said(GAME, state, action) == (label, sentence)


def test_the_passes_say_what_is_passed() -> None:
    passes = {}
    for state, legal, _ in decisions(GAME, SEED):
        if GAME.pass_action in legal and state.phase not in passes:
            passes[state.phase] = said(GAME, state, GAME.pass_action)
    assert passes[TAX] == ("Send no knight", "Ann sent no knight")
    assert passes[BUILD] == ("Build nothing", "Ann built nothing")
    assert passes[DRAGON] == ("Leave the Dragon in its cave", "Ann left the Dragon in its cave")


def test_two_buildings_alike_are_told_apart_by_their_space() -> None:
    state, _ = first_move(GAME, SEED, "burn B11")
    weaving = [b.index for b in GAME.table.buildings if b.name == "Weaving Shop"]
    state = state._replace(board=(weaving[0], weaving[1], EMPTY, EMPTY, EMPTY, EMPTY))
    labels = {drawn(GAME).move_label(state, a) for a in GAME.legal_actions(state)}
    assert {
        "Pay the Dragon 1 coin to burn the Weaving Shop on the 0-coin space",
        "Pay the Dragon 1 coin to burn the Weaving Shop on the 1-coin space",
    } <= labels


def test_royal_wedding_names_the_box() -> None:
    game = Queendomino({"players": 4, "royal_wedding": True})
    state, action = next((s, a) for s, legal, a in decisions(game, 2) for a in legal)
    label = drawn(game).move_label(state, action)
    assert label.startswith(("Claim the Queendomino domino ", "Claim the Kingdomino domino ")), (
        label
    )


def test_chance_tells_the_buildings_turned_up_and_the_new_lines() -> None:
    told = [said for _, _, said in chance_sentences(GAME, SEED)]
    assert told[0].startswith("Turned up on the pile: the ")
    assert sum(said.startswith("New line: dominoes ") for said in told) == GAME.setup.lines
    wedding = Queendomino({"players": 4, "royal_wedding": True})
    lines = [s for _, _, s in chance_sentences(wedding, 1) if s.startswith("New line")]
    assert lines[0].startswith(("New line: Queendomino dominoes", "New line: Kingdomino dominoes"))
