"""kingdomkit play: a person plays a game at the terminal against bots.

The loop knows only the protocol: it samples chance from the seed as `core.driver` does
(`chance_rng(seed)`, one `seat_rng(seed, seat)` per seat), lets the bots act, and at the
person's turn asks the game's terminal interface (its `terminal` capability, cli/terminal/kit.py;
the plain text one, cli/terminal/plain.py, for a game that declares none) to draw the table and
read a move. Every way out of a game (the end, `quit`, end of input, Ctrl-C) writes the record
when `--record` asks for one, so nothing played is lost.

Every future draw follows from the seed, so the seed is a secret until the game is over: it is
shown at the end, never before. A game stopped early is saved without it, and with every draw
the person has not seen (another player's starting tile in Kingdoms) drawn again
(`Game.conceal`); `--resume FILE` goes on from such a record with a fresh, secret seed.

    commands at every prompt:  ? or moves   the legal moves, in the input syntax
                               help         how to type moves
                               board        draw the table again
                               quit         stop (asks first)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from kingdomkit.bots import BOTS, make_bot
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.cli.common import add_game_arguments, bot_names, game_from_args
from kingdomkit.cli.replay import with_file_options
from kingdomkit.cli.terminal.kit import Terminal
from kingdomkit.cli.terminal.plain import PlainTerminal
from kingdomkit.core.driver import Agent, chance_rng, notify_decision, seat_rng
from kingdomkit.core.protocol import (
    CHANCE,
    Game,
    IllegalActionError,
    KingdomkitError,
    OptionError,
    RecordError,
)
from kingdomkit.core.record import make_record, read_record, replay_record, write_record
from kingdomkit.core.registry import shape_of
from kingdomkit.core.shape import capability

LOG_LINES = 6
MOVES_WORDS = ("?", "moves")
HELP_WORDS = ("help", "h")
BOARD_WORDS = ("board", "redraw")
QUIT_WORDS = ("quit", "exit", "q")
COMMANDS_HELP = (
    "Commands: ? or moves lists the legal moves · board draws the table again · "
    "help shows this · quit stops the game (asks first)."
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description=(
            "Play a game at the terminal against bots. At your turn type a move, "
            "? for the legal moves, help for the syntax, quit to stop."
        ),
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--bots",
        default="greedy",
        metavar="B1,B2,...",
        help=f"one bot per other seat, or one name for all (default greedy; known: "
        f"{', '.join(BOTS)})",
    )
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, 0 for the first (default 0)"
    )
    parser.add_argument("--name", default="you", help="your name in the record (default 'you')")
    parser.add_argument(
        "--seed",
        type=int,
        help="seed of the draws and the bots (default: a secret random one, shown at the end)",
    )
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="FILE",
        help="go on with the unfinished game in this record (saved when you stopped); the "
        "draws still to come are fresh",
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="write the game record here at the end, or when you stop early",
    )
    parser.set_defaults(run=run)


class QuitGameError(Exception):
    """The person asked to stop."""


def load_interface(game: Game[Any]) -> Terminal:
    """The terminal interface `game`'s shape declares, else the plain text one."""
    provider = shape_of(game).capabilities.terminal
    interface = capability(game, "terminal", provider)
    return interface if interface is not None else PlainTerminal()


def check_record_path(path: Path | None) -> Path | None:
    """Refuse, before any move is played, a record file that could not be written."""
    if path is None:
        return None
    if path.is_dir():
        raise KingdomkitError(f"cannot write the record to {path}: it is a folder")
    folder = path.parent
    if not folder.is_dir():
        raise KingdomkitError(f"cannot write the record to {path}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise KingdomkitError(f"cannot write the record to {path}: permission denied")
    return path


def resumed_game(args: argparse.Namespace) -> tuple[Game[Any], list[int]]:
    """The game and the actions so far of the unfinished record `args.resume` (its game must
    be the one named, its options are the record's)."""
    if args.players is not None or args.option:
        raise OptionError("--resume plays with the record's options: leave out --players, --option")
    record = with_file_options(args, read_record(args.resume))
    try:
        replay = replay_record(record)
    except KingdomkitError as error:
        raise RecordError(f"{args.resume}: {error}") from None
    if replay.game.name != args.game:
        raise OptionError(f"{args.resume} is a game of {replay.game.name}, not of {args.game}")
    if replay.game.is_terminal(replay.final_state):
        raise OptionError(f"{args.resume} is a finished game: there is nothing to resume")
    return replay.game, list(replay.actions)


def run(args: argparse.Namespace) -> int:
    game, played = resumed_game(args) if args.resume is not None else (game_from_args(args), [])
    if played and args.seed is not None:
        raise OptionError("--resume draws from a fresh secret seed: leave out --seed")
    players = game.num_players
    seat: int = args.seat
    if not 0 <= seat < players:
        raise OptionError(f"--seat must be 0 to {players - 1} for {players} players, not {seat}")
    others = len([name for name in args.bots.split(",") if name.strip()])
    if others not in (1, players - 1):
        raise OptionError(
            f"--bots needs {players - 1} names (one for each seat but yours) or one name for "
            f"all, not {others}: {args.bots!r}"
        )
    if not args.name.strip():
        raise OptionError("--name must not be empty")
    names = bot_names(args.bots, players - 1)
    agents: list[Agent | None] = [make_bot(name) for name in names]
    names.insert(seat, args.name)
    agents.insert(seat, None)
    interface = load_interface(game)
    record = check_record_path(args.record)
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())
    session = Session(game, interface, agents, names, seat, seed, record, Console(highlight=False))
    session.resume(played)
    return session.play()


class Session:
    """One game between the person at `seat` and bots, from `seed`."""

    def __init__(
        self,
        game: Game[Any],
        interface: Terminal,
        agents: Sequence[Agent | None],
        names: Sequence[str],
        seat: int,
        seed: int,
        record: Path | None,
        console: Console,
    ) -> None:
        self.game = game
        self.ui = interface
        self.agents = agents
        self.names = list(names)
        self.labels = [
            name if player == seat else f"{name} (seat {player})"
            for player, name in enumerate(names)
        ]
        self.seat = seat
        self.seed = seed
        self.record = record
        self.console = console
        self.chance = chance_rng(seed)
        self.rngs = [seat_rng(seed, player) for player in range(game.num_players)]
        self.state = game.initial_state()
        self.actions: list[int] = []
        self.resumed = 0  # how many actions came from a record (--resume), not from the seed
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.turn: list[str] = []

    def resume(self, actions: Sequence[int]) -> None:
        """Start from the position `actions` reach (a record's), logging them as played."""
        for action in actions:
            before = self.state
            after = self.game.apply(before, action)
            self.note(before, action, after, self.game.current_player(before))
            self.actions.append(action)
            self.state = after
        self.resumed = len(actions)

    # -- the loop --------------------------------------------------------------------------
    def play(self) -> int:
        console = self.console
        opponents = ", ".join(self.labels[p] for p in range(len(self.names)) if p != self.seat)
        console.print(
            f"{self.game.name} with {opponents}"
            + ("; resumed" if self.resumed else "; the seed is shown at the end")
            + (f"; record: {self.record}" if self.record else ""),
            markup=False,
            soft_wrap=True,
        )
        try:
            while not self.game.is_terminal(self.state):
                self.step()
        except EOFError:
            console.print("\nInput ended: the game stops here.")
            self.save()
            return 0
        except QuitGameError:
            console.print("Game stopped.")
            self.save()
            return 0
        except KeyboardInterrupt:
            console.print()
            self.save()
            raise
        self.redraw()
        console.rule("Game over")
        self.ui.final(console, self.game, self.state, self.labels)
        self.save()
        return 0

    def step(self) -> None:
        game, state = self.game, self.state
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, self.chance)
        else:
            agent = self.agents[player]
            if agent is None:
                action = self.ask()
            else:
                action = agent.act(game, state, self.rngs[player])
            notify_decision(self.agents, game, player, action)
        after = game.apply(state, action)
        self.note(state, action, after, player)
        self.actions.append(action)
        self.state = after
        if self.ui.interlude(self.console, game, state, action, after, self.labels):
            input("Press Enter to go on > ")

    def note(self, before: Any, action: int, after: Any, player: int) -> None:
        """Log chance at once, and a player's turn as one line when it ends."""
        entry = self.ui.describe(self.game, before, action, after, self.labels, self.seat)
        if player < 0:
            if entry:
                self.log.append(entry)
            return
        if entry:
            self.turn.append(entry)
        if not heuristics(self.game).turn_continues(before, after) and self.turn:
            self.log.append(f"{self.labels[player]} " + " and ".join(self.turn))
            self.turn = []

    # -- the person's turn -----------------------------------------------------------------
    def ask(self) -> int:
        game, state, console = self.game, self.state, self.console
        legal = game.legal_actions(state)
        self.redraw()
        forced = self.ui.forced(game, state, self.labels)
        if forced is not None:
            while True:
                console.print(Text(forced, style="yellow"))
                answer = input("Press Enter to go on > ").strip().lower()
                if answer not in QUIT_WORDS:
                    return legal[0]
                self.confirm_quit()
        while True:
            text = input(self.ui.prompt(game, state))
            word = text.strip().lower()
            if not word:
                console.print("Type a move, ? for the legal moves, or help.")
            elif word in MOVES_WORDS:
                moves = self.ui.moves_help(game, state)
                console.print(f"{len(moves)} legal moves:")
                console.print(Columns(moves, padding=(0, 3)))
            elif word in HELP_WORDS:
                console.print(self.ui.help_text(game, state), markup=False)
                console.print(COMMANDS_HELP, markup=False)
            elif word in BOARD_WORDS:
                self.redraw()
            elif word in QUIT_WORDS:
                self.confirm_quit()
            else:
                try:
                    action = self.ui.parse(game, state, text)
                except IllegalActionError as error:
                    console.print(Text(f"✗ {error}", style="bold red"), soft_wrap=True)
                    continue
                if action in legal:
                    return action
                console.print(
                    Text(f"✗ {text.strip()!r} is not a legal move now", style="bold red"),
                    soft_wrap=True,
                )

    def confirm_quit(self) -> None:
        """Raise QuitGameError if the person confirms (or input ends)."""
        saved = f"the record goes to {self.record}" if self.record else "nothing is saved"
        try:
            answer = input(f"Stop the game? ({saved}) [y/N] > ").strip().lower()
        except EOFError:
            answer = "y"
        if answer in ("y", "yes"):
            raise QuitGameError
        self.console.print("Carry on.")

    def redraw(self) -> None:
        if self.console.is_terminal:
            self.console.clear()
        self.console.rule(self.game.name)
        self.ui.draw(self.console, self.game, self.state, self.seat, self.labels, list(self.log))

    # -- the record ------------------------------------------------------------------------
    def save(self) -> None:
        finished = self.game.is_terminal(self.state)
        if finished and not self.resumed:
            self.console.print(
                f"Seed {self.seed} (--seed {self.seed} gives the same draws again).",
                markup=False,
                soft_wrap=True,
            )
        if self.record is None:
            self.console.print("Not saved (--record FILE keeps a record).", markup=False)
            return
        record = self.saved_record(finished)
        try:
            write_record(self.record, record)
        except OSError as error:
            raise KingdomkitError(
                f"cannot write the record to {self.record}: {error.strerror}"
            ) from None
        what = "finished game" if finished else "unfinished game"
        self.console.print(
            f"Record of the {what} saved to {self.record}"
            + ("" if finished else f" (go on with --resume {self.record})"),
            markup=False,
            soft_wrap=True,
        )

    def saved_record(self, finished: bool) -> dict[str, Any]:
        """The record to save: a finished game's whole, with its seed (null when resumed: no
        one seed made its draws); an unfinished game's without the seed, the draws the person
        has not seen drawn again from fresh randomness, so the file gives nothing away."""
        if finished:
            seed = None if self.resumed else self.seed
            return make_record(self.game, seed, self.names, self.actions)
        actions = self.game.conceal(self.actions, self.seat, random.SystemRandom())
        return make_record(self.game, None, self.names, actions)
