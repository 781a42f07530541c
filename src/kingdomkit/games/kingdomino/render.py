"""Plain-text pictures of a Kingdomino position (the terminal UI draws its own in colour)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.games.kingdomino.dominoes import DOMINOES
from kingdomkit.games.kingdomino.notation import kingdom_to_notation

if TYPE_CHECKING:
    from kingdomkit.games.kingdomino.rules import Kingdomino, KingdominoState


def render_text(game: Kingdomino, state: KingdominoState) -> str:
    from kingdomkit.games.kingdomino.rules import PHASE_NAMES

    lines = [f"game {state.game_number + 1}, {PHASE_NAMES[state.phase]}, line {state.lines_drawn}"]
    if state.line:
        shown = []
        for number, owner in zip(state.line, state.claims, strict=False):
            tag = f"@{owner}" if owner >= 0 else ""
            shown.append(f"{number}[{DOMINOES[number - 1].describe()}]{tag}")
        lines.append("new line: " + " ".join(shown))
    if state.placing:
        shown = [f"{n}@{p}" for n, p in zip(state.placing, state.placers, strict=True)]
        lines.append("to place: " + " ".join(shown))
    for player, kingdom in enumerate(state.kingdoms):
        lines.append(f"player {player}:")
        lines.extend("  " + row for row in kingdom_to_notation(game.geo, kingdom).splitlines())
    return "\n".join(lines)
