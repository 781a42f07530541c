"""Every bot asked to act where no player chooses (at a draw, or after the end) says so in
words, rather than failing inside its search with an IndexError or a division by zero."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kingdomkit.bots import BOTS, make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import Game, NotADecisionError
from kingdomkit.core.registry import make_game

BUDGETED = {"flat-mc", "uct", "uct-pb", "mcts", "neural"}  # given a tiny one to be quick


def spec_of(name: str) -> str:
    return f"{name}:playouts=4" if name in BUDGETED else name


def a_draw(game: Game[Any]) -> Any:
    state = game.initial_state()
    assert game.is_chance(state), "the deal begins with a draw"
    return state


def the_end(game: Game[Any]) -> Any:
    return play(game, [make_bot("random"), make_bot("random")], seed=3).final_state


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_asked_to_act_at_a_draw_or_after_the_end_is_told_why(name: str) -> None:
    game = make_game("kingdomino", {"players": 2})
    bot = make_bot(spec_of(name))
    with pytest.raises(NotADecisionError, match=r"a draw \(a chance node\), not a player's choice"):
        bot.act(game, a_draw(game), random.Random(1))
    with pytest.raises(NotADecisionError, match="the game is over"):
        bot.act(game, the_end(game), random.Random(1))
