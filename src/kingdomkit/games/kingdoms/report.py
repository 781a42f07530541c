"""Kingdoms for people: what a board pays, line by line, and a record's events in plain words.

This module is Kingdoms' score report (kingdomkit.cli.report.ScoreReport, declared in
shape.py); the command line calls (as for Kingdomino):

    check_options(options)                refuse every option: none changes what a board pays
    score_text(text, options, files)      `kingdomkit score`: (rich renderable, JSON dict)
    describe_event(game, event, after, names)   one record event as a sentence
    describe_position(game, state, names) the board, gold, castles in hand, starting tiles
    position_json(game, state)            the same for `--json`

A board is written in the notation of notation.py, where players are letters (player 0 is A).
Spaces are named `row 2, column 5`, counted from 1, as records write them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kingdomkit.core.protocol import Event, OptionError
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.notation import (
    PLAYER_LETTERS,
    board_to_notation,
    parse_board,
    players_on,
)
from kingdomkit.games.kingdoms.options import EPOCHS
from kingdomkit.games.kingdoms.rules import Kingdoms, KingdomsState, supply_size
from kingdomkit.games.kingdoms.state import (
    DEAL,
    DRAW,
    FIRST,
    HIDDEN,
    NO_TILE,
    OVER,
    PHASE_NAMES,
    PLACE,
)
from kingdomkit.games.kingdoms.tiles import LABELS, TYPES, tile_type

NOT_FOR_SCORING = {
    "down_to_the_last_castle": "it changes the castles in hand and when the game ends, not "
    "what a board pays",
    "no_luck": "it changes how tiles are drawn, not what a board pays",
    "score_as_you_go": "it changes when a line scores, not what a full line pays",
}


class LineScore(NamedTuple):
    """One row or column as it scores: its parts between mountains, each player's gold."""

    name: str  # "row 1", "column 6"
    parts: list[bd.Part]
    gold: tuple[int, ...]


def line_scores(board: bd.Board, players: int) -> list[LineScore]:
    """Every line of `board` in the scoring order: rows top to bottom, then columns."""
    return [
        LineScore(name, bd.line_parts(board, line, players), bd.line_gold(board, line, players))
        for name, line in zip(bd.LINE_NAMES, bd.LINES, strict=True)
    ]


# -- kingdomkit score --------------------------------------------------------------------
def check_options(options: Sequence[str]) -> None:
    """Refuse every option: Kingdoms' variants change play, not what a board pays."""
    for name in options:
        if name in NOT_FOR_SCORING:
            raise OptionError(
                f"option {name!r} cannot be used to score a board: {NOT_FOR_SCORING[name]}"
            )
        raise OptionError(
            f"unknown option {name!r} for scoring a board (Kingdoms' scoring has none)"
        )


def score_text(
    text: str, options: Sequence[str], files: Mapping[str, str] | None = None
) -> tuple[RenderableType, dict[str, Any]]:
    """What the board that `text` writes (see notation.py) pays each player, as a rich table
    and as a JSON dict; raises NotationError (line, column) or OptionError. Kingdoms has no
    file options (`files`)."""
    check_options(options)
    board = parse_board(text)
    players = players_on(board)
    scores = line_scores(board, players)
    letters = PLAYER_LETTERS[:players]
    data: dict[str, Any] = {
        "game": "kingdoms",
        "options": list(dict.fromkeys(options)),
        "board": board_to_notation(board).splitlines(),
        "empty_spaces": board.count(bd.EMPTY),
        "lines": {
            score.name: [_part_json(score.name, part, letters) for part in score.parts]
            for score in scores
        },
        "players": {letter: _player_json(scores, p) for p, letter in enumerate(letters)},
    }
    return _score_table(board, scores, letters), data


def _part_json(line: str, part: bd.Part, letters: str) -> dict[str, Any]:
    places = _places(line, part)
    return {
        "from": places[0],  # columns of a row, rows of a column, from 1
        "to": places[-1],
        "base": part.base,
        "dragon": part.dragon,
        "gold_mine": part.gold_mine,
        "ranks": dict(zip(letters, part.ranks, strict=True)),
    }


def _player_json(scores: list[LineScore], player: int) -> dict[str, Any]:
    rows = sum(score.gold[player] for score in scores[: bd.ROWS])
    columns = sum(score.gold[player] for score in scores[bd.ROWS :])
    lines = {
        score.name: {
            "gold": score.gold[player],
            "parts": [{"base": part.base, "rank": part.ranks[player]} for part in score.parts],
        }
        for score in scores
    }
    return {"rows": rows, "columns": columns, "total": rows + columns, "lines": lines}


def _places(line: str, part: bd.Part) -> list[int]:
    """The columns (of a row) or rows (of a column) a part covers, from 1."""
    if line.startswith("row"):
        return [s % bd.COLUMNS + 1 for s in part.spaces]
    return [s // bd.COLUMNS + 1 for s in part.spaces]


def part_name(line: str, part: bd.Part) -> str:
    """Where a part of a line lies: `columns 1-3` of a row, `row 5` of a column."""
    along = "column" if line.startswith("row") else "row"
    places = _places(line, part)
    if len(places) == 1:
        return f"{along} {places[0]}"
    return f"{along}s {places[0]}-{places[-1]}"


def base_text(part: bd.Part) -> str:
    """`-6 (DRG, GLD)`: the base value, and the dragon and gold mine that made it."""
    notes = [label for label, on in (("DRG", part.dragon), ("GLD", part.gold_mine)) if on]
    return _signed(part.base) + (f" ({', '.join(notes)})" if notes else "")


def gold_cell(gold: int, rank: int) -> str:
    """`6: -18`: a player's total rank in a part and the gold it brings; blank without one."""
    return f"{rank}: {_signed(gold)}" if rank else ""


def _score_table(board: bd.Board, scores: list[LineScore], letters: str) -> RenderableType:
    picture = Text(board_to_notation(board))
    sheet = Table(
        title="Gold from the board (each player: total rank in the part: gold)",
        title_justify="left",
    )
    for heading in ("Line", "Part", "Base"):
        sheet.add_column(heading)
    for letter in letters:
        sheet.add_column(letter, justify="right")
    players = range(len(letters))
    for index, score in enumerate(scores):
        for number, part in enumerate(score.parts):
            cells = [gold_cell(part.base * part.ranks[p], part.ranks[p]) for p in players]
            name = score.name if number == 0 else ""
            sheet.add_row(name, part_name(score.name, part), base_text(part), *cells)
        if not score.parts:
            sheet.add_row(score.name, "mountains only", "0", *("" for _ in players))
        if index + 1 in (bd.ROWS, len(scores)):
            what = "Rows" if index + 1 == bd.ROWS else "Columns"
            lines = scores[: bd.ROWS] if what == "Rows" else scores[bd.ROWS :]
            sheet.add_section()
            sheet.add_row(what, "", "", *(str(sum(s.gold[p] for s in lines)) for p in players))
            sheet.add_section()
    totals = (Text(str(sum(s.gold[p] for s in scores)), style="bold") for p in players)
    sheet.add_row(Text("Total", style="bold"), "", "", *totals)
    notes = [Text(f"Players: {', '.join(letters)} (the letters on the board, at least two).")]
    empty = board.count(bd.EMPTY)
    if empty:
        notes.append(Text(f"{_plural(empty, 'empty space')}: each counts 0."))
    return Group(picture, Text(""), sheet, *notes)


# -- names ---------------------------------------------------------------------------------
def player_name(names: Sequence[str], player: Any) -> str:
    if isinstance(player, int) and 0 <= player < len(names):
        return names[player]
    return f"player {player!r}"


def legend(names: Sequence[str], players: int) -> str:
    """`A ann, B bob`: who each letter of the board is."""
    return ", ".join(f"{PLAYER_LETTERS[p]} {player_name(names, p)}" for p in range(players))


def tile_text(label: Any) -> str:
    """`-6 Troll`, `+4`, `Wizard`: a tile named by its notation token."""
    kind = tile_type(label) if isinstance(label, str) else None
    return kind.describe() if kind else repr(label)


def space_text(event: Event) -> str:
    return f"row {event.get('row')!r}, column {event.get('column')!r}"


def gold_text(gold: int) -> str:
    if gold > 0:
        return f"collects {gold} gold"
    return f"pays {-gold} gold" if gold else "scores nothing"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _signed(value: Any) -> str:
    return f"{value:+d}" if isinstance(value, int) and value else str(value)


# -- kingdomkit replay -------------------------------------------------------------------
def describe_event(game: Kingdoms, event: Event, after: KingdomsState, names: Sequence[str]) -> str:
    """One event of a checked record as a sentence (`after` is the state it led to; after the
    last event of an epoch, that is the next epoch's empty board)."""
    kind = event.get("type")
    if kind == "epoch":
        return _describe_epoch(game, event, after, names)
    if kind == "score":
        return _describe_score(event, names)
    if kind == "epoch_end":
        gold = event.get("gold", [])
        shown = ", ".join(f"{player_name(names, p)} {g}" for p, g in enumerate(gold))
        end = ", and the game with it" if after.phase == OVER else ""
        return f"Epoch {event.get('epoch')} ends{end}. Gold: {shown}"
    who = player_name(names, event.get("player"))
    tile = tile_text(event.get("tile"))
    if kind == "starting_tile":
        return f"{who} is dealt a starting tile, {tile}: secret, face down until played"
    if kind == "draw":
        if game.setup.no_luck:
            return f"{who} takes {tile} from the face-up tiles"
        return f"{who} draws {tile} from the supply"
    if kind == "tile":
        if event.get("from") == "starting":
            return f"{who} reveals their starting tile, {tile}, on {space_text(event)}"
        return f"{who} places {tile} on {space_text(event)}"
    if kind == "castle":
        return f"{who} places a rank-{event.get('rank')} castle on {space_text(event)}"
    if kind == "pass":
        return f"{who} passes: no castle, tile or starting tile left to play"
    return f"{kind}: {event}"


def _describe_epoch(
    game: Kingdoms, event: Event, after: KingdomsState, names: Sequence[str]
) -> str:
    epoch = event.get("epoch")
    of = "" if game.setup.down_to_the_last_castle else f" of {EPOCHS}"
    first = player_name(names, event.get("first"))
    text = f"Epoch {epoch}{of} begins; {first} plays first"
    if after.epoch == 0:
        return text + " (drawn at random)"
    most = max(after.gold)
    tied = [player_name(names, p) for p, gold in enumerate(after.gold) if gold == most]
    if len(tied) == 1:
        return text + f", with the most gold ({most})"
    return text + f", drawn among the richest ({' and '.join(tied)}, {most} gold each)"


def _describe_score(event: Event, names: Sequence[str]) -> str:
    parts = [part for part in event.get("parts", []) if isinstance(part, dict)]
    line = str(event.get("line")).capitalize()
    bases = " | ".join(_signed(part.get("base")) for part in parts)
    if len(parts) == 1:
        text = f"{line} scores, base {bases}: "
    else:
        text = f"{line} scores in {len(parts)} parts, bases {bases}: "
    paid = []
    for player, gold in enumerate(event.get("gold", [])):
        ranks = [part.get("ranks", [])[player] for part in parts]
        if any(ranks):
            shown = " | ".join(str(rank) for rank in ranks)
            rank = "rank" if len(ranks) == 1 else "ranks"
            paid.append(f"{player_name(names, player)} {gold_text(gold)} ({rank} {shown})")
    return text + (", ".join(paid) if paid else "no castle, no gold")


def hand_text(hand: Sequence[int]) -> str:
    """`2 of rank 1, 1 of rank 4`: castles in hand."""
    shown = [f"{count} of rank {rank}" for rank, count in enumerate(hand, start=1) if count]
    return ", ".join(shown) or "none"


def describe_position(game: Kingdoms, state: KingdomsState, names: Sequence[str]) -> str:
    """Where the game stands: the board in the notation, gold, castles in hand, starting tiles
    and the supply (a record holds every secret, so the starting tiles are shown)."""
    players = game.num_players
    who = [player_name(names, p) for p in range(players)]
    lines = [_stage(game, state, names), f"Board ({legend(names, players)}):"]
    lines.extend("    " + row for row in board_to_notation(state.board).splitlines())
    lines.append("Gold: " + ", ".join(f"{who[p]} {g}" for p, g in enumerate(state.gold)))
    pays = _board_pays(game, state, who)
    if pays:
        lines.append(pays)
    if state.phase != OVER:
        hands = "; ".join(f"{who[p]} {hand_text(h)}" for p, h in enumerate(state.castles))
        lines.append(f"Castles in hand: {hands}")
        if not game.setup.no_luck and state.phase != FIRST:
            starting = [f"{who[p]} {_starting_text(tile)}" for p, tile in enumerate(state.starting)]
            lines.append("Starting tiles (secret): " + ", ".join(starting))
        lines.append(_supply_text(game, state))
    return "\n".join(lines)


def _starting_text(tile: int) -> str:
    if tile == NO_TILE:
        return "none"
    return "hidden" if tile == HIDDEN else TYPES[tile].describe()


def _stage(game: Kingdoms, state: KingdomsState, names: Sequence[str]) -> str:
    epoch = state.epoch + 1
    of = "" if game.setup.down_to_the_last_castle else f" of {EPOCHS}"
    if state.phase == OVER:
        return f"The game is over after epoch {epoch}."
    turn = player_name(names, state.turn)
    taken = "taken" if game.setup.no_luck else "drawn"
    doing = {
        FIRST: "who plays first is being drawn",
        DEAL: "the starting tiles are being dealt",
        DRAW: f"{turn} is drawing a tile",
        PLACE: f"{turn} places the tile just {taken}: {_starting_text(state.held)}",
    }.get(state.phase, f"{turn} to play")
    return f"The game stands at epoch {epoch}{of}: {doing}."


def _board_pays(game: Kingdoms, state: KingdomsState, who: Sequence[str]) -> str:
    """What the board pays: at the end, what the last board paid; before it, what the lines
    not scored yet would pay if the epoch ended now (empty spaces count 0)."""
    over = state.phase == OVER
    if all(square == bd.EMPTY for square in state.board) or (over and game.setup.score_as_you_go):
        # Score as You Go: a line paid when it was filled, before the wizard may have come.
        return ""
    gold = [0] * game.num_players
    for line, score in enumerate(line_scores(state.board, game.num_players)):
        if over or not state.scored >> line & 1:
            gold = [g + d for g, d in zip(gold, score.gold, strict=True)]
    names = ", ".join(f"{who[p]} {_signed(g)}" for p, g in enumerate(gold))
    if over:
        return f"The last board paid: {names}"
    return f"Lines not scored yet, if the epoch ended now: {names}"


def _supply_text(game: Kingdoms, state: KingdomsState) -> str:
    if game.setup.no_luck:
        face_up = [
            f"{LABELS[t]}" + (f" x{n}" if n > 1 else "") for t, n in enumerate(state.supply) if n
        ]
        return "Face-up tiles: " + (", ".join(face_up) or "none")
    return f"Supply: {_plural(supply_size(state), 'tile')} face down"


def position_json(game: Kingdoms, state: KingdomsState) -> dict[str, Any]:
    """The board (notation rows), gold, castles in hand, starting tiles and supply."""
    data: dict[str, Any] = {
        "epoch": state.epoch + 1,
        "phase": PHASE_NAMES[state.phase],
        "board": board_to_notation(state.board).splitlines(),
        "gold": list(state.gold),
        "castles": [list(hand) for hand in state.castles],
        "starting": [LABELS[t] if t >= 0 else None for t in state.starting],
        "held": LABELS[state.held] if state.held >= 0 else None,
        "supply": supply_size(state),
        "scored": [bd.LINE_NAMES[i] for i in range(len(bd.LINES)) if state.scored >> i & 1],
    }
    return data
