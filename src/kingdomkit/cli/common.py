"""Arguments shared by the sub-commands: which game, how many players, which options."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from kingdomkit.core.progress import LoggedProgress
from kingdomkit.core.protocol import Game, OptionError
from kingdomkit.core.registry import GAMES, game_info, make_game


def add_game_arguments(parser: argparse.ArgumentParser, players_required: bool = False) -> None:
    parser.add_argument("game", choices=sorted(GAMES), help="the game")
    parser.add_argument("--players", type=int, required=players_required, help="number of players")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME",
        help="turn on a variant (repeatable), e.g. --option harmony",
    )
    add_file_arguments(parser)


def add_file_arguments(parser: argparse.ArgumentParser) -> None:
    """`--NAME FILE` for every game option that takes a file (e.g. --buildings)."""
    helps: dict[str, list[str]] = {}
    for info in GAMES.values():
        for name, text in info.file_options:
            helps.setdefault(name, []).append(f"{info.name}: {text}")
    for name in sorted(helps):
        parser.add_argument(f"--{name}", metavar="FILE", help="; ".join(helps[name]))


def file_options(args: argparse.Namespace, game: str) -> dict[str, str]:
    """The file options given on the command line, refused if `game` takes none of them."""
    info = game_info(game)
    accepted = {name for name, _ in info.file_options}
    given: dict[str, str] = {}
    for other in GAMES.values():
        for name, _ in other.file_options:
            value = getattr(args, name, None)
            if value is None or name in given:
                continue
            if name not in accepted:
                raise OptionError(f"--{name} is not an option of {info.name}")
            given[name] = value
    return given


def game_from_args(args: argparse.Namespace) -> Game[Any]:
    """The configured game, or OptionError naming the unknown or clashing option."""
    info = game_info(args.game)
    options: dict[str, Any] = {}
    if args.players is not None:
        options["players"] = args.players
    else:
        options["players"] = info.default_players
    for name in args.option:
        if name not in info.option_names:
            raise OptionError(
                f"unknown option {name!r} for {info.name} (options: {', '.join(info.option_names)})"
            )
        options[name] = True
    options.update(file_options(args, info.name))
    return make_game(info.name, options)


def bot_names(text: str, seats: int) -> list[str]:
    """`greedy,random` -> one bot name per seat; a single name fills every seat."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise OptionError(f"{seats} bots needed (one per seat), {len(names)} given: {text!r}")
    return names


def progress_bar(console: Console, label: str) -> LoggedProgress:
    """A progress bar with elapsed time and ETA for `console`; where the console is not a
    terminal (pipes, files, tests) a plain line a minute instead (core.progress)."""
    return LoggedProgress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        label=label,
        transient=True,
    )
