"""The database tables: game tables with their seats, every action played, and their chat.

A table's state is never stored: it is the replay of its actions (decisions and chance
outcomes alike) from the game's initial state, so a crash can lose nothing that was committed,
and the record of a finished game is its action list.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # secret: chance and bots are drawn from it
    status: Mapped[str] = mapped_column(String(16), index=True)  # open, running, finished
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    move_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)  # per decision
    game_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)  # per seat
    hints: Mapped[bool] = mapped_column(Boolean, default=False)  # hints while playing
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # graded moves
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)  # creator
    # a keyed digest of the creator's network address (limits.address_key), never the address
    made_from: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # the game's rules version it is played under: its actions replay only under the same
    rules_version: Mapped[int] = mapped_column(Integer, server_default="1")
    # when the last seat was taken: the clocks run from there
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # once finished: each seat's final score and the winners, for the lobby's list
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # once a rated game is finished: each rated seat's rating before and after
    rating_changes: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    # the table of the rematch one of its players proposed, and that player's seat
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # how many times the table was changed: every write is conditional on the count read
    changes: Mapped[int] = mapped_column(Integer, server_default="0", default=0)
    # the wall time (epoch seconds) the seat to act started its decision
    turn_started: Mapped[float | None] = mapped_column(Float, nullable=True)
    # what it waits for (a bot's move, a person's) and when that person's clock runs out
    waiting: Mapped[str | None] = mapped_column(String(8), nullable=True, index=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.index", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human or bot
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)  # a level or a bot spec
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # who took the seat (indexed: the lobby lists each person's tables first)
    holder: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)  # the seat's invite link
    stand_in: Mapped[str | None] = mapped_column(String(64), nullable=True)  # a bot playing
    # for a person who left, until they take the seat back
    time_used: Mapped[float] = mapped_column(Float, default=0.0)  # seconds on the clock
    # a rematch's seat kept for the identity that held it at the last table: only they
    # take it
    reserved: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    table: Mapped[TableRow] = relationship(back_populates="seats")


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0, 1, 2, ... per table
    player: Mapped[int] = mapped_column(Integer)  # the seat, or -1 for a chance outcome
    action: Mapped[int] = mapped_column(Integer)
    # who chose it when not the seat itself: "stand-in" (a bot for a person who left) or
    # "clock" (the person's time ran out)
    by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class AdviceRow(Base):
    """The analyst's estimate of every legal move at one decision of a table (a hint): made
    once by a worker, read by whichever process is asked."""

    __tablename__ = "advice"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    moves: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class UserRow(Base):
    """An account: a unique name and an Argon2 hash of its password."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    # the name folded to its look-alike skeleton: no two accounts read alike
    name_key: Mapped[str | None] = mapped_column(String(160), nullable=True, unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class RatingRow(Base):
    """An account's Elo rating in one game, from its rated finished games."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class SessionRow(Base):
    """A signed-in session: the SHA-256 of the secret in its cookie. Logout, or a password
    change for the account's other sessions, deletes it, and its cookie is a guest's again."""

    __tablename__ = "sessions"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ChatRow(Base):
    """A message of a table's chat, kept with the table (it survives a restart)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    author: Mapped[str] = mapped_column(String(64))  # a key per identity, to mute a person
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
