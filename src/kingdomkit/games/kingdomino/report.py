"""Kingdomino for people: a kingdom's score pad, and a record's events in plain words.

The command line is written once for every game; this module is Kingdomino's score report
(kingdomkit.cli.report.ScoreReport, declared in shape.py), and the command line calls:

    check_options(options)                refuse options that make no sense for one kingdom
    score_text(text, options, files)      `kingdomkit score`: (rich renderable, JSON dict)
    describe_event(game, event, after, names)   one record event as a sentence
    describe_position(game, state, names) the kingdoms and score pads, where the game stands
    position_json(game, state)            the same for `--json`

Cells are (x, y) relative to the castle, x to the right, y downward (docs/records.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kingdomkit.core.protocol import Event, OptionError
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES, NUM_DOMINOES, TERRAINS
from kingdomkit.games.kingdomino.notation import kingdom_to_notation, parse_kingdom
from kingdomkit.games.kingdomino.rules import (
    CLAIM,
    OVER,
    PLACE,
    UNCLAIMED,
    Breakdown,
    Kingdomino,
    KingdominoState,
    breakdown_json,
)

SCORE_OPTIONS = ("mighty_duel", "middle_kingdom", "harmony")
NOT_FOR_SCORING = {
    "dynasty": "dynasty adds up three games; score each kingdom on its own",
    "draw_four": "draw_four changes how lines are drawn, not how a kingdom scores",
}
TERRAIN_STYLES = ("yellow", "green", "blue", "bright_green", "magenta", "bright_black")


# -- kingdomkit score --------------------------------------------------------------------
def scoring_game(options: Sequence[str]) -> Kingdomino:
    """The game whose scoring rules apply to one kingdom with these options turned on."""
    for name in options:
        if name in NOT_FOR_SCORING:
            raise OptionError(
                f"option {name!r} cannot be used to score a kingdom: {NOT_FOR_SCORING[name]}"
            )
        if name not in SCORE_OPTIONS:
            known = ", ".join(SCORE_OPTIONS)
            raise OptionError(f"unknown option {name!r} for scoring a kingdom (options: {known})")
    flags = dict.fromkeys(options, True)
    # The Mighty Duel is a 2-player variant; the player count changes nothing else in scoring.
    players = 2 if flags.get("mighty_duel") else 4
    return Kingdomino({"players": players, **flags})


def check_options(options: Sequence[str]) -> None:
    """Raise OptionError for an option that does not apply to scoring one kingdom."""
    scoring_game(options)


def score_kingdom(game: Kingdomino, kingdom: kd.Kingdom) -> Breakdown:
    """The score pad of a finished kingdom. Each player gets exactly (size² - 1) / 2 dominoes,
    so "no domino discarded" (Harmony) is the same as "every square of the frame filled"."""
    return game.kingdom_breakdown(kingdom, harmony=kd.is_complete(game.geo, kingdom))


def score_text(
    text: str, options: Sequence[str], files: Mapping[str, str] | None = None
) -> tuple[RenderableType, dict[str, Any]]:
    """The score pad of the kingdom that `text` draws (see notation.py), as a rich table for
    the terminal and as a JSON dict; raises NotationError (line, column) or OptionError.
    Kingdomino has no file options (`files`)."""
    game = scoring_game(options)
    geo = game.geo
    kingdom = parse_kingdom(text, geo)
    pad = score_kingdom(game, kingdom)
    complete = kd.is_complete(geo, kingdom)
    middle = kd.castle_in_middle(geo, kingdom)
    data: dict[str, Any] = {
        "game": game.name,
        "options": list(dict.fromkeys(options)),
        "size": geo.size,
        "kingdom": kingdom_to_notation(geo, kingdom).splitlines(),
        "complete": complete,
        "castle_in_middle": middle,
        **breakdown_json(pad),
    }
    return _score_table(game, kingdom, pad, complete, middle), data


def _score_table(
    game: Kingdomino, kingdom: kd.Kingdom, pad: Breakdown, complete: bool, middle: bool
) -> RenderableType:
    geo = game.geo
    picture = Text(kingdom_to_notation(geo, kingdom).rstrip("\n"))
    table = Table(title=f"Score pad ({geo.size}x{geo.size} kingdom)", title_justify="left")
    table.add_column("Territory")
    table.add_column("Squares", justify="right")
    table.add_column("Crowns", justify="right")
    table.add_column("Points", justify="right")
    for territory in pad.territories:
        terrain = TERRAINS[territory.terrain]
        table.add_row(
            Text(terrain, style=TERRAIN_STYLES[territory.terrain]),
            str(territory.size),
            str(territory.crowns),
            str(territory.points),
        )
    table.add_section()
    table.add_row("Territory points", "", "", str(pad.territory_points))
    if game.setup.middle_kingdom:
        why = "castle in the middle" if middle else "castle not in the middle"
        table.add_row(f"Middle Kingdom ({why})", "", "", f"+{pad.middle_kingdom}")
    if game.setup.harmony:
        why = "kingdom complete" if complete else "kingdom not complete"
        table.add_row(f"Harmony ({why})", "", "", f"+{pad.harmony}")
    table.add_section()
    table.add_row(Text("Total", style="bold"), "", "", Text(str(pad.total), style="bold"))
    tie_breaks = Text(f"Largest territory: {pad.largest_territory} squares    Crowns: {pad.crowns}")
    return Group(picture, Text(""), table, tie_breaks)


# -- kingdomkit replay -------------------------------------------------------------------
def domino_text(number: Any) -> str:
    """`17 [W|F1]`: a domino's number and its squares, square 1 first."""
    if isinstance(number, int) and 1 <= number <= NUM_DOMINOES:
        return f"{number} [{DOMINOES[number - 1].describe()}]"
    return repr(number)


def _name(names: Sequence[str], player: Any) -> str:
    if isinstance(player, int) and 0 <= player < len(names):
        return names[player]
    return f"player {player!r}"


def describe_event(
    game: Kingdomino, event: Event, after: KingdominoState, names: Sequence[str]
) -> str:
    """One event of a checked record as a sentence (`after` is the state it led to)."""
    kind = event.get("type")
    if kind == "line":
        dominoes = ", ".join(domino_text(n) for n in event.get("dominoes", []))
        game_part = f"game {after.game_number + 1}, " if game.setup.dynasty else ""
        heading = f"line {after.lines_drawn} of {game.setup.lines}"
        return f"New line ({game_part}{heading}): {dominoes}"
    if kind == "order":
        kings = ", ".join(_name(names, p) for p in event.get("kings", []))
        return f"The kings are drawn in this order: {kings}"
    who = _name(names, event.get("player"))
    domino = domino_text(event.get("domino"))
    if kind == "claim":
        return f"{who} claims {domino}"
    if kind == "place":
        cells = event.get("cells", [])
        where = " and ".join(f"({x}, {y})" for x, y in cells)
        return f"{who} places {domino} on {where}"
    if kind == "discard":
        return f"{who} discards {domino}: it fits nowhere in the kingdom"
    return f"{kind}: {event}"


def describe_position(game: Kingdomino, state: KingdominoState, names: Sequence[str]) -> str:
    """The kingdoms with their score pads and, before the end, the dominoes in play."""
    lines: list[str] = []
    if state.phase != OVER:
        lines.extend(_where_the_game_stands(game, state, names))
    for number, scores in enumerate(state.past_scores, start=1):
        shown = ", ".join(f"{_name(names, p)} {s}" for p, s in enumerate(scores))
        lines.append(f"Game {number} of the dynasty: {shown}")
    if game.setup.dynasty:
        lines.append(f"Kingdoms of game {state.game_number + 1}:")
    for player, kingdom in enumerate(state.kingdoms):
        pad = game.breakdown(state, player)
        if lines:
            lines.append("")
        lines.append(f"{_name(names, player)}: {pad.total} points")
        lines.extend("    " + row for row in kingdom_to_notation(game.geo, kingdom).splitlines())
        lines.append("    " + _pad_text(pad, kingdom))
    return "\n".join(lines)


def _pad_text(pad: Breakdown, kingdom: kd.Kingdom) -> str:
    text = f"territories {pad.territory_points}"
    if pad.middle_kingdom:
        text += f" + middle kingdom {pad.middle_kingdom}"
    if pad.harmony:
        text += f" + harmony {pad.harmony}"
    if pad.middle_kingdom or pad.harmony:
        text += f" = {pad.total}"
    text += f"; largest territory {pad.largest_territory}, crowns {pad.crowns}"
    if kingdom.discarded:
        text += "; discarded " + ", ".join(str(n) for n in kingdom.discarded)
    return text


def _where_the_game_stands(
    game: Kingdomino, state: KingdominoState, names: Sequence[str]
) -> list[str]:
    game_part = f"game {state.game_number + 1}, " if game.setup.dynasty else ""
    lines = [f"The game stands at {game_part}line {state.lines_drawn} of {game.setup.lines}."]
    if state.line:
        shown = []
        for number, owner in zip(state.line, state.claims, strict=False):
            by = f" (claimed by {_name(names, owner)})" if owner != UNCLAIMED else ""
            shown.append(domino_text(number) + by)
        lines.append("New line: " + ", ".join(shown))
    if state.placing and state.phase in (PLACE, CLAIM):
        waiting = state.turn + (1 if state.phase == CLAIM else 0)
        pending = [
            f"{domino_text(n)} for {_name(names, p)}"
            for n, p in zip(state.placing[waiting:], state.placers[waiting:], strict=True)
        ]
        if pending:
            lines.append("Still to place: " + ", ".join(pending))
    return lines


def position_json(game: Kingdomino, state: KingdominoState) -> dict[str, Any]:
    """The kingdoms (notation rows) and score pads of the game being played."""
    geo = game.geo
    data: dict[str, Any] = {
        "game_number": state.game_number + 1,
        "lines_drawn": state.lines_drawn,
        "kingdoms": [kingdom_to_notation(geo, k).splitlines() for k in state.kingdoms],
        "breakdown": [breakdown_json(game.breakdown(state, p)) for p in range(game.num_players)],
    }
    if state.past_scores:
        data["past_scores"] = [list(s) for s in state.past_scores]
    return data
