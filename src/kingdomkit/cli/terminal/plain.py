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
    count,
    in_colour,
    log_panel,
    right,
    score_pad,
    winners_line,
    your_turn,
)
from kingdomkit.core.protocol import Game, check_move_length


class PlainTerminal:
    """A `Terminal` for any game, in its notation (see the module card)."""

    def draw(
        self,
        console: Console,
        game: Game[Any],
        state: Any,
        seat: int,
        names: Sequence[str],
        log: Sequence[str],
    ) -> None:
        console.print(game.render(state, seat), markup=False, highlight=False)
        console.print(log_panel(log))
        if game.current_player(state) == seat:
            moves = count(len(game.legal_actions(state)), "legal move")
            line = your_turn().append(f"type a move in the game's notation ({moves}). ")
            console.print(line.append(MOVES_HINT))

    def prompt(self, game: Game[Any], state: Any) -> str:
        return "move > "

    def parse(self, game: Game[Any], state: Any, text: str) -> int:
        check_move_length(text)
        return game.parse_action(state, text.strip())

    def moves_help(self, game: Game[Any], state: Any) -> list[str]:
        return [game.action_to_string(state, action) for action in game.legal_actions(state)]

    def help_text(self, game: Game[Any], state: Any) -> str:
        return (
            f"Moves are typed in {game.name}'s notation, exactly as ? lists them "
            f"(for instance: {self.moves_help(game, state)[0]})."
            if game.legal_actions(state)
            else f"Moves are typed in {game.name}'s notation, as ? lists them."
        )

    def forced(self, game: Game[Any], state: Any, names: Sequence[str]) -> str | None:
        legal = game.legal_actions(state)
        if len(legal) != 1:
            return None
        return f"Your only move: {game.action_to_string(state, legal[0])}."

    def describe(
        self,
        game: Game[Any],
        before: Any,
        action: int,
        after: Any,
        names: Sequence[str],
        seat: int | None = None,
    ) -> str | None:
        if game.is_chance(before):
            return None
        return f"played {game.action_to_string(before, action)}"

    def interlude(
        self,
        console: Console,
        game: Game[Any],
        before: Any,
        action: int,
        after: Any,
        names: Sequence[str],
    ) -> bool:
        return False

    def final(self, console: Console, game: Game[Any], state: Any, names: Sequence[str]) -> None:
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
