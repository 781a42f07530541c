"""Knizia's Kingdoms' rules, one by one: hand-made boards and positions played through the
protocol with readable moves (codec.py), then the hidden information. Each test names the
rulebook text it checks (shared/rules/kingdoms-rulebook.txt); docs/rules-notes.md lists the
choices made where it is silent (a tie for the first player, the end of an epoch in which
nobody can act, Score as You Go's unfinished lines, the secret of a tile drawn and not yet
placed)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from kingdomkit.bots.heuristics import heuristics
from kingdomkit.core.driver import random_playout
from kingdomkit.core.protocol import CHANCE, TERMINAL, IllegalActionError, OptionError
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms.rules import (
    DEAL,
    FIRST,
    HIDDEN,
    NO_TILE,
    OVER,
    PLACE,
    PLAY,
    Kingdoms,
    KingdomsState,
    supply_size,
)
from kingdomkit.games.kingdoms.tiles import CASTLES, FULL_SUPPLY, TYPES, tile_type
from kingdoms_oracle import MODES

Board = tuple[int, ...]
EMPTY_ROW = ". . . . . ."


# -- helpers ----------------------------------------------------------------------------------
def tile(label: str) -> int:
    kind = tile_type(label)
    assert kind is not None, label
    return kind.index


def square(token: str) -> int:
    """`.` an empty space, a tile (`+3`, `-6`, `MTN`, `DRG`, `GLD`, `WIZ`), or a castle
    `A4` (player A, rank 4)."""
    if token == ".":
        return bd.EMPTY
    if token[0] in "ABCD" and token[1:].isdigit():
        return bd.castle(ord(token[0]) - ord("A"), int(token[1:]))
    return tile(token)


def grid(*rows: str) -> Board:
    """A board from rows of six tokens, the top row first; rows not given are empty."""
    padded = [*rows, *[EMPTY_ROW] * (bd.ROWS - len(rows))]
    squares = [square(token) for row in padded for token in row.split()]
    assert len(squares) == bd.SPACES, rows
    return tuple(squares)


def line_gold(board: Board, name: str, players: int = 3) -> tuple[int, ...]:
    return bd.line_gold(board, bd.LINES[bd.LINE_NAMES.index(name)], players)


def board_gold(board: Board, players: int) -> list[int]:
    """The whole board, as the epoch's end scores it (the lines' sum, checked against the
    oracle in test_kingdoms_oracle.py)."""
    return [
        sum(bd.line_gold(board, line, players)[player] for line in bd.LINES)
        for player in range(players)
    ]


def position(game: Kingdoms, board: Board, **changes: Any) -> KingdomsState:
    """Player A to act in epoch 1 on `board`, with full hands, no starting tiles and the
    tiles not on the board face down in the supply; `changes` replace fields."""
    supply = list(FULL_SUPPLY)
    for each in board:
        if bd.is_tile(each):
            supply[each] -= 1
    start = game.initial_state()
    return start._replace(phase=PLAY, board=board, supply=tuple(supply))._replace(**changes)


def play(game: Kingdoms, state: KingdomsState, *moves: str) -> KingdomsState:
    """Readable moves; `tile +3` is chance drawing (or dealing) a +3."""
    for move in moves:
        if move.startswith("tile "):
            assert game.current_player(state) == CHANCE
            state = game.apply(state, tile(move.split()[1]))
        else:
            state = game.apply(state, game.parse_action(state, move))
    return state


def moves(game: Kingdoms, state: KingdomsState) -> list[str]:
    return [game.action_to_string(state, action) for action in game.legal_actions(state)]


def first_turn(game: Kingdoms, first: int, *starting: str) -> KingdomsState:
    """A new game: `first` starts, the players are dealt `starting` in seat order."""
    state = game.apply(game.initial_state(), first)
    return play(game, state, *(f"tile {label}" for label in starting))


def random_game(game: Kingdoms, seed: int) -> list[KingdomsState]:
    rng = random.Random(seed)
    states = [game.initial_state()]
    while game.current_player(states[-1]) != TERMINAL:
        state = states[-1]
        if game.current_player(state) == CHANCE:
            states.append(game.apply(state, game.sample_chance(state, rng)))
        else:
            states.append(game.apply(state, rng.choice(game.legal_actions(state))))
    return states


# -- set-up ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "rank_one"), [(2, 4), (3, 3), (4, 2)])
def test_set_up(players: int, rank_one: int) -> None:
    """Rulebook "Setup": rank-1 castles by player count and every rank 2, 3, 4 castle of
    the colour; 50 gold each; 23 tiles face down; each player draws a secret starting tile.
    "Randomly choose one player to take the first turn"."""
    game = Kingdoms({"players": players})
    state = game.initial_state()
    assert state.castles == ((rank_one, 3, 2, 1),) * players == (CASTLES[players],) * players
    assert state.gold == (50,) * players
    assert sum(state.supply) == 23 and state.board == (bd.EMPTY,) * 30
    assert (state.phase, state.epoch) == (FIRST, 0)
    assert game.chance_outcomes(state) == tuple((p, 1 / players) for p in range(players))
    state = game.apply(state, players - 1)
    dealt = (tile("+1"), tile("+1"), tile("WIZ"), tile("DRG"))  # the +1s first
    for player in range(players):
        assert state.phase == DEAL and state.turn == player
        odds = dict(game.chance_outcomes(state))
        assert odds.get(tile("+1"), 0) == max(2 - player, 0) / (23 - player)
        assert odds[tile("-6")] == 1 / (23 - player)
        state = game.apply(state, dealt[player])
    assert state.phase == PLAY and game.current_player(state) == players - 1
    assert state.starting == dealt[:players]
    assert sum(state.supply) == 23 - players == supply_size(state)


def test_turns_go_clockwise_and_a_drawn_tile_is_placed_by_its_drawer() -> None:
    """Rulebook "Play": "the player to his left takes his turn"; "Draw and Place One Tile:
    Randomly draw one of the facedown tiles ..., look at it, then place it"."""
    game = Kingdoms({"players": 4})
    state = first_turn(game, 2, "+1", "+2", "+3", "+4")
    acting = []
    for move in ("castle 4 1,1", "draw", "tile -6", "place 2,2", "start 3,3", "castle 1 4,4"):
        acting.append(game.current_player(state))
        state = play(game, state, move)
    assert acting == [2, 3, CHANCE, 3, 0, 1]
    assert game.current_player(state) == 2
    assert state.board[bd.space(1, 1)] == tile("-6")
    assert state.board[bd.space(2, 2)] == tile("+1") and state.starting[0] == NO_TILE


def test_a_player_may_pass_only_when_nothing_else_is_possible() -> None:
    """Rulebook "Play": "Players may only pass if they are unable to take any of these three
    actions"."""
    game = Kingdoms({"players": 2})
    board = grid("+1 +1 +2 +2 +3 +3", "+4 +4 +5 +5 +6 +6", "-1 -2 -3 -4 -5 -6", "MTN MTN . . . .")
    stuck = position(game, board, supply=(0,) * 16, castles=((0, 0, 0, 0), (1, 0, 0, 0)))
    assert moves(game, stuck) == ["pass"]
    after = play(game, stuck, "pass")
    assert after.phase == PLAY and game.current_player(after) == 1 and after.board == board
    assert moves(game, stuck._replace(castles=((0, 0, 0, 1), (0, 0, 0, 0))))[-1] == "castle 4 5,6"
    with_start = stuck._replace(starting=(tile("DRG"), NO_TILE))
    assert "pass" not in moves(game, with_start) and "start 4,3" in moves(game, with_start)
    with_supply = stuck._replace(supply=tuple(int(t.label == "GLD") for t in TYPES))
    assert moves(game, with_supply) == ["draw"]
    with pytest.raises(IllegalActionError, match="pass only"):
        game.parse_action(with_supply, "pass")


def test_a_castle_needs_one_of_that_rank_in_hand_and_an_empty_space() -> None:
    """Rulebook "Play": "Place one friendly castle onto an empty space"."""
    game = Kingdoms({"players": 3})
    state = position(game, grid("A4 +3 . . . ."), castles=((2, 0, 1, 0),) * 3)
    offered = moves(game, state)
    assert {move.split()[1] for move in offered if move.startswith("castle")} == {"1", "3"}
    assert "castle 1 1,1" not in offered and "castle 1 1,3" in offered
    with pytest.raises(IllegalActionError, match="taken"):
        game.parse_action(state, "castle 1 1,2")
    with pytest.raises(IllegalActionError, match="no castle of rank 2"):
        game.parse_action(state, "castle 2 3,3")


# -- scoring: hand-made lines ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("row", "gold"),
    [
        ("A1 +3 . +5 B2 .", (8, 16, 0)),  # no mountain: the whole row
        ("A1 +3 MTN +5 B2 .", (3, 10, 0)),  # one mountain: two parts
        ("+3 A1 MTN -2 B2 MTN", (3, -4, 0)),  # two mountains, one at the end
        ("A1 MTN B2 MTN +4 C1", (0, 0, 4)),  # two mountains: three parts
        ("MTN A2 +4 -1 B1 .", (6, 3, 0)),  # a mountain at the start
        ("A1 +2 MTN MTN +5 B1", (2, 5, 0)),  # adjacent mountains: an empty part between
        ("A4 MTN +6 +6 +5 B1", (0, 17, 0)),  # a mountain cuts a castle off every tile
        ("A1 +6 DRG -2 +3 .", (-2, 0, 0)),  # the dragon cancels the resources
        ("A2 +6 DRG -2 GLD .", (-8, 0, 0)),  # dragon and gold mine: the hazards doubled
        ("A1 +6 MTN DRG +4 B1", (6, 0, 0)),  # the dragon only in its part
        ("A1 +3 MTN GLD +4 B1", (3, 8, 0)),  # the gold mine only in its part
        ("A1 -3 GLD -1 . C3", (-8, 0, -24)),  # the gold mine doubles hazards too
        ("A1 DRG +4 MTN GLD B2", (0, 0, 0)),  # nothing left to double
        ("A4 . . . . B1", (0, 0, 0)),  # empty spaces count 0
        ("A1 A2 A3 A4 B4 C1", (0, 0, 0)),  # castles only
    ],
)
def test_a_row_scores_part_by_part(row: str, gold: tuple[int, ...]) -> None:
    """Rulebook "Scoring": resources minus hazards, times the player's ranks in the row; "the
    mountain tile divides its row and column into two parts, each of which is scored
    separately"; the Dragon "cancels all resource tiles"; the Gold Mine "doubles the value of
    all other tiles ... positive ... or negative". The columns score the same way."""
    assert line_gold(grid(row), "row 1") == gold
    five = row.split()[:5]  # a column has five spaces
    column = grid(*(f"{token} . . . . ." for token in five))
    assert line_gold(column, "column 1") == line_gold(grid(" ".join([*five, "."])), "row 1")


def test_the_rulebooks_row_1_and_column_6() -> None:
    """Rulebook "Example of Scoring": row 1, +3 Town and -6 Troll, yellow's rank 4 and its
    rank 1 next to the Wizard pay 18, red and blue 3 each; column 6, the Knight and the Farm,
    the two rank-1 castles next to the Wizard collect 14 each (yellow A, red B, blue C)."""
    board = grid("+3 B1 A4 -6 A1 C1", ". . . . WIZ .")
    assert line_gold(board, "row 1") == (-18, -3, -3)
    board = grid(". . . . . +5", ". . . . . A1", ". . . . . WIZ", ". . . . . C1", ". . . . . +2")
    assert line_gold(board, "column 6") == (14, 0, 14)


WIZARD_BOARD = (
    ". . . . . .",
    ". +1 C1 . . .",
    "+2 A1 WIZ B2 +3 .",
    ". . A1 B1 . -1",
    ". . +4 . . .",
)


def test_the_wizard_raises_every_castle_next_to_it() -> None:
    """Rulebook "Wizard Tile": "increases the rank of each castle that is orthogonally
    adjacent to the wizard tile by one", in whatever line the castle scores (C's castle
    above the wizard scores row 2 with rank 2); not diagonally (B's castle in row 4)."""
    board = grid(*WIZARD_BOARD)
    castles = ((3, 2), (3, 4), (2, 3), (4, 3), (4, 4))
    ranks = [bd.rank_at(board, bd.space(row - 1, column - 1)) for row, column in castles]
    assert ranks == [2, 3, 2, 2, 1]
    assert line_gold(board, "row 2") == (0, 0, 2)
    assert line_gold(board, "row 3") == (10, 15, 0)
    assert line_gold(board, "row 4") == (-2, -1, 0)
    assert line_gold(board, "column 2") == (2, 0, 0)
    assert line_gold(board, "column 3") == (8, 0, 8)
    assert board_gold(board, 3) == [18, 14, 10]


@pytest.mark.parametrize("score_as_you_go", [False, True])
def test_an_epoch_scores_every_row_then_every_column(score_as_you_go: bool) -> None:
    """Rulebook "Scoring": "each row ..., starting with the top row. Then ... each column";
    an epoch that ends with empty spaces (Down to the Last Castle, nobody can act) scores them
    as 0, and with Score as You Go its unfinished lines score then. The wizard board pays A
    18, B 14, C 10 when A places its starting tile, the -1, as the last thing anyone can do."""
    options = {"players": 3, "down_to_the_last_castle": True, "score_as_you_go": score_as_you_go}
    game = Kingdoms(options)
    board = grid(*WIZARD_BOARD[:3], ". . A1 B1 . .", WIZARD_BOARD[4])
    hands = ((0, 0, 0, 0),) * 3
    before = position(game, board, supply=(0,) * 16, castles=hands, starting=(tile("-1"), -1, -1))
    action = game.parse_action(before, "start 4,6")
    state = game.apply(before, action)
    assert state.phase == OVER and state.gold == (50 + 18, 50 + 14, 50 + 10)
    events = game.events(before, action, state)
    assert [e["line"] for e in events if e["type"] == "score"] == list(bd.LINE_NAMES)


def test_gold_may_go_below_zero() -> None:
    """Reference notes: the rulebook sets no floor; "collects from (or pays to) the bank"."""
    game = Kingdoms({"players": 2})
    board = grid(
        "A4 -6 -5 -4 -3 -2",
        "-1 MTN MTN DRG GLD WIZ",
        "+1 +1 +2 +2 +3 +3",
        "+4 +4 +5 +5 +6 +6",
        ". B1 B1 B1 B1 B1",
    )
    state = position(game, board, gold=(5, 50))
    state = play(game, state, "castle 1 5,1")
    assert state.phase == FIRST and state.epoch == 1
    # Row 1: -20 x rank 4; column 1: +4 x ranks 4 + 1.
    assert board_gold(state_board(board, 24, "A1"), 2)[0] == -80 + 20
    assert state.gold[0] == 5 - 60


def state_board(board: Board, space: int, token: str) -> Board:
    return (*board[:space], square(token), *board[space + 1 :])


# -- the end of an epoch and the next --------------------------------------------------------------
def test_the_epoch_ends_when_the_board_is_full_and_the_next_is_set_up() -> None:
    """Rulebook "Scoring": "The epoch ends when there are no more empty spaces"; "The Second &
    Third Epochs": rank-1 castles go back to their owners, the others to the box; every tile
    back into the supply; new starting tiles; the richest player starts."""
    game = Kingdoms({"players": 2})
    board = grid(
        "A1 +1 +1 +2 +2 A2",
        "+3 +3 B1 +4 +4 A1",
        "+5 +5 +6 +6 B4 -1",
        "-2 -3 -4 -5 -6 MTN",
        "MTN DRG GLD WIZ B1 .",
    )
    state = position(game, board, castles=((1, 1, 2, 1), (1, 2, 2, 0)), turn=1)
    assert state.castles[0] != (0, 0, 0, 0)
    gains = board_gold(state_board(board, 29, "B3"), 2)
    state = play(game, state, "castle 3 5,6")
    assert state.phase == FIRST and state.epoch == 1
    assert state.gold == (50 + gains[0], 50 + gains[1])
    assert state.castles == ((1 + 2, 1, 2, 1), (1 + 2, 2, 1, 0))
    assert state.board == (bd.EMPTY,) * 30 and state.supply == FULL_SUPPLY
    assert state.starting == (NO_TILE, NO_TILE) and state.scored == 0
    assert gains[0] != gains[1]
    richest = 0 if gains[0] > gains[1] else 1
    assert game.chance_outcomes(state) == ((richest, 1.0),)
    state = play(game, game.apply(state, richest), "tile +1", "tile +1")
    assert state.phase == PLAY and game.current_player(state) == richest


def test_the_epoch_goes_on_while_one_space_is_empty() -> None:
    game = Kingdoms({"players": 2})
    board = grid(
        "A1 +1 +1 +2 +2 .",
        "+3 +3 B1 +4 +4 .",
        "+5 +5 +6 +6 B4 -1",
        "-2 -3 -4 -5 -6 MTN",
        "MTN DRG GLD WIZ B1 .",
    )
    state = play(game, position(game, board), "castle 1 1,6", "castle 2 2,6")
    assert state.phase == PLAY and state.gold == (50, 50) and game.current_player(state) == 0
    assert moves(game, state) == ["castle 1 5,6", "castle 2 5,6", "castle 3 5,6", "castle 4 5,6"]


@pytest.mark.parametrize(
    ("gold", "candidates"),
    [((60, 70, 55), (1,)), ((70, 70, 55), (0, 1)), ((-3, -3, -3), (0, 1, 2))],
)
def test_the_richest_player_starts_the_second_and_third_epochs(
    gold: tuple[int, ...], candidates: tuple[int, ...]
) -> None:
    """Rulebook: "The player with the most gold after the first epoch takes the first turn
    during the second epoch" (and the third); a tie is drawn among the tied players."""
    game = Kingdoms({"players": 3})
    for epoch in (1, 2):
        state = game.initial_state()._replace(epoch=epoch, gold=gold)
        assert game.chance_outcomes(state) == tuple((p, 1 / len(candidates)) for p in candidates)
        assert game.first_candidates(state) == list(candidates)


def test_a_game_is_three_epochs() -> None:
    """Rulebook "Game End": "The game ends after the third epoch"; every epoch fills the
    board, deals a starting tile to each player and has a first player."""
    for players in (2, 3, 4):
        game = Kingdoms({"players": players})
        states = random_game(game, players)
        firsts = [s for s in states if s.phase == FIRST]
        assert [s.epoch for s in firsts] == [0, 1, 2]
        assert sum(1 for s in states if s.phase == DEAL) == 3 * players
        ends = [b for b, a in itertools.pairwise(states) if a.epoch > b.epoch]
        assert len(ends) == 2 and all(b.board.count(bd.EMPTY) == 1 for b in ends)
        final = states[-1]
        assert final.phase == OVER and final.epoch == 2 and bd.EMPTY not in final.board
        assert game.current_player(final) == TERMINAL and game.legal_actions(final) == ()


def test_equal_gold_shares_the_victory() -> None:
    """Rulebook "Game End": "The player with the most gold wins!"; equal gold shares it."""
    game = Kingdoms({"players": 3})
    over = game.initial_state()._replace(phase=OVER, epoch=2, gold=(60, 72, 72))
    assert game.winners(over) == (1, 2)
    assert game.returns(over) == (0.0, 0.5, 0.5)
    assert game.scores(over) == (60.0, 72.0, 72.0)
    alone = over._replace(gold=(-4, -5, -6))
    assert game.winners(alone) == (0,) and game.returns(alone) == (1.0, 0.0, 0.0)


# -- variants -------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_down_to_the_last_castle_gives_every_castle(players: int) -> None:
    """Rulebook "Down to the Last Castle": "All players begin the game with all of the castles of
    their color"."""
    game = Kingdoms({"players": players, "down_to_the_last_castle": True})
    assert game.initial_state().castles == ((4, 3, 2, 1),) * players


def full_but(game: Kingdoms, empty: int, **changes: Any) -> KingdomsState:
    """Every tile and castles on the board but the last `empty` spaces of row 5."""
    rows = [
        "A1 +1 +1 +2 +2 B2",
        "+3 +3 B1 +4 +4 A1",
        "+5 +5 +6 +6 A4 -1",
        "-2 -3 -4 -5 -6 MTN",
    ]
    last = ["MTN", "DRG", "GLD", "WIZ", "A3", "B3"]
    board = grid(*rows, " ".join(last[: 6 - empty] + ["."] * empty))
    return position(game, board, **changes)


def test_down_to_the_last_castle_returns_no_castle() -> None:
    """Down to the Last Castle: "At the end of each epoch, remove all castles from the board
    (including rank 1 castles) and place them in the game box"; no counter: a fourth epoch if
    nobody has placed their last castle."""
    game = Kingdoms({"players": 2, "down_to_the_last_castle": True})
    state = full_but(game, 1, epoch=2, castles=((2, 1, 0, 0), (1, 1, 1, 1)), turn=1)
    state = play(game, state, "castle 4 5,6")
    assert state.phase == FIRST and state.epoch == 3
    assert state.castles == ((2, 1, 0, 0), (1, 1, 1, 0))


def test_down_to_the_last_castle_ends_after_the_epoch_of_a_last_castle() -> None:
    """Down to the Last Castle: "The game ends at the end of the epoch in which at least one player
    has placed his last castle. The epoch continues until every space on the board is full or no
    player can perform actions"."""
    game = Kingdoms({"players": 2, "down_to_the_last_castle": True})
    state = full_but(game, 3, castles=((1, 0, 0, 0), (2, 0, 0, 0)))
    state = play(game, state, "castle 1 5,4")
    assert state.castles[0] == (0, 0, 0, 0) and state.phase == PLAY
    state = play(game, state, "castle 1 5,5")
    assert moves(game, state) == ["draw"]  # A still draws tiles
    state = play(game, state, "draw", "tile WIZ", "place 5,6")
    assert state.phase == OVER and state.epoch == 0
    assert game.current_player(state) == TERMINAL


def test_down_to_the_last_castle_a_player_passes_while_others_play() -> None:
    """Down to the Last Castle: "If players are unable to play during this epoch, they must pass
    until either no other players can play or the board is full"."""
    game = Kingdoms({"players": 3, "down_to_the_last_castle": True})
    hands = ((0, 0, 0, 0), (2, 0, 0, 0), (0, 0, 0, 0))
    state = full_but(game, 3, castles=hands, supply=(0,) * 16)
    assert moves(game, state) == ["pass"]
    state = play(game, state, "pass", "castle 1 5,4", "pass", "pass", "castle 1 5,5")
    assert state.phase == OVER  # nobody can act; one space stays empty
    assert state.board[bd.space(4, 5)] == bd.EMPTY


def test_no_luck_puts_every_tile_face_up() -> None:
    """Rulebook "No Luck": "place all of the tiles faceup ... and do not draw a starting tile ...
    players may choose which tile to draw and place"."""
    game = Kingdoms({"players": 3, "no_luck": True})
    state = game.apply(game.initial_state(), 1)
    assert state.phase == PLAY and game.current_player(state) == 1
    assert state.starting == (NO_TILE,) * 3 and state.supply == FULL_SUPPLY
    offered = moves(game, state)
    assert [move for move in offered if not move.startswith("castle")] == [
        f"take {t.label}" for t in TYPES
    ]
    with pytest.raises(IllegalActionError):
        game.parse_action(state, "draw")
    state = play(game, state, "take GLD")
    assert state.phase == PLACE and state.held == tile("GLD") and state.supply[tile("GLD")] == 0
    state = play(game, state, "place 3,3")
    assert state.board[bd.space(2, 2)] == tile("GLD") and game.current_player(state) == 2
    assert "take GLD" not in moves(game, state)
    with pytest.raises(IllegalActionError, match="no GLD tile"):
        game.parse_action(state, "take GLD")
    states = random_game(game, 5)
    assert all(s.phase != DEAL and s.starting == (NO_TILE,) * 3 for s in states)


def test_score_as_you_go_scores_a_line_as_it_fills_and_never_again() -> None:
    """Rulebook "Score as You Go": "score each row (and column) immediately as it becomes filled".
    Row 1 pays A 11 when B fills it; the Wizard placed under A's castle afterwards does not make
    it pay again, though the whole board at the end would have paid A 22 for it."""
    game = Kingdoms({"players": 2, "score_as_you_go": True})
    board = grid(
        "A1 +3 +3 +2 +2 .",
        ". +4 +4 +5 +5 B1",
        "+6 +6 -1 -2 -3 -4",
        "-5 -6 MTN MTN DRG GLD",
        "B2 B2 B2 A1 A1 A1",
    )
    full = [line for line, spaces in enumerate(bd.LINES) if bd.line_full(board, spaces)]
    state = position(
        game,
        board,
        turn=1,
        starting=(tile("WIZ"), tile("+1")),
        scored=sum(1 << line for line in full),
    )
    state = play(game, state, "start 1,6")
    row_1 = line_gold(state.board, "row 1", 2)
    assert row_1 == (11, 0) and state.phase == PLAY
    column_6 = line_gold(state.board, "column 6", 2)
    assert state.gold == (50 + 11 + column_6[0], 50 + column_6[1])
    assert state.scored >> bd.LINE_NAMES.index("row 1") & 1
    paid = state.gold
    state = play(game, state, "start 2,1")
    assert state.phase == FIRST
    final = state_board(state_board(board, 5, "+1"), 6, "WIZ")
    assert line_gold(final, "row 1", 2) == (22, 0)
    row_2, column_1 = line_gold(final, "row 2", 2), line_gold(final, "column 1", 2)
    assert state.gold == tuple(paid[p] + row_2[p] + column_1[p] for p in range(2))


# -- options --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5}, "2 to 4 players"),
        ({"players": 1}, "2 to 4 players"),
        ({"players": "3"}, "2 to 4 players"),
        ({"players": True}, "2 to 4 players"),
        ({"players": 3, "dragons": True}, "unknown Kingdoms option 'dragons'"),
        ({"players": 3, "no_luck": "yes"}, "on or off"),
    ],
)
def test_options_that_are_not_kingdoms_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Kingdoms(options)
    with pytest.raises(OptionError, match=message):
        make_game("kingdoms", options)


def test_every_variant_combines_and_four_players_is_the_default() -> None:
    game = make_game("kingdoms", MODES[-1])
    assert isinstance(game, Kingdoms) and game.num_players == 4
    assert game.setup.down_to_the_last_castle and game.setup.no_luck
    assert game.setup.score_as_you_go
    assert Kingdoms().num_players == 4


# -- hidden information ---------------------------------------------------------------------------
SECRET_MODES = [options for options in MODES if not options.get("no_luck")]


def sample_states(options: dict[str, Any], games: int = 2, every: int = 7) -> list[KingdomsState]:
    game = Kingdoms(options)
    return [s for seed in range(games) for s in random_game(game, seed)[::every]]


def seen_tiles(state: KingdomsState, player: int | None) -> list[int]:
    """Tiles by type that `player` has seen: the board, their own starting tile, the tile
    they hold."""
    seen = [0] * len(TYPES)
    for each in state.board:
        if bd.is_tile(each):
            seen[each] += 1
    if player is not None and state.starting[player] >= 0:
        seen[state.starting[player]] += 1
    if state.phase == PLACE and state.turn == player:
        seen[state.held] += 1
    return seen


def test_a_view_shows_a_player_their_own_starting_tile_only() -> None:
    """Rulebook "Setup": "Each player draws one tile and secretly looks at it"."""
    game = Kingdoms({"players": 3})
    state = first_turn(game, 0, "+5", "DRG", "-6")
    for player, own in enumerate((tile("+5"), tile("DRG"), tile("-6"))):
        view = game.view(state, player)
        assert view.starting == tuple(own if p == player else HIDDEN for p in range(3))
        assert view.supply == tuple(
            n + (t in state.starting and t != own) for t, n in enumerate(state.supply)
        )
        assert supply_size(view) == supply_size(state) == 20
    spectator = game.view(state, None)
    assert spectator.starting == (HIDDEN,) * 3 and supply_size(spectator) == 20
    assert sum(spectator.supply) == 23


def test_a_drawn_tile_is_secret_until_it_is_placed() -> None:
    """Rulebook "Play": the drawer "look[s] at it, then place[s] it faceup"; until then the
    others have not seen it (docs/rules-notes.md)."""
    game = Kingdoms({"players": 2})
    state = play(game, first_turn(game, 0, "+1", "+2"), "draw", "tile GLD")
    assert state.phase == PLACE and state.held == tile("GLD")
    assert game.view(state, 0).held == tile("GLD")
    for viewer in (1, None):
        assert game.view(state, viewer).held == HIDDEN
        assert game.view(state, viewer).supply[tile("GLD")] == 1
    placed = play(game, state, "place 2,2")
    assert game.view(placed, 1).board[bd.space(1, 1)] == tile("GLD")


@pytest.mark.parametrize("options", SECRET_MODES, ids=str)
def test_views_count_the_unseen_tiles_by_kind(options: dict[str, Any]) -> None:
    game = Kingdoms(options)
    for state in sample_states(options):
        for viewer in [*range(game.num_players), None]:
            view = game.view(state, viewer)
            unseen = [n - s for n, s in zip(FULL_SUPPLY, seen_tiles(state, viewer), strict=True)]
            assert list(view.supply) == unseen
            assert supply_size(view) == supply_size(state)
            assert view.board == state.board and view.gold == state.gold
            assert view.castles == state.castles and view.phase == state.phase
            hidden = [p for p in range(game.num_players) if p != viewer]
            assert all(view.starting[p] in (HIDDEN, NO_TILE) for p in hidden)
            if viewer is not None:
                assert view.starting[viewer] == state.starting[viewer]
            holds = state.phase != PLACE or state.turn == viewer
            assert view.held == (state.held if holds else HIDDEN)


@pytest.mark.parametrize("options", SECRET_MODES, ids=str)
def test_resampled_states_are_full_legal_and_look_the_same(options: dict[str, Any]) -> None:
    """A resampled state hides nothing, accounts for all 23 tiles, looks the same to its
    viewer whatever the generator, offers the viewer the same moves, and plays to the end."""
    game = Kingdoms(options)
    for index, state in enumerate(sample_states(options)):
        for viewer in range(game.num_players):
            view = game.view(state, viewer)
            for seed in range(4):
                resampled = game.resample(state, viewer, random.Random(seed))
                assert game.view(resampled, viewer) == view
                assert HIDDEN not in resampled.starting and resampled.held != HIDDEN
                everything = list(resampled.supply)
                for each in (*resampled.board, *resampled.starting):
                    if bd.is_tile(each):
                        everything[each] += 1
                if resampled.phase == PLACE:
                    everything[resampled.held] += 1
                assert tuple(everything) == FULL_SUPPLY
                assert game.current_player(resampled) == game.current_player(state)
                if game.current_player(state) == viewer:
                    assert game.legal_actions(resampled) == game.legal_actions(state)
            if index % 5 == 0:
                end = random_playout(game, random.Random(index), resampled)
                assert game.current_player(end) == TERMINAL


def test_resampling_deals_the_unseen_tiles_at_random() -> None:
    """The others' starting tiles come from the tiles the viewer has not seen, and vary."""
    game = Kingdoms({"players": 3})
    state = first_turn(game, 0, "+5", "DRG", "-6")
    dealt = set()
    for seed in range(60):
        resampled = game.resample(state, 0, random.Random(seed))
        assert resampled.starting[0] == tile("+5")
        dealt.add(resampled.starting[1])
    assert len(dealt) > 5 and tile("+5") in dealt  # the other +5 is unseen


def test_an_opponents_starting_tile_does_not_show() -> None:
    """Two states that differ only in B's starting tile look the same to A, to C and to a
    spectator; B sees the difference."""
    game = Kingdoms({"players": 3})
    one = first_turn(game, 0, "+5", "DRG", "-6")
    supply = list(one.supply)
    supply[tile("DRG")] += 1
    supply[tile("+3")] -= 1
    other = one._replace(starting=(tile("+5"), tile("+3"), tile("-6")), supply=tuple(supply))
    for viewer in (0, 2, None):
        assert game.view(one, viewer) == game.view(other, viewer)
    assert game.view(one, 1) != game.view(other, 1)


def test_no_luck_hides_nothing() -> None:
    options = {"players": 3, "no_luck": True, "down_to_the_last_castle": True}
    game = Kingdoms(options)
    for state in sample_states(options, games=1, every=3):
        for viewer in [*range(3), None]:
            assert game.view(state, viewer) == state
        assert game.resample(state, 1, random.Random(0)) == state


# -- what the search bots' forecast counts on ---------------------------------------------------
@pytest.mark.parametrize(
    ("row", "gold"),
    [
        ("A2 +3 . . B1 .", (2 * 6.0, 6.0)),  # +3 and three empties worth +1 each
        ("A1 DRG . +5 . B1", (-1.0, -1.0)),  # a dragon: only the hazards' mean counts
        ("A1 GLD . +2 . .", (10.0, 0.0)),  # a gold mine doubles what is expected too
        ("A1 . MTN . . B3", (1.0, 6.0)),  # each part has its own empties
        (". . . . . .", (0.0, 0.0)),  # no castle, nothing to gain
    ],
)
def test_expected_line_gold_counts_each_empty_space_at_the_mean_tile(
    row: str, gold: tuple[float, float]
) -> None:
    board = grid(row)
    assert bd.expected_line_gold(board, bd.LINES[0], 2, 1.5, -0.5) == list(gold)


def test_expected_line_gold_with_nothing_expected_is_the_scoring() -> None:
    game = Kingdoms({"players": 3})
    for state in random_game(game, 11)[::5]:
        for line in bd.LINES:
            expected = bd.expected_line_gold(state.board, line, 3, 0.0, 0.0)
            assert expected == list(bd.line_gold(state.board, line, 3))


def test_the_forecast_is_the_evaluation_when_no_tile_is_unseen_and_counts_room_before() -> None:
    game = Kingdoms({"players": 2})
    known = heuristics(game)
    start = position(game, grid("A2 +3 . . . ."))
    # every tile but the +3 is unseen: row 1 has the +3 and four empties, column 1 four
    # empties under the rank-2 castle, each empty worth the unseen tiles' mean value
    unseen = sum(start.supply)
    mean = (sum(n * v for n, v in zip(start.supply, bd.TILE_VALUES, strict=True))) / unseen
    assert known.evaluate(start, 0) == start.gold[0] + 6
    row, column = 3 + 4 * mean, 4 * mean
    assert known.forecast(start, 0) == pytest.approx(start.gold[0] + 2 * row + 2 * column)
    assert known.forecast(start, 1) == known.evaluate(start, 1)
    end = random_game(game, 3)[-1]
    assert [known.forecast(end, p) for p in range(2)] == [known.evaluate(end, p) for p in range(2)]
