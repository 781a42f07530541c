"""Elo ratings per game for accounts, from rated finished games.

A game counts as every pair of accounts on different sides playing each other: the one with
the larger win share of its side (`core.sides`: a team's members share the team's result)
wins the pair, equal shares draw; teammates are not opponents. Each account's change is
K / (its opponents) times the sum over its pairs of (result - expected), so a 4-player game
moves a rating about as much as one 2-player game. Guests and bots are not rated and do not
count as opponents.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from kingdomkit.core.sides import side_of, win_shares
from kingdomkit.server.models import RatingRow, UserRow

if TYPE_CHECKING:
    from kingdomkit.server.live import LiveTable

START = 1500.0
K = 32.0
USER_PREFIX = "user-"


def expected(rating: float, other: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, (other - rating) / 400.0))


def elo_changes(
    ratings: list[float], shares: list[float], sides: list[int] | None = None
) -> list[float]:
    """The change of each rating after one game with these win shares; `sides`: each
    rating's side (teammates do not play each other; default: each alone)."""
    n = len(ratings)
    side = sides if sides is not None else list(range(n))
    changes = []
    for i in range(n):
        opponents = [j for j in range(n) if side[j] != side[i]]
        total = 0.0
        for j in opponents:
            result = 1.0 if shares[i] > shares[j] else 0.5 if shares[i] == shares[j] else 0.0
            total += result - expected(ratings[i], ratings[j])
        changes.append(K / len(opponents) * total if opponents else 0.0)
    return changes


def locked_ratings(session: Session, uids: list[int], game: str) -> dict[int, RatingRow]:
    """The rating rows of `uids` (sorted) in `game`, made at START where missing, and locked
    in that order until the transaction ends. Two games that end at once with an account in
    common then take turns (on PostgreSQL; SQLite has one writer) instead of the later one
    writing over the other's change or the two waiting on each other for ever."""
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    new = [{"user_id": uid, "game": game, "rating": START, "games": 0} for uid in uids]
    session.execute(insert(RatingRow).values(new).on_conflict_do_nothing())
    rows = session.scalars(
        select(RatingRow)
        .where(RatingRow.game == game, RatingRow.user_id.in_(uids))
        .order_by(RatingRow.user_id)
        .with_for_update()
        .execution_options(populate_existing=True)  # as committed, not as this session saw it
    )
    return {row.user_id: row for row in rows}


def user_id(holder: str | None) -> int | None:
    if holder is None or not holder.startswith(USER_PREFIX):
        return None
    return int(holder.removeprefix(USER_PREFIX))


def rate(session: Session, table: LiveTable) -> list[dict[str, int]]:
    """Update the ratings of the accounts seated at the finished `table` (in `session`); each
    rated seat's rating before and after, rounded as the leaderboard shows them ([] if the
    game is not rated)."""
    teams = table.game.teams()
    shares = win_shares(teams, table.game.winners(table.state))
    side = side_of(teams)
    seated = [(user_id(s.holder), s.index) for s in table.seats if s.kind == "human"]
    accounts = [(uid, seat) for uid, seat in seated if uid is not None]
    uids = {uid for uid, _ in accounts}
    if len({side[seat] for _, seat in accounts}) < 2 or len(accounts) != len(uids):
        return []  # no two accounts on different sides, or one account in two seats
    locked = locked_ratings(session, sorted(uids), table.game_name)
    rows = [locked[uid] for uid, _ in accounts]
    changes = elo_changes(
        [row.rating for row in rows],
        [shares[seat] for _, seat in accounts],
        [side[seat] for _, seat in accounts],
    )
    rated = []
    for row, (_, seat), change in zip(rows, accounts, changes, strict=True):
        before = row.rating
        row.rating += change
        row.games += 1
        rated.append({"seat": seat, "before": round(before), "after": round(row.rating)})
    return rated


def leaderboard(session: Session, game: str, limit: int = 50) -> list[dict[str, object]]:
    rows = session.execute(
        select(UserRow.name, RatingRow.rating, RatingRow.games)
        .join(RatingRow, RatingRow.user_id == UserRow.id)
        .where(RatingRow.game == game)
        .order_by(RatingRow.rating.desc())
        .limit(limit)
    ).all()
    return [
        {"rank": i + 1, "name": name, "rating": round(rating), "games": games}
        for i, (name, rating, games) in enumerate(rows)
    ]
