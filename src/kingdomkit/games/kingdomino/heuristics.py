"""What Kingdomino tells its bots (its `heuristics` capability, kingdomkit.bots.heuristics):
a turn is a placement and its claim, the claim is the draft, and a position is worth its
score plus the best placement of every domino already claimed."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.util import find_spec

from kingdomkit.bots.grading import Grading
from kingdomkit.bots.heuristics import Plain
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES, Domino
from kingdomkit.games.kingdomino.options import Setup
from kingdomkit.games.kingdomino.rules import Kingdomino
from kingdomkit.games.kingdomino.state import CLAIM, DRAW, PLACE, KingdominoState

# The analyst of hints and reviews by player count, and its thresholds (bots/grading.py; the
# measurements are in docs/bots.md, "How sure the analyst is").
GRADINGS = {
    2: Grading("mcts:playouts=1000:confirm=128", 5.0, 10.0),
    3: Grading("mcts:playouts=1000:confirm=128", 2.0, 4.0),
    4: Grading("mcts:playouts=1000:confirm=128", 1.0, 2.0),
}

# The `expert` level at the tables where the learned bot beats the general one
# (`mcts:time=2:workers=2`) with the same time and processes, on paired deals (docs/strength.md
# section 8). It plays with numpy; without it `mcts` stays. None: the 2-player match (whose
# network ships) ended at 55.3% (49.4 to 61.1), margin +1.0 (+0.1 to +1.9), the win rate's
# interval not clear of an even match; a table goes in once a network's match has both clear.
LEARNED_EXPERT = "neural:time=2:batch=8:workers=2"
LEARNED_TABLES: tuple[Setup, ...] = ()


class KingdominoHeuristics(Plain):
    """Kingdomino's heuristics; no playouts in Python (the compiled kernel plays them)."""

    def __init__(self, game: Kingdomino) -> None:
        super().__init__(game)
        self.rules = game
        learned = game.setup in LEARNED_TABLES and find_spec("numpy") is not None
        self.own_levels: Mapping[str, str] = {"expert": LEARNED_EXPERT} if learned else {}

    def is_draft(self, state: KingdominoState) -> bool:
        """Claiming a domino of the new line is the draft (rulebook D2)."""
        return state.phase == CLAIM

    def turn_continues(self, before: KingdominoState, after: KingdominoState) -> bool:
        """A turn is: place, then claim (rulebook D1, D2)."""
        return before.phase == PLACE and after.phase == CLAIM

    def evaluate(self, state: KingdominoState, player: int) -> float:
        """The player's score, plus for each domino it has claimed and not yet placed the most
        that placing it now would add: with a greedy bot this is the usual "full greedy"."""
        kingdom = state.kingdoms[player]
        base = self.rules.kingdom_score(kingdom)
        pending = [n for n, owner in zip(state.line, state.claims, strict=False) if owner == player]
        if state.phase == PLACE or (state.phase == CLAIM and state.placers):
            first = state.turn + (1 if state.phase == CLAIM else 0)
            pending += [
                n
                for n, owner in zip(state.placing[first:], state.placers[first:], strict=True)
                if owner == player
            ]
        elif state.phase == DRAW:
            pending += [
                n for n, owner in zip(state.placing, state.placers, strict=True) if owner == player
            ]
        value = float(base)
        for number in pending:
            value += self.best_gain(kingdom, DOMINOES[number - 1], base)
        return value

    def best_gain(self, kingdom: kd.Kingdom, domino: Domino, base: int) -> int:
        """The most points placing `domino` adds to `kingdom` (0 if it must be discarded)."""
        rules = self.rules
        return kd.best_gain(rules.geo, kingdom, domino, rules.kingdom_score, base)

    def grading(self, players: int) -> Grading | None:
        return GRADINGS.get(players)

    def levels(self) -> Mapping[str, str]:
        return self.own_levels
