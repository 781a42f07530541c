"""Domino Duel as arrays for learners (its `observation` capability): for each domino, where
it is as `player` sees it: on offer, in their hand, in the other's, set aside or unseen."""

from __future__ import annotations

from typing import Any

import numpy as np

from dominoduel.rules import DOMINOES, ROUNDS, DominoDuel, DuelState
from kingdomkit.rl.observation import ArraySpec, Observation, Symmetry

PLACES = 5  # on offer, mine, theirs, set aside, not drawn


class DuelObserver:
    version = 1

    def __init__(self, game: DominoDuel) -> None:
        self.game = game

    def spec(self) -> dict[str, ArraySpec]:
        return {
            "dominoes": ArraySpec((DOMINOES, PLACES), "int8", 0, 1),
            "round": ArraySpec((ROUNDS + 1,), "int8", 0, 1),
        }

    def observe(self, state: DuelState, player: int) -> Observation:
        where = np.zeros((DOMINOES, PLACES), np.int8)
        mine, theirs = state.hands[player], state.hands[1 - player]
        for domino in range(1, DOMINOES + 1):
            if domino in state.shown:
                place = 0
            elif domino in mine:
                place = 1
            elif domino in theirs:
                place = 2
            elif domino in state.drawn:
                place = 3
            else:
                place = 4
            where[domino - 1, place] = 1
        round_ = np.zeros(ROUNDS + 1, np.int8)
        round_[state.round] = 1
        return {"dominoes": where, "round": round_}

    def symmetries(self, observation: Observation, action_mask: Any) -> list[Symmetry]:
        return [Symmetry(observation, action_mask, np.arange(len(action_mask)))]
