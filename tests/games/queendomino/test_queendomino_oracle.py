"""The fast Queendomino engine against the slow oracle (tests/support/queendomino_oracle.py).

Three sources of positions: whole random games played in lockstep with the oracle's game, in
every mode, where every chance node, every legal action list and the whole economy after every
step must agree; arbitrary realms and boards (hypothesis), where taxes, score pads, the steps
offered and a build must agree; and plain random games, over which the economy's invariants
must hold. Two building tables: the shipped one, and a rich one in which every tile has effects,
so that the supply of knights and towers runs out. Engine actions are read back with the
layout in the rules.py docstring, written out again here.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
import queendomino_oracle as qo
from bitboards import DIRECTION_STEPS, cell_of, cells_of, engine_squares, xy_of
from kingdomkit.core.protocol import CHANCE, TERMINAL
from kingdomkit.games.kingdomino import kingdom as kd
from kingdomkit.games.queendomino.buildings import COLUMNS
from kingdomkit.games.queendomino.dominoes import DOMINOES, TERRAINS, TOWN
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
    SITE,
    TAX,
    Queendomino,
    QueendominoState,
    Realm,
)
from oracle import XY
from paths import EXAMPLES
from queendomino_oracle import MODES, PASS, Chance, Move, Tabletop

CLAIMS = 8  # the longest line; place actions start after the claims
PHASE_OF_CHANCE = {qo.DOMINO: DRAW, qo.BUILDING: BOARD, qo.KING: ORDER}


# -- a table in which every tile does something --------------------------------------------------
def rich_table() -> str:
    """32 tiles cycling through every effect the table format knows, with crowns up to 3 and
    immediate knights and towers on most tiles."""
    ongoing = ("none", "coin_per_knight", "coin_per_tower")
    endgames = (
        ("fixed", "4", ""),
        ("per_knight", "1", ""),
        ("per_tower", "2", ""),
        ("per_separate_territory", "3", "town"),
        ("per_separate_territory", "1", "lake"),
        ("none", "", ""),
    )
    rows = [",".join(COLUMNS)]
    for index in range(32):
        endgame, points, terrain = endgames[index % len(endgames)]
        rows.append(
            f"R{index:02},Rich {index},{index % 4},{index % 3},{(index + 1) % 3},established,"
            f"{ongoing[index % 3]},established,{endgame},{points},{terrain}"
        )
    return "\n".join(rows) + "\n"


@pytest.fixture(scope="module")
def rich_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("tables") / "rich.csv"
    path.write_text(rich_table(), encoding="utf-8")
    return str(path)


def make_game(options: dict[str, Any], table: str | None) -> Queendomino:
    return Queendomino({**options, "buildings": table} if table else options)


def tabletop_for(game: Queendomino) -> Tabletop:
    setup = game.setup
    return Tabletop(setup.players, game.table.buildings, setup.royal_wedding, setup.teams)


# -- the documented action layout, written out independently ------------------------------------
def move_of(game: Queendomino, top: Tabletop, action: int) -> Move:
    """What an engine action means, by the layout of the rules.py docstring: claims, places,
    discard, two knights, six builds, sites, six burns, pass."""
    size, cells = game.geo.size, game.geo.cells
    discard = CLAIMS + 4 * cells
    if action < CLAIMS:
        return ("claim", top.line[action])
    if action < discard:
        direction, cell = divmod(action - CLAIMS, cells)
        x, y = xy_of(size, cell)
        dx, dy = DIRECTION_STEPS[direction]
        return ("place", ((x, y), (x + dx, y + dy)))
    if action == discard:
        return qo.DISCARD
    if action <= discard + 2:
        return ("knight", action - discard)
    if action < discard + 9:
        return ("build", action - discard - 3)
    if action < discard + 9 + cells:
        return ("site", xy_of(size, action - discard - 9))
    if action < discard + 15 + cells:
        return ("burn", action - discard - 9 - cells)
    assert action == discard + 15 + cells == game.num_actions - 1
    return PASS


def canonical(top: Tabletop, move: Move) -> Move:
    """A domino with two like squares is the same either way round; the engine offers it
    facing right or down only."""
    if move[0] == "place" and DOMINOES[top.domino].symmetric:
        return ("place", frozenset(move[1]))
    return move


# -- comparing the engine's state with the table ----------------------------------------------
def check_economy(game: Queendomino, state: QueendominoState, top: Tabletop) -> None:
    """Everything but the kingdoms' squares: coins, knights, towers, buildings, the Builders'
    Board, the pile, the Dragon, the Queen, the supply."""
    size = game.geo.size
    assert len(state.realms) == len(top.realms)
    for realm, model in zip(state.realms, top.realms, strict=True):
        assert (realm.coins, realm.guard, realm.towers) == (model.coins, model.guard, model.towers)
        assert cells_of(size, realm.knights) == model.knights
        assert [(index, xy_of(size, cell)) for index, cell in realm.buildings] == [
            (index, xy) for xy, index in model.buildings.items()
        ]
        assert cells_of(size, realm.sites) == set(model.buildings)
        assert [number - 1 for number in realm.kingdom.discarded] == model.discarded
    assert [None if tile == EMPTY else tile for tile in state.board] == top.board
    assert {tile for tile in range(len(game.table)) if state.pile >> tile & 1} == top.pile
    assert (None if state.top == EMPTY else state.top) == top.top
    assert set(game.burnt(state)) == top.burnt
    assert state.dragon_ready == top.dragon_ready
    assert (None if state.queen == NOBODY else state.queen) == top.queen
    assert game.knight_supply(state) == qo.KNIGHTS - sum(m.knights_owned for m in top.realms)
    assert game.tower_supply(state) == qo.TOWERS - sum(m.towers for m in top.realms)


def check_kingdom(game: Queendomino, state: QueendominoState, top: Tabletop, r: int) -> None:
    model = top.realms[r]
    assert engine_squares(game.geo.size, state.realms[r].kingdom) == model.crowned(
        game.table.buildings
    )
    assert game.free_towns(state.realms[r]) == sum(
        1 << cell_of(game.geo.size, xy) for xy in model.free_towns()
    )


def check_pads(game: Queendomino, state: QueendominoState, top: Tabletop) -> None:
    """Every realm's score pad, the scores per player and the winners agree."""
    pads = top.pads()
    for r, pad in enumerate(pads):
        engine = game.breakdown(state, r)
        assert (engine.coins, engine.wealth) == (top.realms[r].coins, pad.wealth)
        assert sum(engine.terrain_points) == sum(t.points for t in engine.territories)
        assert sum(engine.terrain_points) == pad.territories
        assert engine.queen == pad.queen
        assert [(b.index, points) for b, points in engine.buildings] == list(pad.buildings)
        assert engine.building_points == sum(points for _, points in pad.buildings)
        assert (engine.total, engine.largest_territory) == (pad.total, pad.largest)
        if pad.queen:
            assert engine.queen_territory is not None
            assert engine.queen_territory.size == pad.largest
    assert game.realm_scores(state) == tuple(pad.total for pad in pads)
    assert game.scores(state) == tuple(
        float(pads[top.realm_of(p)].total) for p in range(game.num_players)
    )
    realms, rule = qo.winners(pads)
    assert game.winning_realms(state) == (realms, rule)
    assert game.winners(state) == tuple(
        p for p in range(game.num_players) if top.realm_of(p) in realms
    )


# -- whole games in lockstep ----------------------------------------------------------------------
def check_tax(game: Queendomino, state: QueendominoState, top: Tabletop, legal: list[Move]) -> None:
    """At a TAX step: what each knight would collect, before it is chosen."""
    r = game.acting_realm(state)
    realm, model = state.realms[r], top.realms[r]
    _, cell1, cell2 = realm.kingdom.placed[-1]
    domino = DOMINOES[top.domino]
    for verb, square in legal:
        if verb == "knight":
            cell, terrain = (cell1, domino.terrain1) if square == 1 else (cell2, domino.terrain2)
            coins = game.tax(realm, realm.kingdom.terrains[terrain], cell)
            assert coins == qo.tax(model, game.table.buildings, xy_of(game.geo.size, cell))


def lockstep(game: Queendomino, seed: int) -> Counter[str]:
    """One random game, the engine and the oracle side by side; returns the moves made."""
    rng = random.Random(seed)
    top = tabletop_for(game)
    play = top.play()
    request = next(play)
    state = game.initial_state()
    made: Counter[str] = Counter()
    while True:
        player = game.current_player(state)
        if isinstance(request, Chance):
            assert player == CHANCE and state.phase == PHASE_OF_CHANCE[request.kind]
            assert {outcome for outcome, _ in game.chance_outcomes(state)} == request.outcomes
            action = game.sample_chance(state, rng)
            answer: qo.Answer = action
        else:
            assert player == request.player
            legal = game.legal_actions(state)
            moves = [move_of(game, top, action) for action in legal]
            assert {canonical(top, m) for m in moves} == {
                canonical(top, m) for m in request.options
            }
            assert len({canonical(top, m) for m in moves}) == len(moves)
            if state.phase == TAX:
                check_tax(game, state, top, moves)
            action = rng.choice(legal)
            answer = moves[legal.index(action)]
            made[answer[0]] += 1
        state = game.apply(state, action)
        try:
            request = play.send(answer)
        except StopIteration:
            break
        check_economy(game, state, top)
        if isinstance(answer, tuple) and answer[0] in ("place", "site"):
            check_kingdom(game, state, top, game.realm_of[player])
    assert game.current_player(state) == TERMINAL
    check_economy(game, state, top)
    for r in range(len(top.realms)):
        check_kingdom(game, state, top, r)
    check_pads(game, state, top)
    return made


@pytest.mark.parametrize("options", MODES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_games_in_every_mode_agree_with_the_oracle(options: dict[str, Any]) -> None:
    made = lockstep(make_game(options, None), seed=sum(options.values()))
    assert made["place"] and made["claim"] and made["build"] and made["site"] and made["pass"]


def test_games_with_every_effect_agree_with_the_oracle(rich_path: str) -> None:
    """The rich table: crowns on towns, both ongoing effects, every end-game kind, and the
    supply of knights and towers running out."""
    made: Counter[str] = Counter()
    for seed, options in enumerate(MODES):
        made += lockstep(make_game(options, rich_path), seed)
    assert made["knight"] > 100 and made["build"] > 100 and made["burn"] > 50


# -- arbitrary realms and boards ----------------------------------------------------------------
@st.composite
def economies(draw: st.DrawFn) -> dict[str, Any]:
    """Everything but the kingdom: what is on the board, the coins, knights and towers of
    the realm to act and of three rivals (within the supply), the Queen and the Dragon."""
    tiles = draw(st.permutations(range(32)))
    return {
        "tiles": tiles,
        "board": [tile if draw(st.booleans()) else None for tile in tiles[:6]],
        "site_picks": draw(st.lists(st.booleans(), min_size=24, max_size=24)),
        "knight_picks": draw(st.lists(st.integers(0, 7), min_size=48, max_size=48)),
        "coins": draw(st.integers(0, 12)),
        "guard": draw(st.integers(0, 3)),
        "towers": draw(st.integers(0, 3)),
        "rival_towers": draw(st.lists(st.integers(0, 4), min_size=3, max_size=3)),
        "rival_guards": draw(st.lists(st.integers(1, 4), min_size=3, max_size=3)),
        "queen": draw(st.sampled_from((None, 0, 1))),
        "dragon_ready": draw(st.booleans()),
    }


def walk(
    game: Queendomino, order: list[int], picks: list[int]
) -> tuple[kd.Kingdom, dict[XY, oracle.Square]]:
    """Random legal placements of `order` (both boxes: towns and Kingdomino terrains), checked
    against the oracle's placements at every step; the kingdom reached, both ways."""
    geo = game.geo
    kingdom = kd.empty_kingdom(geo, len(TERRAINS))
    squares: dict[XY, oracle.Square] = {}
    for domino_id, pick in zip(order, picks, strict=False):
        domino = DOMINOES[domino_id]
        truth = oracle.legal_placements(squares, domino, geo.size)
        codes = kd.legal_placements(geo, kingdom, domino)
        engine = {
            (xy_of(geo.size, cell1), xy_of(geo.size, cell2))
            for cell1, cell2 in (kd.decode_placement(geo, code) for code in codes)
        }
        if domino.symmetric:
            assert {frozenset(p) for p in engine} == {frozenset(p) for p in truth}
            assert len({frozenset(p) for p in engine}) == len(codes)
        else:
            assert engine == truth
        if truth:
            first, second = sorted(truth)[pick % len(truth)]
            kingdom = kd.place(
                geo, kingdom, domino, cell_of(geo.size, first), cell_of(geo.size, second)
            )
            squares = oracle.place(squares, domino, (first, second))
    return kingdom, squares


def position(
    game: Queendomino,
    kingdom: kd.Kingdom,
    squares: dict[XY, oracle.Square],
    economy: dict[str, Any],
) -> tuple[QueendominoState, Tabletop]:
    """The engine state (read through state_from_json) and the table for one position: realm
    0 holds the walked kingdom, buildings on some of its towns, knights on some squares, and
    is at its TAX step with a new line waiting to be claimed."""
    size = game.geo.size
    top = Tabletop(game.num_players, game.table.buildings)
    realm = top.realms[0]
    realm.squares = squares
    spare = list(economy["tiles"][6:])
    for xy, build in zip(sorted(realm.free_towns()), economy["site_picks"], strict=False):
        if build:
            realm.buildings[xy] = spare.pop()
    for xy, pick in zip(sorted(realm.squares), economy["knight_picks"], strict=False):
        if pick == 0 and len(realm.knights) < 6:
            realm.knights.add(xy)
    realm.coins, realm.guard = economy["coins"], economy["guard"]
    realm.towers = economy["towers"]
    for rival, towers, guard in zip(
        top.realms[1:], economy["rival_towers"], economy["rival_guards"], strict=False
    ):
        rival.towers, rival.guard = towers, guard
    top.board = list(economy["board"])
    top.queen = economy["queen"]
    top.dragon_ready = economy["dragon_ready"]
    top.pile -= placed_tiles(top)
    top.domino = kingdom.placed[-1][0] - 1
    top.line = [44, 45, 46, 47]

    data = game.state_to_json(game.initial_state())
    data["realms"] = [
        {
            "placed": [[n - 1, c1, c2] for n, c1, c2 in kingdom.placed] if r == 0 else [],
            "discarded": [],
            "coins": model.coins,
            "guard": model.guard,
            "knights": sorted(cell_of(size, xy) for xy in model.knights),
            "buildings": [[index, cell_of(size, xy)] for xy, index in model.buildings.items()],
            "towers": model.towers,
        }
        for r, model in enumerate(top.realms)
    ]
    data.update(
        phase=TAX,
        board=[EMPTY if tile is None else tile for tile in top.board],
        pile=sum(1 << tile for tile in top.pile),
        queen=NOBODY if top.queen is None else top.queen,
        dragon_ready=top.dragon_ready,
        line=top.line,
        claims=[-1] * 4,
        placing=[top.domino],
        placers=[0],
        turn=0,
        knighted=0,
        lines_drawn=1,
    )
    return game.state_from_json(data), top


def placed_tiles(top: Tabletop) -> set[int]:
    on_board = {tile for tile in top.board if tile is not None}
    return on_board | {tile for realm in top.realms for tile in realm.buildings.values()}


def check_steps(game: Queendomino, state: QueendominoState, top: Tabletop, pick: int) -> None:
    """From a TAX step, pass: BUILD comes only if the oracle offers it, with the same spaces,
    then the Dragon only if the oracle offers it, with the same tiles; then a build of one of
    the spaces on one of the free towns leaves the same realms, board and Queen as the
    oracle's build, and the Dragon is offered after it as the oracle says."""
    bribe = DRAGON if top.may_bribe(0) else CLAIM
    after = game.apply(state, game.pass_action)
    assert after.phase == (BUILD if top.may_build(0) else bribe)
    dragon = after
    if after.phase == BUILD:
        assert [move_of(game, top, a) for a in game.legal_actions(after)] == [
            *(("build", space) for space in top.affordable(0)),
            PASS,
        ]
        dragon = game.apply(after, game.pass_action)
        assert dragon.phase == bribe
    if dragon.phase == DRAGON:
        assert {move_of(game, top, a) for a in game.legal_actions(dragon)} == {
            *(("burn", space) for space in top.on_board()),
            PASS,
        }
    if after.phase != BUILD:
        return
    space = top.affordable(0)[pick % len(top.affordable(0))]
    site = game.apply(after, game.build_base + space)
    assert site.phase == SITE
    towns = sorted(top.realms[0].free_towns())
    assert sorted(move_of(game, top, a) for a in game.legal_actions(site)) == [
        ("site", xy) for xy in towns
    ]
    xy = towns[pick % len(towns)]
    built = game.apply(site, game.site_base + cell_of(game.geo.size, xy))
    top.build(0, space, xy)
    check_economy(game, built, top)
    check_kingdom(game, built, top, 0)
    assert built.phase == (DRAGON if top.may_bribe(0) else CLAIM)


@settings(max_examples=120, derandomize=True, deadline=None)
@given(
    players=st.sampled_from((2, 4)),
    rich=st.booleans(),
    order=st.permutations(range(96)),
    picks=st.lists(st.integers(0, 1 << 16), min_size=30, max_size=30),
    economy=economies(),
)
def test_arbitrary_realms_agree_with_the_oracle(
    rich_path: str,
    players: int,
    rich: bool,
    order: list[int],
    picks: list[int],
    economy: dict[str, Any],
) -> None:
    game = make_game({"players": players}, rich_path if rich else None)
    state, top = position(game, *walk(game, order, picks), economy)
    check_economy(game, state, top)
    check_kingdom(game, state, top, 0)
    realm = state.realms[0]
    for xy in top.realms[0].squares:
        terrain = top.realms[0].squares[xy][0]
        cell = cell_of(game.geo.size, xy)
        coins = game.tax(realm, realm.kingdom.terrains[terrain], cell)
        assert coins == qo.tax(top.realms[0], game.table.buildings, xy)
    for hosts in (None, 0, 1):
        top.queen = hosts
        hosted = state._replace(queen=NOBODY if hosts is None else hosts)
        check_pads(game, hosted, top)
    top.queen = economy["queen"]
    check_steps(game, state, top, picks[0])


# -- the economy's invariants over plain random games --------------------------------------------
def check_invariants(game: Queendomino, state: QueendominoState, burnt: list[int]) -> None:
    """Coins never negative; the supply never overdrawn; each tile in exactly one of pile,
    board, a realm or the Dragon's ashes; the Queen with a realm with the most towers once any
    has one; no more buildings than town squares, one per square."""
    assert all(realm.coins >= 0 for realm in state.realms)
    assert sum(realm.knights_owned for realm in state.realms) <= qo.KNIGHTS
    assert sum(realm.towers for realm in state.realms) <= qo.TOWERS
    pile = [tile for tile in range(len(game.table)) if state.pile >> tile & 1]
    pile += [state.top] if state.top != EMPTY else []
    board = [tile for tile in state.board if tile != EMPTY]
    built = [tile for realm in state.realms for tile, _ in realm.buildings]
    everything = pile + board + built + burnt
    assert sorted(everything) == list(range(len(game.table)))
    most = max(realm.towers for realm in state.realms)
    if most:
        assert state.queen != NOBODY and state.realms[state.queen].towers == most
    else:
        assert state.queen == NOBODY
    for realm in state.realms:
        cells = [cell for _, cell in realm.buildings]
        assert len(set(cells)) == len(cells) == realm.sites.bit_count()
        assert sum(1 << cell for cell in cells) == realm.sites
        assert realm.sites & ~realm.kingdom.terrains[TOWN] == 0
        assert realm.knights & ~realm.kingdom.occupied == 0


def play_with_invariants(game: Queendomino, seed: int) -> Counter[str]:
    """One random game, checking the invariants at every step; counts the Dragon's burns and
    the steps at which the supply of towers or knights is empty."""
    rng = random.Random(seed)
    state = game.initial_state()
    burnt: list[int] = []
    burns_per_round: Counter[tuple[int, ...]] = Counter()
    seen: Counter[str] = Counter()
    while game.current_player(state) != TERMINAL:
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        action = rng.choice(game.legal_actions(state))
        if state.phase == DRAGON and action != game.pass_action:
            assert state.queen != game.acting_realm(state), "the Queen's host bribed the Dragon"
            burnt.append(state.board[action - game.burn_base])
            burns_per_round[state.placing] += 1  # a round is known by the dominoes it places
        state = game.apply(state, action)
        check_invariants(game, state, burnt)
        seen["no tower left"] += game.tower_supply(state) == 0
        seen["no knight left"] += game.knight_supply(state) == 0
    assert set(burns_per_round.values()) <= {1}
    assert sorted(burnt) == sorted(game.burnt(state))
    seen["burn"] = len(burnt)
    return seen


def test_the_economy_keeps_its_invariants(rich_path: str) -> None:
    """Every mode with both tables; the rich one does drain the supply."""
    seen: Counter[str] = Counter()
    for seed, options in enumerate(MODES):
        for table in (None, rich_path):
            seen += play_with_invariants(make_game(options, table), 100 + seed)
    assert seen["burn"] > 100 and seen["no tower left"] and seen["no knight left"]


# -- the oracle against the rulebook ----------------------------------------------------------
def model_of(game: Queendomino, realm: Realm) -> qo.Realm:
    """The oracle's picture of an engine realm (a town's crowns are its building's)."""
    size = game.geo.size
    squares = engine_squares(size, realm.kingdom)
    buildings = {xy_of(size, cell): index for index, cell in realm.buildings}
    for xy in buildings:
        squares[xy] = (squares[xy][0], 0)
    knights = cells_of(size, realm.knights)
    return qo.Realm(squares, realm.coins, realm.guard, knights, buildings, realm.towers)


def test_the_oracle_scores_the_rulebooks_scoring_example_as_printed() -> None:
    """Rulebook "Scoring Example": 11 coins 3, crowns 3 + 3 + 6 + 16 (with the Queen) + 1 +
    12 + 0, Sawmill 6, Church 8, Travelling Castle 3, Big Tavern 2, Statue 5, Guardtower 3:
    71 points; the engine agrees."""
    game = Queendomino({"players": 4})
    text = (EXAMPLES / "queendomino-scoring-example.txt").read_text(encoding="utf-8")
    realm, hosts = parse_realm(text, game.geo, game.table)
    pad = qo.score_pad(model_of(game, realm), game.table.buildings, hosts)
    assert (pad.wealth, pad.territories + pad.queen, pad.queen) == (3, 3 + 3 + 6 + 16 + 1 + 12, 4)
    named = {game.table[index].name: points for index, points in pad.buildings}
    assert named == {
        "Sawmill": 6,
        "Church": 8,
        "Travelling Castle": 3,
        "Big Tavern": 2,
        "Statue": 5,
        "Guardtower": 3,
    }
    state = game.initial_state()
    state = state._replace(realms=(realm, *state.realms[1:]), queen=0)
    assert pad.total == game.breakdown(state, 0).total == 71
