"""Kingdomino's rules, one by one: hand-made positions in the text notation, and game flow
through the protocol. Each test names the rule text it checks; docs/rules-notes.md lists the
choices made where the texts are unclear (Middle Kingdom with an empty edge row, harmony, the
tie of a dynasty)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from kingdomkit.core.protocol import CHANCE, TERMINAL, IllegalActionError, OptionError
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES
from kingdomkit.games.kingdomino.geometry import geometry
from kingdomkit.games.kingdomino.notation import parse_kingdom
from kingdomkit.games.kingdomino.rules import (
    CLAIM,
    DRAW,
    ORDER,
    OVER,
    PLACE,
    Kingdomino,
    KingdominoState,
    king_orders,
)
from positions import FOREST_WITH_A_GAP

XY = tuple[int, int]
Placement = tuple[XY, XY]


# -- helpers ----------------------------------------------------------------------------------
def kingdom(text: str, size: int = 5) -> kd.Kingdom:
    return parse_kingdom(text, geometry(size))


def placements(text: str, number: int, size: int = 5) -> set[Placement]:
    """Where domino `number` may go in the kingdom `text`, as (square 1, square 2) cells."""
    geo = geometry(size)
    found = set()
    for code in kd.legal_placements(geo, kingdom(text, size), DOMINOES[number - 1]):
        cell1, cell2 = kd.decode_placement(geo, code)
        found.add((geo.xy(cell1), geo.xy(cell2)))
    return found


def both_ways(found: set[Placement]) -> set[Placement]:
    """A set of placements closed under turning the domino round (for like squares)."""
    return found | {(second, first) for first, second in found}


def placing_state(game: Kingdomino, number: int, text: str) -> KingdominoState:
    """A real game position in which player 0 must place domino `number` into the kingdom
    `text`: `number` is the lowest domino of the first line, player 0 claims it first, and
    the second line has been drawn (rulebook "Playing the game": lowest domino acts first)."""
    size = game.setup.line_size
    first_line = [number, *[n for n in range(1, 49) if n > number][: size - 1]]
    assert len(first_line) == size
    state = game.initial_state()
    for n in first_line:
        state = game.apply(state, n - 1)
    assert state.phase == ORDER
    state = game.apply(state, 0)  # orders are sorted, so the first starts with player 0
    assert game.current_player(state) == 0
    state = game.apply(state, 0)  # player 0 claims slot 0, the lowest domino
    while state.phase == CLAIM:
        state = game.apply(state, game.legal_actions(state)[0])
    while state.phase == DRAW:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    assert state.phase == PLACE
    assert game.current_player(state) == 0
    assert game.acting_domino(state).number == number
    kingdoms = (kingdom(text, game.setup.size), *state.kingdoms[1:])
    return state._replace(kingdoms=kingdoms)


def over_state(game: Kingdomino, *texts: str) -> KingdominoState:
    """A finished game whose kingdoms are `texts`."""
    kingdoms = tuple(kingdom(text, game.setup.size) for text in texts)
    assert len(kingdoms) == game.num_players
    return game.initial_state()._replace(phase=OVER, kingdoms=kingdoms)


# -- connection rules -------------------------------------------------------------------------
def test_a_lone_castle_takes_any_domino_on_any_side() -> None:
    """The castle is wild (rulebook, "Connection rules"): 12 ways to touch it, each both ways
    round for a domino with two different squares, once for one with two like squares."""
    touching = {
        ((1, 0), (2, 0)), ((1, 0), (1, 1)), ((1, 0), (1, -1)),
        ((-1, 0), (-2, 0)), ((-1, 0), (-1, 1)), ((-1, 0), (-1, -1)),
        ((0, 1), (0, 2)), ((0, 1), (1, 1)), ((0, 1), (-1, 1)),
        ((0, -1), (0, -2)), ((0, -1), (1, -1)), ((0, -1), (-1, -1)),
    }  # fmt: skip
    assert placements("C", 13) == both_ways(touching)  # W|F
    assert placements("C", 48) == both_ways(touching)  # W|M3
    like = placements("C", 1)  # W|W: offered facing right or down only
    assert len(like) == 12
    assert both_ways(like) == both_ways(touching)


KINGDOM_FWW = """
C F W W
"""


def test_a_square_touching_its_own_terrain_connects() -> None:
    # Domino 1 (W|W) below the wheat at (3, 0), away from the castle.
    assert ((3, 1), (4, 1)) in placements(KINGDOM_FWW, 1)
    # Domino 13 (W|F): the wheat square must be the one that touches the wheat.
    assert ((3, 1), (4, 1)) in placements(KINGDOM_FWW, 13)  # W on (3, 1), under W
    assert ((4, 1), (3, 1)) not in placements(KINGDOM_FWW, 13)  # F on (3, 1), under W
    # Above the forest at (1, 0): only with the forest square next to it.
    assert ((1, -2), (1, -1)) in placements(KINGDOM_FWW, 13)  # F on (1, -1)
    assert ((1, -1), (1, -2)) not in placements(KINGDOM_FWW, 13)  # W on (1, -1)


def test_touching_only_other_terrains_is_illegal() -> None:
    # Domino 10 (G|G) under the wheat and forest: no grassland anywhere, not at the castle.
    legal = placements(KINGDOM_FWW, 10)
    assert ((2, 1), (3, 1)) not in legal
    assert ((3, 1), (3, 2)) not in legal
    assert ((4, 0), (4, 1)) not in legal
    # Every legal grassland placement touches the castle.
    castle_sides = {(1, 0), (-1, 0), (0, 1), (0, -1)}
    assert legal
    assert all({first, second} & castle_sides for first, second in legal)
    # Diagonal contact is not a connection.
    assert ((1, 1), (1, 2)) not in placements("C", 10)


def test_occupied_cells_and_the_castle_are_never_offered() -> None:
    text = """
    W  W  F
    C  L  L1
    """
    taken = {(0, -1), (1, -1), (2, -1), (0, 0), (1, 0), (2, 0)}
    for number in range(1, 49):
        for first, second in placements(text, number):
            assert first not in taken and second not in taken


def test_the_kingdom_must_fit_in_five_by_five() -> None:
    row = "C W W W W"  # x from 0 to 4: already 5 wide
    legal = placements(row, 1)
    assert ((3, 1), (4, 1)) in legal
    assert ((4, 1), (5, 1)) not in legal  # 6 wide
    assert ((5, 0), (5, 1)) not in legal
    assert ((0, 1), (0, 2)) in legal  # the castle may end up anywhere, here on an edge
    assert ((-1, 0), (-1, 1)) not in placements(row, 13)  # left of the castle: 6 wide
    assert ((0, 1), (0, 2)) in placements(row, 13)
    assert all(-1 < x < 5 for cells in legal for x, _ in cells)
    column = "W\nW\nW\nC"  # y from -3 to 0: 4 tall, one row left
    legal = placements(column, 1)
    assert ((0, 1), (1, 1)) in legal
    assert ((0, 1), (0, 2)) not in legal  # 6 tall


def test_the_mighty_duel_kingdom_must_fit_in_seven_by_seven() -> None:
    row = "C W W W W W"
    assert ((5, 1), (6, 1)) in placements(row, 1, size=7)
    assert ((6, 0), (6, 1)) in placements(row, 1, size=7)
    assert ((6, 1), (7, 1)) not in placements(row, 1, size=7)
    assert ((-1, 0), (-1, 1)) in placements(row, 13, size=7)
    assert ((-1, 0), (-2, 0)) not in placements(row, 13, size=7)  # 8 wide


def test_a_domino_that_fits_nowhere_must_be_discarded() -> None:
    """Rulebook: "If you can't add a domino to your kingdom following these rules, the domino
    must be discarded"; here the only room is three cells that touch forest only."""
    game = Kingdomino({"players": 4})
    state = placing_state(game, 1, FOREST_WITH_A_GAP)  # W|W
    assert game.legal_actions(state) == (game.discard_action,)
    assert game.parse_action(state, "discard") == game.discard_action
    assert game.parse_action(state, "discard 1") == game.discard_action
    after = game.apply(state, game.discard_action)
    assert after.kingdoms[0].discarded == (1,)
    assert after.kingdoms[0].occupied == state.kingdoms[0].occupied
    assert after.phase == CLAIM and game.current_player(after) == 0  # D2 still follows
    # A full kingdom takes nothing either (one gap is too small for a domino).
    full = FOREST_WITH_A_GAP.replace(". . . F F", "F F F F .")
    state = placing_state(game, 3, full)  # F|F
    assert game.legal_actions(state) == (game.discard_action,)


def test_a_domino_that_fits_may_not_be_discarded() -> None:
    """Online text: "A player may not elect to discard a domino if they have a legal
    placement"."""
    game = Kingdomino({"players": 4})
    state = placing_state(game, 17, FOREST_WITH_A_GAP)  # L|F: its forest touches forest
    legal = game.legal_actions(state)
    assert game.discard_action not in legal
    assert {game.placement_cells(a) for a in legal} == both_ways(
        {((-2, 2), (-1, 2)), ((-1, 2), (0, 2))}
    )
    with pytest.raises(IllegalActionError, match="may not be discarded"):
        game.parse_action(state, "discard")
    with pytest.raises(IllegalActionError):
        game.apply_checked(state, game.discard_action)


def test_checked_placements_say_what_is_wrong() -> None:
    game = Kingdomino({"players": 4})
    state = placing_state(game, 13, KINGDOM_FWW)
    with pytest.raises(IllegalActionError, match="taken"):
        game.parse_action(state, "place 13 2,0 2,1")
    with pytest.raises(IllegalActionError, match="taken"):
        game.parse_action(state, "place 13 0,1 0,0")
    with pytest.raises(IllegalActionError, match="connection"):
        game.parse_action(state, "place 13 4,1 3,1")
    with pytest.raises(IllegalActionError, match="fit"):
        game.parse_action(state, "place 13 -1,0 -2,0")
    with pytest.raises(IllegalActionError, match="side by side"):
        game.parse_action(state, "place 13 1,1 3,1")
    with pytest.raises(IllegalActionError, match="side by side"):
        game.parse_action(state, "place 13 3,1 4,2")
    with pytest.raises(IllegalActionError, match="from the castle"):
        game.parse_action(state, "place 13 9,1 9,2")
    with pytest.raises(IllegalActionError, match="the domino to place is 13"):
        game.parse_action(state, "place 14 3,1 4,1")
    action = game.parse_action(state, "place 13 3,1 4,1")
    assert game.placement_cells(action) == ((3, 1), (4, 1))
    after = game.apply(state, action)
    assert after.kingdoms[0].placed[-1][0] == 13


# -- scoring ----------------------------------------------------------------------------------
def score(text: str, size: int = 5) -> int:
    return kd.territory_score(geometry(size), kingdom(text, size))


def test_the_online_texts_scoring_examples() -> None:
    """Online text, "objective": grassland of 3 squares with 2 crowns is worth 6; wheat of 6
    squares without a crown is worth nothing."""
    assert score("C G2 G G") == 6
    assert score("C G1 G G1") == 6
    assert score("C W W W\n. W W W") == 0


SCORED_KINGDOM = """
# wheat 3x1 = 3, forest 4x1 = 4, lake 3x2 = 6, grassland 6x3 = 18,
# swamp 3x1 = 3, mine 3x5 = 15, wheat 2x0 = 0: 49 in all
W  W1 F  F1 F
W  L  L2 F  G
C  L  S  S1 G2
M2 M  S  G  G
M3 W  W  G  G1
"""


def test_a_full_kingdom_scored_by_hand() -> None:
    game = Kingdomino({"players": 2})
    pad = game.kingdom_breakdown(kingdom(SCORED_KINGDOM))
    assert pad.territory_points == 49
    assert pad.total == 49  # no bonus without the options
    assert pad.largest_territory == 6
    assert pad.crowns == 13
    by_points = sorted((t.terrain, t.size, t.crowns, t.points) for t in pad.territories)
    wheat, forest, lake, grassland, swamp, mine = range(6)
    assert by_points == sorted(
        [
            (wheat, 3, 1, 3),
            (wheat, 2, 0, 0),
            (forest, 4, 1, 4),
            (lake, 3, 2, 6),
            (grassland, 6, 3, 18),
            (swamp, 3, 1, 3),
            (mine, 3, 5, 15),
        ]
    )
    assert score(SCORED_KINGDOM) == 49


def test_territories_of_one_terrain_score_separately() -> None:
    """Rulebook: "You can have multiple properties with the same type of landscape"."""
    assert score("F1 F C F F1") == 2 + 2  # not 4 squares x 2 crowns
    assert score("F1 F . F F1\n. . C . .") == 4
    assert score("F1 F F F F1\n. . C . .") == 10  # joined: 5 squares x 2 crowns
    assert score("W1 C W") == 1  # the castle joins nothing


def test_a_territory_without_crowns_scores_nothing() -> None:
    assert score("C W W W W\nW W W W W\nW W W W W\nW W W W W\nW W W W W") == 0
    assert score("C M3") == 3
    assert score("C\nM2\nM1\nM") == 3 * 3


# -- bonuses ----------------------------------------------------------------------------------
CENTRED = """
W  W  W  W  W
W  W  W  W  W
W  W  C  W1 W
W  W  W  W  W
W  W  W  W  W
"""

OFF_CENTRE = """
W  W  W  W  W
W  W  W  W  W
W  W  W  C  W1
W  W  W  W  W
W  W  W  W  W
"""

# 5 wide, 4 tall: a 5x5 frame with the castle at its centre holds it all (the empty row is
# below). The engine counts the bonus (docs/rules-notes.md, Middle Kingdom).
CENTRED_WITH_AN_EMPTY_ROW = """
W  W  W  W  W
W  W  C  W1 W
W  W  W  W  W
W  W  W  W  W
"""

# 5 wide, 4 tall, castle on the top row: no 5x5 frame centres it.
NOT_CENTRABLE = """
W  W  C  W1 W
W  W  W  W  W
W  W  W  W  W
W  W  W  W  W
"""


def middle(text: str, size: int = 5) -> int:
    options = {"players": 2, "middle_kingdom": True, "mighty_duel": size == 7}
    return Kingdomino(options).kingdom_breakdown(kingdom(text, size)).middle_kingdom


def test_middle_kingdom_gives_ten_with_the_castle_centred() -> None:
    assert middle(CENTRED) == 10
    assert middle(OFF_CENTRE) == 0
    game = Kingdomino({"players": 2, "middle_kingdom": True})
    assert game.kingdom_breakdown(kingdom(CENTRED)).total == 24 + 10
    assert game.kingdom_breakdown(kingdom(OFF_CENTRE)).total == 24


def test_middle_kingdom_off_unless_the_option_is_on() -> None:
    game = Kingdomino({"players": 2})
    assert game.kingdom_breakdown(kingdom(CENTRED)).middle_kingdom == 0
    assert game.kingdom_score(kingdom(CENTRED)) == 24


def test_middle_kingdom_with_an_empty_edge_row() -> None:
    """The engine's choice: the bonus when some 5x5 frame holding every square has the castle
    at its centre ("Gaps in the kingdom are permitted", online text)."""
    assert middle(CENTRED_WITH_AN_EMPTY_ROW) == 10
    assert middle(NOT_CENTRABLE) == 0
    # 4 wide with the castle 2 from one side, 1 from the other: bonus; 3 from a side: none.
    assert middle("W W C W") == 10
    assert middle("W W W C") == 0
    assert middle("C") == 10  # nothing placed yet: the castle is the whole kingdom


def test_middle_kingdom_in_seven_by_seven() -> None:
    row = "W W W C W W W1"
    assert middle(row, size=7) == 10
    assert middle("W W C W W W W1", size=7) == 0
    assert middle("W\nW\nW\nC\nW\nW\nW", size=7) == 10
    assert middle("W\nC\nW\nW\nW", size=7) == 10  # 1 above, 3 below: fits a centred 7x7
    assert middle("C\nW\nW\nW\nW", size=7) == 0


def test_harmony_gives_five_only_without_a_discard() -> None:
    game = Kingdomino({"players": 2, "harmony": True})
    whole = kingdom(CENTRED)
    assert game.kingdom_breakdown(whole).harmony == 5
    assert game.kingdom_score(whole) == 24 + 5
    gappy = whole._replace(discarded=(12,))
    assert game.kingdom_breakdown(gappy).harmony == 0
    assert game.kingdom_score(gappy) == 24
    assert Kingdomino({"players": 2}).kingdom_breakdown(whole).harmony == 0


def test_harmony_counts_discards_not_gaps_during_a_game() -> None:
    """The engine's choice: harmony is "no domino discarded"; mid-game a kingdom with room
    left but no discard already counts it (at the end the two readings agree, which the
    oracle tests check on every random game)."""
    game = Kingdomino({"players": 2, "harmony": True})
    assert game.kingdom_breakdown(kingdom("C W1")).harmony == 5
    assert game.kingdom_breakdown(kingdom("C W1"), harmony=False).harmony == 0


def test_middle_kingdom_and_harmony_together() -> None:
    game = Kingdomino({"players": 2, "harmony": True, "middle_kingdom": True})
    pad = game.kingdom_breakdown(kingdom(CENTRED))
    assert (pad.territory_points, pad.middle_kingdom, pad.harmony, pad.total) == (24, 10, 5, 39)
    duel = Kingdomino({"players": 2, "mighty_duel": True, "harmony": True, "middle_kingdom": True})
    seven = "\n".join(["W " * 7] * 3 + ["W W W C W W W1"] + ["W " * 7] * 3)
    pad = duel.kingdom_breakdown(kingdom(seven, size=7))
    assert (pad.territory_points, pad.middle_kingdom, pad.harmony, pad.total) == (48, 10, 5, 63)


# -- winners ----------------------------------------------------------------------------------
def test_the_highest_score_wins_whatever_the_territories() -> None:
    game = Kingdomino({"players": 2})
    state = over_state(game, "C G2 G . .\nF F F F F", "C W2 W W")
    assert game.scores(state) == (4.0, 6.0)
    assert game.breakdown(state, 0).largest_territory == 5
    assert game.winners(state) == (1,)
    assert game.decision(state) == ((1,), "score")
    assert game.returns(state) == (0.0, 1.0)


def test_a_tied_score_goes_to_the_largest_territory() -> None:
    """Rulebook: "the player with the most extended property (whether he owns any crowns or
    not) wins"; here the crownless forest is the largest territory."""
    game = Kingdomino({"players": 2})
    state = over_state(game, "C W1 W W .\nF F F F .", "C W1 W W")
    assert game.scores(state) == (3.0, 3.0)
    assert game.winners(state) == (0,)
    assert game.decision(state) == ((0,), "largest_territory")


def test_then_the_most_crowns() -> None:
    game = Kingdomino({"players": 3})
    state = over_state(game, "C G1 G1 G", "C W1 W W\nL1 F1 S1 .", "C W1 W W\nF F F .")
    assert game.scores(state) == (6.0, 6.0, 3.0)
    pads = [game.breakdown(state, p) for p in range(3)]
    assert [p.largest_territory for p in pads] == [3, 3, 3]
    assert [p.crowns for p in pads] == [2, 4, 1]
    assert game.winners(state) == (1,)
    assert game.decision(state) == ((1,), "crowns")


def test_then_the_victory_is_shared() -> None:
    game = Kingdomino({"players": 4})
    same = "C G1 G1 G"
    state = over_state(game, same, "G1 G G1 C", "C W1 W W", same)
    assert game.winners(state) == (0, 1, 3)
    assert game.decision(state) == ((0, 1, 3), "shared")
    assert game.returns(state) == pytest.approx((1 / 3, 1 / 3, 0.0, 1 / 3))


def test_ties_are_broken_on_the_score_with_bonuses() -> None:
    """Player 0 has 2 points + 10 (centred), player 1 has 12 points off-centre: a tie, which
    player 0's larger forest wins. Without the bonus in the score player 1 would win."""
    game = Kingdomino({"players": 2, "middle_kingdom": True})
    state = over_state(game, "F F F F F\nW W C W1 W", "C L1 L L L\nM2 M M M .")
    assert game.scores(state) == (12.0, 12.0)
    assert [game.breakdown(state, p).largest_territory for p in (0, 1)] == [5, 4]
    assert game.winners(state) == (0,)


def test_a_dynasty_is_decided_by_the_totals_alone() -> None:
    """The engine's choice: the rulebook gives no tie-break for a dynasty's totals."""
    game = Kingdomino({"players": 2, "dynasty": True})
    state = over_state(game, "C W1 W W", "C W1 W W .\nF F F F .")._replace(
        game_number=2, past_scores=((10, 4), (0, 6))
    )
    assert game.scores(state) == (13.0, 13.0)
    assert game.winners(state) == (0, 1)
    assert game.decision(state) == ((0, 1), "shared")
    state = state._replace(past_scores=((10, 4), (1, 6)))
    assert game.winners(state) == (0,)


# -- game flow through the protocol -----------------------------------------------------------
@dataclass
class Playthrough:
    """What happened in one random game, counted step by step."""

    game: Kingdomino
    lines: list[tuple[int, ...]] = field(default_factory=list)
    orders: list[tuple[int, ...]] = field(default_factory=list)
    claims: Counter[int] = field(default_factory=Counter)
    claimed: list[dict[int, int]] = field(default_factory=list)  # per game: domino -> owner
    placements: Counter[int] = field(default_factory=Counter)
    discards: Counter[int] = field(default_factory=Counter)
    final: KingdominoState | None = None


def play_through(game: Kingdomino, seed: int) -> Playthrough:
    """One game with random choices, checking the order of play at every step: the first
    line's claims follow the shuffled kings; later, the kings act in the order of their
    dominoes in the previous line (rulebook "Playing the game"); a claimed domino is placed
    by its claimer; the last round is placing only."""
    rng = random.Random(seed)
    seen = Playthrough(game)
    state = game.initial_state()
    expected: list[tuple[int, int]] = []  # (player, domino) still to place, in order
    line_owners: dict[int, int] = {}  # slot -> owner in the line being claimed
    last_placer = -1
    game_number = -1
    while game.current_player(state) != TERMINAL:
        if state.game_number != game_number:
            game_number = state.game_number
            seen.claimed.append({})
            assert not expected
        assert list(state.line) == sorted(state.line)  # rulebook A: ascending
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
            after = game.apply(state, action)
            if state.phase == DRAW and after.phase != DRAW:
                seen.lines.append(after.line)
                line_owners = {}
            if state.phase == ORDER:
                seen.orders.append(after.order)
                assert after.order == game.orders[action]
            state = after
            continue
        action = rng.choice(game.legal_actions(state))
        if state.phase == CLAIM:
            if state.lines_drawn == 1:  # first line: the shuffled kings choose in turn
                assert player == state.order[len(line_owners)]
            else:  # later lines: the king that just placed now claims (rulebook D2)
                assert player == last_placer
            line_owners[action] = player
            seen.claims[player] += 1
            seen.claimed[-1][state.line[action]] = player
            if len(line_owners) == game.setup.kings:
                assert not expected
                expected = [(line_owners[s], state.line[s]) for s in sorted(line_owners)]
                expected.reverse()
        else:
            assert state.phase == PLACE
            assert (player, game.acting_domino(state).number) == expected.pop()
            last_placer = player
            if action == game.discard_action:
                seen.discards[player] += 1
            else:
                seen.placements[player] += 1
            last_round = state.lines_drawn == game.setup.lines and not state.line
            after = game.apply(state, action)
            if last_round:
                assert after.phase in (PLACE, OVER, DRAW)  # DRAW: a dynasty's next game
            else:
                assert after.phase == CLAIM and game.current_player(after) == player
        state = game.apply(state, action)
    assert not expected
    seen.final = state
    return seen


@pytest.mark.parametrize(
    ("options", "lines", "line_size", "used"),
    [
        ({"players": 2}, 6, 4, 24),
        ({"players": 3}, 12, 3, 36),
        ({"players": 3, "draw_four": True}, 12, 4, 48),
        ({"players": 4}, 12, 4, 48),
        ({"players": 2, "mighty_duel": True}, 12, 4, 48),
    ],
)
def test_set_ups(options: dict[str, Any], lines: int, line_size: int, used: int) -> None:
    """Rulebook "Setup": 2 players use 24 dominoes in 6 lines of 4 with two kings each;
    3 players 36 in 12 lines of 3; 4 players all 48; online text: draw_four, lines of 4 with
    the unclaimed domino discarded; Mighty Duel, all 48 in a 7x7 kingdom."""
    game = Kingdomino(options)
    players = options["players"]
    per_player = (game.setup.size**2 - 1) // 2
    assert game.geo.size == (7 if options.get("mighty_duel") else 5)
    for seed in range(3):
        seen = play_through(game, seed)
        assert seen.final is not None
        assert len(seen.lines) == lines
        assert all(len(line) == line_size for line in seen.lines)
        drawn = [n for line in seen.lines for n in line]
        assert len(set(drawn)) == len(drawn) == used
        assert 48 - seen.final.deck.bit_count() == used
        assert len(seen.orders) == 1
        for player in range(players):
            assert seen.claims[player] == per_player
            assert seen.placements[player] + seen.discards[player] == per_player
            kingdom = seen.final.kingdoms[player]
            mine = {n for n, owner in seen.claimed[0].items() if owner == player}
            assert {n for n, _, _ in kingdom.placed} | set(kingdom.discarded) == mine
        unclaimed = set(drawn) - set(seen.claimed[0])
        assert len(unclaimed) == (12 if options.get("draw_four") else 0)
        if players == 2:  # two kings each, on every line
            for line in seen.lines:
                owners = Counter(seen.claimed[0][n] for n in line)
                assert owners == Counter({0: 2, 1: 2})


def test_a_dynasty_is_three_games() -> None:
    """Rulebook "Dynasty": three rounds in a row; the totals decide."""
    game = Kingdomino({"players": 3, "dynasty": True, "harmony": True})
    seen = play_through(game, 7)
    final = seen.final
    assert final is not None
    assert len(seen.orders) == 3  # a new king order for each game
    assert len(seen.lines) == 3 * 12
    assert len(seen.claimed) == 3
    assert final.game_number == 2
    assert len(final.past_scores) == 2
    for player in range(3):
        assert seen.placements[player] + seen.discards[player] == 3 * 12
    single = Kingdomino({"players": 3, "harmony": True})
    last = tuple(single.kingdom_score(k) for k in final.kingdoms)
    totals = tuple(float(sum(s)) for s in zip(*final.past_scores, last, strict=True))
    assert game.scores(final) == totals
    best = max(totals)
    assert game.winners(final) == tuple(p for p, s in enumerate(totals) if s == best)


@pytest.mark.parametrize(("players", "kings", "count"), [(2, 4, 6), (3, 3, 6), (4, 4, 24)])
def test_the_king_orders(players: int, kings: int, count: int) -> None:
    """Rulebook B: the kings are shuffled; one chance outcome per distinct order of owners."""
    orders = king_orders(players, kings)
    assert len(orders) == len(set(orders)) == count
    for order in orders:
        assert Counter(order) == Counter(king % players for king in range(kings))
    game = Kingdomino({"players": players})
    state = game.initial_state()
    while state.phase == DRAW:
        state = game.apply(state, game.chance_outcomes(state)[-1][0])
    assert state.phase == ORDER
    outcomes = game.chance_outcomes(state)
    assert [o for o, _ in outcomes] == list(range(count))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert len({p for _, p in outcomes}) == 1
    for index, order in enumerate(orders):
        after = game.apply(state, index)
        claimers = []
        while after.phase == CLAIM:
            claimers.append(game.current_player(after))
            after = game.apply(after, game.legal_actions(after)[-1])
        assert tuple(claimers) == order


def test_draw_four_uses_the_three_player_orders() -> None:
    assert len(Kingdomino({"players": 3, "draw_four": True}).orders) == 6


def test_order_of_play_in_random_games() -> None:
    """The checks inside `play_through`, over games of every set-up and option."""
    configs: list[dict[str, Any]] = [
        {"players": 2, "harmony": True},
        {"players": 3, "middle_kingdom": True},
        {"players": 4, "harmony": True, "middle_kingdom": True},
        {"players": 2, "mighty_duel": True, "dynasty": True},
        {"players": 3, "draw_four": True, "dynasty": True},
    ]
    for seed, options in enumerate(configs):
        seen = play_through(Kingdomino(options), 100 + seed)
        assert seen.final is not None and seen.final.phase == OVER


def test_claimed_slots_are_no_longer_offered() -> None:
    """Rulebook B: "Each tile can only have one king"; the last king has no choice."""
    game = Kingdomino({"players": 4})
    state = game.initial_state()
    shown = []
    for number in (41, 5, 30, 9):  # drawn in any order, shown ascending (rulebook A)
        state = game.apply(state, number - 1)
        shown.append(state.line)
    assert shown == [(41,), (5, 41), (5, 30, 41), (5, 9, 30, 41)]
    state = game.apply(state, 3)
    assert game.legal_actions(state) == (0, 1, 2, 3)
    state = game.apply(state, 2)
    assert game.legal_actions(state) == (0, 1, 3)
    with pytest.raises(IllegalActionError, match="already claimed"):
        game.parse_action(state, "claim 30")
    state = game.apply(state, game.parse_action(state, "claim 5"))
    state = game.apply(state, 3)
    assert game.legal_actions(state) == (1,)


# -- options ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": True}, "unknown"),
        ({"players": 3, "mighty_duel": True}, "mighty_duel"),
        ({"players": 4, "mighty_duel": True}, "mighty_duel"),
        ({"players": 4, "draw_four": True}, "draw_four"),
        ({"players": 2, "draw_four": True}, "draw_four"),
        ({"players": 5}, "2 to 4"),
        ({"players": 1}, "2 to 4"),
        ({"players": True}, "2 to 4"),
        ({"players": "4"}, "2 to 4"),
        ({"harmony": "yes"}, "harmony"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Kingdomino(options)


def test_every_option_combination_that_is_allowed_builds() -> None:
    """Rulebook: "You can mix these different variants"."""
    game = Kingdomino(
        {
            "players": 2,
            "mighty_duel": True,
            "middle_kingdom": True,
            "harmony": True,
            "dynasty": True,
        }
    )
    assert game.setup.size == 7 and game.setup.games == 3
    assert Kingdomino({}).num_players == 4
