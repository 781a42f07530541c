"""The database tables: game tables with their seats and every action played.

A table's state is never stored: it is the replay of its actions (decisions and chance
outcomes alike) from the game's initial state, so a crash can lose nothing that was committed,
and the record of a finished game is its action list.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String, func
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
    holder: Mapped[str | None] = mapped_column(String(64), nullable=True)  # who took the seat
    token: Mapped[str] = mapped_column(String(64), unique=True)  # the seat's invite link
    table: Mapped[TableRow] = relationship(back_populates="seats")


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0, 1, 2, ... per table
    player: Mapped[int] = mapped_column(Integer)  # the seat, or -1 for a chance outcome
    action: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
