"""The terminal toolkit of `kingdomkit play`: what a terminal interface is, and the skeleton
every game's interface shares.

`Terminal` is the protocol `kingdomkit play` drives (a game's `terminal` capability, declared
in its shape.py; a game without one is played with the plain interface, plain.py).
`GameTerminal` implements it for one game's rules and states, leaving the game only its own
parts (hooks, each handed the game and state already narrowed):

    Terminal method   the kit does                          the game gives
    draw              status, wide or narrow layout, turn   screen(seen) -> Screen
    parse             length check, folded words            read(game, state, words, text)
    moves_help        one line per legal action             move_text(game, state, action)
    forced            only when one action is legal         forced_move(game, state, action, names)
    describe          narrows both states                   entry(game, before, action, after, ...)
    interlude         nothing to pause for                  pause(console, game, before, ...)
    final             narrows                               ending(console, game, state, names)

and `prompt` and `help_text` as they are. The helpers below are the pieces the games drew
alike: the log panel, score pads and the winners' line, the person's turn, refusals of input,
squares named like a chess board, and small words (counts, signs, lists, player colours).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from rich.columns import Columns
from rich.console import Console, JustifyMethod, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.table import Column, Table
from rich.text import Text

from kingdomkit.core.protocol import Game, IllegalActionError, check_move_length, excerpt, narrowed

G = TypeVar("G", bound=Game[Any])
S = TypeVar("S")


class Terminal(Protocol):
    """What a game offers `kingdomkit play`: pictures of the table and a reader of moves.

    `names` are the seats' display names; `seat` is the person's seat."""

    def draw(
        self,
        console: Console,
        game: Game[Any],
        state: Any,
        seat: int,
        names: Sequence[str],
        log: Sequence[str],
    ) -> None:
        """The whole table, ending with what the person must do if it is their turn."""

    def prompt(self, game: Game[Any], state: Any) -> str:
        """The short prompt before the person's input (plain text)."""

    def parse(self, game: Game[Any], state: Any, text: str) -> int:
        """The legal action `text` names; IllegalActionError with a one-line reason if none."""

    def moves_help(self, game: Game[Any], state: Any) -> list[str]:
        """Every legal action, written as the person would type it."""

    def help_text(self, game: Game[Any], state: Any) -> str:
        """How to type moves."""

    def forced(self, game: Game[Any], state: Any, names: Sequence[str]) -> str | None:
        """A message when the only legal action is forced on the person (it is played after
        they press Enter), else None."""

    def describe(
        self,
        game: Game[Any],
        before: Any,
        action: int,
        after: Any,
        names: Sequence[str],
        seat: int | None = None,
    ) -> str | None:
        """A log entry for `action`: a whole line for chance, or a part of a player's turn
        ("placed 23 on e4 e3") that the loop prefixes with the player's name; None to skip.
        The log is the person's at `seat` (None: nobody's), and names no secret of another."""

    def interlude(
        self,
        console: Console,
        game: Game[Any],
        before: Any,
        action: int,
        after: Any,
        names: Sequence[str],
    ) -> bool:
        """After `action`, a pause worth showing (a game of a match ended): draw it and return
        True to wait for Enter; else False."""

    def final(self, console: Console, game: Game[Any], state: Any, names: Sequence[str]) -> None:
        """The end: every player's score pad and the winners."""


# -- the table on the screen -------------------------------------------------------------------
@dataclass(frozen=True)
class Seen(Generic[G, S]):
    """The table as the person at `seat` is shown it, on a screen `width` characters wide."""

    game: G
    state: S
    seat: int
    names: Sequence[str]
    log: Sequence[str]
    width: int


@dataclass(frozen=True)
class Screen:
    """A table's picture: a status line, the `row` side by side when it fits in the width
    (`spare` columns kept free) followed by `under`, else the `narrow` stack, whose last
    parts are the person's own (next to the prompt, so that scrolling hides the others'
    first); then the `headline`, what the person must do."""

    status: RenderableType
    row: Sequence[RenderableType]
    under: Sequence[RenderableType]
    narrow: Sequence[RenderableType]
    headline: RenderableType | None = None
    spare: int = 1


def show(console: Console, screen: Screen) -> None:
    """Print `screen` laid out for the console's width."""
    console.print(screen.status)
    if fits(console, screen.row, screen.spare):
        console.print(Columns(screen.row))
        for part in screen.under:
            console.print(part)
    else:
        for part in screen.narrow:
            console.print(part)
    if screen.headline is not None:
        console.print(screen.headline)


def fits(console: Console, row: Sequence[RenderableType], spare: int = 1) -> bool:
    """`row` fits side by side (one column between parts) with `spare` columns left over."""
    widths = sum(console.measure(part).maximum for part in row)
    return widths + len(row) - 1 + spare <= console.width


def status_line(parts: Sequence[str]) -> Text:
    """The dim line above the table: `line 3 of 6 · variants: harmony`."""
    return Text(" · ".join(parts), style="dim")


LOG_TITLE = "Recent moves"


def log_panel(log: Sequence[str], newest_bold: bool = False) -> Panel:
    """The last moves, oldest first (the newest in bold if asked)."""
    body = Text("—", style="dim")
    if log:
        newest = len(log) - 1 if newest_bold else -1
        body = Text("\n").join(
            Text(entry, style="bold" if index == newest else "") for index, entry in enumerate(log)
        )
    return Panel(body, title=LOG_TITLE, title_align="left", border_style="dim", expand=False)


def fitted(parts: Sequence[Text], width: int) -> Text:
    """As many of `parts` as fit on a line of `width` characters, the first always."""
    shown = list(parts)
    while len(shown) > 1 and sum(p.cell_len + 1 for p in shown) > width + 1:
        shown.pop()
    return Text(" ").join(shown)


MOVES_HINT = "? lists the legal moves, help explains."


def your_turn(whose: str | None = None) -> Text:
    """The start of the headline at the person's turn: `▶ Your turn: `, with `whose` turn it
    is after `Your turn` when the person plays for more than themselves."""
    if whose is None:
        return Text().append("▶ Your turn: ", style="bold")
    text = Text().append("▶ Your turn", style="bold").append(whose)
    return text.append(": ", style="bold")


# -- players ------------------------------------------------------------------------------------
PLAYER_COLOURS = ("bright_magenta", "bright_yellow", "bright_green", "bright_blue")
FREE_STYLE = Style(color="grey50")  # a free place on a board


def colour(player: int) -> str:
    """A player's colour (a team's, a realm's), the same on every screen."""
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def in_colour(words: str, player: int, bold: bool = False) -> Text:
    """`words` (a name) in `player`'s colour."""
    return Text(words, style=f"bold {colour(player)}" if bold else colour(player))


# -- score pads and the winners -----------------------------------------------------------------
def score_pad(
    title: str | Text,
    columns: Sequence[Column | str],
    sections: Sequence[Sequence[Sequence[RenderableType]]],
    total: Sequence[str] | None = None,
    title_justify: JustifyMethod = "center",
) -> Table:
    """A score pad: the rows of each section, a line after each, then the `total` row in
    bold (its label first; blank cells stay blank; see `bold_row`)."""
    table = Table(*columns, title=title, title_justify=title_justify)
    for section in sections:
        for row in section:
            table.add_row(*row)
        table.add_section()
    if total is not None:
        table.add_row(*bold_row(total))
    return table


def bold_row(cells: Sequence[str]) -> list[RenderableType]:
    """A row of totals: each cell in bold, blank cells blank."""
    return [Text(cell, style="bold") if cell else "" for cell in cells]


def right(header: str | Text) -> Column:
    """A right-aligned column of numbers."""
    return Column(header, justify="right")


def winners_line(heading: str, winners: Sequence[Text], tail: str) -> Text:
    """`Winner: ann, 42 points (highest score)`: the bold `heading`, the winners' names
    joined by "and", then `tail`."""
    line = Text()
    line.append(f"{heading}: ", style="bold")
    for index, winner in enumerate(winners):
        line.append(" and " if index else "")
        line.append_text(winner)
    line.append(tail)
    return line


# -- reading moves ------------------------------------------------------------------------------
def folded(text: str) -> str:
    """A typed move as the readers compare it: in lower case, spaces folded."""
    return " ".join(text.lower().split())


def unreadable(text: str, hint: str) -> IllegalActionError:
    """The refusal of input that reads as no move: what was typed (cut short) and `hint`."""
    return IllegalActionError(f"cannot read {excerpt(text.strip())}: {hint}")


def square_name(column: int, row: int) -> str:
    """`b3`: a place named like a chess board, column letter then row number (both from 0)."""
    return f"{chr(ord('a') + column)}{row + 1}"


def named_square(
    column: str, row: str, columns: int, rows: int, word: str = "square"
) -> tuple[int, int]:
    """The (column, row), from 0, of the place `column` `row` names (`b`, `3`); a clear
    refusal off a board of `columns` by `rows` (`word`: what a place is called)."""
    index = ord(column) - ord("a") if len(column) == 1 else -1
    if not (0 <= index < columns and row.isdecimal() and 1 <= int(row) <= rows):
        last = chr(ord("a") + columns - 1)
        raise IllegalActionError(
            f"there is no {word} {column}{row}: columns a to {last}, rows 1 to {rows}"
        )
    return index, int(row) - 1


# -- small words --------------------------------------------------------------------------------
def count(number: int, noun: str) -> str:
    """`1 coin`, `3 coins`."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


def points(score: int) -> str:
    return count(score, "point")


def signed(number: int) -> str:
    """`+12`, `-3`, `0`: gold won or paid."""
    return f"{number:+d}" if number else "0"


def either(choices: Sequence[str]) -> str:
    """`a, b or c`."""
    return " or ".join([", ".join(choices[:-1]), choices[-1]] if len(choices) > 2 else choices)


# -- one game's interface -----------------------------------------------------------------------
class GameTerminal(Generic[G, S]):
    """A `Terminal` for one game: the kit's skeleton around the game's hooks (see the module
    card). A subclass names its rules' and states' classes and fills in the hooks."""

    game_type: type[G]
    state_type: type[S]

    def narrow(self, game: Game[Any], state: Any) -> tuple[G, S]:
        """The game and the state as this game's own (TypeError for another game's)."""
        return narrowed(game, self.game_type), narrowed(state, self.state_type)

    # -- the game's parts ------------------------------------------------------------------
    def prompt(self, game: Game[Any], state: Any) -> str:
        """The short prompt before the person's input (see `Terminal.prompt`)."""
        raise NotImplementedError

    def help_text(self, game: Game[Any], state: Any) -> str:
        """How to type moves."""
        raise NotImplementedError

    def screen(self, seen: Seen[G, S]) -> Screen:
        """The table's picture for `seen`."""
        raise NotImplementedError

    def read(self, game: G, state: S, words: str, text: str) -> int:
        """The legal action that `text` names (`words`: it folded); IllegalActionError with
        a one-line reason if none."""
        raise NotImplementedError

    def move_text(self, game: G, state: S, action: int) -> str:
        """A legal `action` as the person would type it."""
        raise NotImplementedError

    def forced_move(self, game: G, state: S, action: int, names: Sequence[str]) -> str | None:
        """Why `action`, the only legal one, is played for the person; None to ask as usual."""
        return None

    def entry(
        self, game: G, before: S, action: int, after: S, names: Sequence[str], seat: int | None
    ) -> str | None:
        """The log entry for `action` (see `Terminal.describe`)."""
        raise NotImplementedError

    def pause(
        self, console: Console, game: G, before: S, action: int, after: S, names: Sequence[str]
    ) -> bool:
        """A pause after `action` (see `Terminal.interlude`); none by default."""
        return False

    def ending(self, console: Console, game: G, state: S, names: Sequence[str]) -> None:
        """The score pads and the winners at the end."""
        raise NotImplementedError

    # -- the Terminal protocol -------------------------------------------------------------
    def draw(
        self,
        console: Console,
        game: Game[Any],
        state: Any,
        seat: int,
        names: Sequence[str],
        log: Sequence[str],
    ) -> None:
        own, now = self.narrow(game, state)
        show(console, self.screen(Seen(own, now, seat, names, log, console.width)))

    def parse(self, game: Game[Any], state: Any, text: str) -> int:
        check_move_length(text)
        own, now = self.narrow(game, state)
        return self.read(own, now, folded(text), text)

    def moves_help(self, game: Game[Any], state: Any) -> list[str]:
        own, now = self.narrow(game, state)
        return [self.move_text(own, now, action) for action in own.legal_actions(now)]

    def forced(self, game: Game[Any], state: Any, names: Sequence[str]) -> str | None:
        own, now = self.narrow(game, state)
        legal = own.legal_actions(now)
        return self.forced_move(own, now, legal[0], names) if len(legal) == 1 else None

    def describe(
        self,
        game: Game[Any],
        before: Any,
        action: int,
        after: Any,
        names: Sequence[str],
        seat: int | None = None,
    ) -> str | None:
        own, then = self.narrow(game, before)
        return self.entry(own, then, action, narrowed(after, self.state_type), names, seat)

    def interlude(
        self,
        console: Console,
        game: Game[Any],
        before: Any,
        action: int,
        after: Any,
        names: Sequence[str],
    ) -> bool:
        own, then = self.narrow(game, before)
        return self.pause(console, own, then, action, narrowed(after, self.state_type), names)

    def final(self, console: Console, game: Game[Any], state: Any, names: Sequence[str]) -> None:
        self.ending(console, *self.narrow(game, state), names)
