"""`kingdomkit bench --against TREE`: this checkout's figures against another's, as ratios.

Speeds are compared as ratios measured in the same run (docs/benchmarks.md): two figures taken
on different runs or days differ by the load as much as by the code. So both trees run the same
`kingdomkit bench` in fresh processes, in turn (this one first in even rounds, the other first
in odd ones, so that neither always meets a warmer or a busier machine), and each figure's
ratio is the median of its round-by-round ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

import kingdomkit

THIS, OTHER = "this", "other"


def source_folder(tree: str) -> Path | None:
    """The folder holding the `kingdomkit` package of `tree` (a checkout or its src), or None."""
    path = Path(tree).expanduser().resolve()
    for folder in (path / "src", path):
        if (folder / "kingdomkit" / "__init__.py").is_file():
            return folder
    return None


def child_argv(args: argparse.Namespace) -> list[str]:
    """The options of one tree's run: the figures and timing asked for, printed as JSON."""
    argv = ["--json", "--repeats", str(args.repeats), "--clock", args.clock]
    argv += ["--quick"] if args.quick else []
    argv += [option for name in args.game or [] for option in ("--game", name)]
    argv += ["--rl"] if args.rl else []
    argv += ["--bots"] if args.bots else []
    argv += ["--only", args.only] if args.only is not None else []
    argv += ["--pin", str(args.pin)] if args.pin is not None else []
    return argv


def bench_once(folder: Path, argv: list[str]) -> dict[str, float] | str:
    """One tree's figures (name: median per second), or the tree's error in words."""
    environment = {**os.environ, "PYTHONPATH": str(folder)}
    command = [sys.executable, "-m", "kingdomkit", "bench", *argv]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
        return f"its bench failed (exit {done.returncode}): " + " / ".join(said)
    try:
        report = json.loads(done.stdout)
        return {r["name"]: float(r["median_per_second"]) for r in report["results"]}
    except (ValueError, KeyError, TypeError) as error:
        return f"its bench printed no report ({error})"


def compare(args: argparse.Namespace) -> int:
    """Run both trees `args.rounds` times each and print every figure they share."""
    this = Path(kingdomkit.__file__).resolve().parents[1]
    other = source_folder(args.against)
    if other is None:
        print(
            f"kingdomkit bench: {args.against} holds no kingdomkit sources (kingdomkit/ or "
            "src/kingdomkit/)",
            file=sys.stderr,
        )
        return 2
    if args.rounds < 1:
        print("kingdomkit bench: --rounds must be at least 1", file=sys.stderr)
        return 2
    argv = child_argv(args)
    runs: dict[str, list[dict[str, float]]] = {THIS: [], OTHER: []}
    for round_ in range(args.rounds):
        order = [(THIS, this), (OTHER, other)]
        for side, folder in order if round_ % 2 == 0 else order[::-1]:
            figures = bench_once(folder, argv)
            if isinstance(figures, str):
                print(f"kingdomkit bench: {side} tree ({folder}): {figures}", file=sys.stderr)
                return 1
            runs[side].append(figures)
    rows = paired(runs[THIS], runs[OTHER])
    if args.json:
        shared = [{**asdict(row), "ratio": row.ratio} for row in rows]
        report = {"this": str(this), "other": str(other), "clock": args.clock, "figures": shared}
        print(json.dumps(report, indent=1))
        return 0
    table = Table(title=f"this tree against {other} ({args.rounds} rounds, {args.clock} clock)")
    for heading in ("figure", "this (median)", "other (median)", "ratio (median)", "ratios"):
        table.add_column(heading, justify="left" if heading == "figure" else "right")
    for row in rows:
        table.add_row(
            row.name,
            f"{row.this:,.1f}",
            f"{row.other:,.1f}",
            f"{row.ratio:.2f}",
            ", ".join(f"{r:.2f}" for r in row.ratios),
        )
    Console(file=sys.stdout).print(table)
    print(f"this: {this}\nratio = this / other, per round; above 1: this tree is faster")
    return 0


@dataclass(frozen=True)
class Paired:
    """One figure of both trees: each one's median per second, and this / other per round."""

    name: str
    this: float
    other: float
    ratios: list[float]

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios) if self.ratios else float("nan")


def paired(this: list[dict[str, float]], other: list[dict[str, float]]) -> list[Paired]:
    """Every figure both trees measured in every round, in this tree's order."""
    names = [name for name in this[0] if all(name in run for run in this + other)]
    return [
        Paired(
            name,
            statistics.median(run[name] for run in this),
            statistics.median(run[name] for run in other),
            [a[name] / b[name] for a, b in zip(this, other, strict=True) if b[name] > 0],
        )
        for name in names
    ]
