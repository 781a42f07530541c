"""Knizia's Kingdoms at a terminal: the board in colour, every player's gold and castles, and a
short move syntax for people.

Kingdoms' `terminal` capability (its shape.py), on the terminal toolkit (cli/terminal/kit.py).
Everything drawn comes from
`game.view(state, seat)`: the other players' starting tiles lie face down, and a tile another
player has drawn stays hidden until it is placed. The log names a secret tile only to its owner
(the person at the seat `kingdomkit play` gives).

Spaces are named like a chess board: columns a..f left to right, rows 1..5 top to bottom (the
rulebook's row 3, column 2 is b3; the engine's notation writes it 3,2). Each row's base value
stands at its end and each column's under it, part by part where mountains split the line
(`10/0`, as in the rulebook's scoring example):

           a     b     c     d     e     f    base
      1   +3   A♜4   -6   B♜1   A♜1+  WIZ    -3
      ...
     base  0    10/0   ...

Input (case and spaces do not matter):

    castle 4 b3   c4 b3   c4b3    put your rank-4 castle on b3
    draw                          draw a tile from the supply; then type where it goes: b3
    start b3                      place your starting tile on b3
    take +3   take troll          No Luck: take a face-up tile (+1..+6, -1..-6, MTN, DRG, GLD,
                                  WIZ, or its name); then type where it goes
    pass                          only when you can do nothing else (you are told)

The engine's notation (codec.py: `castle 4 3,2`, `start 3,2`, `place 3,2`) reads too.

The interface keeps the scores of the epoch's lines as they come (Score as You Go scores a line
when it fills), to show the whole epoch's score sheet when the epoch ends.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

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
    bold_row,
    colour,
    either,
    log_panel,
    named_square,
    right,
    score_pad,
    signed,
    square_name,
    status_line,
    unreadable,
    winners_line,
    your_turn,
)
from kingdomkit.core.protocol import Event, Game, IllegalActionError, excerpt, narrowed
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.actions import (
    CASTLE_BASE,
    DRAW_ACTION,
    PASS_ACTION,
    PLACE_BASE,
    START_BASE,
    TAKE_BASE,
    castle_action,
)
from kingdomkit.games.kingdoms.options import EPOCHS, START_GOLD
from kingdomkit.games.kingdoms.rules import Kingdoms, supply_size
from kingdomkit.games.kingdoms.state import (
    DEAL,
    DRAW,
    FIRST,
    HIDDEN,
    NO_TILE,
    OVER,
    PLACE,
    PLAY,
    KingdomsState,
)
from kingdomkit.games.kingdoms.tiles import (
    DRAGON,
    GOLD_MINE,
    HAZARD,
    MOUNTAIN,
    RESOURCE,
    TYPES,
    WIZARD,
    tile_type,
)

COLUMN_LETTERS = "abcdef"
CELL = 5  # characters per board square
TILE_STYLES = {
    RESOURCE: Style(color="white", bgcolor="#2e7d32", bold=True),  # green
    HAZARD: Style(color="white", bgcolor="#c62828", bold=True),  # red
    MOUNTAIN: Style(color="white", bgcolor="#757575", bold=True),  # grey
    DRAGON: Style(color="black", bgcolor="#ff9800", bold=True),  # orange
    GOLD_MINE: Style(color="black", bgcolor="#ffd54f", bold=True),  # gold
    WIZARD: Style(color="white", bgcolor="#7b1fa2", bold=True),  # purple
}
FACE_DOWN_STYLE = Style(color="white", bgcolor="#37474f")
CASTLE_BACKGROUND = "#1c1c1c"
CASTLE, WIZARD_MARK, FACE_DOWN = "♜", "+", "?"
PASS_RULE = (
    'rulebook, Play: "Players may only pass if they are unable to take any of these actions"'
)
# Every word a tile is known by: its label (+3, MTN) and its name (Town, Gold Mine).
TILE_WORDS = {word.lower(): t.index for t in TYPES for word in (t.label, t.name) if word}

_CELL = r"([a-z])\s*(\d{1,2})"
_AT = r"(?:(?:on|at)\s+)?"
_CASTLE = re.compile(rf"^(?:castle|c)\s*(\d+)\s*{_AT}{_CELL}$")
_START = re.compile(rf"^start\s*{_AT}{_CELL}$")
_PLACE = re.compile(rf"^(?:place\s*)?{_AT}{_CELL}$")
_TAKE = re.compile(r"^take\s+(.+)$")


class TerminalUI(GameTerminal[Kingdoms, KingdomsState]):
    """Draws Kingdoms with rich and reads a person's moves (see the module card)."""

    game_type = Kingdoms
    state_type = KingdomsState

    def __init__(self) -> None:
        self._sheet: list[Event] = []  # the lines scored in the epoch so far
        self._sheet_epoch = 0
        self._gold_after: dict[int, tuple[int, ...]] = {}  # each epoch's gold totals

    # -- drawing -------------------------------------------------------------------------
    def screen(self, seen: Seen[Kingdoms, KingdomsState]) -> Screen:
        game, seat, names = seen.game, seen.seat, seen.names
        view = game.view(seen.state, seat)
        # Score as You Go: tick the lines that have scored (at the end, every line has).
        ticked = view.scored if game.setup.score_as_you_go and view.phase != OVER else 0
        board = Panel(
            board_picture(view.board, game.num_players, ticked),
            title=f"Epoch {view.epoch + 1}",
            title_align="left",
            expand=False,
        )
        side = Group(
            players_table(game, view, seat, names),
            _tiles_line(game, view, seat, names),
            log_panel(seen.log, newest_bold=True),
        )
        legend = _legend()
        # A narrow terminal: the board goes last, next to the prompt.
        return Screen(
            status=_status_line(game, view, names),
            row=[board, side],
            under=[legend],
            narrow=[side, board, legend],
            headline=_headline(game, view, seat),
            spare=0,
        )

    def prompt(self, game: Game[Any], state: Any) -> str:
        seen = _actor_view(*self.narrow(game, state))
        if seen.phase == PLACE and seen.held >= 0:
            return f"place {TYPES[seen.held].label} > "
        return "move > "

    # -- reading moves -------------------------------------------------------------------
    def read(self, game: Kingdoms, state: KingdomsState, words: str, text: str) -> int:
        seen = _actor_view(game, state)
        legal = game.legal_actions(state)
        if seen.phase not in (PLAY, PLACE):
            raise IllegalActionError("no player moves now")
        if words == "pass":
            if PASS_ACTION in legal:
                return PASS_ACTION
            raise IllegalActionError(
                f"you may pass only when you can do nothing else ({PASS_RULE}); " + _due(game, seen)
            )
        if "," in words:
            # The engine's notation: row,column.
            return game.parse_action(state, text)
        if seen.phase == PLACE:
            return _parse_place(game, seen, words, text)
        return _parse_play(game, seen, words, text)

    def move_text(self, game: Kingdoms, state: KingdomsState, action: int) -> str:
        return move_text(state, action)

    def help_text(self, game: Game[Any], state: Any) -> str:
        setup = narrowed(game, Kingdoms).setup
        tile = (
            "take +3 (or take town): take a face-up tile"
            if setup.no_luck
            else "draw: draw a tile from the supply"
        )
        lines = [
            "Spaces are named by column and row: columns a to f, rows 1 to 5 (b3: column b, "
            "row 3). On your turn do one of:",
            "  castle 4 b3 (or c4 b3): put one of your castles, here of rank 4, on b3",
            f"  {tile}; then type the empty space it goes on, e.g. b3",
        ]
        if not setup.no_luck:
            lines.append("  start b3: place your starting tile (dealt face down) on b3")
        lines += [
            "  pass: only when you can do none of these (you are told)",
            "Scoring (each row, then each column): the resources (+1..+6) plus the hazards "
            "(-1..-6) make the line's base value; each player gains (or pays) the base times "
            "the ranks of their castles in the line.",
            "  MTN a mountain splits its row and column into parts scored apart; DRG the dragon "
            "cancels the resources of its part; GLD the gold mine doubles its part; WIZ the "
            "wizard gives each castle next to it one rank more (A♜1+).",
            "The board shows each line's base value now, part by part (10/0).",
        ]
        ending = (
            "the game ends after the epoch in which a player places their last castle; all "
            "castles leave the board after each epoch"
            if setup.down_to_the_last_castle
            else f"after {EPOCHS} epochs the most gold wins; rank-1 castles come back after "
            "each epoch, the others leave the game"
        )
        lines.append(f"An epoch ends when the board is full; {ending}. Equal gold shares.")
        if setup.score_as_you_go:
            lines.append("Score as You Go: each row and column scores as soon as it is full.")
        return "\n".join(lines)

    def forced_move(
        self, game: Kingdoms, state: KingdomsState, action: int, names: Sequence[str]
    ) -> str | None:
        seen = _actor_view(game, state)
        if action == PASS_ACTION:
            return (
                f"You have no castle, no starting tile and no tile to draw: you pass ({PASS_RULE})."
            )
        if seen.phase == PLACE:
            where = move_text(seen, action)
            return f"{TYPES[seen.held].describe()} goes on {where}, the last empty space."
        return f"Your only move: {move_text(seen, action)}."

    # -- the log -------------------------------------------------------------------------
    def entry(
        self,
        game: Kingdoms,
        before: KingdomsState,
        action: int,
        after: KingdomsState,
        names: Sequence[str],
        seat: int | None,
    ) -> str | None:
        phase = before.phase
        player = before.turn
        if phase == FIRST:
            return _first_player(game, before, action, names)
        if phase == DEAL:
            if player == seat:
                return (
                    f"{names[player]} drew {TYPES[action].describe()} as a starting tile "
                    "(face down to the others)"
                )
            return f"{names[player]} drew a face-down starting tile"
        if phase == DRAW:
            if player == seat:
                return f"{names[player]} drew {TYPES[action].describe()} from the supply"
            return f"{names[player]} drew a tile from the supply"
        if phase == PLACE:
            where = space_label(action - PLACE_BASE)
            tile = "it" if game.setup.no_luck else TYPES[before.held].describe()
            text = f"placed {tile} on {where}"
        elif action < DRAW_ACTION:
            rank, space = divmod(action - CASTLE_BASE, bd.SPACES)
            text = f"placed a rank-{rank + 1} castle on {space_label(space)}"
        elif action == DRAW_ACTION:
            return None  # the draw is told when the tile comes (DRAW)
        elif action < PLACE_BASE:
            tile = TYPES[before.starting[player]].describe()
            text = f"placed a starting tile, {tile}, on {space_label(action - START_BASE)}"
        elif action == PASS_ACTION:
            text = "passed (nothing left to do)"
        else:
            return f"took {TYPES[action - TAKE_BASE].describe()}"
        return text + _scored(game, before, action, after, names)

    # -- the end of an epoch and of the game ---------------------------------------------
    def pause(
        self,
        console: Console,
        game: Kingdoms,
        before: KingdomsState,
        action: int,
        after: KingdomsState,
        names: Sequence[str],
    ) -> bool:
        """When an epoch ends: its last board and every line's score per player."""
        if before.phase not in (PLAY, PLACE):
            return False  # only a placement (or a pass) scores or ends an epoch
        if before.epoch != self._sheet_epoch:
            self._sheet, self._sheet_epoch = [], before.epoch
        written = game.events(before, action, after)
        self._sheet.extend(event for event in written if event["type"] == "score")
        end = next((event for event in written if event["type"] == "epoch_end"), None)
        if end is None:
            return False
        gold = tuple(end["gold"])
        if before.epoch == 0:
            self._gold_after = {}  # a new game
        self._gold_after[before.epoch] = gold
        console.rule(f"Epoch {before.epoch + 1} is over")
        board = board_picture(game.placed_board(before, action), game.num_players)
        console.print(
            Columns(
                [Panel(board, title="The board", expand=False), score_sheet(self._sheet, names)]
            )
        )
        line = Text("Gold now: ", style="bold")
        line.append_text(_gold_list(gold, names))
        console.print(line)
        self._sheet = []
        return True

    def ending(
        self, console: Console, game: Kingdoms, state: KingdomsState, names: Sequence[str]
    ) -> None:
        history = []
        epochs = range(state.epoch + 1)
        if all(epoch in self._gold_after for epoch in epochs):
            previous: tuple[int, ...] = (START_GOLD,) * game.num_players
            history.append(["start", *(str(gold) for gold in previous)])
            for epoch in epochs:
                gold = self._gold_after[epoch]
                gains = (signed(now - then) for now, then in zip(gold, previous, strict=True))
                history.append([f"epoch {epoch + 1}", *gains])
                previous = gold
        players: list[Column | str] = [
            right(_player_text(names, p)) for p in range(game.num_players)
        ]
        total = ["gold", *(str(g) for g in state.gold)]
        table = score_pad("Gold", ["", *players], [history] if history else [], total, "left")
        console.print(table)
        winners = game.winners(state)
        if len(winners) == 1:
            heading = "Winner"
        else:
            heading = "Winners, sharing the victory on equal gold"
        each = " each" if len(winners) > 1 else ""
        named = [_player_text(names, player) for player in winners]
        console.print(winners_line(heading, named, f", with {state.gold[winners[0]]} gold{each}"))


# -- the board ---------------------------------------------------------------------------------
def space_label(space: int) -> str:
    """`b3` for row 3, column 2 (space 13)."""
    row, column = divmod(space, bd.COLUMNS)
    return square_name(column, row)


def labelled_space(column: str, row: str) -> int:
    """The space named by a column letter and a row number; a clear refusal off the board."""
    index, number = named_square(column, row, bd.COLUMNS, bd.ROWS, word="space")
    return bd.space(number, index)


def letter(player: int) -> str:
    """A player's letter, as in the notation: player 0 is A."""
    return chr(ord("A") + player)


def tile_text(tile: int, width: int = CELL) -> Text:
    """A tile as a coloured block with its label (`+3`, `MTN`); a face-down one shows `?`."""
    if tile == HIDDEN:
        return Text(f"{FACE_DOWN:^{width}}", style=FACE_DOWN_STYLE)
    kind = TYPES[tile]
    return Text(f"{kind.label:^{width}}", style=TILE_STYLES[kind.kind])


def castle_text(player: int, rank: int, boosted: bool = False, width: int = CELL) -> Text:
    """A castle in its player's colour: letter, ♜, rank, and + when a wizard stands beside it."""
    mark = f"{letter(player)}{CASTLE}{rank}{WIZARD_MARK if boosted else ''}"
    style = Style(color=colour(player), bgcolor=CASTLE_BACKGROUND, bold=True)
    return Text(f"{mark:^{width}}", style=style)


def square_text(board: bd.Board, space: int) -> Text:
    square = board[space]
    if square == bd.EMPTY:
        return Text(f"{'·':^{CELL}}", style=FREE_STYLE)
    if bd.is_castle(square):
        rank = bd.castle_rank(square)
        boosted = bd.rank_at(board, space) > rank
        return castle_text(bd.castle_owner(square), rank, boosted)
    return tile_text(square)


def line_bases(board: bd.Board, line: int, players: int) -> str:
    """A line's base value now, part by part between mountains: `-3`, `10/0`."""
    parts = bd.line_parts(board, bd.LINES[line], players)
    return "/".join(str(part.base) for part in parts)


def board_picture(board: bd.Board, players: int, scored: int = 0) -> Table:
    """The 5x6 board with column letters, row numbers and each line's base value (a line
    that has scored this epoch, with Score as You Go, is ticked)."""
    table = Table(box=None, padding=(0, 0, 0, 1), header_style="dim", pad_edge=False)
    table.add_column("", justify="right", style="dim")
    for column in COLUMN_LETTERS:
        table.add_column(column, justify="center", min_width=CELL)
    table.add_column("base", style="dim")

    def base(line: int) -> str:
        return line_bases(board, line, players) + ("✓" if scored >> line & 1 else "")

    for row in range(bd.ROWS):
        cells = [square_text(board, bd.space(row, column)) for column in range(bd.COLUMNS)]
        table.add_row(str(row + 1), *cells, base(row))
    columns = [Text(base(bd.ROWS + column), style="dim") for column in range(bd.COLUMNS)]
    table.add_row("base", *columns, "")
    return table


def players_table(game: Kingdoms, seen: KingdomsState, seat: int, names: Sequence[str]) -> Table:
    """Each player's gold, castles in hand by rank and starting tile (the person's face up);
    ▶ marks the player to act, and who started the epoch is named."""
    table = Table(box=None, padding=(0, 1), header_style="dim", pad_edge=False)
    table.add_column("")
    table.add_column("player")
    table.add_column("gold", justify="right")
    table.add_column("castles in hand")
    if not game.setup.no_luck:
        table.add_column("starting tile")
    acting = seen.turn if seen.phase in (PLAY, PLACE, DRAW) else None
    for player in range(game.num_players):
        row: list[RenderableType] = [
            Text("▶", style="bold") if player == acting else Text(""),
            _player_text(names, player),
            str(seen.gold[player]),
            _hand_text(player, seen.castles[player]),
        ]
        if not game.setup.no_luck:
            row.append(_starting_text(seen.starting[player], player == seat))
        table.add_row(*row)
    return table


def _hand_text(player: int, hand: Sequence[int]) -> Text:
    """`♜1x4 ♜2x3 ♜3x2 ♜4x1`: castles in hand by rank, the ranks used up dimmed."""
    text = Text()
    for rank, count in enumerate(hand, start=1):
        text.append(" " if rank > 1 else "")
        style = colour(player) if count else "dim"
        text.append(f"{CASTLE}{rank}x{count}", style=style)
    return text


def _starting_text(tile: int, mine: bool) -> Text:
    if tile == NO_TILE:
        return Text("—", style="dim")
    text = tile_text(tile, width=len(TYPES[tile].label) + 2 if tile >= 0 else 3)
    if tile == HIDDEN:
        return text.append(" face down", style="dim")
    words = TYPES[tile].name
    return text.append(f" {words}" if words else "").append(
        " (yours; face down to the others)" if mine else "", style="dim"
    )


def _tiles_line(
    game: Kingdoms, seen: KingdomsState, seat: int, names: Sequence[str]
) -> RenderableType:
    """No Luck: the face-up tiles. Else the tiles the person has not seen (in the supply or
    face down in a hand), and a tile another player holds face down."""
    if game.setup.no_luck:
        title = Text("Face up, to take:", style="bold")
    else:
        title = Text("Not seen by you yet (in the supply or face down):", style="bold")
    chips = [
        tile_text(tile, len(TYPES[tile].label) + 2).append(f"x{count}" if count > 1 else "")
        for tile, count in enumerate(seen.supply)
        if count
    ]
    lines: list[RenderableType] = [
        title,
        Text(" ").join(chips) if chips else Text("none", style="dim"),
    ]
    if seen.phase == PLACE and seen.turn != seat:
        holder = _player_text(names, seen.turn)
        if seen.held == HIDDEN:
            holder.append(" is placing the tile they drew (you see it when it is placed)")
        else:
            holder.append(" is placing ").append_text(_tile_words(seen.held))
        lines.append(holder)
    return Group(*lines)


def _legend() -> Columns:
    parts = [
        (tile_text(2, 4), "resource"),
        (tile_text(8, 4), "hazard"),
        (tile_text(12), "splits its lines"),
        (tile_text(13), "cancels resources"),
        (tile_text(14), "doubles"),
        (tile_text(15), "+1 rank beside it"),
        (castle_text(0, 2), "A's castle, rank 2"),
        (castle_text(0, 1, boosted=True), "by the wizard"),
    ]
    return Columns([chip.append(f" {words}") for chip, words in parts], padding=(0, 2))


def _status_line(game: Kingdoms, seen: KingdomsState, names: Sequence[str]) -> Text:
    setup = game.setup
    epoch = seen.epoch + 1
    parts = [
        f"epoch {epoch} (Down to the Last Castle)"
        if setup.down_to_the_last_castle
        else f"epoch {epoch} of {EPOCHS}"
    ]
    if setup.no_luck:
        parts.append("No Luck: tiles face up")
    else:
        size = supply_size(seen)
        parts.append(f"supply: {size} tile{'' if size == 1 else 's'} face down")
    if setup.score_as_you_go:
        parts.append("Score as You Go")
    phase = seen.phase
    if phase == FIRST:
        parts.append("drawing who starts")
    else:
        parts.append(f"{letter(seen.first)} {names[seen.first]} started the epoch")
    if phase == OVER:
        parts.append("game over")
    elif phase == DEAL:
        parts.append("dealing the starting tiles")
    elif phase != FIRST:
        parts.append(f"{letter(seen.turn)} {names[seen.turn]} to play")
    return status_line(parts)


def _headline(game: Kingdoms, seen: KingdomsState, seat: int) -> Text | None:
    """What the person must do now, with examples."""
    if game.current_player(seen) != seat:
        return None
    text = your_turn()
    legal = game.legal_actions(seen)
    example = space_label(_example_space(seen))
    if seen.phase == PLACE:
        verb = "took" if game.setup.no_luck else "drew"
        text.append(f"place the tile you {verb}, ", style="bold")
        text.append_text(_tile_words(seen.held))
        text.append(f": type an empty space, e.g. {example}.")
        return text
    if legal == (PASS_ACTION,):
        text.append("you can do nothing but pass.", style="bold")
        return text
    phrases = [phrase for phrase, _ in _turn_options(game, seen)]
    text.append(f"{either(phrases)}. {MOVES_HINT}")
    return text


def _turn_options(game: Kingdoms, seen: KingdomsState) -> list[tuple[str, str]]:
    """What the player to act may do in the PLAY step: (what it is, with examples; a move
    to type as an example)."""
    example = space_label(_example_space(seen))
    legal = game.legal_actions(seen)
    player = seen.turn
    options = []
    ranks = _ranks_in_hand(seen, player)
    if ranks:
        top = ranks[-1]
        options.append(
            (
                f"place a castle (castle {top} {example} or c{top} {example}; ranks in hand: "
                f"{_listed(ranks)})",
                f"castle {top} {example}",
            )
        )
    if DRAW_ACTION in legal:
        options.append(("draw a tile (draw)", "draw"))
    takes = [action for action in legal if TAKE_BASE <= action < PASS_ACTION]
    if takes:
        move = f"take {TYPES[takes[0] - TAKE_BASE].label}"
        options.append((f"take a face-up tile ({move})", move))
    if seen.starting[player] >= 0:
        tile = TYPES[seen.starting[player]].describe()
        options.append((f"place your starting tile {tile} (start {example})", f"start {example}"))
    return options


def _ranks_in_hand(seen: KingdomsState, player: int) -> list[int]:
    return [rank for rank, count in enumerate(seen.castles[player], start=1) if count]


def _listed(numbers: Sequence[int]) -> str:
    return ", ".join(map(str, numbers))


def _example_space(seen: KingdomsState) -> int:
    """An empty space to show in examples; not in column c when it can be helped, since
    `c3 c3` (a rank-3 castle on c3) reads like a typo."""
    empties = [space for space, square in enumerate(seen.board) if square == bd.EMPTY]
    clear = [space for space in empties if space % bd.COLUMNS != 2] or empties
    return clear[len(clear) // 2] if clear else 0


# -- moves as people type them -------------------------------------------------------------------
def move_text(state: KingdomsState, action: int) -> str:
    """`action` in the input syntax (what `?` lists)."""
    if state.phase == PLACE:
        return space_label(action - PLACE_BASE)
    if action < DRAW_ACTION:
        rank, space = divmod(action - CASTLE_BASE, bd.SPACES)
        return f"castle {rank + 1} {space_label(space)}"
    if action == DRAW_ACTION:
        return "draw"
    if action < PLACE_BASE:
        return f"start {space_label(action - START_BASE)}"
    if action == PASS_ACTION:
        return "pass"
    return f"take {TYPES[action - TAKE_BASE].label}"


def _due(game: Kingdoms, seen: KingdomsState) -> str:
    """What the person may type now, for refusals."""
    example = space_label(_example_space(seen))
    if seen.phase == PLACE:
        return f"type an empty space for {TYPES[seen.held].label}, e.g. {example}"
    if game.legal_actions(seen) == (PASS_ACTION,):
        return "type pass"
    return "type " + either([move for _, move in _turn_options(game, seen)])


def _parse_place(game: Kingdoms, seen: KingdomsState, words: str, text: str) -> int:
    match = _PLACE.match(words)
    if match is None:
        held = TYPES[seen.held].describe()
        if words in ("draw", "pass") or _CASTLE.match(words) or _START.match(words):
            raise IllegalActionError(f"first place the tile you hold, {held}: {_due(game, seen)}")
        raise unreadable(text, _due(game, seen))
    space = labelled_space(*match.groups())
    _check_empty(seen, space)
    return PLACE_BASE + space


def _parse_play(game: Kingdoms, seen: KingdomsState, words: str, text: str) -> int:
    player = seen.turn
    legal = game.legal_actions(seen)
    castle = _CASTLE.match(words)
    if castle:
        rank_text, column, row = castle.groups()
        rank = int(rank_text)
        if not 1 <= rank <= len(seen.castles[player]):
            raise IllegalActionError(f"a castle's rank is 1 to 4, not {rank}")
        if not seen.castles[player][rank - 1]:
            ranks = _ranks_in_hand(seen, player)
            left = f"ranks in hand: {_listed(ranks)}" if ranks else "you have none left"
            raise IllegalActionError(f"you have no castle of rank {rank} left ({left})")
        space = labelled_space(column, row)
        _check_empty(seen, space)
        return castle_action(rank, space)
    start = _START.match(words)
    if start:
        if game.setup.no_luck:
            raise IllegalActionError("No Luck deals no starting tiles")
        if seen.starting[player] == NO_TILE:
            raise IllegalActionError("you have placed your starting tile already this epoch")
        space = labelled_space(*start.groups())
        _check_empty(seen, space)
        return START_BASE + space
    if words == "draw":
        if game.setup.no_luck:
            raise IllegalActionError(
                f"No Luck: the tiles lie face up; take one, {_due(game, seen)}"
            )
        if DRAW_ACTION not in legal:
            raise IllegalActionError(f"the supply is empty; {_due(game, seen)}")
        return DRAW_ACTION
    take = _TAKE.match(words)
    if take:
        if not game.setup.no_luck:
            raise IllegalActionError(
                "take is for the No Luck variant: type draw to draw a tile face down"
            )
        tile = _tile_named(take.group(1))
        if TAKE_BASE + tile not in legal:
            raise IllegalActionError(f"no {TYPES[tile].label} tile is left face up")
        return TAKE_BASE + tile
    cell = _PLACE.match(words)
    if cell:
        here = space_label(labelled_space(*cell.groups()))
        ranks = _ranks_in_hand(seen, player)
        say = ""
        if ranks:
            say = f"say what goes there, e.g. castle {ranks[-1]} {here}; "
        elif seen.starting[player] >= 0:
            say = f"say what goes there, e.g. start {here}; "
        then = "take a tile" if game.setup.no_luck else "draw"
        raise IllegalActionError(f"{excerpt(text.strip())}: {say}to put a tile there, {then} first")
    raise unreadable(text, _due(game, seen))


def _tile_named(words: str) -> int:
    """The tile type `words` names: a label (`+3`, `mtn`) or a name (`troll`, `gold mine`)."""
    if words in TILE_WORDS:
        return TILE_WORDS[words]
    kind = tile_type(words)
    if kind is None:
        raise IllegalActionError(
            f"no tile {excerpt(words)} "
            "(+1..+6, -1..-6, MTN, DRG, GLD, WIZ, or a name such as troll)"
        )
    return kind.index


def _check_empty(seen: KingdomsState, space: int) -> None:
    square = seen.board[space]
    if square == bd.EMPTY:
        return
    if bd.is_castle(square):
        owner, rank = bd.castle_owner(square), bd.castle_rank(square)
        what = f"{letter(owner)}'s rank-{rank} castle"
    else:
        what = TYPES[square].describe()
    raise IllegalActionError(f"{space_label(space)} is taken ({what})")


# -- the log -------------------------------------------------------------------------------------
def _first_player(game: Kingdoms, before: KingdomsState, first: int, names: Sequence[str]) -> str:
    """Who starts the epoch, and why (rulebook "Play" and "The Second & Third Epochs")."""
    epoch = f"Epoch {before.epoch + 1} begins; first to play: {names[first]}"
    candidates = game.first_candidates(before)
    if before.epoch == 0:
        return f"{epoch} (drawn at random)"
    gold = before.gold[first]
    if len(candidates) == 1:
        return f"{epoch}, with the most gold ({gold})"
    tied = " and ".join(names[p] for p in candidates)
    return f"{epoch}, drawn between {tied} (equal on {gold} gold)"


def _scored(
    game: Kingdoms, before: KingdomsState, action: int, after: KingdomsState, names: Sequence[str]
) -> str:
    """The lines a placement scored (Score as You Go), or the end of the epoch it brought."""
    written = game.events(before, action, after)
    for event in written:
        if event["type"] == "epoch_end":
            return f"; epoch {event['epoch']} is over: " + _gold_list(event["gold"], names).plain
    lines = [
        f"{event['line']} scores " + _gains(event["gold"], names)
        for event in written
        if event["type"] == "score"
    ]
    return "; " + ", ".join(lines) if lines else ""


def _gains(gold: Sequence[int], names: Sequence[str]) -> str:
    gains = [f"{names[p]} {g:+d}" for p, g in enumerate(gold) if g]
    return "(" + ", ".join(gains) + ")" if gains else "nothing"


def _gold_list(gold: Sequence[int], names: Sequence[str]) -> Text:
    text = Text()
    for player, amount in enumerate(gold):
        text.append(", " if player else "")
        text.append_text(_player_text(names, player))
        text.append(f" {amount}")
    return text


# -- the score sheet ------------------------------------------------------------------------------
def score_sheet(sheet: Sequence[Event], names: Sequence[str]) -> Table:
    """An epoch's scores line by line (rows, then columns) per player, as the rulebook's
    "Scores After the First Epoch": each line's base value part by part, and each player's
    gold from it with how it came (base x ranks)."""
    players = len(names)
    lines: list[list[RenderableType]] = []
    totals = {"rows": [0] * players, "columns": [0] * players}
    for event in sheet:
        parts = event["parts"]
        cells = [_line_gold(parts, player, event["gold"][player]) for player in range(players)]
        base = "/".join(str(part["base"]) for part in parts)
        lines.append([event["line"], base, *cells])
        kind = "rows" if event["line"].startswith("row") else "columns"
        for player in range(players):
            totals[kind][player] += event["gold"][player]
    sums: list[list[RenderableType]] = [
        [kind, "", *map(signed, gold)] for kind, gold in totals.items()
    ]
    epoch = [signed(r + c) for r, c in zip(totals["rows"], totals["columns"], strict=True)]
    columns: list[Column | str] = ["line", right("base")]
    columns += [right(_player_text(names, p)) for p in range(players)]
    sums.append(bold_row(["epoch", "", *epoch]))  # the epoch's total, with its two parts
    return score_pad("Scores of the epoch", columns, [lines, sums], title_justify="left")


def _line_gold(parts: Sequence[dict[str, Any]], player: int, gold: int) -> Text:
    """`-18 (-3x6)`: a player's gold from a line, and base x ranks for each part they are in."""
    how = [f"{part['base']}x{part['ranks'][player]}" for part in parts if part["ranks"][player]]
    if not how:
        return Text("·", style="dim")
    return Text(signed(gold)).append(f" ({' + '.join(how)})", style="dim")


# -- small words -------------------------------------------------------------------------------
def _tile_words(tile: int) -> Text:
    """A tile's block with what people call it: `+3 Town`."""
    kind = TYPES[tile]
    text = tile_text(tile, len(kind.label) + 2)
    return text.append(f" {kind.name}" if kind.name else "")


def _player_text(names: Sequence[str], player: int) -> Text:
    return Text(f"{letter(player)} {names[player]}", style=f"bold {colour(player)}")


# -- the person's sight ----------------------------------------------------------------------
def _actor_view(game: Kingdoms, state: KingdomsState) -> KingdomsState:
    """The state as the player to act sees it (the prompt and the refusals name nothing more)."""
    player = game.current_player(state)
    return game.view(state, player if player >= 0 else None)


__all__ = [
    "TILE_STYLES",
    "TerminalUI",
    "board_picture",
    "castle_text",
    "labelled_space",
    "letter",
    "move_text",
    "players_table",
    "score_sheet",
    "space_label",
    "tile_text",
]
