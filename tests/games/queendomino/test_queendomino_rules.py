"""Queendomino's rules, one by one: hand-made positions in the realm notation, played through
the protocol with readable moves. Each test names the rulebook text it checks (rulebook: the
official one in shared/rules/); docs/rules-notes.md lists the choices made where the texts are
unclear (a building on a knight's square, the Queen on a tie, the supply running out)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.bots.heuristics import heuristics
from kingdomkit.core.protocol import CHANCE, TERMINAL, KingdomkitError, OptionError
from kingdomkit.games.queendomino.buildings import COLUMNS, shipped_buildings
from kingdomkit.games.queendomino.dominoes import box_of
from kingdomkit.games.queendomino.encoding import building_features
from kingdomkit.games.queendomino.notation import parse_realm
from kingdomkit.games.queendomino.rules import (
    BOARD,
    BUILD,
    CLAIM,
    DRAGON,
    DRAW,
    EMPTY,
    NOBODY,
    ORDER,
    OVER,
    PLACE,
    SITE,
    TAX,
    Queendomino,
    QueendominoState,
)
from kingdomkit.rl.observation import observer
from positions import FOREST_WITH_A_GAP  # the notation reads it the same
from queendomino_oracle import MODES

TABLE = shipped_buildings()
TILE = {building.tile: building.index for building in TABLE.buildings}
W_W, F_F, T_T = 0, 2, 45  # domino ids (printed 1, 3 and 46): wheat|wheat, forest|forest, town|town
PLAYER_STEPS = (PLACE, TAX, BUILD, SITE, DRAGON, CLAIM)


# -- helpers ----------------------------------------------------------------------------------
def set_up(game: Queendomino) -> QueendominoState:
    """A real game up to its first turn: tiles B01 .. B06 on the board (indices 0 .. 5), the
    lowest dominoes of the box in each line, the kings drawn 0, 1, ... (2 players: 0, 1, 1, 0),
    each claiming the lowest free domino; so player 0 places first."""
    state = game.initial_state()
    while state.phase != PLACE:
        if state.phase == CLAIM:
            state = game.apply(state, game.legal_actions(state)[0])
        else:
            state = game.apply(state, game.chance_outcomes(state)[0][0])
    return state


def turn_of(game: Queendomino, domino: int, text: str, **changes: Any) -> QueendominoState:
    """Player 0 about to place `domino` (an id) into the realm written in `text`; `queen: yes`
    in the text makes realm 0 the Queen's host."""
    state = set_up(game)
    mine, hosts = parse_realm(text, game.geo, game.table)
    return state._replace(
        realms=(mine, *state.realms[1:]),
        placing=(domino, *state.placing[1:]),
        queen=0 if hosts else NOBODY,
    )._replace(**changes)


def play(game: Queendomino, state: QueendominoState, *moves: str) -> QueendominoState:
    for move in moves:
        state = game.apply(state, game.parse_action(state, move))
    return state


def finish_round(game: Queendomino, state: QueendominoState) -> QueendominoState:
    """The rest of the round: the first legal action at each step, passing where one may."""
    while state.phase in PLAYER_STEPS:
        legal = game.legal_actions(state)
        state = game.apply(state, game.pass_action if game.pass_action in legal else legal[0])
    return state


def random_game(
    game: Queendomino, seed: int, state: QueendominoState | None = None
) -> list[QueendominoState]:
    """Every state of one random game (from `state`, by default the start)."""
    rng = random.Random(seed)
    states = [state or game.initial_state()]
    while game.current_player(states[-1]) != TERMINAL:
        state = states[-1]
        if game.current_player(state) == CHANCE:
            states.append(game.apply(state, game.sample_chance(state, rng)))
        else:
            states.append(game.apply(state, rng.choice(game.legal_actions(state))))
    return states


def moves(game: Queendomino, state: QueendominoState) -> list[str]:
    return [game.action_to_string(state, action) for action in game.legal_actions(state)]


# -- set-up ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", MODES, ids=str)
def test_each_realm_starts_with_seven_coins_and_one_knight(options: dict[str, Any]) -> None:
    """Rulebook "Set up": one knight and 7 coins each; in teams, per team."""
    game = Queendomino(options)
    state = game.initial_state()
    teams = options.get("teams", False)
    assert len(state.realms) == game.num_realms == options["players"] // (2 if teams else 1)
    for start in state.realms:
        assert (start.coins, start.guard, start.knights, start.towers) == (7, 1, 0, 0)
        assert start.buildings == () and start.kingdom.occupied == game.geo.castle_bit
    assert state.queen == NOBODY and state.dragon_ready
    assert state.board == (EMPTY,) * 6 and state.pile == (1 << 32) - 1
    assert game.knight_supply(state) == 22 - game.num_realms
    assert game.tower_supply(state) == 15


def test_six_tiles_fill_the_builders_board_priced_0_to_5() -> None:
    """Rulebook "Set up": the top 6 tiles onto the board; "the number below each tile
    represents the construction cost". The pile lies "grey face up": its seventh tile, the
    next to come, is turned up for all to see."""
    game = Queendomino({"players": 4})
    state = game.initial_state()
    drawn = [20, 3, 31, 0, 9, 17]
    for count, tile in enumerate(drawn):
        assert state.phase == BOARD
        outcomes = game.chance_outcomes(state)
        assert len(outcomes) == 32 - count and tile in dict(outcomes)
        state = game.apply(state, tile)
        assert state.top == EMPTY  # it went straight onto the board
    assert state.board == tuple(drawn)
    assert state.phase == BOARD and len(game.chance_outcomes(state)) == 26
    state = game.apply(state, 12)
    assert state.phase == DRAW and state.top == 12
    assert [game.price(state, 0, space) for space in range(6)] == [0, 1, 2, 3, 4, 5]
    assert state.pile == sum(1 << t for t in range(32) if t not in (*drawn, 12))
    assert game.pile_size(state) == 26


def test_the_piles_top_is_public_and_leaves_only_to_refill_the_board() -> None:
    """The face-up top is in every player's view and observation; it changes only when it
    goes onto the board (a refill), and then the next tile is turned up at once."""
    game = Queendomino({"players": 3})
    states = random_game(game, 5)
    for before, after in itertools.pairwise(states):
        if after.top != before.top and before.top != EMPTY:
            assert before.top in after.board and before.top not in before.board
            assert before.phase == CLAIM and after.phase in (BOARD, DRAW)
    tops = {state.top for state in states if state.phase == PLACE}
    assert len(tops) > 1 and EMPTY not in tops
    state = next(state for state in states if state.phase == PLACE)
    for player in range(3):
        assert game.view(state, player).top == state.top
        row = observer(game).observe(state, player)["top"]
        assert list(row) == list(building_features(game.table)[state.top + 1]) and row[0] == 1


def test_two_players_play_7x7_with_two_kings_each() -> None:
    """Rulebook: 2 players, a 7x7 kingdom, two kings each. One king is drawn; its owner
    claims, then the other player places two kings, then the first their second."""
    game = Queendomino({"players": 2})
    assert game.geo.size == 7
    state = game.initial_state()
    while state.phase != ORDER:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    assert len(state.line) == 4
    assert game.chance_outcomes(state) == ((0, 0.5), (1, 0.5))
    state = game.apply(state, 1)
    claimers = []
    for slot in (2, 0, 3, 1):
        claimers.append(game.current_player(state))
        state = game.apply(state, slot)
    assert claimers == [1, 0, 0, 1]
    # Round 2: the kings act in the order of their dominoes in the line.
    assert state.placers == (0, 1, 1, 0)


def test_three_players_discard_the_unclaimed_domino_of_each_line() -> None:
    """Rulebook: "in a 3 player game, discard the last unselected domino every round"."""
    game = Queendomino({"players": 3})
    assert game.geo.size == 5
    state = game.initial_state()
    while state.phase != ORDER:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    assert len(state.line) == 4
    for left in (3, 2, 1):  # the kings are drawn one at a time
        assert len(game.chance_outcomes(state)) == left
        state = game.apply(state, game.chance_outcomes(state)[-1][0])
    assert state.order == (2, 1, 0)
    line = state.line
    for _ in range(3):
        state = game.apply(state, game.legal_actions(state)[0])  # the lowest free domino
    assert state.placing == line[:3] and state.placers == (2, 1, 0)
    unclaimed = line[3]
    states = random_game(game, 3, state)
    for seen in states:
        if seen.phase == PLACE and seen.lines_drawn > 1:
            assert len(seen.placing) == 3
    final = states[-1]
    everything = [n - 1 for r in final.realms for n, _, _ in r.kingdom.placed]
    everything += [n - 1 for r in final.realms for n in r.kingdom.discarded]
    assert len(everything) == 36  # 12 rounds of 3 kings; 12 dominoes put aside
    assert unclaimed not in everything


@pytest.mark.parametrize(("players", "each"), [(2, 24), (3, 12), (4, 12)])
def test_twelve_rounds_use_all_48_dominoes(players: int, each: int) -> None:
    """Rulebook: "A game takes a total of 12 rounds, regardless of the number of players, and
    uses all the dominoes."; 2 players fill 7x7 (24 dominoes each), 3 and 4 fill 5x5."""
    game = Queendomino({"players": players})
    states = random_game(game, players)
    draws = [s for s in states if s.phase == DRAW and game.current_player(s) == CHANCE]
    assert len(draws) == 48
    rounds = {s.placing for s in states if s.phase == PLACE}
    assert len(rounds) == 12
    final = states[-1]
    assert final.phase == OVER and final.deck == 0 and final.lines_drawn == 12
    for each_realm in final.realms:
        assert len(each_realm.kingdom.placed) + len(each_realm.kingdom.discarded) == each


ROYAL_WEDDINGS = [
    # players, teams, frame, line, lines, realms, dominoes per realm
    (3, False, 7, 4, 24, 3, 24),
    (4, False, 7, 4, 24, 4, 24),
    (5, False, 5, 8, 12, 5, 12),
    (6, False, 5, 8, 12, 6, 12),
    (7, False, 5, 8, 12, 7, 12),
    (8, False, 5, 8, 12, 8, 12),
    (6, True, 7, 8, 12, 3, 24),
    (8, True, 7, 8, 12, 4, 24),
]


@pytest.mark.parametrize(
    ("players", "teams", "frame", "line", "lines", "realms", "each"), ROYAL_WEDDINGS
)
def test_royal_wedding_set_ups(
    players: int, teams: bool, frame: int, line: int, lines: int, realms: int, each: int
) -> None:
    """Rulebook "Variations with Kingdomino": 3-4 players 7x7 with lines of 4; 5 to 8 players
    5x5 with lines of 8 (the extra dominoes discarded); teams of 2 on a shared 7x7. "The
    first line ... from the Queendomino box, ... the second line ... from the Kingdomino
    box. Keep alternating"."""
    game = Queendomino({"players": players, "royal_wedding": True, "teams": teams})
    assert (game.geo.size, game.setup.line_size, game.setup.lines) == (frame, line, lines)
    assert game.num_realms == realms
    states = random_game(game, players)
    for state in states:
        if state.phase == DRAW:
            box = state.lines_drawn % 2  # 0: Queendomino's dominoes (ids 0 .. 47)
            assert {box_of(d) for d, _ in game.chance_outcomes(state)} == {box}
    final = states[-1]
    assert final.deck == 0 and final.lines_drawn == lines
    for each_realm in final.realms:
        assert len(each_realm.kingdom.placed) + len(each_realm.kingdom.discarded) == each


def test_teams_share_a_realm_and_each_player_has_a_king() -> None:
    """Rulebook, "Play in teams": a shared castle, "each player receives their own individual
    King", one knight and 7 coins per team; players 2t and 2t + 1 form team t."""
    game = Queendomino({"players": 6, "royal_wedding": True, "teams": True})
    assert game.realm_of == (0, 0, 1, 1, 2, 2)
    states = random_game(game, 11)
    orders = [s.order for s in states if s.phase == CLAIM and not s.placers]
    assert sorted(orders[-1]) == [0, 1, 2, 3, 4, 5]
    acted = {(game.current_player(s), game.acting_realm(s)) for s in states if s.phase == PLACE}
    assert acted == {(p, p // 2) for p in range(6)}
    final = states[-1]
    scores = game.scores(final)
    assert scores == tuple(float(game.realm_scores(final)[p // 2]) for p in range(6))
    winners = game.winners(final)
    assert winners and all((w ^ 1) in winners for w in winners)  # teammates win together


# -- A: placing ------------------------------------------------------------------------------
def test_a_domino_is_discarded_only_when_it_fits_nowhere() -> None:
    """Rulebook A: a domino that does not fit "must be discarded"; "Dominoes cannot be
    discarded if they can be placed"."""
    game = Queendomino({"players": 4})
    state = turn_of(game, W_W, FOREST_WITH_A_GAP + "guard: 1")
    assert moves(game, state) == ["discard 1"]
    after = game.apply(state, game.discard_action)
    assert after.realms[0].kingdom.discarded == (W_W + 1,)
    assert after.phase == CLAIM  # no knight on a discarded domino, no town to build on
    fits = turn_of(game, F_F, FOREST_WITH_A_GAP)
    assert "discard 3" not in moves(game, fits)
    assert set(moves(game, fits)) == {"place 3 -2,2 -1,2", "place 3 -1,2 0,2"}


def test_towns_are_a_terrain_for_the_connection_rules() -> None:
    """Rulebook A: "at least 2 connecting squares must have the same terrain type"; towns
    are red terrain squares."""
    game = Queendomino({"players": 4})
    state = turn_of(game, T_T, "C W T")
    legal = moves(game, state)
    assert "place 46 2,1 2,2" in legal  # under the town
    assert "place 46 1,1 1,2" not in legal  # under the wheat only
    assert "place 46 0,1 0,2" in legal  # the castle is wild


# -- B: tax -----------------------------------------------------------------------------------
def test_a_knight_collects_the_size_of_its_territory() -> None:
    """Rulebook B: "collect a Coin value equal to the number of connecting squares in the
    territory your Knight was placed on"; up to 2 knights, one per square."""
    game = Queendomino({"players": 4})
    state = turn_of(game, W_W, "W W C\ncoins: 0\nguard: 2")
    state = play(game, state, "place 1 -2,1 -1,1")
    assert state.phase == TAX
    assert moves(game, state) == ["knight -2,1", "knight -1,1", "pass"]
    state = play(game, state, "knight -1,1")
    assert (state.realms[0].coins, state.realms[0].guard) == (4, 1)
    assert moves(game, state) == ["knight -2,1", "pass"]
    state = play(game, state, "knight -2,1")
    assert (state.realms[0].coins, state.realms[0].guard) == (8, 0)
    assert state.realms[0].knights == (1 << game.geo.cell(-2, 1)) | (1 << game.geo.cell(-1, 1))
    assert state.phase != TAX


def test_tax_is_collected_once_and_needs_a_knight_in_the_guard() -> None:
    """Rulebook B: the knight "will stay on this square until the end of the game"; a
    territory growing later pays nothing more. With no knight left there is no tax step."""
    game = Queendomino({"players": 4})
    state = turn_of(game, W_W, "W W* C\ncoins: 5")
    state = play(game, state, "place 1 -2,1 -1,1")
    assert state.realms[0].coins == 5
    assert state.phase == DRAGON  # no tax step, no town to build on


def test_knights_may_go_on_town_squares() -> None:
    game = Queendomino({"players": 4})
    state = turn_of(game, T_T, "T T C\ncoins: 0\nguard: 1")
    state = play(game, state, "place 46 -2,1 -1,1", "knight -2,1")
    assert state.realms[0].coins == 4


@pytest.mark.parametrize(
    ("safes", "expected"),
    [
        ("T:B17 T", 4),  # the territory alone
        ("T:B17 T:B24", 4 + 1),  # +1 coin per tower (one tower)
        ("T:B17 T:B25", 4 + 3),  # +1 coin per knight owned: 2 in the guard, 1 placed
        ("T:B24 T:B25", 4 + 1 + 3),
    ],
)
def test_the_safes_add_coins_per_tower_and_per_knight(safes: str, expected: int) -> None:
    """Building tiles, lower left corner: "Each time you collect tax, you immediately collect
    an ADDITIONAL Coin value that is equal to the number of Knights in your possession (both
    those in your kingdom and those you have not placed)" / "... of Towers you have"."""
    game = Queendomino({"players": 4})
    text = f"W W C {safes}*\ncoins: 0\nguard: 2\ntowers: 1"
    state = turn_of(game, W_W, text)
    state = play(game, state, "place 1 -2,1 -1,1", "knight -2,1")
    assert state.realms[0].coins == expected
    assert state.realms[0].knights_owned == 3


# -- C: building ----------------------------------------------------------------------------
def build_step(game: Queendomino, text: str, **changes: Any) -> QueendominoState:
    """Realm 0 at its build step: the domino (wheat) placed, no knight to send."""
    state = turn_of(game, W_W, text, **changes)
    state = play(game, state, "place 1 -1,0 -2,0")
    assert state.phase == BUILD, "nothing to build"
    return state


def test_the_price_is_the_space_less_one_for_the_queens_host() -> None:
    """Rulebook C: pay "the construction price"; the Queen "lowers your construction costs by
    1 Coin" (never below 0: the free space stays free)."""
    game = Queendomino({"players": 2})
    plain = build_step(game, "C T\ncoins: 1")
    assert moves(game, plain) == ["build B01", "build B02", "pass"]
    hosting = build_step(game, "C T T:B17\ncoins: 1\ntowers: 1\nqueen: yes")
    assert hosting.queen == 0
    assert moves(game, hosting) == ["build B01", "build B02", "build B03", "pass"]
    assert [game.price(hosting, 0, s) for s in range(6)] == [0, 0, 1, 2, 3, 4]
    assert [game.price(hosting, 1, s) for s in range(6)] == [0, 1, 2, 3, 4, 5]
    state = play(game, hosting, "build B03", "at 1,0")
    assert state.realms[0].coins == 0


def test_building_needs_a_free_town_square() -> None:
    """Rulebook C: "You need to have at least one red construction square available"; "you
    cannot stack up buildings"."""
    game = Queendomino({"players": 4})
    for text in ("C W\ncoins: 9", "C T:B07\ncoins: 9"):
        state = turn_of(game, W_W, text)
        state = play(game, state, "place 1 -1,0 -2,0")
        assert state.phase == DRAGON  # no build step: straight to the Dragon
    state = build_step(game, "C T:B07 T\ncoins: 9")
    state = play(game, state, "build B06")
    assert state.phase == SITE and moves(game, state) == ["at 2,0"]


def test_a_building_may_go_on_a_town_square_holding_a_knight() -> None:
    """Nothing in the rulebook forbids it; only buildings do not stack (rules notes)."""
    game = Queendomino({"players": 4})
    state = build_step(game, "C T*\ncoins: 0")
    state = play(game, state, "build B01")
    assert moves(game, state) == ["at 1,0"]
    state = play(game, state, "at 1,0")
    cell = game.geo.cell(1, 0)
    assert state.realms[0].buildings == ((0, cell),)
    assert state.realms[0].knights == 1 << cell


def test_a_building_leaves_its_space_empty_for_the_round() -> None:
    """Rulebook C: "it leaves an empty spot on the Builders' Board for the duration of the
    round"."""
    game = Queendomino({"players": 4})
    state = build_step(game, "C T\ncoins: 5")
    state = play(game, state, "build B04", "at 1,0")
    assert state.board == (0, 1, 2, EMPTY, 4, 5)
    assert state.realms[0].coins == 2
    state = play(game, state, "pass")  # the Dragon
    state = play(game, state, f"claim {state.line[0] + 1}")
    assert state.phase == PLACE and state.board[3] == EMPTY
    state = finish_round(game, state)
    # The round over, the tiles slide and the pile's face-up top (B07) fills the gap.
    assert state.board == (0, 1, 2, 4, 5, 6) and state.top == EMPTY and state.phase == BOARD


def test_immediate_knights_and_towers_come_from_the_supply_while_it_lasts() -> None:
    """Rulebook "Contents": 22 knights, 15 towers. A tile showing more than the supply holds
    brings what is left (rules notes)."""
    game = Queendomino({"players": 4})
    state = turn_of(game, W_W, "C T T\ncoins: 9\nguard: 0")
    rivals = [r._replace(guard=7, towers=5) for r in state.realms[1:3]]
    rivals.append(state.realms[3]._replace(guard=7, towers=4))
    state = state._replace(realms=(state.realms[0], *rivals))
    state = state._replace(board=(TILE["B19"], TILE["B21"], 2, 3, 4, 5))
    assert game.knight_supply(state) == 1 and game.tower_supply(state) == 1
    state = play(game, state, "place 1 -1,0 -2,0", "build B19", "at 1,0")  # shows 2 knights
    assert state.realms[0].guard == 1 and game.knight_supply(state) == 0
    state = state._replace(phase=BUILD)  # by hand: a second build in the same position
    state = play(game, state, "build B21", "at 2,0")  # shows 2 towers
    assert state.realms[0].towers == 1 and game.tower_supply(state) == 0
    assert state.queen == NOBODY  # 1 tower is not the most
    assert [b for b, _ in state.realms[0].buildings] == [TILE["B19"], TILE["B21"]]


@pytest.mark.parametrize(
    ("mine", "theirs", "tile", "host_after"),
    [
        (0, 0, "B17", 0),  # the first tower of the game brings the Queen
        (0, 1, "B17", 0),  # a tie is enough: "even in the case of a tie"
        (0, 2, "B17", 1),  # fewer towers: she stays
        (1, 1, "B01", 1),  # tied already, but this building brings no tower
        (1, 1, "B21", 0),  # more towers
    ],
)
def test_the_queen_goes_to_the_realm_that_gains_the_most_towers(
    mine: int, theirs: int, tile: str, host_after: int
) -> None:
    """Rulebook C: "As soon as your kingdom has acquired the most Towers (even in the case of
    a tie with another player), it hosts the Queen"."""
    game = Queendomino({"players": 2})
    state = turn_of(game, W_W, "C T T:B18\ncoins: 9\ntowers: 1")
    state = state._replace(
        realms=(
            state.realms[0]._replace(towers=mine),
            state.realms[1]._replace(towers=theirs),
        ),
        board=(TILE[tile], 1, 2, 3, 4, 5),
        queen=1 if theirs else NOBODY,
    )
    state = play(game, state, "place 1 -1,0 -2,0", f"build {tile}", "at 1,0")
    assert state.queen == host_after


# -- D: the Dragon ---------------------------------------------------------------------------
def test_the_dragon_burns_a_tile_for_one_coin() -> None:
    """Rulebook D: "Choose any Building Tile that is still available", "Pay the bank 1 Coin",
    "replacing it with the Dragon"; the space stays empty until the round ends."""
    game = Queendomino({"players": 2})
    state = turn_of(game, W_W, "C W\ncoins: 1")
    state = play(game, state, "place 1 -1,0 -2,0")
    assert state.phase == DRAGON
    assert moves(game, state) == [*(f"burn B0{t}" for t in range(1, 7)), "pass"]
    state = play(game, state, "burn B05")
    assert state.realms[0].coins == 0 and not state.dragon_ready
    assert state.board == (0, 1, 2, 3, EMPTY, 5)
    assert game.burnt(state) == (4,)
    state = finish_round(game, state)
    assert state.dragon_ready and state.board[:5] == (0, 1, 2, 3, 5)


def test_the_dragon_once_per_round() -> None:
    """Rulebook D: "Only one player per round can use the Dragon"."""
    game = Queendomino({"players": 2})
    state = turn_of(game, W_W, "C W\ncoins: 1")
    untouched = play(game, state, "place 1 -1,0 -2,0", "pass")
    burnt = play(game, state, "place 1 -1,0 -2,0", "burn B01")
    for before in (untouched, burnt):
        after = game.apply(before, game.legal_actions(before)[0])  # player 0 claims
        assert game.current_player(after) == 1 and after.phase == PLACE
        after = game.apply(after, game.legal_actions(after)[0])
        after = play(game, after, "pass")  # no knight
        assert after.phase == (DRAGON if before is untouched else CLAIM)


@pytest.mark.parametrize(
    ("text", "offered"),
    [
        ("C W\ncoins: 1", True),
        ("C W\ncoins: 0", False),  # "Pay the bank 1 Coin"
        ("C W T:B17\ncoins: 5\ntowers: 1\nqueen: yes", False),  # "you are not hosting the Queen"
    ],
)
def test_the_dragon_needs_a_coin_and_not_the_queen(text: str, offered: bool) -> None:
    game = Queendomino({"players": 2})
    state = play(game, turn_of(game, W_W, text), "place 1 -1,0 -2,0")
    assert state.phase == (DRAGON if offered else CLAIM)


# -- starting a new round, and the last one --------------------------------------------------
def test_a_new_round_slides_the_tiles_then_refills_the_empty_spaces() -> None:
    """Rulebook "Starting a New Round": "Slide the Building Tiles remaining ... over to the
    cheapest spots, and then fill the empty spots with Building Tiles from the draw pile".
    The pile lies face up: its known top fills the cheapest empty spot, and the next tile is
    turned up."""
    game = Queendomino({"players": 4})
    state = set_up(game)._replace(board=(0, EMPTY, 2, EMPTY, 4, 5), dragon_ready=False)
    assert state.top == 6  # B01 .. B06 went onto the board, B07 lies face up
    state = finish_round(game, state)
    assert state.phase == BOARD and state.dragon_ready and state.top == EMPTY
    assert state.board == (0, 2, 4, 5, 6, EMPTY)
    state = game.apply(state, 30)
    assert state.board == (0, 2, 4, 5, 6, 30) and state.phase == BOARD
    state = game.apply(state, 7)
    assert state.board == (0, 2, 4, 5, 6, 30) and state.phase == DRAW and state.top == 7
    last = set_up(game)._replace(board=(0, EMPTY, 2, EMPTY, 4, 5), pile=0)
    state = finish_round(game, last)
    assert state.phase == DRAW and state.board == (0, 2, 4, 5, 6, EMPTY)
    assert state.top == EMPTY and game.pile_size(state) == 0
    empty_pile = set_up(game)._replace(board=(0, EMPTY, 2, EMPTY, 4, 5), pile=0, top=EMPTY)
    state = finish_round(game, empty_pile)
    assert state.phase == DRAW and state.board == (0, 2, 4, 5, EMPTY, EMPTY)


def test_the_last_round_has_no_claims() -> None:
    """Rulebook "End of the Game": "all players take their final turn (only carrying out
    actions A through D, as there are no more dominoes to be chosen)"."""
    game = Queendomino({"players": 4})
    states = random_game(game, 8)
    last = [s for s in states if s.lines_drawn == 12 and not s.line and s.phase in PLAYER_STEPS]
    assert last and all(s.phase != CLAIM for s in last)
    assert len([s for s in last if s.phase == PLACE]) == 4
    assert states[-1].phase == OVER and game.current_player(states[-1]) == TERMINAL


# -- end of the game ----------------------------------------------------------------------------
def over(game: Queendomino, *texts: str) -> QueendominoState:
    realms = [parse_realm(text, game.geo, game.table) for text in texts]
    queen = next((r for r, (_, hosts) in enumerate(realms) if hosts), NOBODY)
    return game.initial_state()._replace(
        phase=OVER, realms=tuple(r for r, _ in realms), queen=queen
    )


def test_the_queen_counts_as_a_crown_on_the_largest_territory() -> None:
    """Rulebook "End of the Game": the host places her "on your largest territory (red towns
    included) where she will count as a crown"."""
    game = Queendomino({"players": 2})
    state = over(game, "C W1 W .\nT T T T:B17\ntowers: 1\nqueen: yes", "C W1 W")
    pad = game.breakdown(state, 0)
    assert pad.queen == 4 and pad.queen_territory is not None
    assert pad.total == 2 + 4 + 1  # wheat, the Queen on the towns, the Travelling Castle
    assert game.breakdown(state, 1).queen == 0


@pytest.mark.parametrize(
    ("second", "winners", "rule"),
    [
        ("C W1 W W W", (1,), "score"),
        ("C L1 L\ncoins: 3", (0,), "largest_territory"),  # 3 points too, largest 2
        ("C S1 S S", (0, 1), "shared"),
    ],
)
def test_ties_go_to_the_largest_territory_then_are_shared(
    second: str, winners: tuple[int, ...], rule: str
) -> None:
    """Rulebook: "In the event of a tie, the player with the largest territory ... wins. If
    there is still a tie, the players share the victory."."""
    game = Queendomino({"players": 2})
    state = over(game, "C W1 W W", second)
    assert game.winners(state) == winners
    assert game.winning_realms(state) == (winners, rule)


# -- options -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 4, "draw_four": True}, "unknown Queendomino option 'draw_four'"),
        ({"players": 6, "teams": True}, "teams is a Royal Wedding mode"),
        ({"players": 5}, "2 to 4 players, not 5 .*add royal_wedding"),
        ({"players": 2, "royal_wedding": True}, "Royal Wedding is for 3 to 8 players, not 2"),
        ({"players": 7, "royal_wedding": True, "teams": True}, "6 or 8 players, not 7"),
        ({"players": 4, "royal_wedding": "yes"}, "on or off"),
        ({"players": 4, "buildings": ""}, "path of a table file"),
    ],
)
def test_options_that_do_not_go_together_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Queendomino(options)


def table_text(*rows: str, columns: tuple[str, ...] = COLUMNS) -> str:
    return "\n".join((",".join(columns), *rows)) + "\n"


GOOD_ROWS = (
    "X1,Mill,1,1,0,established,none,established,fixed,4,",
    "X2,Tower,0,0,2,established,coin_per_tower,established,per_tower,1,",
    "X3,Bath,2,0,0,inferred,coin_per_knight,established,per_separate_territory,2,lake",
)


def test_a_corrected_building_table_is_loaded_from_a_file(tmp_path: Path) -> None:
    """The `buildings` option: a table in the shipped format replaces the shipped one; with
    fewer than 6 tiles the board keeps empty spaces."""
    path = tmp_path / "table.csv"
    path.write_text(table_text(*GOOD_ROWS), encoding="utf-8")
    game = Queendomino({"players": 2, "buildings": str(path)})
    assert game.options["buildings"] == str(path) and game.table.source == str(path)
    assert [b.tile for b in game.table.buildings] == ["X1", "X2", "X3"]
    bath = game.table[2]
    assert (bath.crowns, bath.ongoing, bath.endgame, bath.endgame_points) == (
        2,
        "coin_per_knight",
        "per_separate_territory",
        2,
    )
    state = game.initial_state()
    assert len(game.chance_outcomes(state)) == 3
    for _ in range(3):
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    assert state.board == (0, 1, 2, EMPTY, EMPTY, EMPTY) and state.phase == DRAW


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ((GOOD_ROWS[0], "X2,Tower,x,0,2,,,,,,"), "row 3: crowns must be a number"),
        (("X1,Mill,1,1,0,established,coin_per_dragon,,,,",), "row 2: ongoing 'coin_per_dragon'"),
        (("X1,Mill,0,,,,,,per_separate_territory,2,sea",), "row 2: endgame_terrain 'sea'"),
        (("X1,Mill,0,,,,,,fixed,2,lake",), "row 2: endgame_terrain is only for"),
        ((GOOD_ROWS[0], GOOD_ROWS[0]), "row 3: tile 'X1' is listed twice"),
        ((",Mill,0,,,,,,fixed,2,",), "row 2: the tile has no id"),
        ((), "0 tiles"),
    ],
)
def test_a_malformed_building_table_names_the_row(
    tmp_path: Path, rows: tuple[str, ...], message: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(table_text(*rows), encoding="utf-8")
    with pytest.raises(KingdomkitError, match=message):
        Queendomino({"players": 2, "buildings": str(path)})


def test_a_table_without_a_column_or_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "short.csv"
    path.write_text(table_text("X1,Mill", columns=("tile", "name")), encoding="utf-8")
    with pytest.raises(KingdomkitError, match="no column 'crowns'"):
        Queendomino({"players": 2, "buildings": str(path)})
    with pytest.raises(KingdomkitError, match="cannot read buildings table"):
        Queendomino({"players": 2, "buildings": str(tmp_path / "missing.csv")})


# -- what the search bots' forecast counts on ---------------------------------------------------
@pytest.mark.parametrize("options", MODES, ids=str)
def test_placements_left_counts_the_placements_still_to_come(options: dict[str, Any]) -> None:
    game = Queendomino(options)
    for seed in range(3):
        states = random_game(game, seed)
        for r in range(game.num_realms):
            to_come = [game.acting_realm(state) == r for state in states if state.phase == PLACE]
            left = sum(to_come)
            for state in states:
                assert game.placements_left(state, r) == left, (seed, r, state)
                if state.phase == PLACE and game.acting_realm(state) == r:
                    left -= 1
            assert left == 0


def test_the_forecast_values_knights_and_coins_while_turns_are_left() -> None:
    game = Queendomino({"players": 2})
    known = heuristics(game)
    state = set_up(game)
    realm = state.realms[0]
    richer = state._replace(realms=(realm._replace(coins=realm.coins + 3), *state.realms[1:]))
    guarded = state._replace(realms=(realm._replace(guard=realm.guard + 1), *state.realms[1:]))
    # evaluate: 3 coins are 1 point and a knight in the guard nothing; the forecast adds more
    assert known.evaluate(richer, 0) == known.evaluate(state, 0) + 1
    assert known.evaluate(guarded, 0) == known.evaluate(state, 0)
    assert known.forecast(richer, 0) > known.forecast(state, 0) + 1
    assert known.forecast(guarded, 0) > known.forecast(state, 0)
    # at the end nothing is left to buy or tax: the forecast is the score
    end = random_game(game, 7)[-1]
    assert all(known.forecast(end, p) == known.evaluate(end, p) for p in range(2))
