"""Every game under every option set: the configurations the conformance checks and the view
model tests run through."""

from __future__ import annotations

from typing import Any

from kingdoms_oracle import MODES as KINGDOMS_MODES
from queendomino_oracle import MODES as QUEENDOMINO_MODES

# Each game's option sets: every player count and every option, alone and combined.
CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("kingdomino", {"players": 2}),
    ("kingdomino", {"players": 3}),
    ("kingdomino", {"players": 4}),
    ("kingdomino", {"players": 3, "draw_four": True}),
    ("kingdomino", {"players": 2, "mighty_duel": True}),
    ("kingdomino", {"players": 4, "middle_kingdom": True, "harmony": True}),
    ("kingdomino", {"players": 2, "mighty_duel": True, "middle_kingdom": True, "harmony": True}),
    ("kingdomino", {"players": 3, "draw_four": True, "harmony": True, "middle_kingdom": True}),
    ("kingdomino", {"players": 2, "dynasty": True}),
    ("kingdomino", {"players": 4, "dynasty": True, "harmony": True}),
    *(("queendomino", options) for options in QUEENDOMINO_MODES),
    *(("kingdoms", options) for options in KINGDOMS_MODES),
]
