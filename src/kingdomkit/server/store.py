"""Reading and writing tables, seats, actions and chat messages (SQLAlchemy, synchronous: the
service calls it from worker threads). Each write is one transaction, committed before anyone
is told.

Several processes may share the database (PostgreSQL). Every write of a table is conditional
on the change count it was loaded with (`StaleError` if another process wrote it meanwhile),
and on PostgreSQL it sends a NOTIFY in the same transaction, so the other processes hear of it
only once it is committed (server/fanout.py listens).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    Engine,
    String,
    Table,
    case,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy import cast as cast_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from kingdomkit.core.registry import GAMES, make_game
from kingdomkit.server.live import (
    BOT,
    FINISHED,
    HUMAN,
    OPEN,
    RUNNING,
    Clock,
    LiveTable,
    RefusedError,
    Seat,
)
from kingdomkit.server.models import ActionRow, AdviceRow, ChatRow, SeatRow, TableRow
from kingdomkit.server.ratings import leaderboard, rate
from kingdomkit.server.setups import title, variant_names


def check_rules_version(game: str, version: int) -> None:
    """RefusedError (410) if this server's engine plays `game` under other rules than the
    table's: its actions would replay as another game. The table stays stored."""
    now = make_game(game).version
    if version != now:
        raise RefusedError(
            410,
            f"this table was played under version {version} of the {game} rules; this server"
            f" plays version {now}, so it cannot be shown or played here (it is kept stored)",
        )


CHANNEL = "kingdomkit"  # the NOTIFY channel every process listens on
TABLES = cast(Table, TableRow.__table__)
ACTIONS = cast(Table, ActionRow.__table__)


def seat_of(row: SeatRow) -> Seat:
    return Seat(
        row.index,
        row.kind,
        row.bot,
        row.name,
        row.holder,
        row.token,
        row.stand_in,
        row.time_used,
        row.reserved,
    )


@dataclass(frozen=True)
class Changed:
    """A stored table as another process left it, for `LiveTable.catch_up`."""

    changes: int
    turn_started: float | None
    review: dict[str, Any] | None
    rating_changes: list[dict[str, Any]] | None
    rematch: str | None
    rematch_by: int | None
    seats: list[Seat]
    actions: list[tuple[int, int, str | None]]  # (player, action, by) from the table's version


class StaleError(Exception):
    """The stored table was changed (by another process) since this one loaded it: reload
    it and check again."""


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # PostgreSQL: other processes may share the database, and hear of each change
        self.shared = engine.dialect.name == "postgresql"
        self.origin = secrets.token_hex(6)  # names this store's notifications

    def tell(self, session: Session, *parts: object) -> None:
        """NOTIFY the other processes of `parts` (sent only if the transaction commits)."""
        if self.shared:
            payload = " ".join(str(part) for part in (self.origin, *parts))
            session.execute(select(func.pg_notify(CHANNEL, payload)))

    def announce(self, *parts: object) -> None:
        """NOTIFY the other processes of `parts` alone (presence: no table changes)."""
        with self._session() as session, session.begin():
            self.tell(session, *parts)

    def _changed(
        self, session: Session, table: LiveTable, check: bool = True, move: bool = False
    ) -> None:
        """Count a change of `table` in its row, with what it now waits for; StaleError if
        `check` and the row's count is not the one `table` was loaded with. Alone on its
        database (SQLite), nobody else reads the count: a move writes the row only for its
        clock (the UPDATE was a sixth of the server's time per move)."""
        if not self.shared:
            table.changes += 1
            if not move or table.clock.on:
                session.execute(
                    update(TABLES)
                    .where(TABLES.c.id == table.id)
                    .values(status=table.status, turn_started=table.turn_started)
                )
            return
        waiting, deadline = table.waiting()
        row = TABLES.c  # the Core table: the ORM's bulk update machinery cost a fifth of a move
        query = update(TABLES).where(row.id == table.id)
        if check:
            query = query.where(row.changes == table.changes)
        # the NOTIFY in the same statement (RETURNING reads the row as updated): one round
        # trip fewer on every move
        told = func.pg_notify(
            CHANNEL, literal(f"{self.origin} table {table.id} ") + cast_(row.changes, String)
        )
        changes = session.execute(
            query.values(
                changes=row.changes + 1,
                status=table.status,
                turn_started=table.turn_started,
                waiting=waiting,
                deadline=deadline,
            ).returning(row.changes, told)
        ).scalar()
        if changes is None:
            raise StaleError(table.id)
        table.changes = changes

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def create(self, table: LiveTable, rematch_of: LiveTable | None = None) -> None:
        """Store a new table (with the actions it starts with); if it is the rematch of
        table `rematch_of`, that table links to it in the same transaction."""
        with self._session() as session, session.begin():
            row = TableRow(
                id=table.id,
                game=table.game_name,
                options=table.options,
                seed=table.seed,
                status=table.status,
                rated=table.rated,
                hints=table.hints,
                move_seconds=table.clock.move_seconds,
                game_seconds=table.clock.game_seconds,
                review=table.review,
                owner=table.owner,
                made_from=table.made_from,
                rules_version=table.game.version,
                result=table.final() if table.finished else None,
                changes=table.changes,
                turn_started=table.turn_started,
                waiting=table.waiting()[0],
                deadline=table.waiting()[1],
            )
            row.seats = [
                SeatRow(
                    index=s.index,
                    kind=s.kind,
                    bot=s.bot,
                    name=s.name,
                    holder=s.holder,
                    token=s.token,
                    reserved=s.reserved,
                )
                for s in table.seats
            ]
            session.add(row)
            session.flush()  # the table before its actions (their foreign key)
            session.add_all(self._action_rows(table.id, 0, table.actions))
            if rematch_of is not None:
                self._changed(session, rematch_of)
                session.execute(
                    update(TableRow)
                    .where(TableRow.id == rematch_of.id)
                    .values(rematch=rematch_of.rematch, rematch_by=rematch_of.rematch_by)
                )

    def save_seat(self, table: LiveTable, seat: Seat) -> None:
        with self._session() as session, session.begin():
            # the table's row first, as a move locks it (`append`): the seat's row first would
            # let a seat change and a move on a clocked table each wait for the other's lock
            self._changed(session, table)
            row = session.get(SeatRow, (table.id, seat.index))
            assert row is not None
            row.kind, row.bot, row.name, row.holder = seat.kind, seat.bot, seat.name, seat.holder
            row.stand_in = seat.stand_in
            if table.status == RUNNING:
                session.execute(
                    update(TableRow)
                    .where(TableRow.id == table.id, TableRow.started_at.is_(None))
                    .values(started_at=datetime.now(UTC))
                )

    def append(self, table: LiveTable, start: int) -> None:
        """Commit the actions of `table` from index `start` on, with its clocks and, when the
        game ends, its status and the ratings. The common case is one INSERT: this is the
        path every move takes."""
        rows = [
            {
                "table_id": table.id,
                "seq": start + i,
                "player": player,
                "action": action,
                "by": table.made_by.get(start + i),
            }
            for i, (player, action) in enumerate(table.actions[start:])
        ]
        with self._session() as session, session.begin():
            self._changed(session, table, move=True)  # first: a rival writer waits here
            try:
                session.execute(insert(ACTIONS), rows)  # Core: the ORM's bulk path is slower
            except IntegrityError:  # (action numbers are unique per table all the same)
                raise StaleError(table.id) from None
            if table.clock.on:
                for seat in table.seats:
                    session.execute(
                        update(SeatRow)
                        .where(SeatRow.table_id == table.id, SeatRow.index == seat.index)
                        .values(time_used=seat.time_used)
                    )
            if table.status == FINISHED:
                changes = rate(session, table) if table.rated else []
                session.execute(
                    update(TableRow)
                    .where(TableRow.id == table.id)
                    .values(
                        status=FINISHED,
                        finished_at=datetime.now(UTC),
                        result=table.final(),
                        rating_changes=changes or None,
                    )
                )
                table.rating_changes = changes or None  # shown once committed (settled)

    @staticmethod
    def _action_rows(table_id: str, start: int, actions: list[tuple[int, int]]) -> list[ActionRow]:
        return [
            ActionRow(table_id=table_id, seq=start + i, player=player, action=action)
            for i, (player, action) in enumerate(actions)
        ]

    def since(self, table: LiveTable) -> Changed | None:
        """What another process changed of `table` since it was loaded (its row, its seats,
        its new actions), to bring it up to date without replaying it all; None if it is gone
        or its actions do not follow on (then load it)."""
        with self._session() as session:
            row = session.get(TableRow, table.id)
            if row is None:
                return None
            seats = list(
                session.scalars(
                    select(SeatRow).where(SeatRow.table_id == table.id).order_by(SeatRow.index)
                )
            )
            actions = session.execute(
                select(ActionRow.seq, ActionRow.player, ActionRow.action, ActionRow.by)
                .where(ActionRow.table_id == table.id, ActionRow.seq >= table.version)
                .order_by(ActionRow.seq)
            ).all()
            if len(seats) != len(table.seats) or any(
                seq != table.version + i for i, (seq, *_) in enumerate(actions)
            ):
                return None
            return Changed(
                row.changes,
                row.turn_started,
                row.review,
                row.rating_changes,
                row.rematch,
                row.rematch_by,
                [seat_of(s) for s in seats],
                [(player, action, by) for _, player, action, by in actions],
            )

    def load(self, table_id: str) -> LiveTable | None:
        """The table as its committed actions leave it, or None."""
        with self._session() as session:
            row = session.scalar(
                select(TableRow)
                .where(TableRow.id == table_id)
                .options(selectinload(TableRow.seats))
            )
            if row is None:
                return None
            check_rules_version(row.game, row.rules_version)
            actions = session.execute(
                select(ActionRow.player, ActionRow.action, ActionRow.by)
                .where(ActionRow.table_id == table_id)
                .order_by(ActionRow.seq)
            ).all()
            seats = [seat_of(s) for s in row.seats]
            table = LiveTable(
                row.id,
                row.game,
                dict(row.options),
                row.seed,
                seats,
                [(p, a) for p, a, _ in actions],
                Clock(row.move_seconds, row.game_seconds),
                row.rated,
                row.hints,
                row.review,
                row.owner,
                {i: by for i, (_, _, by) in enumerate(actions) if by is not None},
                row.changes,
                row.turn_started,
            )
            table.rating_changes = row.rating_changes
            table.rematch, table.rematch_by = row.rematch, row.rematch_by
            table.made_from = row.made_from
            return table

    def table_by_token(self, token: str) -> tuple[str, int] | None:
        """The (table, seat) an invite token opens."""
        with self._session() as session:
            row = session.scalar(select(SeatRow).where(SeatRow.token == token))
            return None if row is None else (row.table_id, row.index)

    def listing(
        self, status: str | None, holder: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """The newest tables (of one status, if given), as the lobby lists them: those where
        `holder` has a seat (or one kept for them) first, marked with that seat."""
        with self._session() as session:
            query = select(TableRow).options(selectinload(TableRow.seats))
            if status is not None:
                query = query.where(TableRow.status == status)
            newest = TableRow.created_at.desc()
            if holder is not None:
                seated = select(SeatRow.table_id).where(
                    or_(SeatRow.holder == holder, SeatRow.reserved == holder)
                )
                query = query.order_by(case((TableRow.id.in_(seated), 0), else_=1), newest)
            else:
                query = query.order_by(newest)
            return [self._listed(row, holder) for row in session.scalars(query.limit(limit))]

    @staticmethod
    def _listed(row: TableRow, holder: str | None) -> dict[str, Any]:
        mine = next(
            (s.index for s in row.seats if holder is not None and holder in (s.holder, s.reserved)),
            None,
        )
        return {
            "table": row.id,
            "game": row.game,
            "options": row.options,
            "names": {"game": title(row.game), "variants": variant_names(row.game, row.options)},
            "status": row.status,
            "rated": row.rated,
            "hints": row.hints,
            "move_seconds": row.move_seconds,
            "game_seconds": row.game_seconds,
            "created": row.created_at.isoformat() if row.created_at else None,
            "started": row.started_at.isoformat() if row.started_at else None,
            "finished": row.finished_at.isoformat() if row.finished_at else None,
            "result": row.result,
            "you": mine,
            "seats": [
                {
                    "index": s.index,
                    "kind": s.kind,
                    "name": s.name if s.kind == "human" else s.bot,
                    "taken": s.kind == "bot" or s.holder is not None,
                    "kept": s.reserved is not None and s.holder is None,
                }
                for s in row.seats
            ],
        }

    def save_review(self, table: LiveTable) -> None:
        """Store a finished table's review (nothing else changes it: no check)."""
        with self._session() as session, session.begin():
            session.execute(
                update(TableRow).where(TableRow.id == table.id).values(review=table.review)
            )
            self._changed(session, table, check=False)

    def changes(self, table_id: str) -> int | None:
        """The stored table's change count (None: no such table)."""
        with self._session() as session:
            return session.scalar(select(TableRow.changes).where(TableRow.id == table_id))

    def save_advice(self, table_id: str, version: int, moves: list[dict[str, Any]]) -> None:
        """Keep the analyst's advice at a decision, and tell every process it is there."""
        with self._session() as session, session.begin():
            if session.get(AdviceRow, (table_id, version)) is None:
                session.add(AdviceRow(table_id=table_id, version=version, moves=moves))
            self.tell(session, "advice", table_id, version)

    def advice(self, table_id: str, version: int) -> list[dict[str, Any]] | None:
        with self._session() as session:
            row = session.get(AdviceRow, (table_id, version))
            return None if row is None else list(row.moves)

    def waiting(self, grace: float) -> list[tuple[str, str]]:
        """Running tables whose wait has outlived any job that should end it: (table,
        BOT) for a bot's move due more than `grace` seconds, (table, HUMAN) for a clock run
        out more than `grace` seconds ago. The job sweep plans them again."""
        before = time.time() - grace
        playable = or_(  # (a table under other rules is kept, and never played: check_rules)
            *(
                (TableRow.game == name) & (TableRow.rules_version == make_game(name).version)
                for name in GAMES
            )
        )
        with self._session() as session:
            rows = session.execute(
                select(TableRow.id, TableRow.waiting).where(
                    TableRow.status == RUNNING,
                    playable,
                    or_(
                        (TableRow.waiting == BOT) & (TableRow.turn_started < before),
                        (TableRow.waiting == HUMAN) & (TableRow.deadline < before),
                    ),
                )
            ).all()
            return [(table_id, str(waiting)) for table_id, waiting in rows]

    def adopt(self, old: str, new: str) -> None:
        """Every seat held by identity `old` is now held by `new` (a guest who signs in)."""
        with self._session() as session, session.begin():
            # the tables' rows first, in order, then the seats': the order a move locks them
            held = select(SeatRow.table_id).where(
                (SeatRow.holder == old) | (SeatRow.reserved == old)
            )
            for table_id in sorted(set(session.scalars(held))):
                changes = session.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id)
                    .values(changes=TableRow.changes + 1)
                    .returning(TableRow.changes)
                ).scalar()
                self.tell(session, "table", table_id, changes)
            session.execute(update(SeatRow).where(SeatRow.holder == old).values(holder=new))
            session.execute(update(SeatRow).where(SeatRow.reserved == old).values(reserved=new))

    def withdraw(self, table: LiveTable, why: str) -> list[tuple[str, int]]:
        """Delete open `table` and all of it (nobody has played on it: its creator cancelled
        it, or nobody came); the finished tables whose rematch it was, unlinked, with their
        new change counts. On a shared database, StaleError if another process changed it
        since it was loaded (a last seat may just have been taken there)."""
        with self._session() as session, session.begin():
            row = TABLES.c
            found = select(row.id).where(row.id == table.id)
            if self.shared:
                found = found.where(row.changes == table.changes).with_for_update()
            if session.execute(found).scalar() is None:
                raise StaleError(table.id)
            for model in (ChatRow, AdviceRow, ActionRow, SeatRow):
                session.execute(delete(model).where(model.table_id == table.id))
            unlinked = session.execute(
                update(TABLES)
                .where(row.rematch == table.id)
                .values(rematch=None, rematch_by=None, changes=row.changes + 1)
                .returning(row.id, row.changes)
            ).all()
            session.execute(delete(TABLES).where(row.id == table.id))
            self.tell(session, "gone", table.id, why)
            for old, changes in unlinked:
                self.tell(session, "table", old, changes)
            return [(old, changes) for old, changes in unlinked]

    def open_since(self, before: datetime) -> list[str]:
        """The open tables made before `before` (oldest first)."""
        with self._session() as session:
            query = (
                select(TableRow.id)
                .where(TableRow.status == OPEN, TableRow.created_at < before)
                .order_by(TableRow.created_at)
            )
            return list(session.scalars(query))

    def leaderboard(self, game: str) -> list[dict[str, object]]:
        with self._session() as session:
            return leaderboard(session, game)

    def unfinished(self, owner: str | None = None) -> list[str]:
        """Tables to resume after a restart (of `owner` only, if given)."""
        query = select(TableRow.id).where(TableRow.status != FINISHED)
        if owner is not None:
            query = query.where(TableRow.owner == owner)
        with self._session() as session:
            return list(session.scalars(query))

    def unfinished_from(self, made_from: str) -> int:
        """How many unfinished tables were made from the address of digest `made_from`."""
        query = select(func.count()).where(
            TableRow.made_from == made_from, TableRow.status != FINISHED
        )
        with self._session() as session:
            return int(session.scalar(query) or 0)

    def say(self, table_id: str, seat: int | None, author: str, name: str, text: str) -> ChatRow:
        """Store a chat message of the table; the row, with its number and time."""
        with self._session() as session, session.begin():
            row = ChatRow(table_id=table_id, seat=seat, author=author, name=name, text=text)
            session.add(row)
            session.flush()
            session.refresh(row)  # the time the database gave it
            self.tell(session, "chat", table_id, row.id)
            return row

    def said(self, message_id: int) -> ChatRow | None:
        """One chat message (another process stored it)."""
        with self._session() as session:
            return session.get(ChatRow, message_id)

    def chat(self, table_id: str, limit: int) -> list[ChatRow]:
        """The table's last `limit` chat messages, oldest first."""
        with self._session() as session:
            rows = session.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            )
            return list(rows)[::-1]
