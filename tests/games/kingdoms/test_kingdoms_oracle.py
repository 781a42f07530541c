"""The fast Kingdoms engine against the slow oracle (tests/support/kingdoms_oracle.py).

Three sources of positions: whole random games played in lockstep with the oracle's game in
every mode, where every chance node, every list of legal moves and the whole table after every
step must agree; arbitrary boards (hypothesis), which every line and the whole board must score
alike; and arbitrary positions in the middle of an epoch (hypothesis), from which both play on
in lockstep through the end of the epoch, its scoring and the next epoch's set-up. Engine
squares and actions are read back with the layouts the board.py and actions.py docstrings
document, written out again here, so a wrong table cannot hide behind itself.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kingdoms_oracle as ko
from kingdomkit.bots.heuristics import heuristics
from kingdomkit.core.protocol import CHANCE, TERMINAL
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.options import START_GOLD
from kingdomkit.games.kingdoms.rules import (
    DEAL,
    DRAW,
    FIRST,
    NO_TILE,
    PLACE,
    PLAY,
    Kingdoms,
    KingdomsState,
)
from kingdomkit.games.kingdoms.tiles import CASTLES, FULL_SUPPLY, LABELS, TYPES
from kingdoms_oracle import PASS, Castle, Chance, Decision, Move, Piece, Pos, Tabletop

SPACES = 30
GAMES = 5  # per mode, in lockstep


# -- the documented layouts, written out independently ------------------------------------------
def pos_of(space: int) -> Pos:
    """Space `row * 6 + column`, 0-based (board.py); the oracle counts from 1."""
    row, column = divmod(space, 6)
    return row + 1, column + 1


def space_of(pos: Pos) -> int:
    return (pos[0] - 1) * 6 + pos[1] - 1


def piece_of(square: int) -> Piece | None:
    """EMPTY (-1), a tile type 0 .. 15, or a castle 16 + 4 * player + rank - 1 (board.py)."""
    if square == -1:
        return None
    if square < 16:
        return LABELS[square]
    player, rank = divmod(square - 16, 4)
    return Castle(player, rank + 1)


def square_of(piece: Piece | None) -> int:
    if piece is None:
        return bd.EMPTY
    if isinstance(piece, Castle):
        return bd.castle(piece.player, piece.rank)
    return LABELS.index(piece)


def table_board(board: tuple[int, ...]) -> dict[Pos, Piece]:
    assert len(board) == SPACES
    return {
        pos_of(space): piece
        for space, square in enumerate(board)
        if (piece := piece_of(square)) is not None
    }


def engine_board(board: dict[Pos, Piece]) -> tuple[int, ...]:
    return tuple(square_of(board.get(pos_of(space))) for space in range(SPACES))


def move_of(action: int) -> Move:
    """What an engine action means, by the layout of the actions.py docstring."""
    if action < 120:
        rank, space = divmod(action, 30)
        return ("castle", (rank + 1, pos_of(space)))
    if action == 120:
        return ko.DRAW
    if action < 151:
        return ("start", pos_of(action - 121))
    if action < 181:
        return ("place", pos_of(action - 151))
    if action < 197:
        return ("take", LABELS[action - 181])
    assert action == 197
    return PASS


def labels(counts: tuple[int, ...]) -> Counter[str]:
    return Counter({LABELS[tile]: n for tile, n in enumerate(counts) if n})


def tile_label(tile: int) -> str | None:
    return None if tile == NO_TILE else LABELS[tile]


# -- comparing the engine with the table ---------------------------------------------------------
def check_table(game: Kingdoms, state: KingdomsState, top: Tabletop) -> None:
    """The board, the supply, the starting tiles, the hands, the gold, the epoch, the tile
    held, the first player and the lines already scored."""
    assert state.epoch == top.epoch - 1
    assert table_board(state.board) == top.board
    assert labels(state.supply) == +top.supply
    assert [tile_label(tile) for tile in state.starting] == top.starting
    assert [tuple(hand) for hand in state.castles] == [
        tuple(hand[rank] for rank in range(1, 5)) for hand in top.hands
    ]
    assert list(state.gold) == top.gold
    assert tile_label(state.held) == top.held
    assert {line for line in range(11) if state.scored >> line & 1} == top.scored
    if state.phase != FIRST:
        assert state.first == top.first


def check_request(game: Kingdoms, state: KingdomsState, request: ko.Request) -> list[Move]:
    """The engine asks what the oracle asks: the same chance odds, or the same player with
    the same moves (returned in the engine's order)."""
    player = game.current_player(state)
    if isinstance(request, Chance):
        assert player == CHANCE
        odds = game.chance_outcomes(state)
        total = sum(request.weights.values())
        if request.kind == ko.FIRST:
            assert state.phase == FIRST
            keyed: dict[Any, float] = dict(odds)
        else:
            assert state.phase in (DEAL, DRAW)
            keyed = {LABELS[outcome]: p for outcome, p in odds}
        assert len(keyed) == len(odds) and set(keyed) == set(request.weights)
        for key, p in keyed.items():
            assert math.isclose(p, request.weights[key] / total)
        return []
    assert player == request.player
    assert state.phase == (PLACE if all(m[0] == "place" for m in request.options) else PLAY)
    moves = [move_of(action) for action in game.legal_actions(state)]
    assert len(set(moves)) == len(moves) and set(moves) == request.options
    return moves


def pick(moves: list[Move], rng: random.Random) -> int:
    """A random move: first the kind (castle, draw, start, ...), then one of that kind; so
    tiles are drawn about as often as castles are placed and games last several epochs."""
    verb = rng.choice(sorted({verb for verb, _ in moves}))
    return rng.choice([i for i, (other, _) in enumerate(moves) if other == verb])


def lockstep(
    game: Kingdoms,
    state: KingdomsState,
    top: Tabletop,
    play: ko.Play,
    rng: random.Random,
    epochs: int | None = None,
) -> Counter[str]:
    """Engine and oracle side by side, random moves and draws, to the end of the game (or
    until `epochs` more epochs have begun); returns what was done and how many states."""
    request = next(play)
    stop = None if epochs is None else top.epoch + epochs
    made: Counter[str] = Counter()
    while True:
        moves = check_request(game, state, request)
        made["states"] += 1
        answer: ko.Answer
        if isinstance(request, Chance):
            action = game.sample_chance(state, rng)
            answer = action if request.kind == ko.FIRST else LABELS[action]
            made[request.kind] += 1
        else:
            legal = game.legal_actions(state)
            index = pick(moves, rng)
            action, answer = legal[index], moves[index]
            made[answer[0]] += 1
        state = game.apply(state, action)
        try:
            request = play.send(answer)
        except StopIteration:
            break
        check_table(game, state, top)
        if stop is not None and top.epoch == stop and isinstance(request, Decision):
            return made
    assert game.current_player(state) == TERMINAL
    check_table(game, state, top)
    assert list(game.winners(state)) == ko.winners(top.gold)
    assert game.scores(state) == tuple(float(gold) for gold in top.gold)
    made["games"] += 1
    made["epochs"] += top.epoch
    return made


def mode_id(options: dict[str, Any]) -> str:
    return "-".join(f"{key}={value}" for key, value in options.items())


# -- the components ------------------------------------------------------------------------------
def test_the_engine_has_the_rulebooks_components() -> None:
    """23 tiles as the rulebook lists them, castles per player by player count, 50 gold."""
    assert {t.label: t.count for t in TYPES} == ko.TILES
    assert dict(zip(LABELS, FULL_SUPPLY, strict=True)) == ko.TILES
    assert sum(FULL_SUPPLY) == 23
    for players, rank_one in ko.RANK_ONE_CASTLES.items():
        assert CASTLES[players] == (rank_one, 3, 2, 1)
    assert START_GOLD == ko.START_GOLD


def test_the_oracle_scores_the_rulebooks_examples() -> None:
    """Rulebook "Example of Scoring": row 1 (+3 Town, -6 Troll; yellow's rank 4 and rank 1
    next to the Wizard pay 18, red and blue pay 3 each); row 4 (the Dragon cancels the Village
    left of the mountain; the Knight pays blue 5 on the right); column 2 (the Dragon cancels
    the Windmill, the Gold Mine doubles the Dire Wolves: red pays 6); column 4 (the mountain
    cuts yellow off; +1 - 5 = -4 for blue's rank 1); column 6 (+5, +2 and two rank-1 castles
    next to the Wizard: 14 each). Yellow, red, blue are players 0, 1, 2."""
    row1: dict[Pos, Piece] = {
        (1, 1): "+3",
        (1, 2): Castle(1, 1),
        (1, 3): Castle(0, 4),
        (1, 4): "-6",
        (1, 5): Castle(0, 1),
        (1, 6): Castle(2, 1),
        (2, 5): "WIZ",
    }
    assert ko.line_gold(row1, ko.LINES[0], 3) == [-18, -3, -3]
    row4: dict[Pos, Piece] = {(4, 1): Castle(0, 2), (4, 2): "DRG", (4, 3): "+1", (4, 4): "MTN"}
    row4 |= {(4, 5): "+5", (4, 6): Castle(2, 1)}
    assert ko.line_gold(row4, ko.LINES[3], 3) == [0, 0, 5]
    column2: dict[Pos, Piece] = {
        (1, 2): Castle(1, 1),
        (2, 2): "+4",
        (3, 2): "-3",
        (4, 2): "DRG",
        (5, 2): "GLD",
    }
    assert ko.line_gold(column2, ko.LINES[5 + 1], 3) == [0, -6, 0]
    column4: dict[Pos, Piece] = {(1, 4): Castle(0, 2), (2, 4): "MTN", (3, 4): "+1", (4, 4): "-5"}
    column4 |= {(5, 4): Castle(2, 1)}
    assert ko.line_gold(column4, ko.LINES[5 + 3], 3) == [0, 0, -4]
    column6: dict[Pos, Piece] = {
        (1, 6): "+5",
        (2, 6): Castle(0, 1),
        (3, 6): "WIZ",
        (4, 6): Castle(2, 1),
    }
    column6 |= {(5, 6): "+2"}
    assert ko.line_gold(column6, ko.LINES[5 + 5], 3) == [14, 0, 14]
    for board in (row1, row4, column2, column4, column6):
        engine = engine_board(board)
        for line, spaces in enumerate(bd.LINES):
            assert list(bd.line_gold(engine, spaces, 3)) == ko.line_gold(board, ko.LINES[line], 3)


# -- whole games in lockstep ----------------------------------------------------------------------
@pytest.mark.parametrize("options", ko.MODES, ids=mode_id)
def test_games_in_every_mode_agree_with_the_oracle(options: dict[str, Any]) -> None:
    """The odds of every chance node, every player's moves and the whole table after every
    step, over whole games: some 800 states per mode, several epochs with Down to the Last
    Castle, draws, starting tiles or face-up tiles, scoring as lines fill."""
    game = Kingdoms(options)
    made: Counter[str] = Counter()
    for seed in range(GAMES):
        rng = random.Random(f"{mode_id(options)}/{seed}")
        top = ko.tabletop(options)
        made += lockstep(game, game.initial_state(), top, top.play(), rng)
    assert made["games"] == GAMES and made["states"] > 80 * GAMES
    assert made["castle"] and made[ko.FIRST] >= 2 * GAMES
    if options.get("no_luck"):
        assert made["take"] and not made["draw"] and not made["start"]
    else:
        assert made["draw"] and made["start"] and made[ko.TILE] > made["draw"]
    if not options.get("down_to_the_last_castle"):
        assert made["epochs"] == GAMES * ko.EPOCHS


# -- arbitrary boards ------------------------------------------------------------------------------
def boards(players: int, tiles: list[str]) -> st.SearchStrategy[dict[Pos, Piece]]:
    """Any board: each space empty, a tile of `tiles`, or any castle of any player."""
    piece = st.one_of(
        st.none(),
        st.sampled_from(tiles),
        st.builds(Castle, st.integers(0, players - 1), st.integers(1, 4)),
    )
    return st.lists(piece, min_size=SPACES, max_size=SPACES).map(
        lambda squares: {
            pos_of(space): piece for space, piece in enumerate(squares) if piece is not None
        }
    )


@st.composite
def scored_boards(draw: st.DrawFn) -> tuple[int, dict[Pos, Piece]]:
    """Boards with any tiles, as many of each as chance gives (the specials weighted up, so
    that lines with two mountains, dragons, gold mines and wizard pairs come often)."""
    players = draw(st.integers(2, 4))
    specials = ["MTN", "DRG", "GLD", "WIZ"] * 3
    return players, draw(boards(players, [*LABELS, *specials]))


@settings(max_examples=400, derandomize=True, deadline=None)
@given(scored_boards())
def test_arbitrary_boards_score_as_the_oracle_scores_them(
    board_and_players: tuple[int, dict[Pos, Piece]],
) -> None:
    """Every line, part by part; a castle's rank with its wizards; the whole board; and
    `evaluate`, which is the gold plus what the board would pay now."""
    players, board = board_and_players
    engine = engine_board(board)
    assert table_board(engine) == board
    for line, spaces in enumerate(bd.LINES):
        assert [board.get(pos_of(space)) for space in spaces] == [
            board.get(pos) for pos in ko.LINES[line]
        ]
        truth = ko.line_gold(board, ko.LINES[line], players)
        assert list(bd.line_gold(engine, spaces, players)) == truth
        parts = bd.line_parts(engine, spaces, players)
        oracle_parts = [part for part in ko.parts(board, ko.LINES[line]) if part]
        assert [[pos_of(space) for space in part.spaces] for part in parts] == oracle_parts
        assert [part.base for part in parts] == [ko.part_value(board, p) for p in oracle_parts]
    for pos, piece in board.items():
        if isinstance(piece, Castle):
            assert bd.rank_at(engine, space_of(pos)) == ko.rank(board, pos)
    game = Kingdoms({"players": players})
    gold = tuple(range(players))
    state = game.initial_state()._replace(phase=PLAY, board=engine, gold=gold)
    totals = ko.epoch_gold(board, players)
    for player in range(players):
        assert heuristics(game).evaluate(state, player) == gold[player] + totals[player]


# -- arbitrary positions --------------------------------------------------------------------------
BOX = [label for label, count in ko.TILES.items() for _ in range(count)]


@st.composite
def positions(draw: st.DrawFn) -> tuple[Kingdoms, KingdomsState, Tabletop]:
    """A player to act in the middle of an epoch, in any mode: some of the 23 tiles and any
    castles on the board (at least one space empty), starting tiles from the rest, any
    castles in hand, gold with ties likely; with Score as You Go the full lines have scored;
    someone can act.
    Built twice: as an engine state and as the oracle's table."""
    options = draw(st.sampled_from(ko.MODES))
    game = Kingdoms(options)
    top = ko.tabletop(options)
    players = top.players
    tiles = draw(st.permutations(BOX))
    spaces = draw(st.permutations(range(SPACES)))
    on_board = draw(st.integers(0, 23))
    castles = draw(st.integers(0, SPACES - 1 - on_board))
    for space, tile in zip(spaces, tiles[:on_board], strict=False):
        top.board[pos_of(space)] = tile
    owners = st.builds(Castle, st.integers(0, players - 1), st.integers(1, 4))
    for space in spaces[on_board : on_board + castles]:
        top.board[pos_of(space)] = draw(owners)
    rest = list(tiles[on_board:])
    if not top.no_luck:
        dealt = draw(st.lists(st.booleans(), min_size=players, max_size=players))
        top.starting = [rest.pop() if rest and deal else None for deal in dealt]
    top.supply = Counter(rest)
    top.hands = [{rank: draw(st.integers(0, 2)) for rank in range(1, 5)} for _ in range(players)]
    top.gold = draw(st.lists(st.integers(48, 52), min_size=players, max_size=players))
    top.epoch = draw(st.integers(1, 5 if top.down_to_the_last_castle else 3))
    top.first = draw(st.integers(0, players - 1))
    top.turn = draw(st.integers(0, players - 1))
    if top.score_as_you_go:
        # The full lines paid when they filled; that gold is in the purses already.
        top.scored = {i for i, line in enumerate(ko.LINES) if all(p in top.board for p in line)}
    top.last_castle_placed = any(not any(hand.values()) for hand in top.hands)
    assume(not top.epoch_over())  # the engine ends the epoch as soon as nobody can act
    state = KingdomsState(
        PLAY,
        top.epoch - 1,
        engine_board(top.board),
        tuple(top.supply[label] for label in LABELS),
        tuple(NO_TILE if tile is None else LABELS.index(tile) for tile in top.starting),
        tuple(tuple(hand[rank] for rank in range(1, 5)) for hand in top.hands),
        tuple(top.gold),
        top.first,
        top.turn,
        NO_TILE,
        sum(1 << line for line in top.scored),
    )
    return game, state, top


@settings(max_examples=300, derandomize=True, deadline=None)
@given(positions(), st.integers(0, 1 << 32))
def test_arbitrary_positions_play_on_as_the_oracle_plays(
    position: tuple[Kingdoms, KingdomsState, Tabletop], seed: int
) -> None:
    """The same moves (castles of the ranks in hand, draw or take, the starting tile, pass
    only when nothing else), then random play through the end of the epoch, its scoring, who
    starts the next and what each player has for it, up to that epoch's first move."""
    game, state, top = position
    check_table(game, state, top)
    lockstep(game, state, top, top.finish(), random.Random(seed), epochs=1)
