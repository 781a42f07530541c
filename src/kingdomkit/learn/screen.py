"""`python -m kingdomkit.learn.screen NETWORK ...`: networks side by side on the same fresh
games of an expert, in minutes, before an arena spends hours of CPU on them.

    python -m kingdomkit.learn.screen docs/runs/learn-2p-big/network.npz \\
        docs/runs/learn-2p-sym/network.npz --games 200 --workers 2

The expert (default `mcts:playouts=200`, the runs' own) plays `--games` games against itself
from seeds no training run uses, recorded as a run records them (learn/records.py). The value
and points targets are the expert's own estimates at each decision (`--value-mix 1`, the
default) or the games' outcomes (`0`), or a mix. Each network is measured on every one of those
decisions (train.validate): its policy's divergence from the expert's visits, how often its
likeliest move is the expert's, and the share of the targets' variance its value and points
explain. The networks must be of one game, set-up and encoder (their headers say).

Why these defaults: of six 2-player networks, the value figure against the expert's estimates
put them in the same order on two sets of 200 games, the order of the arenas but for one pair;
against the outcomes it moved by up to 0.06 from one set to the other; the policy figures told
none apart (docs/learning.md, "Screening networks"). A first sieve, not a verdict.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

from kingdomkit.core.protocol import KingdomkitError, OptionError
from kingdomkit.learn import without_train_extra

try:
    import torch

    from kingdomkit.bots.network import Network, layout_of, load_network
    from kingdomkit.core.registry import make_game
    from kingdomkit.learn.loop import games_of, progress_bar
    from kingdomkit.learn.model import from_network
    from kingdomkit.learn.records import Records, self_play
    from kingdomkit.learn.train import FIGURES, Validation, figures, validate
except ModuleNotFoundError as missing:  # the train extra is not installed
    without_train_extra(missing, "python -m kingdomkit.learn.screen")

FIRST_SEED = 90_000  # below the seeds of any run of the default --seed (loop.game_seed)
MAX_GAMES = 10_000


@dataclass(frozen=True)
class Screened(Validation):
    """One network on the expert's games."""

    network: str


def networks_of(paths: Sequence[str]) -> list[Network]:
    """The networks at `paths`; KingdomkitError, in words, unless they share one game, set-up
    and encoder."""
    found = [load_network(path) for path in paths]
    first = found[0].header
    for path, network in zip(paths, found, strict=True):
        header = network.header
        for fact in ("game", "options", "observation", "actions", "encoder_version"):
            if header.get(fact) != first.get(fact):
                raise KingdomkitError(
                    f"{path} is not for what {paths[0]} is for: its {fact} differs "
                    f"({header.get(fact)!r}, not {first.get(fact)!r})"
                )
    return found


def screen(
    paths: Sequence[str],
    expert: str,
    games: int,
    workers: int,
    first_seed: int = FIRST_SEED,
    value_mix: float = 1.0,
) -> tuple[list[Screened], int]:
    """Every network's figures on `games` games of `expert` (seeds from `first_seed`, value
    targets the outcome mixed with the search's root estimate by `value_mix`), and the
    decisions recorded."""
    networks = networks_of(paths)
    header = networks[0].header
    game = make_game(str(header["game"]), dict(header["options"]))
    layout = layout_of(header)
    play = partial(self_play, game, expert, layout=layout, value_mix=value_mix, draw=True)
    seeds = range(first_seed, first_seed + games)
    records = Records.empty(layout)
    with progress_bar() as progress:
        task = progress.add_task(f"{games} games of {expert}", total=games)
        played = games_of(play, seeds, workers, lambda: progress.advance(task))
    decisions = 0
    for found, made in played:  # in seed order, however many processes
        records = records.joined(found, len(records) + len(found))
        decisions += made
    screened = []
    for path, network in zip(paths, networks, strict=True):
        check = validate(from_network(network), records)
        screened.append(Screened(**asdict(check), network=path))
    return screened, decisions


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kingdomkit.learn.screen",
        description="Measure networks of one game on the same fresh games of an expert "
        "(docs/learning.md, 'Screening networks').",
    )
    p.add_argument("networks", nargs="+", help="network files (.npz) of one game and set-up")
    p.add_argument("--expert", default="mcts:playouts=200", help="the bot that plays the games")
    p.add_argument("--games", type=int, default=200, help="games of the expert (200)")
    p.add_argument("--workers", type=int, default=1, help="processes playing them (1)")
    p.add_argument(
        "--seed", type=int, default=FIRST_SEED, help=f"the first game's seed ({FIRST_SEED})"
    )
    p.add_argument(
        "--value-mix",
        type=float,
        default=1.0,
        help="value targets: the expert's root estimate (1), the outcome (0), or a mix (1)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    torch.set_num_threads(1)
    try:
        if not 1 <= args.games <= MAX_GAMES:
            raise KingdomkitError(f"--games must be between 1 and {MAX_GAMES}")
        if not 1 <= args.workers <= 64:
            raise KingdomkitError("--workers must be between 1 and 64")
        if not 0 <= args.seed < 2**63 - MAX_GAMES:
            raise KingdomkitError("--seed must be a whole number from 0")
        if not 0.0 <= args.value_mix <= 1.0:
            raise KingdomkitError("--value-mix must be between 0 and 1")
        found, decisions = screen(
            args.networks, args.expert, args.games, args.workers, args.seed, args.value_mix
        )
    except (KingdomkitError, OptionError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        settings = {"expert": args.expert, "games": args.games, "seed": args.seed}
        settings["value_mix"] = args.value_mix
        settings["decisions"] = decisions
        print(json.dumps({**settings, "networks": [asdict(s) for s in found]}))
        return 0
    from rich.console import Console
    from rich.table import Table

    targets = {1.0: "the expert's estimates", 0.0: "the outcomes"}.get(
        args.value_mix, f"outcomes mixed {args.value_mix:g} with the expert's estimates"
    )
    title = f"{args.games} games of {args.expert}: {decisions} decisions; values of {targets}"
    table = Table(title=title)
    table.add_column("network", overflow="fold")  # a path is never cut short
    for column in FIGURES:
        table.add_column(column, justify="right")
    for s in found:
        table.add_row(str(Path(s.network)), *figures(s))
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
