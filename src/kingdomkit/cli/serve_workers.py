"""The bot workers, WebSocket sends and health check of `kingdomkit serve`: each a flag, with
an environment variable as its default, and a built-in default after that.

    --bot-workers       KINGDOMKIT_BOT_WORKERS       2    play lane: bot moves, time-outs
    --bot-share         KINGDOMKIT_BOT_SHARE         1    play workers one identity holds
    --analysis-workers  KINGDOMKIT_ANALYSIS_WORKERS  1    analysis lane: hints, reviews
    --job-heartbeat     KINGDOMKIT_JOB_HEARTBEAT     10   seconds between a worker's heartbeats
    --job-stalled       KINGDOMKIT_JOB_STALLED       30   seconds of silence: its jobs rerun
    --job-sweep         KINGDOMKIT_JOB_SWEEP         30   seconds between sweeps for lost jobs
    --send-queue        KINGDOMKIT_SEND_QUEUE        32   messages waiting for one socket
    --send-timeout      KINGDOMKIT_SEND_TIMEOUT      10   seconds to send one message
    --send-buffer       KINGDOMKIT_SEND_BUFFER    65536   bytes unsent in the kernel per socket
    --health-timeout    KINGDOMKIT_HEALTH_TIMEOUT    2    seconds /health waits for the database
    --analyst           KINGDOMKIT_ANALYST               [GAME=]SPEC making hints and reviews
                                                          (repeatable; default: each game's own)
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from kingdomkit.core.protocol import KingdomkitError

# flag, type, default, least allowed, help
SETTINGS: list[tuple[str, Callable[[str], Any], Any, float, str]] = [
    ("bot-workers", int, 2, 0, "processes playing bot moves and clock time-outs"),
    ("bot-share", int, 1, 1, "bot-move processes one identity may hold at once"),
    ("analysis-workers", int, 1, 0, "processes making hints and reviews"),
    ("job-heartbeat", float, 10.0, 0.2, "seconds between a job worker's heartbeats (PostgreSQL)"),
    ("job-stalled", float, 30.0, 0.5, "seconds without heartbeat before a worker's jobs rerun"),
    ("job-sweep", float, 30.0, 0.2, "seconds between sweeps for stalled jobs and lost tables"),
    ("send-queue", int, 32, 1, "messages waiting for a WebSocket before it is dropped"),
    ("send-timeout", float, 10.0, 0.1, "seconds a WebSocket may take to take one message"),
    ("send-buffer", int, 65536, 4096, "bytes the kernel may hold unsent for one WebSocket"),
    ("health-timeout", float, 2.0, 0.1, "seconds /health waits for the database's answer"),
]


def env_name(flag: str) -> str:
    return "KINGDOMKIT_" + flag.upper().replace("-", "_")


JOBS = ("bot-workers", "analysis-workers", "job-heartbeat", "job-stalled", "job-sweep")


def add_arguments(parser: argparse.ArgumentParser, only: tuple[str, ...] | None = None) -> None:
    """The flags of SETTINGS (of `only` those, if given)."""
    for flag, kind, default, _, text in SETTINGS:
        if only is not None and flag not in only:
            continue
        parser.add_argument(
            f"--{flag}",
            type=kind,
            default=None,
            help=f"{text} (default ${env_name(flag)}, else {default})",
        )


def settings(args: argparse.Namespace, only: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The ServerConfig fields the flags give; KingdomkitError for a value out of range."""
    found: dict[str, Any] = {}
    for flag, kind, default, least, _ in SETTINGS:
        if only is not None and flag not in only:
            continue
        value = getattr(args, flag.replace("-", "_"))
        if value is None:
            text = os.environ.get(env_name(flag))
            try:
                value = default if text is None else kind(text)
            except ValueError:
                raise KingdomkitError(f"{env_name(flag)} is not a number: {text!r}") from None
        if value < least:
            raise KingdomkitError(f"--{flag} is at least {least}")
        found[flag.replace("-", "_")] = value
    return found


def add_analyst(parser: argparse.ArgumentParser) -> None:
    """`--analyst [GAME=]SPEC`, repeatable (server/analysts.py)."""
    parser.add_argument(
        "--analyst",
        action="append",
        default=[],
        metavar="[GAME=]SPEC",
        help="the tree search making hints and reviews, for every game or for GAME alone,"
        " e.g. kingdomino=neural (the shipped network) or kingdomino=neural:weights=FILE"
        " (repeatable; default $KINGDOMKIT_ANALYST, else"
        " each game's own, whose grades docs/bots.md measures); where a network does not fit"
        " a table's options, the game's own stands in",
    )
