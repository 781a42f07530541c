"""Accounts and their ratings; rated tables, time controls and clocks; stand-in bots.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    with op.batch_alter_table("tables") as table:
        table.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        table.add_column(sa.Column("move_seconds", sa.Float(), nullable=True))
        table.add_column(sa.Column("game_seconds", sa.Float(), nullable=True))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("stand_in", sa.String(64), nullable=True))
        seats.add_column(sa.Column("time_used", sa.Float(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("time_used")
        seats.drop_column("stand_in")
    with op.batch_alter_table("tables") as table:
        table.drop_column("game_seconds")
        table.drop_column("move_seconds")
        table.drop_column("rated")
    op.drop_table("ratings")
    op.drop_table("users")
