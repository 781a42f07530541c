"""Queendomino at a terminal: the realms, the Builders' Board and the lines in colour, and a
short move syntax for people.

Queendomino's `terminal` capability (its shape.py), on the terminal toolkit (cli/terminal/kit.py)
and Kingdomino's pictures of kingdoms and reader of placements. Squares are named as at Kingdomino's
table (kingdomino/terminal.py): columns from a, rows from 1, over the whole area a kingdom can
reach; in a 7x7 frame a..m and 1..13 with the castle on g7, in a 5x5 frame a..i, 1..9, e5.

A turn is a few small steps, each with its own prompt (rulebook "Playing the Game", A to E):

    place 12 >  e4 e3, e4e3, e4 up, e4u      square 1 on e4, square 2 on e3 (or above e4)
                discard                      only when the domino fits nowhere
    knight >    1 or 2, or e4                a knight from the guard onto square 1 or 2 of the
                                             domino just placed; it collects its tax at once
    build >     B09, magic school, or 3      the building with that tile id, name or price
    site >      c4                           the empty town square the building goes on
    burn >      B09, magic school, or 3      pay the Dragon 1 coin to burn that building
    claim >     17 (Royal Wedding: 17, K17)  put your king on that domino of the new line
    pass                                     skip an optional step (knight, build, burn)

The engine's notation (codec.py: `place 12 0,-1 0,-2`, `knight 1,-1`, `at 2,0`) reads too.
A square shows a mark, its terrain letter and its crowns: ♞ a knight, ⌂ a building on a town
square (its crowns count with the square), + where your move can go; ♛ marks the Queen's host.
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
    GameTerminal,
    Screen,
    Seen,
    colour,
    count,
    fitted,
    in_colour,
    log_panel,
    points,
    right,
    score_pad,
    status_line,
    unreadable,
    winners_line,
    your_turn,
)
from kingdomkit.core.protocol import Game, IllegalActionError, excerpt, narrowed
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.geometry import Cell
from kingdomkit.games.kingdomino.terminal import (
    CASTLE_STYLE,
    CROWN_STYLES,
    DIRECTION_WORDS,
    TARGET_STYLE,
    TERRAIN_STYLES,
    Palette,
    beside,
    cell_name,
    cell_point,
    check_squares,
    claim_headline,
    domino_text,
    king_order,
    kingdom_area,
    kingdom_picture,
    last_placed,
    line_table,
    placement_hint,
    placement_text,
    square_text,
    squares_help,
    terrain_legend,
)
from kingdomkit.games.queendomino import codec
from kingdomkit.games.queendomino.buildings import Building
from kingdomkit.games.queendomino.dominoes import (
    BOX_NAMES,
    DOMINOES,
    TERRAIN_LETTERS,
    TERRAINS,
    TOWN,
    box_of,
    describe,
)
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.scoring import COINS_PER_POINT, Breakdown
from kingdomkit.games.queendomino.state import (
    BOARD,
    BUILD,
    CLAIM,
    DRAGON,
    DRAW,
    EMPTY,
    NOBODY,
    ORDER,
    OVER,
    PLACE,
    SITE,
    TAX,
    UNCLAIMED,
    QueendominoState,
    Realm,
)

Point = tuple[int, int]

TOWN_STYLE = Style(color="white", bgcolor="#c62828")  # the rulebook's red construction squares
PALETTE = Palette(
    TERRAIN_LETTERS,
    (*TERRAIN_STYLES, TOWN_STYLE),
    (*CROWN_STYLES, Style(bold=True, color="#ffd54f")),
)
BUILT = PALETTE._replace(letters=TERRAIN_LETTERS[:TOWN] + "⌂")  # a town square with a building
KNIGHT, TARGET, QUEEN = "♞", "+", "♛"
UNVERIFIED_STYLE = Style(color="yellow", italic=True)
STEP_NAMES = {PLACE: "place", TAX: "knights", BUILD: "build", SITE: "build", DRAGON: "Dragon"}

_CELL = r"([a-z])(\d{1,2})"
_LABEL = r"[qk]?\d{1,2}"
_DIRECTION = "|".join(sorted(DIRECTION_WORDS, key=len, reverse=True))
_PLACEMENT = re.compile(
    rf"^(?:place\s+)?(?:({_LABEL})\s+)?{_CELL}\s*[-,]?\s*(?:{_CELL}|({_DIRECTION}))$"
)
_NUMBER = re.compile(rf"^(?:claim\s+)?({_LABEL})$")
_SQUARE = re.compile(rf"^(?:(?:knight|square|at|on|site)\s+)?(?:([12])|{_CELL})$")
_TILE = re.compile(r"^b0*(\d{1,2})$")
DISCARD_RULE = (
    'rulebook, A: "Dominoes cannot be discarded if they can be placed in a kingdom using the '
    'above rules"'
)


class TerminalUI(GameTerminal[Queendomino, QueendominoState]):
    """Draws Queendomino with rich and reads a person's moves (see the module card)."""

    game_type = Queendomino
    state_type = QueendominoState

    # -- drawing -------------------------------------------------------------------------
    def screen(self, seen: Seen[Queendomino, QueendominoState]) -> Screen:
        game, state, seat, names = seen.game, seen.state, seen.seat, seen.names
        mine = game.realm_of[seat]
        realms = [mine, *(r for r in range(game.num_realms) if r != mine)]
        panels = [realm_panel(game, state, r, seat, names) for r in realms]
        board = builders_board(game, state, mine, names)
        lines = _lines(game, state, names)
        legend = _legend(seen.width)
        recent = log_panel(seen.log)
        # A narrow terminal: the person's realm, the board and the lines go last.
        return Screen(
            status=_status_line(game, state),
            row=panels,
            under=[legend, Columns([lines, recent]), board],
            narrow=[Columns(panels[1:]), recent, board, Columns([panels[0], Group(lines, legend)])],
            headline=_headline(game, state, seat, names),
        )

    def prompt(self, game: Game[Any], state: Any) -> str:
        queendomino, state = self.narrow(game, state)
        phase = state.phase
        if phase == PLACE:
            return f"place {codec.domino_label(queendomino, state.placing[state.turn])} > "
        if phase == SITE:
            return f"site for {queendomino.table[state.board[state.chosen]].tile} > "
        return {TAX: "knight > ", BUILD: "build > ", DRAGON: "burn > "}.get(phase, "claim > ")

    # -- reading moves -------------------------------------------------------------------
    def read(self, game: Queendomino, state: QueendominoState, words: str, text: str) -> int:
        legal = game.legal_actions(state)
        if words == "pass":
            if game.pass_action in legal:
                return game.pass_action
            raise IllegalActionError(f"this step is not optional: {_due(game, state)}")
        if "," in words and not _PLACEMENT.match(words):
            # The engine's notation, with x,y points from the castle.
            return game.parse_action(state, text)
        reader = {
            PLACE: _parse_place,
            TAX: _parse_knight,
            BUILD: _parse_building,
            SITE: _parse_site,
            DRAGON: _parse_building,
            CLAIM: _parse_claim,
        }.get(state.phase)
        if reader is None:
            raise IllegalActionError("no player moves now")
        return reader(game, state, words, text)

    def move_text(self, game: Queendomino, state: QueendominoState, action: int) -> str:
        return move_text(game, state, action)

    def help_text(self, game: Game[Any], state: Any) -> str:
        queendomino = narrowed(game, Queendomino)
        return "\n".join(
            [
                f"{squares_help(queendomino)} Each turn is a few steps, each with its own prompt:",
                "  place:  e4 e3 (or e4e3, e4-e3), or e4 up (e4 u, also down/left/right): "
                "square 1 on e4, square 2 on e3 or above e4; discard only when told",
                "  knight: 1 or 2 (or a square name such as e4) sends a knight from your guard "
                "onto that square of the domino just placed; it collects its territory's size "
                "in coins; pass to keep it",
                "  build:  a tile id (B09), a building's name, or its price on the Builders' "
                "Board; you need the coins and an empty town square; pass to skip",
                "  site:   the empty town square the building goes on, e.g. c4",
                "  burn:   a tile id, name or price: pay the Dragon 1 coin to burn that building "
                "(once a round, not for the Queen's host); pass to skip",
                "  claim:  the number of a domino of the new line, e.g. 17 (Royal Wedding: 17 or "
                "K17 / Q17)",
                f"Terrains: {terrain_legend(TERRAIN_LETTERS, TERRAINS)}; a digit after the "
                "letter counts the crowns. ♞ a knight, ⌂ a building (red town squares), + where "
                "your move can go, · a free place.",
                "The Queen (♛) goes to the realm with the most towers; she takes 1 coin off "
                "its buildings and is one more crown on its largest territory at the end.",
                f"Scores: territories size x crowns (towns too), 1 point per {COINS_PER_POINT} "
                "coins, the Queen, and the buildings' end-of-game points.",
            ]
        )

    def forced_move(
        self, game: Queendomino, state: QueendominoState, action: int, names: Sequence[str]
    ) -> str | None:
        if state.phase == PLACE:
            domino = state.placing[state.turn]
            return (
                f"Domino {codec.domino_label(game, domino)} ({describe(DOMINOES[domino])}) "
                "fits nowhere in your kingdom, so it is discarded (rulebook, A: a domino that "
                'does not fit "must be discarded from the game").'
            )
        if state.phase == SITE:
            building = game.table[state.board[state.chosen]]
            where = move_text(game, state, action)
            return f"{building.label()} goes on {where}, your only empty town square."
        if state.phase == CLAIM:
            label = codec.domino_label(game, state.line[action])
            return f"Domino {label} is the only one left: your king takes it."
        return None

    # -- the log -------------------------------------------------------------------------
    def entry(
        self,
        game: Queendomino,
        before: QueendominoState,
        action: int,
        after: QueendominoState,
        names: Sequence[str],
        seat: int | None,
    ) -> str | None:
        phase = before.phase
        if phase == DRAW:
            if after.phase == DRAW:
                return None
            labels = ", ".join(codec.domino_label(game, d) for d in after.line)
            last = " (the last line)" if after.lines_drawn == game.setup.lines else ""
            return f"New line{_box(game, after.line[0])}: {labels}{last}"
        if phase == BOARD:
            if after.phase == BOARD:
                return None
            tiles = " ".join(game.table[b].tile for b in after.board if b != EMPTY)
            return f"Builders' Board: {tiles}"
        if phase == ORDER:
            if after.phase == ORDER:
                return None
            return "The kings choose in this order: " + ", ".join(names[p] for p in after.order)
        if action == game.pass_action or phase == BUILD:
            return None  # a building is logged with its square (SITE)
        if phase == CLAIM:
            return f"claimed {codec.domino_label(game, before.line[action])}"
        r = game.acting_realm(before)
        then, now = before.realms[r], after.realms[r]
        if phase == PLACE:
            label = codec.domino_label(game, before.placing[before.turn])
            if action == game.discard_action:
                return f"discarded {label} (it fit nowhere)"
            return f"placed {label} on {move_text(game, before, action)}"
        if phase == TAX:
            where = cell_name(game, codec.knight_point(game, before, action))
            return f"sent a knight to {where} (+{count(now.coins - then.coins, 'coin')})"
        if phase == SITE:
            building = game.table[before.board[before.chosen]]
            where = move_text(game, before, action)
            paid = then.coins - now.coins
            text = f"built {building.label()} on {where} for {count(paid, 'coin')}"
            gains = [
                count(number, noun)
                for number, noun in (
                    (now.guard - then.guard, "knight"),
                    (now.towers - then.towers, "tower"),
                )
                if number
            ]
            if gains:
                text += f" (+{', +'.join(gains)})"
            if after.queen != before.queen:
                text += f"; the Queen moves to {realm_name(game, after.queen, names)}"
            return text
        burnt = game.building_on(before, action - game.burn_base)
        return f"paid the Dragon 1 coin to burn {burnt.label()}"

    # -- the end -------------------------------------------------------------------------
    def ending(
        self, console: Console, game: Queendomino, state: QueendominoState, names: Sequence[str]
    ) -> None:
        pads = [realm_score_pad(game, state, r, names) for r in range(game.num_realms)]
        console.print(Columns(pads))
        realms, rule = game.winning_realms(state)
        total = game.breakdown(state, realms[0]).total
        label = "Winner" if len(realms) == 1 else "Winners, sharing the victory"
        named = [Text(realm_name(game, r, names), style=colour(r)) for r in realms]
        tail = f", {points(total)} ({_decided_by(game, state, realms, rule)})"
        console.print(winners_line(label, named, tail))


# -- realms ------------------------------------------------------------------------------
def realm_name(game: Queendomino, realm: int, names: Sequence[str]) -> str:
    """A player's name, or in team play the team with its players."""
    if not game.setup.teams:
        return names[realm]
    members = [names[p] for p, r in enumerate(game.realm_of) if r == realm]
    return f"Team {realm + 1} ({' & '.join(members)})"


def realm_panel(
    game: Queendomino, state: QueendominoState, r: int, seat: int, names: Sequence[str]
) -> Panel:
    """A realm's kingdom with its coins, knights, towers and buildings."""
    realm = state.realms[r]
    kingdom = realm.kingdom
    mine = r == game.realm_of[seat]
    xs, ys = kingdom_area(game, kingdom, whole=mine)
    targets: set[Point] = set()
    spots = 0  # occupied squares the person's move can go to (marked +)
    acting = game.current_player(state) == seat and mine
    if acting and state.phase == PLACE:
        for action in game.legal_actions(state):
            if action != game.discard_action:
                targets.update(codec.placement_points(game, action))
    elif acting and state.phase in (TAX, SITE):
        for action in game.legal_actions(state):
            if action != game.pass_action:
                spots |= 1 << game.geo.cell(*_action_point(game, state, action))
    recent = last_placed(game, kingdom) if not mine or state.phase == TAX else set()

    def show(cell: Cell) -> Text:
        return square_shown(realm, cell, bool(spots >> cell & 1))

    body: list[RenderableType] = [
        kingdom_picture(game, kingdom, xs, ys, targets, recent, show),
        _realm_facts(game, state, r),
    ]
    if realm.buildings:
        built = Text("built: ", style="dim")
        for index, (building, cell) in enumerate(realm.buildings):
            built.append(", " if index else "")
            built.append_text(_building_text(game.table[building]))
            built.append(f" on {cell_name(game, game.geo.xy(cell))}")
        body.append(built)
    if kingdom.discarded:
        discarded = ", ".join(codec.domino_label(game, n - 1) for n in kingdom.discarded)
        body.append(Text(f"discarded: {discarded}", style="dim"))
    title = in_colour(realm_name(game, r, names), r, bold=True)
    if state.queen == r:
        title.append(f" {QUEEN} hosts the Queen", style="bold")
    return Panel(
        Group(*body),
        title=title,
        subtitle=points(game.breakdown(state, r).total),
        border_style=colour(r),
        expand=False,
    )


def square_shown(realm: Realm, cell: Cell, target: bool = False) -> Text:
    """A covered square with what stands on it: a knight, a building, or + for a target."""
    found = kd.square(realm.kingdom, cell)
    if found is None:
        raise ValueError(f"cell {cell} holds no domino square")
    terrain, crowns = found
    mark = TARGET if target else KNIGHT if realm.knights >> cell & 1 else " "
    shown = square_text(terrain, crowns, mark, BUILT if realm.sites >> cell & 1 else PALETTE)
    if target:
        shown.stylize(TARGET_STYLE, 0, 1)
    return shown


def _realm_facts(game: Queendomino, state: QueendominoState, r: int) -> Text:
    realm = state.realms[r]
    placed = realm.knights.bit_count()
    return Text(
        f"{count(realm.coins, 'coin')} · {KNIGHT} {realm.guard} in the guard, {placed} placed · "
        f"{count(realm.towers, 'tower')}"
    )


# -- the Builders' Board and the lines -----------------------------------------------------
def builders_board(
    game: Queendomino, state: QueendominoState, mine: int, names: Sequence[str]
) -> Table:
    """The six spaces with the buildings on them and their prices for the person's realm."""
    dragon = "in its cave" if state.dragon_ready else "used this round"
    table = Table(
        title=f"Builders' Board · the Dragon: {dragon}",
        title_justify="left",
        box=None,
        padding=(0, 1),
    )
    table.add_column("price", justify="right")
    table.add_column("tile")
    table.add_column("building")
    table.add_column("effects")
    for space, index in enumerate(state.board):
        price = game.price(state, mine, space)
        shown = Text(str(price))
        if price != space:
            shown.append(f" ({QUEEN}{space})", style="dim")
        if index == EMPTY:
            table.add_row(shown, Text("—", style="dim"), Text("empty", style="dim"), "")
            continue
        building = game.table[index]
        name = Text(building.name)
        if not building.verified:
            name.append(" (unverified)", style=UNVERIFIED_STYLE)
        table.add_row(shown, Text(building.tile, style="bold"), name, building.effects())
    if state.top != EMPTY:
        # The pile lies face up: its top is the next building to come (rulebook Step 1).
        top = game.table[state.top]
        name = Text(top.name)
        if not top.verified:
            name.append(" (unverified)", style=UNVERIFIED_STYLE)
        table.add_row(Text("next", style="dim"), Text(top.tile, style="bold"), name, top.effects())
    burnt = ", ".join(game.table[b].tile for b in game.burnt(state)) or "none"
    queen = (
        f"{QUEEN} the Queen is hosted by {realm_name(game, state.queen, names)}"
        if state.queen != NOBODY
        else f"{QUEEN} the Queen waits for the first tower"
    )
    table.caption = (
        f"{queen} · {game.pile_size(state)} tiles in the pile (next: its face-up top) · "
        f"burnt: {burnt} · supply: "
        f"{count(game.knight_supply(state), 'knight')}, "
        f"{count(game.tower_supply(state), 'tower')}"
    )
    table.caption_justify = "left"
    return table


def _lines(game: Queendomino, state: QueendominoState, names: Sequence[str]) -> Group:
    """The order of play (the dominoes being placed) and the new line with its claims."""
    tables: list[RenderableType] = []
    if state.placing:
        title = "Order of play" + _box(game, state.placing[0])
        table = line_table(title, min_width=len(title))
        for index, (domino, owner) in enumerate(zip(state.placing, state.placers, strict=True)):
            done = index < state.turn or (index == state.turn and state.phase in (CLAIM, OVER))
            if done:
                gone = domino + 1 in state.realms[game.realm_of[owner]].kingdom.discarded
                note = Text("discarded" if gone else "placed", style="dim")
            elif index == state.turn:
                note = Text(f"◀ now: {STEP_NAMES.get(state.phase, '')}", style="bold")
            else:
                note = Text("")
            table.add_row(
                Text(codec.domino_label(game, domino), style="dim" if done else "bold"),
                domino_text(DOMINOES[domino], PALETTE),
                _player(game, names, owner),
                note,
            )
        tables.append(table)
    if state.line and state.phase not in (DRAW, ORDER):
        last = " (the last one)" if state.lines_drawn == game.setup.lines else ""
        title = "New line" + _box(game, state.line[0]) + last
        table = line_table(title, min_width=len(title))
        for domino, owner in zip(state.line, state.claims, strict=True):
            claimed = owner != UNCLAIMED
            table.add_row(
                Text(codec.domino_label(game, domino), style="dim" if claimed else "bold"),
                domino_text(DOMINOES[domino], PALETTE),
                _player(game, names, owner) if claimed else Text("free", style="dim"),
                Text(""),
            )
        tables.append(table)
    shown = Columns(tables, padding=(0, 4))
    if state.phase == CLAIM and not state.placers:
        order = king_order(state.order, state.turn, lambda p: _player(game, names, p))
        return Group(shown, order)
    return Group(shown)


def _box(game: Queendomino, domino: int) -> str:
    """Royal Wedding: which box a line comes from."""
    if not game.setup.royal_wedding:
        return ""
    return f" (from the {BOX_NAMES[box_of(domino)].capitalize()} box)"


def _legend(width: int) -> Group:
    """The terrain colours, then the marks, each on a line of at most `width` characters if
    it can."""
    terrains = [
        square_text(terrain, 0, palette=PALETTE).append(f" {name}")
        for terrain, name in enumerate(TERRAINS)
    ]
    marks = [
        Text().append(" ♜ ", style=CASTLE_STYLE).append(" castle"),
        square_text(TOWN, 0, KNIGHT, PALETTE).append(" a knight"),
        square_text(TOWN, 0, palette=BUILT).append(" a building"),
        square_text(TOWN, 1, palette=PALETTE).append(" 1 crown"),
        square_text(TOWN, 0, TARGET, PALETTE).append(" your move can go there"),
    ]
    return Group(*(fitted(parts, width) for parts in (terrains, marks)))


def _status_line(game: Queendomino, state: QueendominoState) -> Text:
    over = state.phase == OVER
    parts = ["game over" if over else f"line {state.lines_drawn} of {game.setup.lines}"]
    if game.setup.royal_wedding:
        parts.append("Royal Wedding" + (" in teams" if game.setup.teams else ""))
    size = game.geo.size
    parts.append(f"{size}x{size} kingdoms")
    return status_line(parts)


def _headline(
    game: Queendomino, state: QueendominoState, seat: int, names: Sequence[str]
) -> Text | None:
    """What the person must do now, with an example."""
    if game.current_player(state) != seat:
        return None
    r = game.realm_of[seat]
    realm = state.realms[r]
    teams = game.setup.teams
    text = your_turn(f", for {realm_name(game, r, names)}, the realm you share" if teams else "")
    phase = state.phase
    if phase == PLACE:
        domino = state.placing[state.turn]
        text.append(f"place domino {codec.domino_label(game, domino)} ", style="bold")
        text.append_text(domino_text(DOMINOES[domino], PALETTE))
        text.append(f" ({describe(DOMINOES[domino])})")
        if _placeable(game, state):
            text.append(".\n  " + placement_hint(game, *_example(game, state)))
    elif phase == TAX:
        text.append("collect tax", style="bold")
        text.append(
            f": send a knight from your guard ({realm.guard} there) onto a square of the domino "
            "just placed; it collects that territory's size in coins.\n  "
        )
        choices = [
            f"{index} = {_tax_choice(game, state, action)}"
            for index, action in ((1, game.knight_base), (2, game.knight_base + 1))
            if action in game.legal_actions(state)
        ]
        text.append(" or ".join(choices) + "; or pass.")
    elif phase == BUILD:
        text.append("build?", style="bold")
        free = game.free_towns(realm).bit_count()
        text.append(
            f" You have {count(realm.coins, 'coin')} and {count(free, 'empty town square')}."
            "\n  Type a tile id (e.g. "
            f"{move_text(game, state, game.legal_actions(state)[0])}), a building's name or its "
            "price on the Builders' Board; or pass."
        )
    elif phase == SITE:
        building = game.table[state.board[state.chosen]]
        text.append(f"where does {building.label()} go?", style="bold")
        towns = [move_text(game, state, a) for a in game.legal_actions(state)]
        text.append(f" Type an empty town square (+ on your board): {', '.join(towns)}.")
    elif phase == DRAGON:
        text.append("bribe the Dragon?", style="bold")
        text.append(
            f" For 1 coin (you have {realm.coins}) it burns a building of the Builders' Board; "
            "only once a round.\n  Type its tile id, name or price; or pass."
        )
    else:
        return claim_headline(text)
    return text


def _tax_choice(game: Queendomino, state: QueendominoState, action: int) -> str:
    """`e4 (wheat, +3 coins)`: where a knight action goes and what it collects."""
    realm = state.realms[game.acting_realm(state)]
    point = codec.knight_point(game, state, action)
    cell = game.geo.cell(*point)
    found = kd.square(realm.kingdom, cell)
    terrain = found[0] if found else TOWN
    coins = game.tax(realm, realm.kingdom.terrains[terrain], cell)
    return f"{cell_name(game, point)} ({TERRAINS[terrain]}, +{count(coins, 'coin')})"


def _example(game: Queendomino, state: QueendominoState) -> tuple[Point, Point]:
    legal = [a for a in game.legal_actions(state) if a != game.discard_action]
    return codec.placement_points(game, legal[len(legal) // 2])


# -- moves as people type them -------------------------------------------------------------
def move_text(game: Queendomino, state: QueendominoState, action: int) -> str:
    """`action` in the input syntax (what `?` lists)."""
    if action == game.pass_action:
        return "pass"
    phase = state.phase
    if phase == CLAIM:
        return codec.domino_label(game, state.line[action])
    if phase == PLACE:
        if action == game.discard_action:
            return "discard"
        first, second = codec.placement_points(game, action)
        return placement_text(game, first, second)
    if phase in (BUILD, DRAGON):
        base = game.build_base if phase == BUILD else game.burn_base
        return game.building_on(state, action - base).tile
    return cell_name(game, _action_point(game, state, action))


def _action_point(game: Queendomino, state: QueendominoState, action: int) -> Point:
    """The square of a knight (TAX) or building site (SITE) action."""
    if state.phase == TAX:
        return codec.knight_point(game, state, action)
    return game.geo.xy(action - game.site_base)


def _due(game: Queendomino, state: QueendominoState) -> str:
    """What the person should type now, for refusals."""
    phase = state.phase
    if phase == PLACE:
        if not _placeable(game, state):
            return "type discard"
        return f"type where it goes, e.g. {placement_text(game, *_example(game, state))}"
    if phase == TAX:
        return "type 1 or 2 (or the square's name) for a knight's square, or pass"
    if phase == BUILD:
        return "type a tile id such as B09, a building's name or its price, or pass"
    if phase == SITE:
        return "type the empty town square the building goes on, e.g. " + move_text(
            game, state, game.legal_actions(state)[0]
        )
    if phase == DRAGON:
        return "type the tile id, name or price of the building to burn, or pass"
    free = [move_text(game, state, a) for a in game.legal_actions(state)]
    return f"type the number of a free domino of the new line ({', '.join(free)})"


def _placeable(game: Queendomino, state: QueendominoState) -> bool:
    return game.legal_actions(state) != (game.discard_action,)


def _parse_place(game: Queendomino, state: QueendominoState, words: str, text: str) -> int:
    domino = state.placing[state.turn]
    label = codec.domino_label(game, domino)
    if words == "discard" or words == f"discard {label.lower()}":
        if not _placeable(game, state):
            return game.discard_action
        raise IllegalActionError(
            f"domino {label} can be placed, so it may not be discarded ({DISCARD_RULE})"
        )
    number = _NUMBER.match(words)
    if number:
        asked = number.group(1).upper()
        if _is_label(game, domino, asked):
            raise IllegalActionError(f"domino {label} is the one to place: {_due(game, state)}")
        if any(_is_label(game, d, asked) for d in state.placing[state.turn + 1 :]):
            raise IllegalActionError(f"domino {asked} comes later: place domino {label} first")
        if any(_is_label(game, d, asked) for d in state.line):
            raise IllegalActionError(
                f"first place domino {label}; you choose from the new line at the end of your turn"
            )
        raise IllegalActionError(f"domino {asked} is not yours to place: place domino {label}")
    match = _PLACEMENT.match(words)
    if match is None:
        raise unreadable(text, f"{_due(game, state)}, or ? for the legal moves")
    given, column1, row1, column2, row2, direction = match.groups()
    if given is not None and not _is_label(game, domino, given.upper()):
        raise IllegalActionError(f"the domino to place is {label}, not {given.upper()}")
    first = cell_point(game, column1, row1)
    if direction is not None:
        second = beside(first, direction)
        if max(map(abs, second)) > game.geo.reach:
            raise IllegalActionError(f"{words}: square 2 would be off the board")
    else:
        second = cell_point(game, column2, row2)
    where = placement_text(game, first, second)
    if abs(first[0] - second[0]) + abs(first[1] - second[1]) != 1:
        raise IllegalActionError(f"{where}: the two squares of a domino must be side by side")
    check_squares(game, state.realms[game.acting_realm(state)].kingdom, first, second, TERRAINS)
    try:
        return codec.placement_action(game, state, first, second)
    except IllegalActionError as error:
        raise IllegalActionError(f"{where}: {error}") from None


def _is_label(game: Queendomino, domino: int, text: str) -> bool:
    """`text` (upper case) names `domino`: its label, or its printed number alone."""
    label = codec.domino_label(game, domino)
    return text in (label, label.lstrip("QK"))


def _parse_knight(game: Queendomino, state: QueendominoState, words: str, text: str) -> int:
    match = _SQUARE.match(words)
    if match is None:
        raise unreadable(text, _due(game, state))
    square, column, row = match.groups()
    placed = [codec.knight_point(game, state, game.knight_base + i) for i in (0, 1)]
    if square is not None:
        index = int(square) - 1
    else:
        point = cell_point(game, column, row)
        if point not in placed:
            domino = " ".join(cell_name(game, p) for p in placed)
            raise IllegalActionError(
                f"{cell_name(game, point)} is not a square of the domino just placed ({domino})"
            )
        index = placed.index(point)
    action = game.knight_base + index
    if action not in game.legal_actions(state):
        raise IllegalActionError(
            f"square {index + 1} ({cell_name(game, placed[index])}) already has a knight"
        )
    return action


def _parse_site(game: Queendomino, state: QueendominoState, words: str, text: str) -> int:
    match = _SQUARE.match(words)
    if match is None or match.group(1) is not None:
        raise unreadable(text, _due(game, state))
    point = cell_point(game, match.group(2), match.group(3))
    name = cell_name(game, point)
    cell = game.geo.cell(*point)
    realm = state.realms[game.acting_realm(state)]
    found = kd.square(realm.kingdom, cell)
    if found is None:
        what = "your castle" if cell == game.geo.castle else "empty"
        raise IllegalActionError(f"{name} is {what}, not a town square; {_due(game, state)}")
    if found[0] != TOWN:
        raise IllegalActionError(
            f"{name} is {TERRAINS[found[0]]}: buildings go on town squares; {_due(game, state)}"
        )
    for index, site in realm.buildings:
        if site == cell:
            built = game.table[index].label()
            raise IllegalActionError(f"{name} already holds {built}; {_due(game, state)}")
    return game.site_base + cell


def _parse_building(game: Queendomino, state: QueendominoState, words: str, text: str) -> int:
    """A building of the Builders' Board by tile id, name or price (BUILD and DRAGON)."""
    verb, other = ("build", "burn") if state.phase == BUILD else ("burn", "build")
    if words.startswith(f"{other} "):
        if state.phase == BUILD:
            raise IllegalActionError("the Dragon comes after building: build or pass first")
        raise IllegalActionError("you can no longer build this turn: burn a building, or pass")
    if words.startswith(f"{verb} "):
        words = words[len(verb) + 1 :]
    r = game.acting_realm(state)
    spaces = [s for s, b in enumerate(state.board) if b != EMPTY]
    tile = _TILE.match(words)
    if tile:
        found = [s for s in spaces if _tile_number(game, state, s) == int(tile.group(1))]
    elif words.isdecimal():
        price = int(words)
        found = [s for s in spaces if game.price(state, r, s) == price]
        if not found:
            raise IllegalActionError(f"no building on the Builders' Board costs {price} for you")
    else:
        found = [s for s in spaces if game.building_on(state, s).name.lower() == words]
    if not found:
        if not tile and _SQUARE.match(words) and state.phase == BUILD:
            raise IllegalActionError(
                "first choose the building (tile id, name or price); its square comes next"
            )
        raise IllegalActionError(f"no building {excerpt(text.strip())} on the Builders' Board")
    if len(found) > 1:
        choices = ", ".join(
            f"{game.building_on(state, s).tile} for {game.price(state, r, s)}" for s in found
        )
        raise IllegalActionError(f"{excerpt(text.strip())} could be {choices}: type the tile id")
    space = found[0]
    action = (game.build_base if state.phase == BUILD else game.burn_base) + space
    if action not in game.legal_actions(state):
        building = game.building_on(state, space)
        coins = state.realms[r].coins
        raise IllegalActionError(
            f"{building.tile} costs {count(game.price(state, r, space), 'coin')}; you have {coins}"
        )
    return action


def _tile_number(game: Queendomino, state: QueendominoState, space: int) -> int | None:
    match = _TILE.match(game.building_on(state, space).tile.lower())
    return int(match.group(1)) if match else None


def _parse_claim(game: Queendomino, state: QueendominoState, words: str, text: str) -> int:
    match = _NUMBER.match(words)
    if match is None:
        if words == "discard" or _PLACEMENT.match(words):
            raise IllegalActionError(
                f"now choose a domino of the new line for your king: {_due(game, state)}"
            )
        raise unreadable(text, _due(game, state))
    asked = match.group(1).upper()
    slots = [s for s, d in enumerate(state.line) if _is_label(game, d, asked)]
    if not slots:
        raise IllegalActionError(f"domino {asked} is not in the new line; {_due(game, state)}")
    owner = state.claims[slots[0]]
    if owner != UNCLAIMED:
        raise IllegalActionError(
            f"domino {asked} already has a king on it (seat {owner}'s); {_due(game, state)}"
        )
    return slots[0]


# -- the score pad -------------------------------------------------------------------------
def realm_score_pad(
    game: Queendomino, state: QueendominoState, r: int, names: Sequence[str]
) -> Table:
    """A realm's score pad, laid out like the rulebook's (wealth, terrains, Queen, buildings)."""
    pad = game.breakdown(state, r)
    wealth: list[list[RenderableType]] = [
        ["wealth", f"{count(pad.coins, 'coin')} / {COINS_PER_POINT}", str(pad.wealth)]
    ]
    for terrain, name in enumerate(TERRAINS):
        scoring = [t for t in pad.territories if t.terrain == terrain and t.crowns]
        how = " + ".join(f"{t.size}x{t.crowns}" for t in scoring)
        scored = pad.terrain_points[terrain]
        label = square_text(terrain, 0, palette=PALETTE).append(f" {name}")
        wealth.append([label, how, Text(str(scored), style="" if scored else "dim")])
    wealth.append([f"{QUEEN} Queen", _queen_how(pad), str(pad.queen)])
    buildings: list[list[RenderableType]] = [
        [_building_text(building), _building_how(building, scored), str(scored)]
        for building, scored in pad.buildings
    ]
    buildings.append(["buildings", "", str(pad.building_points)])
    title = Text(realm_name(game, r, names), style=colour(r))
    columns: list[Column | str] = ["", Column("how", style="dim"), right("points")]
    return score_pad(title, columns, [wealth, buildings], ["total", "", str(pad.total)])


def _building_how(building: Building, points: int) -> str:
    """What a building's end-of-game points counted, e.g. `3 wheat territories x 2`."""
    kind, each = building.endgame, building.endgame_points
    if kind in ("none", "fixed") or not each:
        return ""
    if kind == "per_separate_territory" and building.endgame_terrain is not None:
        counted = f"{TERRAINS[building.endgame_terrain]} territories"
    else:
        counted = "knights" if kind == "per_knight" else "towers"
    return f"{points // each} {counted} x {each}"


def _queen_how(pad: Breakdown) -> str:
    territory = pad.queen_territory
    if territory is None:
        return "not hosted"
    return f"+1 crown on {TERRAINS[territory.terrain]} ({territory.size} squares)"


def _decided_by(
    game: Queendomino, state: QueendominoState, realms: Sequence[int], rule: str
) -> str:
    """Which rule separated the winners from the rest, in words (rulebook "End of the Game";
    the engine decides)."""
    if rule == "score":
        return "highest score"
    largest = game.breakdown(state, realms[0]).largest_territory
    if rule == "largest_territory":
        return f"tie on points, broken by the largest territory ({largest} squares)"
    return f"tie on points and on the largest territory ({largest} squares): the victory is shared"


# -- small words -------------------------------------------------------------------------
def _building_text(building: Building) -> Text:
    text = Text(f"{building.tile} {building.name}")
    if not building.verified:
        text.append(" (unverified)", style=UNVERIFIED_STYLE)
    return text


def _player(game: Queendomino, names: Sequence[str], player: int) -> Text:
    r = game.realm_of[player]
    team = f" (team {r + 1})" if game.setup.teams else ""
    return in_colour(names[player] + team, r)


__all__ = [
    "PALETTE",
    "TerminalUI",
    "builders_board",
    "move_text",
    "realm_name",
    "realm_panel",
    "realm_score_pad",
    "square_shown",
]
