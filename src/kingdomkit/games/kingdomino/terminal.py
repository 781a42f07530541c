"""Kingdomino at a terminal: a coloured picture of the table and a short move syntax for people.

Kingdomino's `terminal` capability (its shape.py): `kingdomkit play` drives the game through the
protocol and the terminal toolkit (cli/terminal/kit.py) lays out the table; everything here is
about showing Kingdomino and reading a person's moves. Queendomino draws its kingdoms and reads
its placements with the pieces exported here.

Squares are named like a chess board over the whole area a kingdom can reach from its castle,
so every square a domino could cover has a name (x to the right, y downward):

    5x5 frame: 9x9 area, columns a..i (x = -4..4), rows 1..9 (y = -4..4), castle on e5
    7x7 frame: 13x13 area, columns a..m, rows 1..13, castle on g7

Input (case and spaces do not matter):

    e4 e3   e4e3   e4-e3      square 1 of the domino on e4, square 2 on e3
    e4 up   e4 u   e4u        square 1 on e4, square 2 above it (up/down/left/right, u/d/l/r)
    discard                   only when the domino fits nowhere (rulebook, connection rules)
    17      claim 17          put your king on domino 17 of the new line
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from typing import Any, NamedTuple, Protocol

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.table import Column, Table
from rich.text import Text

from kingdomkit.cli.terminal.kit import (
    FREE_STYLE,
    MOVES_HINT,
    GameTerminal,
    Screen,
    Seen,
    colour,
    fitted,
    in_colour,
    log_panel,
    named_square,
    points,
    right,
    score_pad,
    square_name,
    status_line,
    unreadable,
    winners_line,
    your_turn,
)
from kingdomkit.core.protocol import Game, IllegalActionError, narrowed
from kingdomkit.games.kingdomino.dominoes import DOMINOES, TERRAIN_LETTERS, TERRAINS, Domino
from kingdomkit.games.kingdomino.geometry import DIRECTION_NAMES, Cell, Geometry
from kingdomkit.games.kingdomino.kingdom import Kingdom, square
from kingdomkit.games.kingdomino.rules import (
    CLAIM,
    DRAW,
    ORDER,
    OVER,
    PLACE,
    UNCLAIMED,
    Kingdomino,
    KingdominoState,
)

Point = tuple[int, int]

# Background per terrain, in TERRAINS order, with a text colour that stays readable on it.
TERRAIN_STYLES = (
    Style(color="black", bgcolor="#e6c229"),  # wheat: yellow
    Style(color="white", bgcolor="#1b5e20"),  # forest: dark green
    Style(color="white", bgcolor="#1e5bc6"),  # lake: blue
    Style(color="black", bgcolor="#9ccc65"),  # grassland: light green
    Style(color="white", bgcolor="#5f5f00"),  # swamp: olive
    Style(color="white", bgcolor="#4e4e4e"),  # mine: dark grey (black vanishes on dark screens)
)
CROWN_STYLES = (
    Style(bold=True, color="#8b0000"),
    Style(bold=True, color="#ffd54f"),
    Style(bold=True, color="#ffd54f"),
    Style(bold=True, color="#8b0000"),
    Style(bold=True, color="#ffd54f"),
    Style(bold=True, color="#ffd54f"),
)
CASTLE_STYLE = Style(color="black", bgcolor="#f5f5f5", bold=True)
TARGET_STYLE = Style(color="bright_cyan", bold=True)
RECENT_STYLE = Style(underline=True)


class Palette(NamedTuple):
    """How squares look, per terrain: a game with more terrains (Queendomino's towns) brings
    its own."""

    letters: str
    terrains: tuple[Style, ...]
    crowns: tuple[Style, ...]


PALETTE = Palette(TERRAIN_LETTERS, TERRAIN_STYLES, CROWN_STYLES)


class HasGeometry(Protocol):
    """A game whose kingdoms use Kingdomino's squares (Queendomino's too)."""

    @property
    def geo(self) -> Geometry: ...


DIRECTION_WORDS = {"r": 0, "right": 0, "d": 1, "down": 1, "l": 2, "left": 2, "u": 3, "up": 3}
STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # right, down, left, up, as in geometry.py
_CELL = r"([a-z])(\d{1,2})"
_PLACEMENT = re.compile(
    rf"^(?:place\s+)?(?:(\d+)\s+)?{_CELL}\s*[-,]?\s*(?:{_CELL}|(up|down|left|right|u|d|l|r))$"
)
_CLAIM = re.compile(r"^(?:claim\s+)?(\d+)$")
DISCARD_RULE = (
    "rulebook, connection rules: \"If you can't add a domino to your kingdom following these "
    'rules, the domino must be discarded"'
)


class TerminalUI(GameTerminal[Kingdomino, KingdominoState]):
    """Draws Kingdomino with rich and reads a person's moves (see the module card)."""

    game_type = Kingdomino
    state_type = KingdominoState

    # -- drawing -------------------------------------------------------------------------
    def screen(self, seen: Seen[Kingdomino, KingdominoState]) -> Screen:
        game, state, seat, names = seen.game, seen.state, seen.seat, seen.names
        mine = self._kingdom_panel(game, state, seat, seat, names)
        others = [
            self._kingdom_panel(game, state, player, seat, names)
            for player in range(game.num_players)
            if player != seat
        ]
        lines = self._lines(game, state, names)
        legend = _legend(seen.width)
        recent = log_panel(seen.log)
        return Screen(
            status=_status_line(game, state, names),
            row=[mine, *others],
            under=[legend, Columns([lines, recent])],
            narrow=[Columns(others), recent, Columns([mine, Group(lines, legend)])],
            headline=_headline(game, state, seat),
        )

    def _kingdom_panel(
        self, game: Kingdomino, state: KingdominoState, player: int, seat: int, names: Sequence[str]
    ) -> Panel:
        kingdom = state.kingdoms[player]
        xs, ys = kingdom_area(game, kingdom, whole=player == seat)
        targets: set[Point] = set()
        # Underline what a bot placed last, so its move is easy to spot.
        recent = last_placed(game, kingdom) if player != seat else set()
        if player == seat and state.phase == PLACE and game.current_player(state) == seat:
            for action in game.legal_actions(state):
                if action != game.discard_action:
                    targets.update(game.placement_cells(action))
        score = game.kingdom_score(kingdom)
        subtitle = points(score)
        if game.setup.dynasty and state.past_scores:
            subtitle = f"{score} ({int(game.scores(state)[player])} in all)"
        body: RenderableType = kingdom_picture(game, kingdom, xs, ys, targets, recent)
        if kingdom.discarded:
            discarded = ", ".join(map(str, kingdom.discarded))
            body = Group(body, Text(f"discarded: {discarded}", style="dim"))
        return Panel(
            body,
            title=in_colour(names[player], player, bold=True),
            subtitle=subtitle,
            border_style=colour(player),
            expand=False,
        )

    def _lines(self, game: Kingdomino, state: KingdominoState, names: Sequence[str]) -> Group:
        """The line being placed and the new line, side by side (rulebook, setup A and D)."""
        grid = Table.grid(padding=(0, 4))
        tables = []
        if state.placing:
            table = line_table("Dominoes to place")
            for index, (number, owner) in enumerate(zip(state.placing, state.placers, strict=True)):
                done = index < state.turn or (index == state.turn and state.phase == CLAIM)
                if done:
                    gone = number in state.kingdoms[owner].discarded
                    note = Text("discarded" if gone else "placed", style="dim")
                elif index == state.turn and state.phase == PLACE:
                    note = Text("◀ now", style="bold")
                else:
                    note = Text("")
                table.add_row(
                    Text(str(number), style="dim" if done else "bold"),
                    domino_text(DOMINOES[number - 1]),
                    _name(names, owner),
                    note,
                )
            tables.append(table)
        if state.line and state.phase != DRAW:
            last = state.lines_drawn == game.setup.lines
            table = line_table("New line" + (" (the last one)" if last else ""))
            for number, owner in zip(state.line, state.claims, strict=True):
                claimed = owner != UNCLAIMED
                table.add_row(
                    Text(str(number), style="dim" if claimed else "bold"),
                    domino_text(DOMINOES[number - 1]),
                    _name(names, owner) if claimed else Text("free", style="dim"),
                    Text(""),
                )
            tables.append(table)
        grid.add_row(*tables)
        if state.phase == CLAIM and not state.placers:
            return Group(grid, king_order(state.order, state.turn, lambda p: _name(names, p)))
        return Group(grid)

    def prompt(self, game: Game[Any], state: Any) -> str:
        kingdomino, state = self.narrow(game, state)
        if state.phase == PLACE:
            return f"place {kingdomino.acting_domino(state).number} > "
        return "claim > "

    # -- reading moves -------------------------------------------------------------------
    def read(self, game: Kingdomino, state: KingdominoState, words: str, text: str) -> int:
        if state.phase == PLACE:
            return _parse_place(game, state, words, text)
        if state.phase == CLAIM:
            return _parse_claim(game, state, words, text)
        raise IllegalActionError("no player moves now")

    def moves_help(self, game: Game[Any], state: Any) -> list[str]:
        kingdomino, state = self.narrow(game, state)
        legal = kingdomino.legal_actions(state)
        if state.phase == PLACE and legal != (kingdomino.discard_action,):
            legal = tuple(sorted(legal, key=kingdomino.placement_cells))
        return [self.move_text(kingdomino, state, action) for action in legal]

    def move_text(self, game: Kingdomino, state: KingdominoState, action: int) -> str:
        if state.phase == CLAIM:
            return str(state.line[action])
        if action == game.discard_action:
            return "discard"
        return placement_text(game, *game.placement_cells(action))

    def help_text(self, game: Game[Any], state: Any) -> str:
        kingdomino = narrowed(game, Kingdomino)
        return "\n".join(
            [
                squares_help(kingdomino),
                "Placing a domino (square 1 is its left square as the lines show it):",
                "  e4 e3   (or e4e3, e4-e3)    square 1 on e4, square 2 on e3",
                "  e4 up   (or e4 u, e4u)      square 1 on e4, square 2 above it; also down/d, "
                "left/l, right/r",
                "  discard                     only when the domino fits nowhere (you are told)",
                "Choosing a domino of the new line: type its number, e.g. 17 (or claim 17).",
                f"Terrains: {terrain_legend(TERRAIN_LETTERS, TERRAINS)}; a digit after the "
                "letter counts the crowns.",
                f"On your board: + a place your domino can cover, · a free place; blank places "
                f"are outside the {kingdomino.geo.size}x{kingdomino.geo.size} frame your kingdom "
                "must fit in.",
                "A territory (joined squares of one terrain) scores its size times its crowns; "
                "the castle connects to every terrain but scores nothing.",
            ]
        )

    def forced_move(
        self, game: Kingdomino, state: KingdominoState, action: int, names: Sequence[str]
    ) -> str | None:
        if state.phase == PLACE and action == game.discard_action:
            domino = game.acting_domino(state)
            return (
                f"Domino {domino.number} ({domino.describe()}) fits nowhere in your kingdom, "
                f"so it is discarded ({DISCARD_RULE})."
            )
        if state.phase == CLAIM:
            return f"Domino {state.line[action]} is the only one left: your king takes it."
        return None

    # -- the log -------------------------------------------------------------------------
    def entry(
        self,
        game: Kingdomino,
        before: KingdominoState,
        action: int,
        after: KingdominoState,
        names: Sequence[str],
        seat: int | None,
    ) -> str | None:
        phase = before.phase
        if phase == DRAW:
            if after.phase == DRAW:
                return None
            text = "New line: " + ", ".join(map(str, after.line))
            if game.setup.dynasty and after.lines_drawn == 1:
                text = f"Game {after.game_number + 1} of {game.setup.games}. " + text
            return text + (" (the last line)" if after.lines_drawn == game.setup.lines else "")
        if phase == ORDER:
            kings = ", ".join(names[owner] for owner in game.orders[action])
            return f"The kings choose in this order: {kings}"
        if phase == CLAIM:
            return f"claimed {before.line[action]}"
        if phase != PLACE:
            return None
        number = before.placing[before.turn]
        if action == game.discard_action:
            text = f"discarded {number} (it fit nowhere)"
        else:
            text = f"placed {number} on {self.move_text(game, before, action)}"
        if after.game_number > before.game_number:
            scores = ", ".join(f"{names[p]} {s}" for p, s in enumerate(after.past_scores[-1]))
            text += f"; game {after.game_number} is over ({scores})"
        return text

    # -- the end -------------------------------------------------------------------------
    def pause(
        self,
        console: Console,
        game: Kingdomino,
        before: KingdominoState,
        action: int,
        after: KingdominoState,
        names: Sequence[str],
    ) -> bool:
        """Between the games of a dynasty: the kingdoms and score pads of the one that ended."""
        if after.game_number == before.game_number:
            return False
        # The engine clears the kingdoms when the next game starts; playing the last move as if
        # this were the last game keeps them, for the picture.
        last = game.setup.games - 1
        ended = game.apply(before._replace(game_number=last), action)
        ended = ended._replace(game_number=before.game_number)
        console.rule(f"Game {before.game_number + 1} of {game.setup.games} is over")
        panels = [
            self._kingdom_panel(game, ended, player, -1, names)
            for player in range(game.num_players)
        ]
        console.print(Columns(panels))
        pads = [_score_pad(game, ended, p, names) for p in range(game.num_players)]
        console.print(Columns(pads))
        return True

    def ending(
        self, console: Console, game: Kingdomino, state: KingdominoState, names: Sequence[str]
    ) -> None:
        pads = [_score_pad(game, state, player, names) for player in range(game.num_players)]
        console.print(Columns(pads))
        if game.setup.dynasty:
            console.print(_dynasty_table(game, state, names))
        winners = game.winners(state)
        score = points(int(game.scores(state)[winners[0]]))
        label = "Winner" if len(winners) == 1 else "Winners, sharing the victory"
        named = [_name(names, player) for player in winners]
        console.print(winners_line(label, named, f", {score} ({_decided_by(game, state)})"))


# -- pictures ------------------------------------------------------------------------------
def cell_name(game: HasGeometry, point: Point) -> str:
    """`e5` for the castle (0, 0) of a 5x5 game: column letter, then row number from 1."""
    reach = game.geo.reach
    return square_name(point[0] + reach, point[1] + reach)


def placement_text(game: HasGeometry, first: Point, second: Point) -> str:
    """`e4 e3`: a domino's two squares as people type them."""
    return f"{cell_name(game, first)} {cell_name(game, second)}"


def kingdom_area(game: HasGeometry, kingdom: Kingdom, whole: bool) -> tuple[range, range]:
    """The columns and rows of a kingdom's picture: the `whole` area it can reach for the
    person's own, so that every square can be named; else what it covers."""
    if whole:
        reach = range(-game.geo.reach, game.geo.reach + 1)
        return reach, reach
    return range(kingdom.min_x, kingdom.max_x + 1), range(kingdom.min_y, kingdom.max_y + 1)


def last_placed(game: HasGeometry, kingdom: Kingdom) -> set[Point]:
    """The squares of the domino placed last (underlined, so that a move is easy to spot)."""
    if not kingdom.placed:
        return set()
    _, cell1, cell2 = kingdom.placed[-1]
    return {game.geo.xy(cell1), game.geo.xy(cell2)}


def square_text(terrain: int, crowns: int, mark: str = " ", palette: Palette = PALETTE) -> Text:
    """One square, three characters wide: a mark (blank in Kingdomino), the terrain letter and
    the crown count."""
    text = Text()
    style = palette.terrains[terrain]
    text.append(mark + palette.letters[terrain], style=style)
    text.append(str(crowns) if crowns else " ", style=style + palette.crowns[terrain])
    return text


def domino_text(domino: Domino, palette: Palette = PALETTE) -> Text:
    """A domino as two coloured squares, square 1 on the left."""
    text = square_text(domino.terrain1, domino.crowns1, palette=palette)
    text.append_text(square_text(domino.terrain2, domino.crowns2, palette=palette))
    return text


def kingdom_picture(
    game: HasGeometry,
    kingdom: Kingdom,
    xs: range,
    ys: range,
    targets: Collection[Point] = (),
    recent: Collection[Point] = (),
    show: Callable[[Cell], Text] | None = None,
) -> Text:
    """Rows of squares with column letters and row numbers; free squares outside the frame
    that still holds the kingdom are left blank (rulebook: everything must fit in 5x5).
    `targets` are marked +, `recent` squares underlined; `show` draws a covered square when a
    game has more on it than terrain and crowns (Queendomino's knights and buildings)."""
    geo = game.geo
    allowed = geo.allowed(kingdom.min_x, kingdom.max_x, kingdom.min_y, kingdom.max_y)
    letters = Text("   " + "".join(f" {cell_name(game, (x, 0))[0]} " for x in xs), style="dim")
    rows = [letters]
    for y in ys:
        row = Text()
        row.append(f"{y + geo.reach + 1:>2} ", style="dim")
        for x in xs:
            cell = geo.cell(x, y)
            if cell == geo.castle:
                row.append(" ♜ ", style=CASTLE_STYLE)
            elif kingdom.occupied >> cell & 1:
                shown = show(cell) if show else square_text(*_square(kingdom, cell))
                if (x, y) in recent:
                    shown.stylize(RECENT_STYLE)
                row.append_text(shown)
            elif (x, y) in targets:
                row.append(" + ", style=TARGET_STYLE)
            elif allowed >> cell & 1:
                row.append(" · ", style=FREE_STYLE)
            else:
                row.append("   ")
        rows.append(row)
    return Text("\n").join(rows)


def _square(kingdom: Kingdom, cell: int) -> tuple[int, int]:
    """The (terrain, crowns) of an occupied cell other than the castle."""
    found = square(kingdom, cell)
    if found is None:
        raise ValueError(f"cell {cell} holds no domino square")
    return found


def king_order(order: Sequence[int], turn: int, name: Callable[[int], Text]) -> Text:
    """First round: the shuffled kings claim one after another, in `order`, those before
    `turn` ticked (rulebook, setup B)."""
    text = Text("Kings choose in this order: ")
    for index, owner in enumerate(order):
        text.append_text(name(owner))
        text.append(" ✓" if index < turn else "", style="dim")
        text.append(", " if index + 1 < len(order) else "")
    return text


def _legend(width: int) -> Text:
    """The terrain colours, on one line of at most `width` characters if it can."""
    parts = [square_text(terrain, 0).append(f" {name}") for terrain, name in enumerate(TERRAINS)]
    parts.append(Text().append(" ♜ ", style=CASTLE_STYLE).append(" castle"))
    parts.append(square_text(TERRAINS.index("mine"), 2).append(" mine, 2 crowns"))
    return fitted(parts, width)


def line_table(title: str, min_width: int | None = None) -> Table:
    """A line of dominoes: number, squares, the king on it, a note."""
    table = Table(
        title=title,
        title_justify="left",
        show_header=False,
        box=None,
        padding=(0, 1),
        min_width=min_width,
    )
    for justify in ("right", "left", "left", "left"):
        table.add_column(justify=justify)
    return table


def squares_help(game: HasGeometry) -> str:
    """How the squares of the person's board are named, for the help."""
    last = cell_name(game, (game.geo.reach, game.geo.reach))
    return (
        f"Places on your board are named by column and row, a1 to {last}; your castle is on "
        f"{cell_name(game, (0, 0))}."
    )


def terrain_legend(letters: str, terrains: Sequence[str]) -> str:
    """`W wheat, F forest, ...`: each terrain's letter on the board."""
    pairs = zip(letters, terrains, strict=True)
    return ", ".join(f"{letter} {terrain}" for letter, terrain in pairs)


def placement_hint(game: HasGeometry, first: Point, second: Point) -> str:
    """How to type a placement, with the legal one from `first` to `second` as the example."""
    step = STEPS.index((second[0] - first[0], second[1] - first[1]))
    return (
        f"Type where square 1 goes then square 2, e.g. {placement_text(game, first, second)}, "
        f"or a place and a direction, e.g. {cell_name(game, first)} {DIRECTION_NAMES[step]}. "
        + MOVES_HINT
    )


def claim_headline(text: Text) -> Text:
    """The headline's end when the person's king chooses from the new line."""
    text.append("choose a domino of the new line", style="bold")
    return text.append(": type its number. ? lists the free ones.")


def beside(point: Point, direction: str) -> Point:
    """The square next to `point` in a typed `direction` (up, u, left, ...)."""
    dx, dy = STEPS[DIRECTION_WORDS[direction]]
    return point[0] + dx, point[1] + dy


def check_squares(
    game: HasGeometry, kingdom: Kingdom, first: Point, second: Point, terrains: Sequence[str]
) -> None:
    """Refuse a placement onto the castle or a covered square, naming it."""
    where = placement_text(game, first, second)
    for point in (first, second):
        cell = game.geo.cell(*point)
        if cell == game.geo.castle:
            raise IllegalActionError(f"{where}: {cell_name(game, point)} is your castle")
        found = square(kingdom, cell)
        if found is not None:
            raise IllegalActionError(
                f"{where}: {cell_name(game, point)} is already taken ({terrains[found[0]]})"
            )


def _status_line(game: Kingdomino, state: KingdominoState, names: Sequence[str]) -> Text:
    setup = game.setup
    parts = []
    if setup.dynasty:
        parts.append(f"game {state.game_number + 1} of {setup.games}")
    if state.phase == OVER:
        parts.append("game over")
    else:
        parts.append(f"line {state.lines_drawn} of {setup.lines}")
    extras = [name for name, value in game.options.items() if name != "players" and value]
    if extras:
        parts.append("variants: " + ", ".join(extras))
    if state.past_scores:
        for number, scores in enumerate(state.past_scores, start=1):
            parts.append(
                f"game {number}: " + ", ".join(f"{names[p]} {s}" for p, s in enumerate(scores))
            )
    return status_line(parts)


def _headline(game: Kingdomino, state: KingdominoState, seat: int) -> Text | None:
    if game.current_player(state) != seat:
        return None
    text = your_turn()
    if state.phase == PLACE:
        domino = game.acting_domino(state)
        text.append(f"place domino {domino.number} ", style="bold")
        text.append_text(domino_text(domino))
        text.append(
            f" (square 1: {_square_words(domino.terrain1, domino.crowns1)}, square 2: "
            f"{_square_words(domino.terrain2, domino.crowns2)})."
        )
        example = _example(game, state)
        if example is not None:
            text.append("\n  " + placement_hint(game, *example))
        return text
    return claim_headline(text)


def _square_words(terrain: int, crowns: int) -> str:
    if not crowns:
        return TERRAINS[terrain]
    return f"{TERRAINS[terrain]} with {crowns} crown" + ("s" if crowns > 1 else "")


def _name(names: Sequence[str], player: int) -> Text:
    return in_colour(names[player], player)


# -- reading moves -----------------------------------------------------------------------------
def _parse_place(game: Kingdomino, state: KingdominoState, words: str, text: str) -> int:
    domino = game.acting_domino(state)
    number = domino.number
    shown = _example(game, state)
    example = f"type where it goes, e.g. {placement_text(game, *shown) if shown else 'discard'}"
    if words == "discard":
        if game.discard_action in game.legal_actions(state):
            return game.discard_action
        raise IllegalActionError(
            f"domino {number} can be placed, so it may not be discarded ({DISCARD_RULE})"
        )
    claim = _CLAIM.match(words)
    if claim:
        asked = int(claim.group(1))
        if asked == number:
            raise IllegalActionError(f"domino {number} is the one to place: {example}")
        if not state.line:
            raise IllegalActionError(
                f"there is no new line to choose from in the last round: place domino {number}"
            )
        if asked in state.line:
            raise IllegalActionError(
                f"first place domino {number}; you choose from the new line right after"
            )
        raise IllegalActionError(f"domino {asked} is not yours to place: place domino {number}")
    match = _PLACEMENT.match(words)
    if match is None:
        if words.split()[:1] in (["place"], ["claim"]):
            return game.parse_action(state, text)
        raise unreadable(text, f"{example}, or ? for the legal moves, help for more")
    given, column1, row1, column2, row2, direction = match.groups()
    if given is not None and int(given) != number:
        raise IllegalActionError(f"the domino to place is {number}, not {given}")
    first = cell_point(game, column1, row1)
    if direction is not None:
        second = beside(first, direction)
        name = cell_name(game, first)
        if max(abs(second[0]), abs(second[1])) > game.geo.reach:
            raise IllegalActionError(
                f"{name} {DIRECTION_NAMES[DIRECTION_WORDS[direction]]} puts square 2 off the board"
            )
    else:
        second = cell_point(game, column2, row2)
    names = placement_text(game, first, second)
    if abs(first[0] - second[0]) + abs(first[1] - second[1]) != 1:
        raise IllegalActionError(
            f"{names}: the two squares of a domino must be side by side (e.g. e4 e3)"
        )
    check_squares(game, state.kingdoms[game.current_player(state)], first, second, TERRAINS)
    try:
        return game.placement_action(state, first, second)
    except IllegalActionError as error:
        raise IllegalActionError(f"{names}: {error}") from None


def _parse_claim(game: Kingdomino, state: KingdominoState, words: str, text: str) -> int:
    free = [n for n, owner in zip(state.line, state.claims, strict=True) if owner == UNCLAIMED]
    choose = f"choose from {', '.join(map(str, free))}"
    claim = _CLAIM.match(words)
    if claim is None:
        if words == "discard" or _PLACEMENT.match(words):
            raise IllegalActionError(
                f"now choose a domino of the new line for your king: type its number ({choose})"
            )
        raise unreadable(text, f"type a domino number ({choose})")
    number = int(claim.group(1))
    if number not in state.line:
        raise IllegalActionError(f"domino {number} is not in the new line ({choose})")
    owner = state.claims[state.line.index(number)]
    if owner != UNCLAIMED:
        raise IllegalActionError(
            f"domino {number} already has a king on it (seat {owner}'s); {choose}"
        )
    return state.line.index(number)


def cell_point(game: HasGeometry, column: str, row: str) -> Point:
    """The (x, y) of the square named by `column` and `row`; a clear refusal off the board."""
    reach = game.geo.reach
    x, y = named_square(column, row, 2 * reach + 1, 2 * reach + 1)
    return x - reach, y - reach


def _example(game: Kingdomino, state: KingdominoState) -> tuple[Point, Point] | None:
    """A legal placement to show as an example (None: the domino fits nowhere)."""
    legal = [a for a in game.legal_actions(state) if a != game.discard_action]
    return game.placement_cells(legal[len(legal) // 2]) if legal else None


# -- the score pad -----------------------------------------------------------------------------
def _score_pad(
    game: Kingdomino, state: KingdominoState, player: int, names: Sequence[str]
) -> Table:
    pad = game.breakdown(state, player)
    title = _name(names, player)
    if game.setup.dynasty:
        title.append(f", game {state.game_number + 1}")
    territories = []
    for territory in pad.territories:
        style = "" if territory.crowns else "dim"
        label = square_text(territory.terrain, 0)
        label.append(f" {TERRAINS[territory.terrain]}", style=style)
        counts = (territory.size, territory.crowns, territory.points)
        territories.append([label, *(Text(str(n), style=style) for n in counts)])
    bonuses = [["territories", "", str(pad.crowns), str(pad.territory_points)]]
    if game.setup.middle_kingdom:
        bonuses.append(["Middle Kingdom", "", "", str(pad.middle_kingdom)])
    if game.setup.harmony:
        bonuses.append(["Harmony", "", "", str(pad.harmony)])
    columns: list[Column | str] = ["territory", right("squares"), right("crowns"), right("points")]
    return score_pad(title, columns, [territories, bonuses], ["total", "", "", str(pad.total)])


def _dynasty_table(game: Kingdomino, state: KingdominoState, names: Sequence[str]) -> Table:
    players: list[Column | str] = [right(_name(names, p)) for p in range(game.num_players)]
    games: list[Sequence[int]] = [*state.past_scores, game.game_scores(state)]
    rows = [[f"game {number}", *map(str, scores)] for number, scores in enumerate(games, 1)]
    total = ["total", *(str(int(s)) for s in game.scores(state))]
    return score_pad("Dynasty: the three games", ["", *players], [rows, [total]])


def _decided_by(game: Kingdomino, state: KingdominoState) -> str:
    """Which rule separated the winners from the rest, in words (the engine decides)."""
    winners, rule = game.decision(state)
    if game.setup.dynasty:
        return "highest total of the three games" + (", a tie" if len(winners) > 1 else "")
    if rule == "score":
        return "highest score"
    pad = game.breakdown(state, winners[0])
    if rule == "largest_territory":
        return f"tie on points, broken by the largest territory ({pad.largest_territory} squares)"
    if rule == "crowns":
        return f"tie on points and largest territory, broken by the most crowns ({pad.crowns})"
    return "tie on points, largest territory and crowns: the victory is shared"


__all__ = [
    "PALETTE",
    "HasGeometry",
    "Palette",
    "TerminalUI",
    "cell_name",
    "cell_point",
    "domino_text",
    "kingdom_picture",
    "square_text",
]
