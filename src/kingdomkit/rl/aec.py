"""A PettingZoo AEC environment for any registered game, through the protocol only.

    env = kingdomkit.rl.env("kingdomino", players=4, middle_kingdom=True)
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None if terminated else policy(observation)   # mask: observation["action_mask"]
        env.step(action)

Agents are "player_0" .. "player_{n-1}", seat n of the game. An observation is a dict:
"observation", the game's arrays as that player sees them (its observer's `observe`: never a secret,
seats ordered from the player on), and "action_mask", int8 of `num_actions`, 1 on the legal
actions (all 0 for a player who is not to act). The action space is Discrete(num_actions),
the game's own action layout. Chance steps never reach the agents: they are drawn inside from
the environment's `random.Random`, seeded by `reset(seed=...)` (`reset()` without a seed goes
on with the same generator). A player may act several times in a row (Kingdomino places, then
claims). An illegal action raises IllegalActionError: pick from the mask.

Rewards come at the end only: `reward="wdl"` (default) or `"margin"` (adapter.py).
`render_mode="ansi"`: `render()` returns the game's text picture, as a spectator sees it.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from kingdomkit.core.protocol import TERMINAL, Game, IllegalActionError
from kingdomkit.core.registry import make_game
from kingdomkit.rl.adapter import (
    action_mask,
    check_settings,
    final_rewards,
    observation_space,
    resolve_chance,
)
from kingdomkit.rl.observation import observer

Observation = dict[str, Any]


class KingdomkitAECEnv(AECEnv[str, Observation, Any]):
    """Any configured game as a PettingZoo AEC environment (module card)."""

    def __init__(
        self, game: Game[Any], reward: str = "wdl", render_mode: str | None = None
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        check_settings(reward, render_mode)
        self.game = game
        self.observer = observer(game)
        self.reward = reward
        self.render_mode = render_mode
        self.metadata = {
            "name": f"kingdomkit_{game.name}_v0",
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        self.agent_ids = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(game) for a in self.possible_agents}
        self.action_spaces: dict[str, gymnasium.spaces.Space[Any]] = {
            a: gymnasium.spaces.Discrete(game.num_actions) for a in self.possible_agents
        }
        self.rng = random.Random()
        self.state: Any = None
        self.legal: tuple[int, ...] = ()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)
        game = self.game
        self.state = resolve_chance(game, game.initial_state(), self.rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        player = self.game.current_player(self.state)
        self.legal = self.game.legal_actions(self.state)
        self.agent_selection = self.possible_agents[player]

    def observe(self, agent: str) -> Observation:
        player = self.agent_ids[agent]
        acting = self.game.current_player(self.state) == player
        return {
            "observation": self.observer.observe(self.state, player),
            "action_mask": action_mask(self.game, self.legal if acting else ()),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self.legal:
            raise IllegalActionError(f"action {action!r} is not legal here (see the mask)")
        game = self.game
        self._cumulative_rewards[agent] = 0.0
        self.state = resolve_chance(game, game.apply(self.state, int(action)), self.rng)
        if game.current_player(self.state) == TERMINAL:
            finals = final_rewards(game, self.state, self.reward)
            for name, value in zip(self.possible_agents, finals, strict=True):
                self.rewards[name] = value
                self.terminations[name] = True
            self.legal = ()
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        return self.game.render(self.state, None)

    def close(self) -> None:
        """Nothing to release."""


def env(
    game_name: str, reward: str = "wdl", render_mode: str | None = None, **options: Any
) -> KingdomkitAECEnv:
    """The AEC environment of game `game_name` with `options` (as records spell them:
    `players=4, middle_kingdom=True`); OptionError for anything unknown."""
    return KingdomkitAECEnv(make_game(game_name, options), reward, render_mode)
