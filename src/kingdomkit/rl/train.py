"""An example of learning Kingdomino: PPO with a masked policy (policy.py) on the batched
simulator's vector environment, against compiled bots, on the CPU (the `train` extra).

    python -m kingdomkit.rl.train --minutes 30 --out runs/kingdomino-ppo

Half the games are played against the random bot and half against the full greedy bot
(2 players, the learner's seat drawn each episode). The reward of a step is the change of
the margin as it stands (`potential`), divided by 20: the rewards of a game add up to its
final margin, but arrive as the points are made. Every `--eval-every` seconds the policy,
playing its most likely action, is measured against both bots on fixed seeds; the run writes,
in `--out`:

    curve.csv     seconds, steps, games, and per opponent the win rate, its 95% interval and
                  the mean margin of each evaluation
    curve.png     the win rates over training time, with their intervals
    policy.pt     the network's weights (`KingdominoPolicy.for_game(game)` loads them)
    summary.json  the settings, the first and last evaluations, the steps and time

The clock includes the evaluations, so `--minutes 30` is 30 minutes of wall time in all.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.rl.policy import KingdominoPolicy, act, batch_observation
from kingdomkit.rl.vector import KingdomkitVectorEnv

OPPONENTS = ("random", "greedy")
MARGIN_SCALE = 20.0
EVAL_SEED = 10**9  # evaluation games never share a seed with training games


@dataclass(frozen=True)
class Settings:
    minutes: float = 30.0
    envs: int = 64  # games per opponent
    steps: int = 64  # steps per game between updates
    epochs: int = 3
    minibatch: int = 1024
    learning_rate: float = 1e-3
    clip: float = 0.2
    entropy: float = 0.003
    value_weight: float = 0.5
    gae_lambda: float = 0.95
    eval_every: float = 120.0  # seconds
    eval_games: int = 200  # per opponent
    final_games: int = 1000  # per opponent, at the end
    seed: int = 0
    threads: int = 2


@dataclass(frozen=True)
class Evaluation:
    opponent: str
    games: int
    win_rate: float
    low: float
    high: float
    mean_margin: float


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    z = 1.959963984540054
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(net: KingdominoPolicy, opponent: str, games: int, seed: int) -> Evaluation:
    """`games` whole games of the policy's most likely actions against `opponent` (seats
    drawn), one per env slot, from fixed seeds: the rate of outright wins (a shared first
    place is not one) and the mean margin (own score minus the best other)."""
    envs = KingdomkitVectorEnv(games, "kingdomino", opponent, seat=None, reward="wdl", players=2)
    observations, _ = envs.reset(seed=seed)
    done = np.zeros(games, np.bool_)
    margins = np.zeros(games)
    wins = 0
    with torch.no_grad():
        while not done.all():
            actions, _, _ = act(net, batch_observation(observations), greedy=True)
            observations, rewards, terminations, _, infos = envs.step(actions.numpy())
            for i in np.flatnonzero(terminations & ~done):
                scores = infos["scores"][i]
                seat = infos["seat"][i]
                margins[i] = scores[seat] - max(np.delete(scores, seat))
                wins += int(rewards[i] == 1.0)
            done |= terminations
    low, high = wilson(wins, games)
    return Evaluation(opponent, games, wins / games, low, high, float(margins.mean()))


def potential(observation: dict[str, Any]) -> Any:
    """The learner's margin as it stands: its score (this game's and a dynasty's past ones)
    less the best other seat's, from the observations' `seats`. A step's reward is the change
    of this potential, so the rewards of a game add up to its final margin (the terminal
    observation shows the final scores), but come as the points are made."""
    seats = observation["observation"]["seats"].astype(np.float64)
    totals = seats[:, :, 0] + seats[:, :, 1]
    return totals[:, 0] - totals[:, 1:].max(axis=1)


class Trainer:
    """PPO on two vector envs (one per opponent), stepped together."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        torch.manual_seed(settings.seed)
        torch.set_num_threads(settings.threads)
        self.envs = [
            KingdomkitVectorEnv(
                settings.envs, "kingdomino", opponent, seat=None, reward="margin", players=2
            )
            for opponent in OPPONENTS
        ]
        self.net = KingdominoPolicy.for_game(self.envs[0].game)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=settings.learning_rate)
        self.observations = [
            envs.reset(seed=settings.seed * 1000 + k * settings.envs)[0]
            for k, envs in enumerate(self.envs)
        ]
        self.steps = 0
        self.games = 0

    def collect(self) -> dict[str, torch.Tensor]:
        """`steps` steps of every game: observations, actions, log-probabilities, values,
        rewards, ends, and which samples count (not the ignored step after an end)."""
        settings = self.settings
        rows: list[dict[str, torch.Tensor]] = []
        for _ in range(settings.steps):
            batch = self._batch()
            with torch.no_grad():
                actions, log_probs, values = act(self.net, batch)
            rewards, ends = [], []
            for k, envs in enumerate(self.envs):
                part = actions[k * settings.envs : (k + 1) * settings.envs].numpy()
                before = potential(self.observations[k])
                observation, _, terminated, _, _ = envs.step(part)
                self.observations[k] = observation
                rewards.append(potential(observation) - before)
                ends.append(terminated)
            done = np.concatenate(ends)
            self.games += int(done.sum())
            rows.append(
                {
                    **batch,
                    "action": actions,
                    "log_prob": log_probs,
                    "value": values,
                    "reward": torch.from_numpy(np.concatenate(rewards) / MARGIN_SCALE).float(),
                    "done": torch.from_numpy(done).float(),
                    "valid": batch["mask"].any(dim=1).float(),
                }
            )
        self.steps += int(sum(row["valid"].sum() for row in rows))
        with torch.no_grad():
            _, _, next_value = act(self.net, self._batch())
        return self._advantages(rows, next_value)

    def _batch(self) -> dict[str, torch.Tensor]:
        """The current observations of every game, both opponents' envs in a row."""
        batches = [batch_observation(observation) for observation in self.observations]
        return {key: torch.cat([b[key] for b in batches]) for key in batches[0]}

    def _advantages(
        self, rows: list[dict[str, torch.Tensor]], next_value: torch.Tensor
    ) -> dict[str, torch.Tensor]:
        """Generalised advantage estimates (no discount within a game; an end cuts)."""
        lam = self.settings.gae_lambda
        running = torch.zeros_like(next_value)
        for row in reversed(rows):
            carry = 1.0 - row["done"]
            delta = row["reward"] + carry * next_value - row["value"]
            running = delta + carry * lam * running
            row["advantage"] = running
            row["return"] = running + row["value"]
            next_value = row["value"]
        return {key: torch.cat([row[key] for row in rows]) for key in rows[0]}

    def update(self, data: dict[str, torch.Tensor]) -> None:
        settings = self.settings
        keep = data["valid"] > 0
        data = {key: value[keep] for key, value in data.items()}
        advantage = data["advantage"]
        data["advantage"] = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        count = len(advantage)
        for _ in range(settings.epochs):
            order = torch.randperm(count)
            for start in range(0, count, settings.minibatch):
                part = order[start : start + settings.minibatch]
                batch = {key: value[part] for key, value in data.items()}
                logits, values = self.net(batch)
                distribution = torch.distributions.Categorical(logits=logits)
                log_prob = distribution.log_prob(batch["action"])  # type: ignore[no-untyped-call]
                ratio = torch.exp(log_prob - batch["log_prob"])
                gain = batch["advantage"]
                clipped = torch.clamp(ratio, 1 - settings.clip, 1 + settings.clip)
                policy_loss = -torch.min(ratio * gain, clipped * gain).mean()
                value_loss = (values - batch["return"]).pow(2).mean()
                loss = (
                    policy_loss
                    + settings.value_weight * value_loss
                    - settings.entropy * distribution.entropy().mean()  # type: ignore[no-untyped-call]
                )
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                self.optimizer.step()


def train(settings: Settings, out: Path, log: Any = print) -> dict[str, Any]:
    """Trains for `settings.minutes`, evaluating as it goes; writes the files of the module
    card to `out` and returns the summary."""
    out.mkdir(parents=True, exist_ok=True)
    trainer = Trainer(settings)
    started = time.perf_counter()
    deadline = started + 60.0 * settings.minutes
    curve: list[dict[str, Any]] = []

    def measure(games: int) -> None:
        seconds = time.perf_counter() - started
        point: dict[str, Any] = {"seconds": round(seconds, 1), "steps": trainer.steps}
        point["games"] = trainer.games
        for k, opponent in enumerate(OPPONENTS):
            found = evaluate(trainer.net, opponent, games, EVAL_SEED + k * 100_000)
            point[f"{opponent}_win_rate"] = found.win_rate
            point[f"{opponent}_low"] = found.low
            point[f"{opponent}_high"] = found.high
            point[f"{opponent}_margin"] = found.mean_margin
        curve.append(point)
        log(
            f"{point['seconds']:7.0f} s {trainer.steps:10,d} steps {trainer.games:8,d} games"
            + "".join(
                f"  vs {o}: {point[f'{o}_win_rate']:.1%} (margin {point[f'{o}_margin']:+.1f})"
                for o in OPPONENTS
            )
        )

    measure(settings.eval_games)
    last_eval = time.perf_counter()
    # Keep time for the final, larger evaluation (about a second per 100 games here).
    reserve = 2.0 + 0.02 * settings.final_games
    while time.perf_counter() < deadline - reserve:
        trainer.update(trainer.collect())
        if time.perf_counter() - last_eval >= settings.eval_every:
            measure(settings.eval_games)
            last_eval = time.perf_counter()
    measure(settings.final_games)
    torch.save(trainer.net.state_dict(), out / "policy.pt")
    write_curve(curve, out / "curve.csv")
    draw_curve(curve, out / "curve.png", settings)
    summary = {
        "settings": asdict(settings),
        "seconds": round(time.perf_counter() - started, 1),
        "steps": trainer.steps,
        "games": trainer.games,
        "first": curve[0],
        "last": curve[-1],
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def write_curve(curve: Sequence[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)


def draw_curve(curve: Sequence[dict[str, Any]], path: Path, settings: Settings) -> None:
    """Win rates against each bot over training minutes, with their 95% intervals."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    minutes = [point["seconds"] / 60 for point in curve]
    for opponent in OPPONENTS:
        rates = [point[f"{opponent}_win_rate"] for point in curve]
        axes.plot(minutes, rates, marker="o", markersize=3, label=f"against {opponent}")
        axes.fill_between(
            minutes,
            [point[f"{opponent}_low"] for point in curve],
            [point[f"{opponent}_high"] for point in curve],
            alpha=0.2,
        )
    axes.axhline(0.9, color="grey", linestyle=":", linewidth=1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("minutes of training (2 cores, evaluations included)")
    axes.set_ylabel("win rate (95% interval)")
    axes.set_title("Kingdomino, 2 players: PPO with a masked policy")
    axes.legend(loc="lower right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kingdomkit.rl.train", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--minutes", type=float, default=Settings.minutes)
    parser.add_argument("--out", type=Path, default=Path("runs/kingdomino-ppo"))
    parser.add_argument("--envs", type=int, default=Settings.envs, help="games per opponent")
    parser.add_argument("--eval-every", type=float, default=Settings.eval_every, help="seconds")
    parser.add_argument("--eval-games", type=int, default=Settings.eval_games)
    parser.add_argument("--final-games", type=int, default=Settings.final_games)
    parser.add_argument("--seed", type=int, default=Settings.seed)
    parser.add_argument("--threads", type=int, default=Settings.threads)
    parser.add_argument("--learning-rate", type=float, default=Settings.learning_rate)
    parser.add_argument("--entropy", type=float, default=Settings.entropy)
    parser.add_argument("--epochs", type=int, default=Settings.epochs)
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.envs < 1 or args.eval_games < 1 or args.final_games < 1:
        parser.error("--minutes, --envs, --eval-games and --final-games must be positive")
    try:  # before 30 minutes of training, not after
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"cannot write the results to {args.out}: {error.strerror}")
    settings = Settings(
        minutes=args.minutes,
        envs=args.envs,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        final_games=args.final_games,
        seed=args.seed,
        threads=args.threads,
        learning_rate=args.learning_rate,
        entropy=args.entropy,
        epochs=args.epochs,
    )
    try:
        summary = train(settings, args.out)
    except KingdomkitError as error:
        parser.error(str(error))
    last = summary["last"]
    print(
        f"after {summary['seconds']:.0f} s and {summary['steps']:,} steps: "
        f"{last['random_win_rate']:.1%} wins against random, "
        f"{last['greedy_win_rate']:.1%} against greedy; files in {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
