"""The fast Kingdomino engine against the slow oracle (tests/support/oracle.py), over thousands
of states.

Kingdoms come from three sources: random walks of legal placements (hypothesis), arbitrary
fillings of a frame that no game need reach (hypothesis; they stress the scoring and the frame
window), and whole random games through the `Kingdomino` protocol (plain seeded loops). The
engine's bitboards are read back with the layout its docstrings document, written out again
here, so a wrong table in geometry.py cannot hide behind itself.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from bitboards import DIRECTION_STEPS, cell_of, cells_of, engine_squares, xy_of
from kingdomkit.core.protocol import CHANCE, TERMINAL, IllegalActionError
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.kingdomino.dominoes import DOMINOES, TERRAINS, Domino
from kingdomkit.games.kingdomino.geometry import geometry
from kingdomkit.games.kingdomino.rules import (
    CLAIMS,
    OVER,
    PLACE,
    Kingdomino,
    KingdominoState,
)
from oracle import XY, Placement, Square

SIZES = (5, 7)


def action_cells(size: int, action: int) -> Placement:
    """Cells of a place action: `4 + direction * cells + cell of square 1` (rules.py)."""
    direction, cell = divmod(action - CLAIMS, geometry(size).cells)
    x, y = xy_of(size, cell)
    dx, dy = DIRECTION_STEPS[direction]
    return (x, y), (x + dx, y + dy)


def engine_kingdom(size: int, squares: dict[XY, Square]) -> kd.Kingdom:
    """An engine kingdom holding exactly `squares` (not necessarily reachable in play)."""
    terrains = [0] * len(TERRAINS)
    crowns1 = crowns2 = 0
    occupied = 1 << cell_of(size, oracle.CASTLE)
    for xy, (terrain, crowns) in squares.items():
        bit = 1 << cell_of(size, xy)
        terrains[terrain] |= bit
        occupied |= bit
        crowns1 |= bit if crowns & 1 else 0
        crowns2 |= bit if crowns & 2 else 0
    xs = [x for x, _ in oracle.cells(squares)]
    ys = [y for _, y in oracle.cells(squares)]
    return kd.Kingdom(
        tuple(terrains), crowns1, crowns2, occupied, min(xs), max(xs), min(ys), max(ys), (), ()
    )


# -- comparisons -----------------------------------------------------------------------------
def is_symmetric(domino: Domino) -> bool:
    return (domino.terrain1, domino.crowns1) == (domino.terrain2, domino.crowns2)


def offered(domino: Domino, placements: set[Placement]) -> set[Placement]:
    """The oracle's placements as the engine offers them: a domino with two like squares only
    facing right or down, since turning it round gives the same kingdom."""
    if not is_symmetric(domino):
        return placements
    kept = set()
    for first, second in placements:
        step = (second[0] - first[0], second[1] - first[1])
        if step in ((1, 0), (0, 1)):
            kept.add((first, second))
        else:
            assert (second, first) in placements, "the oracle lost a mirror image"
    return kept


def check_placements(
    size: int, kingdom: kd.Kingdom, squares: dict[XY, Square], domino: Domino
) -> set[Placement]:
    """The engine's legal placements equal the oracle's; returns the oracle's (both ways)."""
    codes = kd.legal_placements(geometry(size), kingdom, domino)
    assert codes == sorted(set(codes))
    engine = {action_cells(size, CLAIMS + code) for code in codes}
    truth = oracle.legal_placements(squares, domino, size)
    assert engine == offered(domino, truth), f"domino {domino.number} in\n{picture(squares)}"
    return truth


def check_kingdom(size: int, kingdom: kd.Kingdom, squares: dict[XY, Square]) -> None:
    """Squares, frame, territories, score, crowns and Middle Kingdom agree with the oracle."""
    geo = geometry(size)
    assert engine_squares(size, kingdom) == squares
    assert cells_of(size, kingdom.occupied) == oracle.cells(squares)
    xs = [x for x, _ in oracle.cells(squares)]
    ys = [y for _, y in oracle.cells(squares)]
    assert (kingdom.min_x, kingdom.max_x, kingdom.min_y, kingdom.max_y) == (
        min(xs),
        max(xs),
        min(ys),
        max(ys),
    )
    found = kd.territories(geo, kingdom)
    assert Counter(
        (t.terrain, frozenset(cells_of(size, t.cells)), t.crowns) for t in found
    ) == Counter(oracle.territories(squares))
    assert all(t.size == len(cells_of(size, t.cells)) for t in found)
    points = [t.points for t in found]
    assert points == sorted(points, reverse=True)
    assert kd.territory_score(geo, kingdom) == oracle.score(squares)
    assert kd.crown_count(kingdom) == oracle.crowns(squares)
    assert kd.castle_in_middle(geo, kingdom) == oracle.middle_kingdom(squares, size)
    assert kd.is_complete(geo, kingdom) == oracle.complete(squares, size)


def picture(squares: dict[XY, Square]) -> str:
    """A failing kingdom in the notation, for people reading a hypothesis report."""
    every = oracle.cells(squares)
    rows = []
    for y in range(min(y for _, y in every), max(y for _, y in every) + 1):
        row = []
        for x in range(min(x for x, _ in every), max(x for x, _ in every) + 1):
            if (x, y) == oracle.CASTLE:
                row.append("C ")
            elif (x, y) in squares:
                terrain, crowns = squares[(x, y)]
                row.append(f"{'WFLGSM'[terrain]}{crowns or ''}".ljust(2))
            else:
                row.append(". ")
        rows.append(" ".join(row))
    return "\n".join(rows)


# -- random walks of legal placements ----------------------------------------------------------
@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    size=st.sampled_from(SIZES),
    order=st.permutations(range(1, 49)),
    picks=st.lists(st.integers(0, 1 << 16), min_size=24, max_size=24),
)
def test_random_walks_agree_with_the_oracle(size: int, order: list[int], picks: list[int]) -> None:
    geo = geometry(size)
    kingdom = kd.empty_kingdom(geo)
    squares: dict[XY, Square] = {}
    dominoes = (size * size - 1) // 2
    for number, pick in zip(order[:dominoes], picks[:dominoes], strict=True):
        domino = DOMINOES[number - 1]
        truth = check_placements(size, kingdom, squares, domino)
        if not truth:
            kingdom = kd.discard(kingdom, domino)
            continue
        first, second = sorted(truth)[pick % len(truth)]
        kingdom = kd.place(geo, kingdom, domino, cell_of(size, first), cell_of(size, second))
        squares = oracle.place(squares, domino, (first, second))
        check_kingdom(size, kingdom, squares)
    assert len(kingdom.placed) + len(kingdom.discarded) == dominoes
    assert oracle.complete(squares, size) == (not kingdom.discarded)


# -- arbitrary kingdoms: any filling of a frame around the castle ------------------------------
@st.composite
def arbitrary_kingdoms(draw: st.DrawFn) -> tuple[int, dict[XY, Square]]:
    """A frame of 5x5 or 7x7 with the castle anywhere and any squares (or gaps) around it;
    few terrains at a time so that territories grow large and odd-shaped."""
    size = draw(st.sampled_from(SIZES))
    castle_x = draw(st.integers(0, size - 1))
    castle_y = draw(st.integers(0, size - 1))
    palette = draw(st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True))
    square = st.one_of(
        st.none(), st.tuples(st.sampled_from(palette), st.sampled_from((0, 0, 0, 1, 2, 3)))
    )
    grid = draw(st.lists(square, min_size=size * size, max_size=size * size))
    squares = {}
    for index, content in enumerate(grid):
        xy = (index % size - castle_x, index // size - castle_y)
        if content is not None and xy != oracle.CASTLE:
            squares[xy] = content
    return size, squares


@settings(max_examples=300, derandomize=True, deadline=None)
@given(arbitrary_kingdoms(), st.sampled_from(DOMINOES))
def test_arbitrary_kingdoms_agree_with_the_oracle(
    kingdom: tuple[int, dict[XY, Square]], domino: Domino
) -> None:
    size, squares = kingdom
    engine = engine_kingdom(size, squares)
    check_kingdom(size, engine, squares)
    check_placements(size, engine, squares, domino)


# -- whole games through the protocol ----------------------------------------------------------
CONFIGS: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 2, "mighty_duel": True},
    {"players": 3},
    {"players": 3, "draw_four": True},
    {"players": 4},
)


def random_options(rng: random.Random) -> dict[str, Any]:
    options = dict(rng.choice(CONFIGS))
    options["middle_kingdom"] = rng.random() < 0.5
    options["harmony"] = rng.random() < 0.5
    return options


def check_place_state(
    game: Kingdomino, state: KingdominoState, squares: dict[XY, Square], rng: random.Random
) -> None:
    """At a PLACE state: the legal actions match the oracle, discard only when nothing fits,
    and every action survives placement_cells -> placement_action and text round trips."""
    size = game.geo.size
    player = game.current_player(state)
    domino = game.acting_domino(state)
    legal = game.legal_actions(state)
    truth = oracle.legal_placements(squares, domino, size)
    if not truth:
        assert legal == (game.discard_action,)
        assert game.parse_action(state, "discard") == game.discard_action
        return
    assert game.discard_action not in legal
    assert {action_cells(size, a) for a in legal} == offered(domino, truth)
    check_kingdom(size, state.kingdoms[player], squares)
    for action in legal:
        first, second = game.placement_cells(action)
        assert (first, second) == action_cells(size, action)
        assert game.placement_action(state, first, second) == action
        if is_symmetric(domino):
            assert game.placement_action(state, second, first) == action
    action = rng.choice(legal)
    assert game.parse_action(state, game.action_to_string(state, action)) == action
    with pytest.raises(IllegalActionError):
        game.parse_action(state, "discard")
    # A few placements the oracle forbids must be refused by the checked path.
    refused = [
        (first, (first[0] + dx, first[1] + dy))
        for first in [(x, y) for x in range(-size + 1, size) for y in range(-size + 1, size)]
        for dx, dy in DIRECTION_STEPS
        if (first, (first[0] + dx, first[1] + dy)) not in truth
        and max(abs(first[0] + dx), abs(first[1] + dy)) < size
    ]
    for first, second in rng.sample(refused, min(5, len(refused))):
        with pytest.raises(IllegalActionError):
            game.placement_action(state, first, second)


def play_and_check(seed: int) -> int:
    """One random game with random options, checked against the oracle at every placement;
    returns how many placements were checked."""
    rng = random.Random(seed)
    game = Kingdomino(random_options(rng))
    size = game.geo.size
    state = game.initial_state()
    kingdoms: list[dict[XY, Square]] = [{} for _ in range(game.num_players)]
    checked = 0
    while game.current_player(state) != TERMINAL:
        player = game.current_player(state)
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        if state.phase == PLACE:
            check_place_state(game, state, kingdoms[player], rng)
            checked += 1
        action = rng.choice(game.legal_actions(state))
        if state.phase == PLACE and action != game.discard_action:
            domino = game.acting_domino(state)
            kingdoms[player] = oracle.place(kingdoms[player], domino, action_cells(size, action))
        state = game.apply(state, action)
        if player >= 0 and state.phase != OVER:
            check_kingdom(size, state.kingdoms[player], kingdoms[player])
    check_final(game, state, kingdoms)
    return checked


def check_final(game: Kingdomino, state: KingdominoState, kingdoms: list[dict[XY, Square]]) -> None:
    """Scores with bonuses and the winners agree with the oracle; harmony's "no gaps" and
    "no discards" are the same thing at the end of a game."""
    size = game.geo.size
    keys = []
    for player, squares in enumerate(kingdoms):
        kingdom = state.kingdoms[player]
        check_kingdom(size, kingdom, squares)
        assert oracle.complete(squares, size) == (not kingdom.discarded)
        total = oracle.score(squares)
        if game.setup.middle_kingdom and oracle.middle_kingdom(squares, size):
            total += 10
        if game.setup.harmony and oracle.complete(squares, size):
            total += 5
        assert game.scores(state)[player] == total
        pad = game.breakdown(state, player)
        assert (pad.total, pad.largest_territory, pad.crowns) == (
            total,
            oracle.largest_territory(squares),
            oracle.crowns(squares),
        )
        keys.append((total, oracle.largest_territory(squares), oracle.crowns(squares)))
    assert game.winners(state) == oracle.winners(keys)


def test_random_games_agree_with_the_oracle() -> None:
    checked = sum(play_and_check(seed) for seed in range(40))
    assert checked > 1500
