"""A Gymnasium single-agent environment: one learner in a seat, bots in the others.

    import gymnasium, kingdomkit.rl
    env = gymnasium.make("kingdomkit/Kingdomino-v0", players=2, opponents="greedy")
    observation, info = env.reset(seed=7)
    while True:
        action = policy(observation)          # legal: observation["action_mask"] == 1
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

Registered ids: one per installed game, from its printed name (kingdomkit/Kingdomino-v0,
kingdomkit/Queendomino-v0, kingdomkit/Kingdoms-v0; `env_id(game)`);
keyword arguments are the game's options (`players=4, middle_kingdom=True`) and:

    opponents       a bot spec for every other seat (kingdomkit.bots, e.g. "greedy",
                    "flat-mc:time=0.1"), or a list of specs, one per other seat in seat
                    order; default "random"
    seat            the learner's seat (default 0), or None for a seat drawn each episode
    reward          "wdl" (default) or "margin" (adapter.py), given when the game ends
    illegal_reward  an illegal action ends the episode with this reward (default -1)
    render_mode     None or "ansi"

Observations are those of the AEC environment (aec.py): a dict of the game's arrays as the
learner sees them and "action_mask"; `info["action_mask"]` holds the mask too, and
`action_masks()` gives it as booleans (what sb3-contrib's `MaskablePPO` asks for;
`kingdomkit.rl.maskable_ppo` is the example). Chance and
the bots' choices come from generators derived from the episode's seed, itself drawn from
`np_random` (seeded by `reset(seed=...)`), so a seed fixes the whole episode.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import Agent, chance_rng, notify_decision, seat_rng
from kingdomkit.core.protocol import TERMINAL, KingdomkitError, OptionError
from kingdomkit.core.registry import GAMES, game_info, make_game
from kingdomkit.rl.adapter import (
    action_mask,
    check_settings,
    final_rewards,
    observation_space,
    resolve_chance,
)
from kingdomkit.rl.observation import observer

Observation = dict[str, Any]


def env_id(game: str) -> str:
    """A game's Gymnasium id, from its printed name: kingdomkit/Kingdomino-v0."""
    name = re.sub(r"\W", "", game_info(game).title) or game.capitalize()
    return f"kingdomkit/{name}-v0"


ENV_IDS = {game: env_id(game) for game in GAMES}  # the games installed when this was imported


class KingdomkitGymEnv(gymnasium.Env[Observation, np.int64]):
    """One learner against bots in any registered game (module card)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Env's own type)

    def __init__(
        self,
        game: str = "kingdomino",
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        reward: str = "wdl",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        check_settings(reward, render_mode)
        self.game = make_game(game, options)
        self.observer = observer(self.game)
        players = self.game.num_players
        if seat is not None and (isinstance(seat, bool) or seat not in range(players)):
            raise OptionError(f"seat must be 0 to {players - 1} (or None), not {seat!r}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise OptionError(f"{players - 1} opponents needed, {len(specs)} given")
        for spec in specs:
            make_bot(spec)  # refuses a bad spec now rather than at the first reset
        self.specs = specs
        self.fixed_seat = seat
        self.seat = seat or 0
        self.reward = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.state: Any = None
        self.legal: tuple[int, ...] = ()
        self.over = True
        self.agents: dict[int, Agent] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        episode = int(self.np_random.integers(2**62))
        game = self.game
        players = game.num_players
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(players))
        others = [p for p in range(players) if p != self.seat]
        self.agents = {p: make_bot(spec) for p, spec in zip(others, self.specs, strict=True)}
        self.chance = chance_rng(episode)
        self.seat_rngs = {p: seat_rng(episode, p) for p in others}
        self.state = game.initial_state()
        self.over = False
        self._advance()
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.over:
            raise KingdomkitError("the episode is over: call reset()")
        action = int(action)
        if action not in self.legal:
            self.over = True
            self.legal = ()
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        game = self.game
        self.state = game.apply(self.state, action)
        notify_decision(list(self.agents.values()), game, self.seat, action)
        over = self._advance()
        reward = final_rewards(game, self.state, self.reward)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def _advance(self) -> bool:
        """Play chance and the bots until the learner acts or the game ends (True)."""
        game = self.game
        agents = list(self.agents.values())
        while True:
            self.state = resolve_chance(game, self.state, self.chance)
            player = game.current_player(self.state)
            if player == TERMINAL:
                self.over = True
                self.legal = ()
                return True
            if player == self.seat:
                self.legal = game.legal_actions(self.state)
                return False
            action = self.agents[player].act(game, self.state, self.seat_rngs[player])
            self.state = game.apply(self.state, action)
            notify_decision(agents, game, player, action)

    def _observation(self) -> Observation:
        return {
            "observation": self.observer.observe(self.state, self.seat),
            "action_mask": action_mask(self.game, self.legal),
        }

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal moves as booleans: the method sb3-contrib's `MaskablePPO` looks for."""
        return action_mask(self.game, self.legal).astype(np.bool_)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": action_mask(self.game, self.legal), "seat": self.seat}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        return self.game.render(self.state, self.seat)


def register_envs() -> None:
    """Register every game's id with Gymnasium (once; a game registered since, too);
    `gymnasium.make_vec` of a game with a batched simulator makes
    `kingdomkit.rl.vector.KingdomkitVectorEnv`."""
    for game in GAMES:
        if env_id(game) not in gymnasium.registry:
            batched = game_info(game).capabilities.batch is not None
            gymnasium.register(
                id=env_id(game),
                entry_point="kingdomkit.rl.gym:KingdomkitGymEnv",
                vector_entry_point="kingdomkit.rl.vector:KingdomkitVectorEnv" if batched else None,
                kwargs={"game": game},
            )
