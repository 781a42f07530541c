"""`python -m kingdomkit.learn`: train the `neural` bot's network (see loop.py).

    python -m kingdomkit.learn kingdomino --players 2 --iterations 10 --out runs/learn-2p
    python -m kingdomkit.learn --out runs/learn-2p --iterations 20     # resume, go on

Without a game, the run in `--out` goes on with its own settings.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.learn import without_train_extra

try:
    from kingdomkit.bots.network import Sizes, load_network
    from kingdomkit.learn.loop import LIMIT, Settings, kept_settings, run
except ModuleNotFoundError as missing:  # the train extra is not installed
    without_train_extra(missing, "python -m kingdomkit.learn")

DEFAULTS = Settings(game="", options={})


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kingdomkit.learn",
        description="Train a policy-value network for the `neural` bot by expert iteration "
        "(docs/learning.md); resumes the run in --out when there is one.",
    )
    p.add_argument("game", nargs="?", help="the game (a new run); omit to resume --out")
    p.add_argument("--players", type=int, help="players (the game's default when omitted)")
    p.add_argument(
        "--variant", action="append", default=[], help="an on/off option, e.g. mighty_duel"
    )
    p.add_argument("--out", type=Path, required=True, help="the run's directory")
    p.add_argument("--iterations", type=int, default=1, help="train until this many iterations (1)")
    p.add_argument(
        "--expert",
        default=DEFAULTS.expert,
        help=f"the bot whose self-play games are learnt from ({DEFAULTS.expert}; neural "
        "without weights: the run's own network)",
    )
    p.add_argument(
        "--games",
        type=int,
        default=DEFAULTS.games,
        help=f"games of self-play per iteration ({DEFAULTS.games})",
    )
    p.add_argument(
        "--explore",
        type=int,
        default=DEFAULTS.explore,
        help="a game's first choices drawn from the expert's visits (0)",
    )
    p.add_argument(
        "--value-mix",
        type=float,
        default=DEFAULTS.value_mix,
        help="the search's share of the value targets, the game's outcome the rest "
        f"(0 to 1; {DEFAULTS.value_mix:g})",
    )
    p.add_argument(
        "--reuse",
        type=float,
        default=DEFAULTS.reuse,
        help="records trained on per iteration, as a multiple of the records it added, "
        f"drawn from the window; 0: --epochs passes over the whole window ({DEFAULTS.reuse:g})",
    )
    p.add_argument(
        "--value-weight",
        type=float,
        default=DEFAULTS.value_weight,
        help="the weight of the value and points errors in the loss, the policy's being 1 "
        f"({DEFAULTS.value_weight:g})",
    )
    p.add_argument(
        "--epochs",
        type=int,
        default=DEFAULTS.epochs,
        help=f"with --reuse 0: passes over the whole window per iteration ({DEFAULTS.epochs})",
    )
    p.add_argument(
        "--batch", type=int, default=DEFAULTS.batch, help=f"records a step ({DEFAULTS.batch})"
    )
    p.add_argument(
        "--lr", type=float, default=DEFAULTS.lr, help=f"Adam's learning rate ({DEFAULTS.lr:g})"
    )
    p.add_argument(
        "--window",
        type=int,
        help=f"the newest records trained on, symmetries included ({DEFAULTS.window}); a "
        "resumed run may be given another",
    )
    p.add_argument(
        "--draw-symmetries",
        action="store_true",
        help="keep each position once and draw one of its symmetries each time it is trained "
        "on, so that the window holds 8 times the games in Kingdomino (a record is then a "
        "position; --reuse counts its images, so training does as many steps)",
    )
    p.add_argument(
        "--player",
        default=DEFAULTS.player,
        help=f"the bot measured on the curve, with the run's network ({DEFAULTS.player})",
    )
    p.add_argument(
        "--opponent",
        action="append",
        help=f"a fixed opponent of the curve, repeatable ({', '.join(DEFAULTS.opponents)})",
    )
    p.add_argument(
        "--eval-games",
        type=int,
        default=DEFAULTS.eval_games,
        help="games against each opponent per iteration, on the same deals "
        f"({DEFAULTS.eval_games})",
    )
    p.add_argument(
        "--seed", type=int, default=DEFAULTS.seed, help=f"of the whole run ({DEFAULTS.seed})"
    )
    p.add_argument(
        "--start",
        metavar="WEIGHTS",
        default="",
        help="a new run trains on from this network file (its weights, input scales and "
        "sizes) instead of an untrained network",
    )
    p.add_argument(
        "--board-policy",
        action="store_true",
        help="a new run's network gives each action on the board a logit from its own cell's "
        "features (bots/network.py), besides the dense layer's",
    )
    p.add_argument("--threads", type=int, default=1, help="torch's threads (1)")
    p.add_argument("--workers", type=int, default=1, help="processes playing self-play games (1)")
    return p


def settings_from(args: argparse.Namespace) -> Settings:
    options: dict[str, object] = dict.fromkeys(args.variant, True)
    if args.players is not None:
        options["players"] = args.players
    return Settings(
        game=args.game,
        options=options,
        expert=args.expert,
        games=args.games,
        explore=max(0, args.explore),
        value_mix=args.value_mix,
        reuse=args.reuse,
        value_weight=args.value_weight,
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        window=DEFAULTS.window if args.window is None else args.window,
        draw_symmetries=args.draw_symmetries,
        player=args.player,
        opponents=tuple(args.opponent or DEFAULTS.opponents),
        eval_games=args.eval_games,
        seed=args.seed,
        start=args.start,
        sizes=sizes_from(args),
    )


def sizes_from(args: argparse.Namespace) -> Sizes:
    """A new run's sizes: its start network's, or the defaults with --board-policy's."""
    if not args.start:
        return replace(DEFAULTS.sizes, board_policy=int(args.board_policy))
    sizes = load_network(args.start).sizes
    if args.board_policy and not sizes.board_policy:
        raise KingdomkitError(f"--board-policy: {args.start} is a network without one")
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    import torch

    torch.set_num_threads(max(1, args.threads))
    try:
        for name in ("games", "epochs", "batch", "window", "eval_games", "iterations"):
            if getattr(args, name) is not None and getattr(args, name) < 1:
                raise KingdomkitError(f"--{name.replace('_', '-')} must be at least 1")
        for name in ("games", "eval_games", "iterations"):
            if getattr(args, name) >= LIMIT:
                raise KingdomkitError(f"--{name.replace('_', '-')} must be less than {LIMIT}")
        if args.seed < 0:
            raise KingdomkitError("--seed must be at least 0")
        if not 0.0 <= args.value_mix <= 1.0:
            raise KingdomkitError("--value-mix must be between 0 and 1")
        for name in ("reuse", "value_weight"):
            if not 0.0 <= getattr(args, name) <= 1000.0:
                raise KingdomkitError(f"--{name.replace('_', '-')} must be between 0 and 1000")
        if args.game is None:
            settings = kept_settings(args.out)
            if settings is None:
                raise KingdomkitError(f"{args.out} holds no run: name a game to start one")
            if args.window is not None:  # more games kept as the run grows, or fewer
                settings = replace(settings, window=args.window)
        else:
            settings = settings_from(args)
        command = shlex.join(["python", "-m", "kingdomkit.learn", *argv])
        done = run(args.out, settings, args.iterations, command, max(1, args.workers))
    except KingdomkitError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    last = done.progressed
    print(
        f"{last.iteration} iterations, {last.games} games of self-play, {last.positions} "
        f"positions, {last.wall_seconds:.0f} s; network: {args.out / 'network.npz'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
