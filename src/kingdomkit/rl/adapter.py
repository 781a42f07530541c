"""What the PettingZoo and Gymnasium environments share, written once against the protocol:
their spaces (from the game's observer, observation.py), the action mask, chance steps, and
the rewards.

Rewards come only at the end of a game (every other step gives 0):

    wdl     2 * share - 1, where share is the game's `returns` (1/k to each of k tied
            winners): a win 1, a loss -1, a draw between two 0
    margin  points: a winner's score minus the best score of the players who did not win
            (0 when everyone shares the victory); anyone else's score minus the winners'
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

from kingdomkit.core.protocol import CHANCE, Game, OptionError
from kingdomkit.rl.observation import observer

REWARDS = ("wdl", "margin")
RENDER_MODES = ("ansi",)


def check_settings(reward: str, render_mode: str | None) -> None:
    """OptionError for a reward or render mode that the environments do not offer."""
    if reward not in REWARDS:
        raise OptionError(f"unknown reward {reward!r} (known: {', '.join(REWARDS)})")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise OptionError(f"unknown render mode {render_mode!r} (known: {', '.join(RENDER_MODES)})")


def observation_space(game: Game[Any]) -> gymnasium.spaces.Dict:
    """Dict(observation=Dict(one Box per array of the game's spec), action_mask=Box)."""
    boxes: dict[str, gymnasium.spaces.Space[Any]] = {
        name: gymnasium.spaces.Box(spec.low, spec.high, spec.shape, np.dtype(spec.dtype))
        for name, spec in observer(game).spec().items()
    }
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Dict(boxes),
            "action_mask": gymnasium.spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )


def action_mask(game: Game[Any], legal: tuple[int, ...]) -> NDArray[np.int8]:
    """1 on the `legal` actions, 0 elsewhere (all 0 for a player who does not act)."""
    mask = np.zeros(game.num_actions, np.int8)
    if legal:
        mask[list(legal)] = 1
    return mask


def resolve_chance(game: Game[Any], state: Any, rng: random.Random) -> Any:
    """The first state from `state` on that is not a chance node, chance drawn with `rng`."""
    current_player, apply, sample = game.current_player, game.apply, game.sample_chance
    while current_player(state) == CHANCE:
        state = apply(state, sample(state, rng))
    return state


def final_rewards(game: Game[Any], state: Any, reward: str) -> list[float]:
    """Each player's reward at the terminal `state` (module card)."""
    if reward == "wdl":
        return [2.0 * share - 1.0 for share in game.returns(state)]
    scores = game.scores(state)
    winners = set(game.winners(state))
    others = [score for player, score in enumerate(scores) if player not in winners]
    best = max(scores[player] for player in winners)
    rewards = []
    for player, score in enumerate(scores):
        if player in winners:
            rewards.append(float(score - max(others)) if others else 0.0)
        else:
            rewards.append(float(score - best))
    return rewards
