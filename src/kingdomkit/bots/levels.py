"""Levels for people: `easy`, `medium`, `hard` and `expert`, each a spec of a bot.

The mapping is data so that it can be calibrated by measured strength (the arena) without
touching any bot; docs/strength.md section 7 has the calibration (2-player Kingdomino: each
level beats the one below, about +400, +400 and +140 Elo). A level is registered in `BOTS`
under its name and accepts no settings.
"""

from __future__ import annotations

LEVELS: dict[str, str] = {
    "easy": "greedy-placement",
    "medium": "greedy",
    "hard": "mcts:time=0.3",
    "expert": "mcts:time=2:workers=2",
}
