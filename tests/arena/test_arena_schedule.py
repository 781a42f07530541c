"""The arena's schedule: line-ups, rotations, deals and seeds that replay on their own."""

from __future__ import annotations

from collections import Counter

import pytest

from kingdomkit.arena.outcome import play_scheduled
from kingdomkit.arena.schedule import Tournament, deal_seed
from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import OptionError
from kingdomkit.core.registry import make_game


def tournament(players: int, bots: tuple[str, ...], opponents: tuple[str, ...] = ()) -> Tournament:
    return Tournament("kingdomino", {"players": players}, bots, opponents, deals=3, seed=11)


@pytest.mark.parametrize(
    ("players", "bots", "opponents", "matches", "lineups"),
    [
        (2, ("a", "b", "c"), (), 3, 3),  # every pair once: (B, A) is a rotation of (A, B)
        (3, ("a", "b", "c"), (), 3, 6),  # both 1-vs-rest line-ups of every pair
        (4, ("a", "b", "c", "d"), (), 6, 12),
        (4, ("a", "b"), ("x", "y", "z"), 6, 6),  # one line-up per candidate-opponent pair
        (2, ("a",), ("x",), 1, 1),
    ],
)
def test_counts(
    players: int, bots: tuple[str, ...], opponents: tuple[str, ...], matches: int, lineups: int
) -> None:
    setup = tournament(players, bots, opponents)
    assert len(setup.matches) == matches
    assert len(setup.lineups) == lineups
    assert setup.games_per_deal == lineups * players
    games = list(setup.games())
    assert len(games) == setup.total_games == 3 * lineups * players
    assert [game.index for game in games] == list(range(len(games)))
    assert len({game.key for game in games}) == len(games)
    for game in games:
        assert setup.scheduled(game.key) == game
        assert game.seed == deal_seed(11, game.deal) == 11 + game.deal


def test_line_ups_are_one_against_copies_and_rotate_through_every_seat() -> None:
    setup = tournament(4, ("a", "b", "c"))
    assert setup.lineups[0].bots == ("a", "b", "b", "b")
    assert setup.lineups[1].bots == ("b", "a", "a", "a")
    for number, lineup in enumerate(setup.lineups):
        match = setup.matches[lineup.match]
        lone = lineup.bots[0]
        assert set(lineup.bots) == set(match.bots)
        assert Counter(lineup.bots)[lone] == 1
        games = [game for game in setup.games() if game.lineup == number and game.deal == 0]
        assert [game.seats.index(lone) for game in games] == [0, 1, 2, 3]
        assert len({game.seats for game in games}) == 4
        assert all(Counter(game.seats) == Counter(lineup.bots) for game in games)
    # Every bot of every match sits alone in every seat.
    for match in setup.matches:
        for bot in match.bots:
            seats = {
                game.seats.index(bot)
                for game in setup.games()
                if setup.lineups[game.lineup].match == setup.matches.index(match)
                and Counter(game.seats)[bot] == 1
            }
            assert seats == {0, 1, 2, 3}


def test_gauntlet_puts_one_candidate_against_copies_of_the_opponent() -> None:
    setup = tournament(4, ("mc",), ("greedy", "random"))
    assert [lineup.bots for lineup in setup.lineups] == [
        ("mc", "greedy", "greedy", "greedy"),
        ("mc", "random", "random", "random"),
    ]
    assert setup.mode == "gauntlet"
    assert setup.everyone == ("mc", "greedy", "random")


def test_deals_are_a_prefix_of_a_longer_tournament() -> None:
    short = Tournament("kingdomino", {"players": 3}, ("a", "b"), deals=2, seed=4)
    longer = Tournament("kingdomino", {"players": 3}, ("a", "b"), deals=5, seed=4)
    assert list(short.games()) == list(longer.games())[: short.total_games]
    assert short.identity() == longer.identity()


@pytest.mark.parametrize(
    ("bots", "opponents", "deals", "message"),
    [
        (("a",), (), 3, "at least 2 bots"),
        (("a", "a"), (), 3, "given twice"),
        (("a",), ("a",), 3, "both a candidate"),
        (("a", "b"), (), 0, "at least 1"),
    ],
)
def test_bad_tournaments(
    bots: tuple[str, ...], opponents: tuple[str, ...], deals: int, message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        Tournament("kingdomino", {"players": 2}, bots, opponents, deals=deals)


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 2, "mighty_duel": True}])
def test_a_game_of_the_arena_replays_with_play(options: dict[str, object]) -> None:
    setup = Tournament("kingdomino", options, ("greedy-placement", "random"), deals=2, seed=5)
    game = make_game("kingdomino", options)
    for scheduled in list(setup.games())[:: setup.players + 1]:
        outcome = play_scheduled(setup.game, setup.options, scheduled)
        again = play(game, [make_bot(spec) for spec in scheduled.seats], scheduled.seed)
        assert outcome.seats == scheduled.seats
        assert outcome.scores == game.scores(again.final_state)
        assert outcome.returns == game.returns(again.final_state)
        assert outcome.steps == len(again.actions)


def test_rotations_of_a_deal_share_its_draws() -> None:
    """The same seed deals the same dominoes whoever sits where (the chance stream is the
    seed's alone), which is what makes rotations cancel the luck of the deal."""
    setup = Tournament("kingdomino", {"players": 2}, ("random", "greedy-placement"), seed=8)
    game = make_game("kingdomino", {"players": 2})
    draws = []
    for scheduled in setup.games():
        chance: list[int] = []

        def step(before: object, action: int, after: object, chance: list[int] = chance) -> None:
            if game.is_chance(before):
                chance.append(action)

        play(game, [make_bot(spec) for spec in scheduled.seats], scheduled.seed, step)
        draws.append(chance)
    assert len(draws) == 2 and draws[0] == draws[1]


def test_a_table_is_one_line_up_in_every_rotation() -> None:
    setup = Tournament(
        "kingdomino", {"players": 4}, (), deals=2, seed=5, table=("n", "m", "g", "g")
    )
    assert setup.mode == "table" and setup.everyone == ("n", "m", "g")
    assert len(setup.matches) == 1 and setup.matches[0].name == "n vs m vs g"
    assert len(setup.lineups) == 1 and setup.games_per_deal == 4 and setup.total_games == 8
    games = list(setup.games())
    for deal in (0, 1):
        seats = [game.seats for game in games if game.deal == deal]
        # every seat holds n once and m once over the deal's rotations, on the deal's seed
        assert sorted(s.index("n") for s in seats) == [0, 1, 2, 3]
        assert sorted(s.index("m") for s in seats) == [0, 1, 2, 3]
        assert all(Counter(s) == Counter({"g": 2, "n": 1, "m": 1}) for s in seats)
    assert {game.seed for game in games} == {5, 6}
    assert setup.identity()["table"] == ["n", "m", "g", "g"]
    assert "table" not in tournament(2, ("a", "b")).identity()  # older runs read back the same


@pytest.mark.parametrize(
    ("bots", "table", "message"),
    [
        ((), ("a", "b", "c"), "--table names 3 bots for 4 seats"),
        (("a",), ("a", "b", "c", "d"), "without --bots or --gauntlet"),
        ((), ("a", "a", "a", "a"), "at least 2 different bots"),
    ],
)
def test_bad_tables(bots: tuple[str, ...], table: tuple[str, ...], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Tournament("kingdomino", {"players": 4}, bots, table=table)
