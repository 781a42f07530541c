"""Plain-text pictures of a Queendomino position (the terminal UI draws its own in colour)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdomkit.games.queendomino.codec import domino_label
from kingdomkit.games.queendomino.dominoes import DOMINOES, describe
from kingdomkit.games.queendomino.state import EMPTY, PHASE_NAMES

if TYPE_CHECKING:
    from kingdomkit.games.queendomino.rules import Queendomino, QueendominoState


def render_text(game: Queendomino, state: QueendominoState) -> str:
    from kingdomkit.games.queendomino.notation import realm_to_notation

    lines = [f"{PHASE_NAMES[state.phase]}, line {state.lines_drawn} of {game.setup.lines}"]
    board = [
        f"{price}:{game.table[b].tile}" if b != EMPTY else f"{price}:-"
        for price, b in enumerate(state.board)
    ]
    dragon = "in its cave" if state.dragon_ready else "used"
    lines.append(f"builders' board {' '.join(board)} (dragon {dragon})")
    if state.line:
        shown = []
        for domino, owner in zip(state.line, state.claims, strict=False):
            tag = f"@{owner}" if owner >= 0 else ""
            shown.append(f"{domino_label(game, domino)}[{describe(DOMINOES[domino])}]{tag}")
        lines.append("new line: " + " ".join(shown))
    if state.placing:
        shown = [
            f"{domino_label(game, d)}@{p}"
            for d, p in zip(state.placing, state.placers, strict=True)
        ]
        lines.append("to place: " + " ".join(shown))
    for r, realm in enumerate(state.realms):
        lines.append(f"realm {r}:")
        text = realm_to_notation(game.geo, game.table, realm, state.queen == r)
        lines.extend("  " + row for row in text.splitlines())
    return "\n".join(lines)
