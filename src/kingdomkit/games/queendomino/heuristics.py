"""What Queendomino tells its bots (its `heuristics` capability, kingdomkit.bots.heuristics):
where a greedy bot's look-ahead ends, what a realm is worth now and at the end, and how far
search bots play out in Python."""

from __future__ import annotations

from functools import partial

from kingdomkit.bots.grading import Grading
from kingdomkit.bots.heuristics import Plain
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.queendomino import scoring as sc
from kingdomkit.games.queendomino.dominoes import DOMINOES
from kingdomkit.games.queendomino.rules import Queendomino
from kingdomkit.games.queendomino.state import BUILD, CLAIM, PLACE, SITE, TAX, QueendominoState

# What `forecast` adds for a search bot's leaves (guesses, to be tuned by arena runs): the
# coins one knight's tax brings, and the value over a third of a point of a coin that can
# still buy a building, full while PREMIUM_TURNS placements or more are left.
TAX_GUESS = 3.0
COIN_PREMIUM = 1.0 / 3.0
PREMIUM_TURNS = 4


# The analyst of hints and reviews by player count, and its thresholds (bots/grading.py; the
# measurements are in docs/bots.md, "How sure the analyst is"). With 2 players they were
# measured with the forecast at new positions: `depth=0` keeps it so now that the compiled
# kernel would play them out (not yet measured that way).
GRADINGS = {
    2: Grading("mcts:playouts=600:depth=0", 1.0, 2.0),
    3: Grading("mcts:playouts=60", 5.5, 11.0),
    4: Grading("mcts:playouts=60", 8.5, 17.0),
    # 5 to 8 players (Queendomino with Kingdomino): not measured, the 4-player grading
    **{players: Grading("mcts:playouts=60", 8.5, 17.0) for players in range(5, 9)},
}


class QueendominoHeuristics(Plain):
    """Queendomino's heuristics (module card)."""

    def __init__(self, game: Queendomino) -> None:
        super().__init__(game)
        self.rules = game

    def is_draft(self, state: QueendominoState) -> bool:
        """Claiming a domino of the new line is the draft (rulebook D2)."""
        return state.phase == CLAIM

    def turn_continues(self, before: QueendominoState, after: QueendominoState) -> bool:
        """A greedy bot looks ahead over a placement and its knights, or a building and its
        square; each other step is valued on its own (see `evaluate`)."""
        return after.phase in (TAX, SITE) and before.phase in (PLACE, TAX, BUILD)

    def evaluate(self, state: QueendominoState, player: int) -> float:
        """The realm's score with its coins counted at their exact worth (a third of a point
        each), plus, for each domino it has claimed and not yet placed, the most points
        placing it now would add."""
        rules = self.rules
        r = rules.realm_of[player]
        realm = state.realms[r]
        pad = rules.breakdown(state, r)
        value = pad.total - pad.wealth + realm.coins / sc.COINS_PER_POINT
        pending = [
            d
            for d, owner in zip(state.line, state.claims, strict=False)
            if owner >= 0 and rules.realm_of[owner] == r
        ]
        pending += rules.waiting(state, r)
        if pending:
            geo, kingdom = rules.geo, realm.kingdom
            base = kd.territory_score(geo, kingdom)
            score = partial(kd.territory_score, geo)
            for domino in pending:
                value += kd.best_gain(geo, kingdom, DOMINOES[domino], score, base)
        return value

    def playout_depth(self) -> int | None:
        """Search bots play greedy playouts to the end with 3 or 4 players: a 5x5 game is short
        enough for about 60 a second in Python, and they judge far better than `forecast`
        (docs/strength.md section 5); the 7x7 kingdoms of 2 players cost about five times
        more, so there the leaves are `forecast`."""
        return None if self.rules.num_players > 2 else 0

    def forecast(self, state: QueendominoState, player: int) -> float:
        """`evaluate` plus what the realm's means will still bring while it has turns left:
        each knight in its guard one tax (about TAX_GUESS coins), and every coin more than
        its third of a point, since it can still pay for buildings (module constants)."""
        value = self.evaluate(state, player)
        r = self.rules.realm_of[player]
        left = self.rules.placements_left(state, r)
        if not left:
            return value
        realm = state.realms[r]
        premium = COIN_PREMIUM * min(1.0, left / PREMIUM_TURNS)
        worth = 1.0 / sc.COINS_PER_POINT + premium
        knights = min(realm.guard, 2 * left)
        return value + realm.coins * premium + knights * TAX_GUESS * worth

    def grading(self, players: int) -> Grading | None:
        return GRADINGS.get(players)
