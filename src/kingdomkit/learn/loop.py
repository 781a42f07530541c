"""The expert-iteration loop, with a checkpoint after every iteration (resumable).

One iteration: `games` games of the expert against itself (records.py; the expert's
searches play out on the game's compiled kernel), the records joined to the replay window
(`window` most recent), training on `reuse` times as many records as the iteration added,
drawn from the window (train.py; AlphaZero's replay ratio: a record is trained on about
`reuse` times in all, whatever the window), the network exported to
`network.npz` (what `neural:weights=` reads), and its strength against each opponent
(curve.py), added to `curve.csv` and `curve.png` with how well it predicted the iteration's
fresh games before training on them (train.validate: games it had never seen).

The run's directory holds, after iteration i: `run.json` (the settings, the totals, and which
files are current), `model-i.pt` (the torch model and optimizer), `buffer-i.npz` (the replay
window), `network.npz`, `curve.csv`, `curve.png`. `run.json` is written last, in one rename:
a run interrupted anywhere resumes from the last finished iteration, with the same settings
(another setting is refused: start another directory). The network an iteration trains is
measured as `network.next.npz` and becomes `network.npz` at the checkpoint, so `network.npz`
is always the checkpoint's.

A run's small files (`run.json`, `network.npz`, the curve: what docs/runs keeps) are enough to
go on with on another machine: without its model file the run resumes from `network.npz`'s
weights with a new optimizer, and without its buffer from an empty window, and run.json
notes after which iterations the window began again empty.

The expert is a bot spec; `neural` without `weights=` is the `neural` bot with the run's
latest network (AlphaZero's loop; with `mcts`, expert iteration from our best search).
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import torch
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kingdomkit.bots import make_bot, parse_spec
from kingdomkit.bots.network import (
    Network,
    Sizes,
    header_for,
    layout_of,
    load_network,
    random_network,
    save_network,
)
from kingdomkit.core.progress import LoggedProgress
from kingdomkit.core.protocol import Game, OptionError
from kingdomkit.core.registry import make_game
from kingdomkit.core.workers import worker_pool
from kingdomkit.learn.curve import Point, plot, read_csv, strength, write_csv
from kingdomkit.learn.model import PolicyValueNet, export, from_network
from kingdomkit.learn.records import Records, self_play
from kingdomkit.learn.train import fit_scales, train, validate

NETWORK = "network.npz"
NEXT = "network.next.npz"  # trained, being measured, not yet checkpointed
LIMIT_BITS = 20
LIMIT = 1 << LIMIT_BITS  # most games an iteration or an evaluation plays, most iterations
RUN = "run.json"


@dataclass(frozen=True)
class Settings:
    """What a run is (kept in run.json; a resumed run must ask for the same)."""

    game: str
    options: dict[str, Any]
    expert: str = "mcts:playouts=200"
    games: int = 20  # games of self-play per iteration
    explore: int = 0  # a game's first choices drawn from the visits (records.Recorder)
    value_mix: float = 0.5  # the search's share of the value and points targets (records)
    reuse: float = 2.0  # records trained on per iteration, per fresh record (0: `epochs`)
    value_weight: float = 30.0  # of the value and points errors in the loss (train.py)
    epochs: int = 4  # with reuse 0: passes over the whole window per iteration
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 200_000  # records kept for training (symmetries included)
    draw_symmetries: bool = False  # a position kept once, a symmetry drawn in training
    player: str = "neural:playouts=32"  # the bot measured on the curve
    opponents: tuple[str, ...] = ("greedy",)
    eval_games: int = 20
    seed: int = 1
    sizes: Sizes = field(default_factory=Sizes)
    start: str = ""  # the network file a new run trains on from ("": an untrained one)

    @classmethod
    def kept(cls, data: dict[str, Any]) -> Settings:
        """The settings as run.json keeps them."""
        return cls(
            **{
                # runs from before a setting go on as they were made
                "value_mix": 0.0,  # learnt from outcomes alone
                "reuse": 0.0,  # `epochs` passes over the window
                "value_weight": 1.0,
                **data,
                "opponents": tuple(data["opponents"]),
                "sizes": Sizes.of(data["sizes"]),
            }
        )


@dataclass
class Progressed:
    """The totals of a run so far (kept in run.json)."""

    iteration: int = 0
    games: int = 0
    positions: int = 0
    wall_seconds: float = 0.0


def commit() -> str:
    """The commit of the code being run, `-dirty` when it has changes not committed, when it
    is a git checkout ("unknown" otherwise)."""
    try:
        found = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=40"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return found.stdout.strip() or "unknown"


def game_seed(run: int, iteration: int, game: int) -> int:
    """The seed of a run's `game`-th game of self-play in `iteration` (from 1), or of its
    evaluation deals (iteration 0): no two the same within the limits."""
    return (run << 2 * LIMIT_BITS) + (iteration << LIMIT_BITS) + game


def with_weights(spec: str, path: Path) -> str:
    """`spec` with `weights=path` when it is the `neural` bot without weights, and `mix=0`
    unless it sets one: a run's curve measures its network's own values, as runs did before
    `neural`'s default became a half playout (a resumed run's bots play as they did)."""
    parsed = parse_spec(spec)
    settings = dict(parsed.settings)
    if parsed.name != "neural" or "weights" in settings:
        return spec
    return f"{spec}:weights={path}" + ("" if "mix" in settings else ":mix=0")


class Run:
    """A training run in `directory` (new, or resumed from its run.json)."""

    def __init__(self, directory: Path, settings: Settings, command: str, workers: int = 1) -> None:
        self.directory = directory
        self.workers = workers  # processes playing self-play games (the records are the same)
        self.settings = settings
        self.command = command
        self.game: Game[Any] = make_game(settings.game, settings.options)
        self.commands = [command]
        self.commits = [commit()]
        self.header = header_for(self.game, settings.sizes, command, self.commits[0])
        self.layout = layout_of(self.header)
        self.progressed = Progressed()
        self.model = PolicyValueNet(self.layout, settings.sizes)
        self.optimizer = self._optimizer()
        self.records = Records.empty(self.layout)
        self.emptied: list[int] = []  # iterations after which the window began again empty
        self.curve: list[Point] = []
        new, existed = not (directory / RUN).is_file(), directory.exists()
        self._resume()
        try:
            self._check_bots()
        except OptionError:
            if new:  # leave no trace of a run that never began
                (directory / NETWORK).unlink(missing_ok=True)
                if not existed:
                    directory.rmdir()
            raise

    def _check_bots(self) -> None:
        """OptionError now, before any game, for a bot spec that cannot be made."""
        network = self.directory / NETWORK
        s = self.settings
        for spec in (s.expert, s.player, *s.opponents):
            bot = make_bot(with_weights(spec, network))
            score = getattr(getattr(bot, "config", None), "score", "relative")
            close = getattr(bot, "close", None)
            if close is not None:
                close()
            if spec == s.expert and s.value_mix > 0 and score != "relative":
                raise OptionError(
                    f"the expert {spec} values positions by score={score}, and the value "
                    "targets are relative outcomes: use its default score (relative) or "
                    "--value-mix 0"
                )

    def _optimizer(self) -> torch.optim.Optimizer:
        s = self.settings
        return torch.optim.AdamW(self.model.parameters(), lr=s.lr, weight_decay=s.weight_decay)

    def _resume(self) -> None:
        directory = self.directory
        saved = directory / RUN
        if not saved.is_file():
            start = self._start()
            directory.mkdir(parents=True, exist_ok=True)
            self.model = from_network(start)
            self.optimizer = self._optimizer()
            save_network(directory / NETWORK, self.header, start.arrays)
            return
        kept = json.loads(saved.read_text())
        theirs = json.loads(json.dumps(asdict(Settings.kept(kept["settings"]))))
        mine = json.loads(json.dumps(asdict(self.settings)))
        theirs["window"] = mine["window"]  # the one setting a resumed run may change
        if theirs != mine:
            changed = sorted(k for k in mine if theirs.get(k) != mine[k])
            raise OptionError(
                f"{directory} is a run with other settings ({', '.join(changed)}): "
                "resume it with the same ones, or train in another directory"
            )
        self.progressed = Progressed(**kept["progressed"])
        self.commands = [*kept["commands"], self.command]
        self.commits = [*kept["commits"], *self.commits]
        self.header["produced_by"] = {
            "command": " ; ".join(self.commands),
            "commit": " ; ".join(dict.fromkeys(self.commits)),
        }
        if self.settings.start:  # where the run began, as its first network file says
            began = load_network(directory / NETWORK).header.get("started_from", {})
            self.header["started_from"] = began
        self.emptied = list(kept.get("window_emptied_after", []))
        model, buffer = directory / kept["model"], directory / kept["buffer"]
        if model.is_file():
            state = torch.load(model, weights_only=True)
            self.model.load_state_dict(state["model"])
            self.optimizer.load_state_dict(state["optimizer"])
        else:  # carried without it: the checkpoint's network, and Adam's moments begin again
            self.model = from_network(self._fitting(directory / NETWORK))
            self.optimizer = self._optimizer()
        if buffer.is_file():
            self.records = Records.load(buffer)
        elif self.progressed.iteration not in self.emptied:
            self.emptied.append(self.progressed.iteration)
        # an interruption after training may have left a newer network: the checkpoint's
        save_network(directory / NETWORK, self.header, export(self.model, self.header).arrays)
        rows = len(self.settings.opponents) * self.progressed.iteration
        self.curve = read_csv(directory / "curve.csv")[:rows]

    def _fitting(self, path: Path | str) -> Network:
        """The network file at `path`, refused in words unless it is for this run's game and
        of its sizes."""
        network = load_network(path)
        network.check(self.game)
        if network.sizes != self.settings.sizes:
            raise OptionError(
                f"{path} is a network of other sizes ({network.sizes}) than this run's "
                f"({self.settings.sizes})"
            )
        return network

    def _start(self) -> Network:
        """The network a new run trains on from: `start`'s (its weights and input scales,
        so that a run can go on from shipped or earlier weights with a fresh buffer), or an
        untrained one."""
        s = self.settings
        if not s.start:
            return random_network(self.game, s.seed, s.sizes)
        start = self._fitting(s.start)
        self.header["started_from"] = start.header.get("produced_by", {})
        return start

    # -- one iteration ---------------------------------------------------------------------
    def iterate(self, progress: Progress) -> None:
        s = self.settings
        started = time.perf_counter()
        number = self.progressed.iteration + 1
        network_path = self.directory / NETWORK
        expert = with_weights(s.expert, network_path)

        task = progress.add_task(f"iteration {number}: self-play", total=s.games)
        seeds = [game_seed(s.seed, number, g) for g in range(s.games)]
        played = self._self_play(expert, seeds, lambda: progress.advance(task))
        fresh = Records.empty(self.layout)
        positions = 0
        for records, decisions in played:  # in seed order, however many processes
            fresh = fresh.joined(records, s.window)
            positions += decisions
        progress.remove_task(task)
        if self.progressed.iteration == 0 and not s.start and len(fresh):
            fit_scales(self.model, fresh)
        validation = validate(self.model, fresh)  # games it has not trained on
        self.records = self.records.joined(fresh, s.window)

        # a position kept once counts as its images, so that drawing symmetries trains as much
        samples = round(s.reuse * fresh.images()) if s.reuse > 0 else s.epochs * len(self.records)
        task = progress.add_task(f"iteration {number}: training", total=samples)
        losses = train(
            self.model,
            self.optimizer,
            self.records,
            samples,
            s.batch,
            s.seed + number,
            s.value_weight,
            lambda size: progress.advance(task, size),
        )
        progress.remove_task(task)
        trained = self.directory / NEXT
        save_network(trained, self.header, export(self.model, self.header).arrays)

        player = with_weights(s.player, trained)
        measured = []
        task = progress.add_task(
            f"iteration {number}: strength", total=s.eval_games * len(s.opponents)
        )
        for opponent in s.opponents:
            measured.append(
                (
                    opponent,
                    *strength(
                        self.game,
                        player,
                        opponent,
                        [game_seed(s.seed, 0, g) for g in range(s.eval_games)],
                        lambda: progress.advance(task),
                    ),
                )
            )
        progress.remove_task(task)

        done = self.progressed
        done.iteration = number
        done.games += s.games
        done.positions += positions
        done.wall_seconds += time.perf_counter() - started
        for opponent, share, margin in measured:
            self.curve.append(
                Point(
                    number,
                    done.games,
                    done.positions,
                    round(done.wall_seconds, 1),
                    losses.policy,
                    losses.value,
                    losses.points,
                    opponent,
                    s.eval_games,
                    share,
                    margin,
                    validation.policy_kl,
                    validation.value_explained,
                    validation.points_explained,
                    validation.policy_agreement,
                )
            )
        self._checkpoint()

    def _self_play(
        self, expert: str, seeds: list[int], step: Callable[[], None]
    ) -> list[tuple[Records, int]]:
        """The games of `seeds`, in order: here, or spread over `workers` processes."""
        s = self.settings
        play = partial(
            self_play,
            self.game,
            expert,
            layout=self.layout,
            explore=s.explore,
            value_mix=s.value_mix,
            draw=s.draw_symmetries,
        )
        return games_of(play, seeds, self.workers, step)

    def _checkpoint(self) -> None:
        directory, number = self.directory, self.progressed.iteration
        model, buffer = f"model-{number}.pt", f"buffer-{number}.npz"
        torch.save(
            {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()},
            directory / model,
        )
        self.records.save(directory / buffer)
        (directory / NEXT).replace(directory / NETWORK)
        write_csv(directory / "curve.csv", self.curve)
        title = f"{self.settings.game} {json.dumps(self.settings.options)}: {self.settings.expert}"
        plot(directory / "curve.png", self.curve, title)
        kept = {
            "settings": asdict(self.settings),
            "progressed": asdict(self.progressed),
            "model": model,
            "buffer": buffer,
            "commands": self.commands,  # the first, then each resumption
            "commits": self.commits,
            "window_emptied_after": self.emptied,
        }
        partial = directory / (RUN + ".partial")
        partial.write_text(json.dumps(kept, indent=1, sort_keys=True))
        partial.replace(directory / RUN)
        for old in (f"model-{number - 1}.pt", f"buffer-{number - 1}.npz"):
            (directory / old).unlink(missing_ok=True)


def games_of(
    play: Callable[[int], tuple[Records, int]],
    seeds: Sequence[int],
    workers: int,
    step: Callable[[], None],
) -> list[tuple[Records, int]]:
    """`play` of each of `seeds`, in seed order: here, or spread over `workers` processes;
    `step()` as each game ends (`play` must pickle: a partial of `records.self_play`)."""
    if workers <= 1:
        found = []
        for seed in seeds:
            found.append(play(seed))
            step()
        return found
    with worker_pool(workers) as pool:  # spawned: this process holds torch's threads
        jobs = [pool.submit(play, seed) for seed in seeds]
        for _ in as_completed(jobs):
            step()
        return [job.result() for job in jobs]


def progress_bar() -> LoggedProgress:
    """The run's bar, on standard error as the arena's (standard output has the run's
    figures at its end); in a log (a run left going under nohup) a plain line a minute."""
    return LoggedProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        label="learn",
    )


def kept_settings(directory: Path) -> Settings | None:
    """The settings of the run in `directory`, None when there is none."""
    saved = directory / RUN
    if not saved.is_file():
        return None
    return Settings.kept(json.loads(saved.read_text())["settings"])


def run(
    directory: Path, settings: Settings, iterations: int, command: str, workers: int = 1
) -> Run:
    """Train in `directory` until it has `iterations` iterations (resuming it if it exists),
    self-play spread over `workers` processes."""
    training = Run(directory, settings, command, workers)
    with progress_bar() as progress:
        done = training.progressed.iteration  # a resumed run's, not part of this one's pace
        total = progress.add_task("iterations", total=iterations, completed=done)
        while training.progressed.iteration < iterations:
            training.iterate(progress)
            progress.update(total, completed=training.progressed.iteration)
    return training
