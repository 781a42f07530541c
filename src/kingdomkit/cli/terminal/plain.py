"""The plain text terminal: `kingdomkit play` for a game that declares no terminal interface.

It knows only the rules protocol: the table is `game.render(state, seat)` (the person's view),
the moves are listed with `action_to_string` and read with `parse_action`, the engine's own
notation. The log tells the players' moves in that notation and no chance outcome (a draw may
be another player's secret: the picture shows what the person may see of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Column
from rich.text import Text

from kingdomkit.cli.terminal.kit import (
    MOVES_HINT,
    GameTerminal,
    Screen,
    Seen,
    count,
    in_colour,
    log_panel,
    right,
    score_pad,
    winners_line,
    your_turn,
)
from kingdomkit.core.protocol import Game


class PlainTerminal(GameTerminal[Game[Any], object]):
    """A `Terminal` for any game, in its notation (see the module card)."""

    game_type = Game
    state_type = object

    def screen(self, seen: Seen[Game[Any], object]) -> Screen:
        game, state = seen.game, seen.state
        log = log_panel(seen.log)
        headline = None
        if game.current_player(state) == seen.seat:
            moves = count(len(game.legal_actions(state)), "legal move")
            headline = your_turn().append(f"type a move in the game's notation ({moves}). ")
            headline.append(MOVES_HINT)
        picture = Text(game.render(state, seen.seat))
        return Screen(status=picture, row=[log], under=[], narrow=[log], headline=headline)

    def prompt(self, game: Game[Any], state: Any) -> str:
        return "move > "

    def read(self, game: Game[Any], state: object, words: str, text: str) -> int:
        return game.parse_action(state, text.strip())

    def move_text(self, game: Game[Any], state: object, action: int) -> str:
        return game.action_to_string(state, action)

    def help_text(self, game: Game[Any], state: Any) -> str:
        legal = game.legal_actions(state)
        example = f" (for instance: {game.action_to_string(state, legal[0])})" if legal else ""
        return f"Moves are typed in {game.name}'s notation, exactly as ? lists them{example}."

    def forced_move(
        self, game: Game[Any], state: object, action: int, names: Sequence[str]
    ) -> str | None:
        return f"Your only move: {game.action_to_string(state, action)}."

    def entry(
        self,
        game: Game[Any],
        before: object,
        action: int,
        after: object,
        names: Sequence[str],
        seat: int | None,
    ) -> str | None:
        if game.is_chance(before):
            return None
        return f"played {game.action_to_string(before, action)}"

    def ending(
        self, console: Console, game: Game[Any], state: object, names: Sequence[str]
    ) -> None:
        scores = game.scores(state)
        rows: list[list[RenderableType]] = [
            [Text(name), _number(score)] for name, score in zip(names, scores, strict=True)
        ]
        columns: list[Column | str] = ["player", right(game.score_unit)]
        console.print(score_pad("Scores", columns, [rows]))
        winners = game.winners(state)
        heading = "Winner" if len(winners) == 1 else "Winners, sharing the victory"
        named = [in_colour(names[player], player) for player in winners]
        tail = f", {_number(scores[winners[0]])} {game.score_unit}"
        console.print(winners_line(heading, named, tail))


def _number(score: float) -> str:
    """A score as people write it: 42, or 42.5."""
    return str(int(score)) if float(score).is_integer() else str(score)
