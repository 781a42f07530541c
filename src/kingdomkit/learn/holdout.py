"""`python -m kingdomkit.learn.holdout RUN`: how well fresh networks of other designs learn a
training run's records, measured on games they have not seen.

    python -m kingdomkit.learn.holdout runs/learn-2p --design board_policy=0 \\
        --design board_policy=1 --passes 3

The run's replay window (its current buffer, oldest records first) is cut in two: the newest
`--share` is held out, the rest trains. Each design (sizes of bots/network.py, the run's
where not given) starts from a fresh network whose input scales are fitted on the training
part, with the run's learning rate, batch and value weight, and is measured on the held-out
part after each pass (train.validate: the policy's divergence from the expert's visits, how
often its likeliest move is the expert's, the share of the value's and points' variance
explained). A design is chosen on these, the
figures a training run's curve cannot give: there every network has seen the games before
the ones it is measured on, and a change of design needs a run of its own.

The cut falls between records; the symmetries of the one position it may split sit on both
sides (at most 7 records of hundreds of thousands).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.learn import without_train_extra

try:
    import torch

    from kingdomkit.bots.network import Sizes, header_for, layout_of
    from kingdomkit.core.registry import make_game
    from kingdomkit.learn.loop import RUN, kept_settings
    from kingdomkit.learn.model import PolicyValueNet
    from kingdomkit.learn.records import Records
    from kingdomkit.learn.train import FIGURES, Validation, figures, fit_scales, train, validate
except ModuleNotFoundError as missing:  # the train extra is not installed
    without_train_extra(missing, "python -m kingdomkit.learn.holdout")


@dataclass(frozen=True)
class Measured(Validation):
    """A design after a pass over the training part, on the held-out part."""

    design: str
    passes: int
    seconds: float


def design_sizes(text: str, base: Sizes) -> Sizes:
    """`name=value,...` over the run's sizes; KingdomkitError, in words, for anything else."""
    known = {f.name for f in fields(Sizes)}
    changes: dict[str, int] = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name not in known or not value.isdigit():
            raise KingdomkitError(
                f"--design {text!r}: give name=number pairs of {', '.join(sorted(known))}"
            )
        changes[name] = int(value)
    return replace(base, **changes)


def measure(
    run: Path, designs: Sequence[str], passes: int, share: float, seed: int
) -> list[Measured]:
    """Every design's held-out figures after each pass (see the card)."""
    settings = kept_settings(run)
    if settings is None:
        raise KingdomkitError(f"{run} holds no training run")
    buffer = json.loads((run / RUN).read_text())["buffer"]
    records = Records.load(run / buffer)
    cut = int(len(records) * (1.0 - share))
    if cut < 1 or cut >= len(records):
        raise KingdomkitError(f"{run}'s {len(records)} records leave nothing to train or hold out")
    trained, held = (records.rows(part) for part in (slice(0, cut), slice(cut, None)))
    game = make_game(settings.game, settings.options)
    found: list[Measured] = []
    for text in designs:
        sizes = design_sizes(text, settings.sizes)
        layout = layout_of(header_for(game, sizes))  # as a run of these sizes would make it
        torch.manual_seed(seed)
        model = PolicyValueNet(layout, sizes)
        fit_scales(model, trained)
        optimizer = torch.optim.AdamW(
            model.parameters(), lr=settings.lr, weight_decay=settings.weight_decay
        )
        started = time.perf_counter()
        for done in range(1, passes + 1):
            train(
                model, optimizer, trained, len(trained), settings.batch, seed + done,
                settings.value_weight,
            )  # fmt: skip
            check = validate(model, held)
            seconds = time.perf_counter() - started
            found.append(Measured(**asdict(check), design=text, passes=done, seconds=seconds))
    return found


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kingdomkit.learn.holdout",
        description="Train fresh networks of other designs on a run's records and measure "
        "them on its newest games, held out (docs/learning.md).",
    )
    p.add_argument("run", type=Path, help="a training run's directory")
    p.add_argument(
        "--design",
        action="append",
        help="sizes over the run's, e.g. board_policy=1 or channels=64,trunk=256 "
        "(repeatable; default: the run's own)",
    )
    p.add_argument("--passes", type=int, default=3, help="passes over the training part (3)")
    p.add_argument("--share", type=float, default=0.1, help="the share held out (0.1)")
    p.add_argument("--seed", type=int, default=1, help="of the networks and the shuffles (1)")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    torch.set_num_threads(1)
    try:
        if not 1 <= args.passes <= 100:
            raise KingdomkitError("--passes must be between 1 and 100")
        if not 0.0 < args.share < 1.0 or math.isnan(args.share):
            raise KingdomkitError("--share must be between 0 and 1")
        found = measure(args.run, args.design or [""], args.passes, args.share, args.seed)
    except KingdomkitError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([asdict(m) for m in found]))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Held out: the newest {args.share:.0%} of {args.run}'s records")
    for column in ("design", "passes", *FIGURES, "s"):
        table.add_column(column, justify="left" if column == "design" else "right")
    for m in found:
        table.add_row(m.design or "the run's", str(m.passes), *figures(m), f"{m.seconds:.0f}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
