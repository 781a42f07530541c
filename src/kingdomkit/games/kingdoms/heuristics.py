"""What Kingdoms tells its bots (its `heuristics` capability, kingdomkit.bots.heuristics):
a position is worth the gold and what the open lines would pay, now or, for a search's
leaves, once the unseen tiles arrive. A turn is one action, so `Plain`'s end of turn holds."""

from __future__ import annotations

from collections.abc import Mapping

from kingdomkit.bots.grading import Grading
from kingdomkit.bots.heuristics import Plain
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.board import IS_RESOURCE, TILE_VALUES
from kingdomkit.games.kingdoms.rules import Kingdoms
from kingdomkit.games.kingdoms.state import KingdomsState

# The analyst of hints and reviews by player count, and its thresholds (bots/grading.py; the
# measurements are in docs/bots.md, "How sure the analyst is"). `depth=0` values new positions
# by the forecast even with the compiled kernel: its whole playouts measured four to nine times
# noisier for the same search (a loss p99 of 16.9 gold instead of 3.3 with 2 players).
ANALYST = "mcts:playouts=400:confirm=128:depth=0"
GRADINGS = {
    2: Grading(ANALYST, 3.5, 7.0),
    3: Grading(ANALYST, 4.5, 9.0),
    4: Grading(ANALYST, 1.0, 2.0),
}
# The easy level here (bots/levels.py): Kingdoms has no draft, so the general `easy`
# (greedy-placement) is the greedy bot itself; a greedy bot playing at random half the time
# loses 88% of its games to it (docs/strength.md, "Levels").
LEVELS = {"easy": "greedy:epsilon=0.5"}


class KingdomsHeuristics(Plain):
    """Kingdoms' heuristics (module card); no playouts in Python (about 100 ms each)."""

    def __init__(self, game: Kingdoms) -> None:
        super().__init__(game)
        self.players = game.num_players

    def evaluate(self, state: KingdomsState, player: int) -> float:
        """The player's gold plus what the lines not yet scored would pay them if the epoch
        ended now (empty spaces count 0): what a greedy bot maximises."""
        value = state.gold[player]
        for line, spaces in enumerate(bd.LINES):
            if not state.scored >> line & 1:
                value += bd.line_gold(state.board, spaces, self.players)[player]
        return float(value)

    def levels(self) -> Mapping[str, str]:
        return LEVELS

    def forecast(self, state: KingdomsState, player: int) -> float:
        """`evaluate` with each empty space of a line not yet scored worth the mean value of
        the tiles the player has not seen (resources and hazards apart, for the dragon):
        a castle in a line with room is worth something before the tiles arrive."""
        unseen = sum(state.supply)
        if not unseen:
            return self.evaluate(state, player)
        resource = hazard = 0
        for count, value, is_resource in zip(state.supply, TILE_VALUES, IS_RESOURCE, strict=True):
            if is_resource:
                resource += count * value
            else:
                hazard += count * value
        gold = float(state.gold[player])
        players = self.players
        for line, spaces in enumerate(bd.LINES):
            if not state.scored >> line & 1:
                expected = bd.expected_line_gold(
                    state.board, spaces, players, resource / unseen, hazard / unseen
                )
                gold += expected[player]
        return gold

    def grading(self, players: int) -> Grading | None:
        return GRADINGS.get(players)
