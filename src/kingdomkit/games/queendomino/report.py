"""Queendomino for people: a realm's score pad, and a record's events in plain words.

This module is Queendomino's score report (kingdomkit.cli.report.ScoreReport, declared in
shape.py); the command line calls (as for Kingdomino):

    check_options(options)                Queendomino's scoring has no options
    score_text(text, options, files)      `kingdomkit score`: (rich renderable, JSON);
                                          `files["buildings"]`: the path of a corrected table
    describe_event(game, event, after, names)   one record event as a sentence
    describe_position(game, state, names) the realms, their score pads, the Builders' Board
    position_json(game, state)            the same for `--json`

A realm is written in the notation of notation.py. Buildings whose effects the table does not
know for sure are marked `(unverified)` wherever they are shown. In team play a realm is
named after its players (`team ann & bob`). Cells are (x, y) from the castle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kingdomkit.core.protocol import Event, KingdomkitError, OptionError
from kingdomkit.games.kingdomino.geometry import Geometry, geometry
from kingdomkit.games.kingdomino.report import TERRAIN_STYLES as KINGDOMINO_STYLES
from kingdomkit.games.queendomino.buildings import Building, BuildingTable, load_buildings
from kingdomkit.games.queendomino.codec import domino_label
from kingdomkit.games.queendomino.dominoes import DOMINOES, TERRAINS, describe, printed
from kingdomkit.games.queendomino.notation import parse_realm, realm_to_notation
from kingdomkit.games.queendomino.records import breakdown_json
from kingdomkit.games.queendomino.rules import (
    BUILD,
    CLAIM,
    DRAGON,
    EMPTY,
    NOBODY,
    OVER,
    PHASE_NAMES,
    SITE,
    TAX,
    UNCLAIMED,
    Queendomino,
    QueendominoState,
    Realm,
)
from kingdomkit.games.queendomino.scoring import Breakdown, breakdown

SCORE_OPTIONS: tuple[str, ...] = ()
NOT_FOR_SCORING = {
    "royal_wedding": "the Royal Wedding changes the dominoes and the frame, not the score pad",
    "teams": "a team's realm scores like any other",
}
FRAMES = (5, 7)
TURN_STEPS = (TAX, BUILD, SITE, DRAGON, CLAIM)  # after the turn's domino is placed
TERRAIN_STYLES = (*KINGDOMINO_STYLES, "red")
UNVERIFIED_NOTE = (
    "(unverified): an effect of this tile is unknown to the building table and counts as "
    "none; a corrected table can be given with --buildings FILE"
)


# -- kingdomkit score --------------------------------------------------------------------
def check_options(options: Sequence[str]) -> None:
    """Refuse every option: none of Queendomino's changes how one realm scores."""
    for name in options:
        if name in NOT_FOR_SCORING:
            raise OptionError(
                f"option {name!r} cannot be used to score a realm: {NOT_FOR_SCORING[name]}"
            )
        raise OptionError(
            f"unknown option {name!r} for scoring a realm (Queendomino's scoring has none)"
        )


def load_table(path: str | None) -> BuildingTable:
    """The building table for scoring; a bad `--buildings` file is an option error, so the
    message names the table and not the realm's file."""
    try:
        return load_buildings(path)
    except KingdomkitError as error:
        raise OptionError(str(error)) from None


def read_realm(text: str, table: BuildingTable) -> tuple[Geometry, Realm, bool]:
    """The realm in `text` in the smallest frame that holds it (5x5, else 7x7): the frame
    changes nothing in scoring. Raises NotationError."""
    largest = geometry(FRAMES[-1])
    realm, hosts_queen = parse_realm(text, largest, table)
    kingdom = realm.kingdom
    span = max(kingdom.max_x - kingdom.min_x, kingdom.max_y - kingdom.min_y) + 1
    size = next(size for size in FRAMES if span <= size)
    if size == largest.size:
        return largest, realm, hosts_queen
    geo = geometry(size)
    realm, hosts_queen = parse_realm(text, geo, table)
    return geo, realm, hosts_queen


def score_text(
    text: str, options: Sequence[str], files: Mapping[str, str] | None = None
) -> tuple[RenderableType, dict[str, Any]]:
    """The score pad of the realm that `text` writes (see notation.py), as a rich table and
    as a JSON dict, with the building table `files["buildings"]` if given (the shipped one
    otherwise); raises NotationError (line, column) or OptionError."""
    check_options(options)
    table = load_table((files or {}).get("buildings"))
    geo, realm, hosts_queen = read_realm(text, table)
    pad = breakdown(geo, table, realm, hosts_queen)
    data: dict[str, Any] = {
        "game": "queendomino",
        "options": list(dict.fromkeys(options)),
        "buildings_table": {"source": table.source, "sha256": table.sha256},
        "size": geo.size,
        "realm": realm_to_notation(geo, table, realm, hosts_queen).splitlines(),
        "guard": realm.guard,
        "knights": realm.knights_owned,
        "towers": realm.towers,
        "hosts_queen": hosts_queen,
        **breakdown_json(pad),
    }
    return _score_table(geo, table, realm, hosts_queen, pad), data


def _score_table(
    geo: Geometry, table: BuildingTable, realm: Realm, hosts_queen: bool, pad: Breakdown
) -> RenderableType:
    picture = Text(realm_to_notation(geo, table, realm, hosts_queen).rstrip("\n"))
    sheet = Table(title=f"Score pad ({geo.size}x{geo.size} kingdom)", title_justify="left")
    sheet.add_column("Score pad")
    sheet.add_column("Count")
    sheet.add_column("Points", justify="right")
    sheet.add_row("Wealth", f"{pad.coins} coins", str(pad.wealth))
    for terrain, name in enumerate(TERRAINS):
        sheet.add_row(
            Text(name, style=TERRAIN_STYLES[terrain]),
            territories_text(pad, terrain),
            str(pad.terrain_points[terrain]),
        )
    sheet.add_row("The Queen", queen_text(pad), str(pad.queen))
    for building, points in pad.buildings:
        sheet.add_row(building.label(), endgame_text(building, realm, pad), str(points))
    sheet.add_section()
    sheet.add_row(Text("Total", style="bold"), "", Text(str(pad.total), style="bold"))
    facts = Text(
        f"Largest territory: {pad.largest_territory} squares    Knights: {realm.knights_owned} "
        f"({realm.guard} in the guard)    Towers: {realm.towers}"
    )
    parts: list[RenderableType] = [picture, Text(""), sheet, facts]
    if any(not building.verified for building, _ in pad.buildings):
        parts.append(Text(UNVERIFIED_NOTE))
    return Group(*parts)


def territories_text(pad: Breakdown, terrain: int) -> str:
    """`2x1 + 1x1 + 1x0`: each territory of a terrain as squares x crowns; `-` if none."""
    found = [f"{t.size}x{t.crowns}" for t in pad.territories if t.terrain == terrain]
    return " + ".join(found) or "-"


def queen_text(pad: Breakdown) -> str:
    """Where the Queen sits: she is one more crown on her host's largest territory, so she
    adds its size."""
    where = pad.queen_territory
    if where is None:
        return "not hosted"
    return f"{TERRAINS[where.terrain]} territory, {where.size} squares"


def endgame_text(building: Building, realm: Realm, pad: Breakdown) -> str:
    """How a building scores, with the count it multiplies."""
    points = building.endgame_points
    if building.endgame == "fixed":
        return f"{points} points"
    if building.endgame == "per_tower":
        return f"{points} per tower x {realm.towers}"
    if building.endgame == "per_knight":
        return f"{points} per knight x {realm.knights_owned}"
    if building.endgame == "per_separate_territory" and building.endgame_terrain is not None:
        terrain = building.endgame_terrain
        count = sum(1 for t in pad.territories if t.terrain == terrain)
        return f"{points} per {TERRAINS[terrain]} territory x {count}"
    return "no end-game points"


# -- names ---------------------------------------------------------------------------------
def player_name(names: Sequence[str], player: Any) -> str:
    if isinstance(player, int) and 0 <= player < len(names):
        return names[player]
    return f"player {player!r}"


def members(game: Queendomino, realm: Any) -> list[int]:
    """The players who share `realm` (one, outside team play)."""
    return [player for player, owner in enumerate(game.realm_of) if owner == realm]


def realm_name(game: Queendomino, names: Sequence[str], realm: Any) -> str:
    """A player's name, or in team play `team ann & bob`."""
    if not game.setup.teams:
        return player_name(names, realm)
    players = [player_name(names, p) for p in members(game, realm)]
    return "team " + " & ".join(players) if players else f"team {realm!r}"


def domino_text(game: Queendomino, domino_id: int) -> str:
    """`12 [T|L]` (Royal Wedding: `Q12 [T|L]`): the domino's label and its squares."""
    return f"{domino_label(game, domino_id)} [{describe(DOMINOES[domino_id])}]"


def find_tile(game: Queendomino, tile: Any) -> Building | None:
    """The building of a tile id in the game's table."""
    return next((b for b in game.table.buildings if b.tile == tile), None)


def tile_text(game: Queendomino, tile: Any) -> str:
    """`B09 Magic School`, marked `(unverified)` when an effect is unknown."""
    building = find_tile(game, tile)
    return building.label() if building else repr(tile)


# -- kingdomkit replay -------------------------------------------------------------------
def _event_domino(game: Queendomino, event: Event, after: QueendominoState) -> str:
    """The domino an event names by its printed number, found where it went (in a Royal
    Wedding the number alone does not say which box)."""
    number, player, kind = event.get("domino"), event.get("player"), event.get("type")
    if not isinstance(player, int) or not 0 <= player < game.num_players:
        return repr(number)
    kingdom = after.realms[game.realm_of[player]].kingdom
    if kind == "place" and kingdom.placed:
        candidates = [kingdom.placed[-1][0] - 1]
    elif kind == "discard" and kingdom.discarded:
        candidates = [kingdom.discarded[-1] - 1]
    else:
        owned = [
            *zip(after.line, after.claims, strict=False),
            *zip(after.placing, after.placers, strict=True),
        ]
        candidates = [d for d, owner in owned if owner == player]
    found = [d for d in candidates if printed(d) == number]
    return domino_text(game, found[0]) if found else repr(number)


def _cell_text(cell: Any) -> str:
    if isinstance(cell, list) and len(cell) == 2:
        return f"({cell[0]}, {cell[1]})"
    return repr(cell)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def describe_event(
    game: Queendomino, event: Event, after: QueendominoState, names: Sequence[str]
) -> str:
    """One event of a checked record as a sentence (`after` is the state it led to)."""
    kind = event.get("type")
    if kind == "line":
        box = f", from the {event['box'].capitalize()} box" if "box" in event else ""
        dominoes = ", ".join(domino_text(game, d) for d in after.line)
        return f"New line (line {after.lines_drawn} of {game.setup.lines}{box}): {dominoes}"
    if kind == "top":
        building = find_tile(game, event.get("building"))
        effects = f": {building.effects()}" if building else ""
        return f"{tile_text(game, event.get('building'))} is turned up on the pile{effects}"
    if kind == "reveal":
        building = find_tile(game, event.get("building"))
        effects = f": {building.effects()}" if building else ""
        return (
            f"{tile_text(game, event.get('building'))} comes onto the Builders' Board at price "
            f"{event.get('price')}{effects}"
        )
    if kind == "order":
        kings = ", ".join(player_name(names, p) for p in event.get("kings", []))
        return f"The kings are drawn in this order: {kings}"
    if kind == "queen":
        host = realm_name(game, names, event.get("realm"))
        was = event.get("from")
        source = "" if was is None else f", leaving {realm_name(game, names, was)}"
        realm = event.get("realm")
        if isinstance(realm, int) and 0 <= realm < len(after.realms):
            towers = _plural(after.realms[realm].towers, "tower")
            return f"The Queen moves to {host} ({towers}, the most){source}"
        return f"The Queen moves to {host}{source}"
    return _describe_move(game, event, after, names)


def _describe_move(
    game: Queendomino, event: Event, after: QueendominoState, names: Sequence[str]
) -> str:
    kind = event.get("type")
    who = player_name(names, event.get("player"))
    if kind == "claim":
        return f"{who} claims {_event_domino(game, event, after)}"
    if kind == "place":
        where = " and ".join(_cell_text(c) for c in event.get("cells", []))
        return f"{who} places {_event_domino(game, event, after)} on {where}"
    if kind == "discard":
        domino = _event_domino(game, event, after)
        return f"{who} discards {domino}: it fits nowhere in the kingdom"
    if kind == "tax":
        coins = event.get("coins")
        collected = _plural(coins, "coin") if isinstance(coins, int) else repr(coins)
        return (
            f"{who} sends a knight to {_cell_text(event.get('cell'))} "
            f"and collects {collected} in tax"
        )
    if kind == "build":
        return _describe_build(game, event, who)
    if kind == "burn":
        return f"{who} pays the Dragon 1 coin to burn {tile_text(game, event.get('building'))}"
    if kind == "pass":
        return {
            "tax": f"{who} sends no knight out",
            "build": f"{who} builds nothing",
            "dragon": f"{who} leaves the Dragon in its cave",
        }.get(str(event.get("step")), f"{who} passes")
    return f"{kind}: {event}"


def _describe_build(game: Queendomino, event: Event, who: str) -> str:
    tile = event.get("building")
    price = event.get("price")
    paid = _plural(price, "coin") if isinstance(price, int) else repr(price)
    text = f"{who} builds {tile_text(game, tile)} on {_cell_text(event.get('cell'))} for {paid}"
    building = find_tile(game, tile)
    taken = []
    for key, noun, where in (("knights", "knight", " into the guard"), ("towers", "tower", "")):
        count = event.get(key)
        shown = getattr(building, key) if building else 0
        if not isinstance(count, int):
            continue
        if count < shown:
            # Immediate effects take what is left in the supply (docs/rules-notes.md).
            taken.append(f"{count} of its {_plural(shown, noun)}{where}: the supply ran short")
        elif count:
            taken.append(f"{_plural(count, noun)}{where}")
    return text + (", taking " + " and ".join(taken) if taken else "")


def describe_position(game: Queendomino, state: QueendominoState, names: Sequence[str]) -> str:
    """The realms with their score pads and, before the end, the Builders' Board and the
    dominoes in play."""
    lines: list[str] = []
    if state.phase != OVER:
        lines.extend(_where_the_game_stands(game, state, names))
    for r, realm in enumerate(state.realms):
        pad = game.breakdown(state, r)
        if lines:
            lines.append("")
        lines.append(f"{realm_name(game, names, r)}: {pad.total} points")
        text = realm_to_notation(game.geo, game.table, realm, state.queen == r)
        lines.extend("    " + row for row in text.splitlines())
        lines.append("    " + pad_text(game, pad, realm))
        if pad.buildings:
            built = ", ".join(f"{b.label()} {points}" for b, points in pad.buildings)
            lines.append(f"    buildings: {built}")
    return "\n".join(lines)


def pad_text(game: Queendomino, pad: Breakdown, realm: Realm) -> str:
    """`wealth 3 + territories 44 + the Queen 4 + buildings 27 = 71; ...` on one line."""
    text = (
        f"wealth {pad.wealth} + territories {sum(pad.terrain_points)} + the Queen {pad.queen}"
        f" + buildings {pad.building_points} = {pad.total}; largest territory "
        f"{pad.largest_territory}, knights {realm.knights_owned}"
    )
    if realm.kingdom.discarded:
        discarded = realm.kingdom.discarded  # Domino.number is the id + 1
        text += "; discarded " + ", ".join(domino_label(game, n - 1) for n in discarded)
    return text


def board_text(game: Queendomino, state: QueendominoState) -> str:
    """The Builders' Board, cheapest space first, each with its price."""
    spaces = [
        f"{price}: {game.table[b].label() if b != EMPTY else '-'}"
        for price, b in enumerate(state.board)
    ]
    top = game.table[state.top].label() if state.top != EMPTY else "none (the pile is out)"
    return (
        "Builders' Board (price: building): "
        + ", ".join(spaces)
        + f"; the pile's top, face up: {top} ({game.pile_size(state)} in the pile)"
    )


def _where_the_game_stands(
    game: Queendomino, state: QueendominoState, names: Sequence[str]
) -> list[str]:
    lines = [
        f"The game stands at line {state.lines_drawn} of {game.setup.lines} "
        f"(the {PHASE_NAMES[state.phase]} step).",
        board_text(game, state),
    ]
    dragon = "in its cave" if state.dragon_ready else "used this round"
    if state.queen == NOBODY:
        queen = "Nobody hosts the Queen yet"
    else:
        host = realm_name(game, names, state.queen)
        queen = f"The Queen is hosted by {host} (1 coin off each building, no Dragon)"
    lines.append(f"{queen}; the Dragon is {dragon}.")
    burnt = game.burnt(state)
    if burnt:
        lines.append("Burnt by the Dragon: " + ", ".join(game.table[b].label() for b in burnt))
    if state.line:
        shown = []
        for domino, owner in zip(state.line, state.claims, strict=False):
            by = f" (claimed by {player_name(names, owner)})" if owner != UNCLAIMED else ""
            shown.append(domino_text(game, domino) + by)
        lines.append("New line: " + ", ".join(shown))
    if state.placers:
        # The domino of the turn being played is placed once its PLACE step is over.
        first = state.turn + (1 if state.phase in TURN_STEPS else 0)
        pending = [
            f"{domino_text(game, d)} for {player_name(names, p)}"
            for d, p in zip(state.placing[first:], state.placers[first:], strict=True)
        ]
        if pending:
            lines.append("Still to place: " + ", ".join(pending))
    return lines


def position_json(game: Queendomino, state: QueendominoState) -> dict[str, Any]:
    """The realms (notation rows and pieces), score pads and Builders' Board."""
    geo, table = game.geo, game.table
    data: dict[str, Any] = {
        "lines_drawn": state.lines_drawn,
        "phase": PHASE_NAMES[state.phase],
        "kingdoms": [
            realm_to_notation(geo, table, realm, state.queen == r).splitlines()
            for r, realm in enumerate(state.realms)
        ],
        "realms": [
            _realm_json(game, realm, state.queen == r) for r, realm in enumerate(state.realms)
        ],
        "breakdown": [breakdown_json(game.breakdown(state, r)) for r in range(game.num_realms)],
        "builders_board": [
            None if b == EMPTY else _building_json(table[b]) | {"price": price}
            for price, b in enumerate(state.board)
        ],
        "pile_top": None if state.top == EMPTY else _building_json(table[state.top]),
        "pile": game.pile_size(state),
        "dragon_ready": state.dragon_ready,
        "queen": None if state.queen == NOBODY else state.queen,
        "burnt": [table[b].tile for b in game.burnt(state)],
    }
    if game.setup.teams:
        data["teams"] = [members(game, r) for r in range(game.num_realms)]
    return data


def _building_json(building: Building) -> dict[str, Any]:
    return {"building": building.tile, "name": building.name, "verified": building.verified}


def _realm_json(game: Queendomino, realm: Realm, hosts_queen: bool) -> dict[str, Any]:
    return {
        "coins": realm.coins,
        "guard": realm.guard,
        "knights": realm.knights_owned,
        "towers": realm.towers,
        "hosts_queen": hosts_queen,
        "buildings": [
            _building_json(game.table[index]) | {"cell": list(game.geo.xy(cell))}
            for index, cell in realm.buildings
        ],
    }
