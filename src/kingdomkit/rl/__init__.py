"""Reinforcement learning: every game as a PettingZoo AEC environment (aec.py) and as a
Gymnasium single-agent environment against bots (gym.py, registered as
kingdomkit/Kingdomino-v0, kingdomkit/Queendomino-v0, kingdomkit/Kingdoms-v0 on import), both
written once against the protocol and each game's `observation` capability (observation.py:
`observer(game)`, `symmetries`); and a vector environment on a game's batched simulator (its
`batch` capability, rewarded by batch.py; vector.py, `gymnasium.make_vec`).
Needs the `rl` extra (numpy, numba, pettingzoo, gymnasium). Layouts, rewards, examples:
docs/rl.md.
"""

from __future__ import annotations

from typing import Any

from kingdomkit.core.protocol import Game
from kingdomkit.rl.observation import Symmetry, observer
from kingdomkit.rl.observation import symmetries as observation_symmetries

ENVIRONMENTS = (
    "ENV_IDS",
    "KingdomkitAECEnv",
    "KingdomkitGymEnv",
    "KingdomkitVectorEnv",
    "env",
    "register_envs",
)

try:
    from kingdomkit.rl.aec import KingdomkitAECEnv, env
    from kingdomkit.rl.gym import ENV_IDS, KingdomkitGymEnv, register_envs
    from kingdomkit.rl.vector import KingdomkitVectorEnv
except ModuleNotFoundError as missing:
    # The games' observation encoders live in this package (observation.py) and the `neural`
    # bot reads them with numpy alone (the `fast` extra): without the environments' libraries
    # only the environments are refused, in words, when asked for.
    if missing.name not in ("gymnasium", "pettingzoo"):
        raise
    _missing = missing.name

    def __getattr__(name: str) -> Any:
        if name in ENVIRONMENTS:
            raise ModuleNotFoundError(
                f"kingdomkit.rl.{name} needs {_missing}: pip install 'kingdomkit[rl]'",
                name=_missing,
            )
        raise AttributeError(f"module 'kingdomkit.rl' has no attribute {name!r}")
else:
    register_envs()


def symmetries(game: Game[Any], observation: dict[str, Any]) -> list[Symmetry]:
    """The symmetries of an environment's observation (its "observation" arrays and its
    "action_mask"), for data augmentation: `observation.symmetries`, identity first."""
    return observation_symmetries(game, observation["observation"], observation["action_mask"])


__all__ = [
    "ENV_IDS",
    "KingdomkitAECEnv",
    "KingdomkitGymEnv",
    "KingdomkitVectorEnv",
    "env",
    "observer",
    "register_envs",
    "symmetries",
]
