"""The server's Elo per side: in team play a team's members share the team's result, and
teammates are not opponents (issue 23)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, cast

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.registry import make_game
from kingdomkit.server.database import open_engine, upgrade
from kingdomkit.server.live import LiveTable
from kingdomkit.server.models import RatingRow, UserRow
from kingdomkit.server.ratings import START, elo_changes, rate
from postgres import PostgresServer

TEAMS = {"players": 6, "royal_wedding": True, "teams": True}  # teams (0, 1), (2, 3), (4, 5)


def test_teammates_share_a_win_and_do_not_play_each_other() -> None:
    # Team 0 wins: each of its players beat two opponents, a whole win each.
    assert elo_changes([START] * 4, [1.0, 1.0, 0.0, 0.0], [0, 0, 1, 1]) == [16.0] * 2 + [-16.0] * 2
    # Seat by seat (no sides), the same shares make teammates draw each other.
    assert elo_changes([START] * 4, [1.0, 1.0, 0.0, 0.0])[0] == pytest.approx(32 / 3)


@dataclass
class Seat:
    index: int
    holder: str | None
    kind: str = "human"


@dataclass
class Table:
    game: Any
    state: Any
    seats: list[Seat]
    game_name: str = "queendomino"


def test_a_team_game_rates_each_player_with_the_teams_result(database: str) -> None:
    game = make_game("queendomino", TEAMS)
    seed = next(
        seed
        for seed in range(20)
        if len(game.winners(play(game, [make_bot("random")] * 6, seed).final_state)) == 2
    )
    final = play(game, [make_bot("random")] * 6, seed).final_state
    winners = game.winners(final)
    engine = open_engine(database)
    upgrade(engine)
    with Session(engine) as session:
        users = [UserRow(name=f"p{seat}", password_hash="x") for seat in range(6)]
        session.add_all(users)
        session.flush()
        seats = [Seat(seat, f"user-{user.id}") for seat, user in enumerate(users)]
        rate(session, cast(LiveTable, Table(game, final, seats)))
        session.flush()
        ratings = [session.get(RatingRow, (user.id, "queendomino")) for user in users]
        changes = [row.rating - START for row in ratings if row is not None]
    engine.dispose()
    assert len(changes) == 6
    for seat in range(6):
        # Every winner beat the four players of the other two teams: +16 each.
        assert changes[seat] == pytest.approx(16.0 if seat in winners else -8.0)


def _waiting_on_a_lock(engine: Engine) -> bool:
    with engine.connect() as connection:
        return bool(
            connection.exec_driver_sql(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            ).scalar()
        )


def test_two_games_ending_at_once_both_count_in_a_rating(postgres: PostgresServer) -> None:
    """Two rated games with the same two accounts end at the same moment on PostgreSQL (two
    serve processes): the second waits for the first's ratings instead of reading them before
    the first commits and writing its own over them (a lost game)."""
    game = make_game("kingdomino", {"players": 2})
    final = play(game, [make_bot("random")] * 2, 3).final_state
    engine = open_engine(postgres.database())
    upgrade(engine)
    with Session(engine) as session, session.begin():
        users = [UserRow(name=f"p{seat}", password_hash="x") for seat in range(2)]
        session.add_all(users)
        session.flush()
        ids = [user.id for user in users]
        # rated before (a new account's first rows are made by an INSERT, which waits anyway)
        session.add_all(
            RatingRow(user_id=uid, game="kingdomino", rating=START, games=1) for uid in ids
        )
    holders = [f"user-{uid}" for uid in ids]

    def table(order: list[int]) -> LiveTable:
        seats = [Seat(seat, holders[who]) for seat, who in enumerate(order)]
        return cast(LiveTable, Table(game, final, seats, "kingdomino"))

    first = Session(engine)
    first.begin()
    rate(first, table([0, 1]))
    first.flush()  # the first game's ratings written, not yet committed
    failure: list[BaseException] = []

    def second_game() -> None:
        try:
            with Session(engine) as session, session.begin():
                rate(session, table([1, 0]))  # the same accounts in the other seats
        except BaseException as error:  # shown by the test's thread
            failure.append(error)

    thread = threading.Thread(target=second_game)
    thread.start()
    deadline = time.monotonic() + 60
    while not _waiting_on_a_lock(engine) and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    waited = _waiting_on_a_lock(engine)
    first.commit()
    first.close()
    thread.join(60)
    assert not failure, failure
    assert waited, "the second game read the ratings without waiting for the first"
    with Session(engine) as session:
        rows = [session.get(RatingRow, (uid, "kingdomino")) for uid in ids]
        games = [row.games for row in rows if row is not None]
        ratings = [row.rating for row in rows if row is not None]
    engine.dispose()
    assert games == [3, 3]
    assert sum(ratings) == pytest.approx(2 * START)  # zero-sum: neither change was lost
    assert ratings[0] != START  # a decided game (seed 3) moved them
