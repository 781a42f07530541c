"""The other route to learning: sb3-contrib's `MaskablePPO` on the Gymnasium env as it is (the
`sb3` extra), for any installed game.

    python -m kingdomkit.rl.maskable_ppo --game kingdomino --steps 200000 --out runs/sb3

The env is made with `gymnasium.make` like any other; the only wrapper is Gymnasium's own
`FlattenObservation` (Stable-Baselines3's policies take one flat vector, and the observation
is a dict of the game's arrays). `MaskablePPO` finds the legal moves through the env's
`action_masks()`, so the policy never chooses an illegal move. At the end the policy, playing
its most likely legal action, plays `--eval-games` games against the same opponents on seeds
never used in training; the run writes `model.zip` (`MaskablePPO.load`) and `summary.json`.

Unlike `kingdomkit.rl.train` (PPO written out for Kingdomino's batched simulator, with a
network shaped like the board), this uses a library's generic MLP and one env per process:
slower to learn, but the same few lines work for every game.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import gymnasium
from gymnasium.wrappers import FlattenObservation
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import Logger

from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.core.registry import GAMES
from kingdomkit.rl.gym import env_id, register_envs
from kingdomkit.rl.train import wilson

EVAL_SEED = 10**9  # evaluation seeds start here; training episodes draw theirs from `--seed`


@dataclass(frozen=True)
class Result:
    """How the trained policy did against the opponents, on fixed seeds."""

    games: int
    wins: int
    low: float
    high: float
    mean_reward: float
    illegal: int  # moves the env refused: 0 whenever the masks are used


def make_env(game: str, opponents: str, options: dict[str, Any]) -> gymnasium.Env[Any, Any]:
    """The registered env of `game` (learner in a seat drawn each episode), flattened."""
    register_envs()
    env = gymnasium.make(env_id(game), opponents=opponents, seat=None, **options)
    return FlattenObservation(env)


def train(
    game: str,
    opponents: str,
    options: dict[str, Any],
    steps: int,
    seed: int,
    n_steps: int = 2048,
    batch_size: int = 256,
) -> MaskablePPO:
    """`steps` of the learner's decisions with MaskablePPO's defaults otherwise (an MLP policy)."""
    env = make_env(game, opponents, options)
    env.reset(seed=seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=n_steps, batch_size=batch_size, seed=seed, verbose=0, device="cpu"
    )
    # Its own logger writes nothing; left to itself, Stable-Baselines3 makes an empty
    # SB3-<date> directory in the temporary directory on every learn(), even at verbose=0.
    model.set_logger(Logger(folder=None, output_formats=[]))
    model.learn(total_timesteps=steps)
    return model


def evaluate(
    model: MaskablePPO, game: str, opponents: str, options: dict[str, Any], games: int
) -> Result:
    """`games` whole games of the policy's most likely legal action, on seeds never trained on.
    A win is a reward of 1 (an outright first place under the env's default "wdl" reward)."""
    env = make_env(game, opponents, options)
    wins = illegal = 0
    total = 0.0
    for episode in range(games):
        observation, info = env.reset(seed=EVAL_SEED + episode)
        while True:
            action, _ = model.predict(
                observation, action_masks=info["action_mask"].astype(bool), deterministic=True
            )
            observation, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                wins += int(float(reward) == 1.0)
                total += float(reward)
                illegal += int(bool(info.get("illegal_action")))
                break
    low, high = wilson(wins, games)
    return Result(games, wins, low, high, total / games, illegal)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kingdomkit.rl.maskable_ppo",
        description="Train sb3-contrib's MaskablePPO on a kingdomkit Gymnasium env.",
    )
    parser.add_argument("--game", default="kingdomino", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="a bot spec (docs/bots.md)")
    parser.add_argument("--steps", type=int, default=100_000, help="the learner's decisions")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/maskable-ppo"))
    args = parser.parse_args(argv)
    if args.steps < 1 or args.eval_games < 1:
        parser.error("--steps and --eval-games must be at least 1")
    options = {"players": args.players}
    started = time.perf_counter()
    try:
        n_steps = min(2048, max(64, args.steps))  # a short run still updates the policy
        model = train(
            args.game, args.opponents, options, args.steps, args.seed, n_steps, min(256, n_steps)
        )
        trained = time.perf_counter() - started
        result = evaluate(model, args.game, args.opponents, options, args.eval_games)
    except KingdomkitError as error:
        parser.error(str(error))
    args.out.mkdir(parents=True, exist_ok=True)
    model.save(args.out / "model.zip")
    summary = {
        "game": args.game,
        "options": options,
        "opponents": args.opponents,
        "steps": args.steps,
        "seed": args.seed,
        "training_seconds": round(trained, 1),
        "evaluation": asdict(result),
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    rate = result.wins / result.games
    print(
        f"{args.game}: {args.steps:,} steps in {trained:.0f} s; against {args.opponents}: "
        f"{rate:.1%} wins ({result.low:.1%} - {result.high:.1%}) over {result.games} games"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
