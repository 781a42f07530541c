"""The server's Elo per side: in team play a team's members share the team's result, and
teammates are not opponents (issue 23)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import pytest
from sqlalchemy.orm import Session

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.registry import make_game
from kingdomkit.server.database import open_engine, upgrade
from kingdomkit.server.live import LiveTable
from kingdomkit.server.models import RatingRow, UserRow
from kingdomkit.server.ratings import START, elo_changes, rate

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
