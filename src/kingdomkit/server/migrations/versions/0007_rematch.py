"""After a game: its final scores and its rating changes (for the lobby and the finished
table), the rematch a player proposed, and a rematch's seats kept for the people who sat
there; seats indexed by holder, since the lobby lists each person's tables
first. Tables finished before this revision have no stored result: the lobby lists them
without scores.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("result", sa.JSON(), nullable=True))
        table.add_column(sa.Column("rating_changes", sa.JSON(), nullable=True))
        table.add_column(sa.Column("rematch", sa.String(32), nullable=True))
        table.add_column(sa.Column("rematch_by", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("reserved", sa.String(64), nullable=True))
        seats.create_index("ix_seats_reserved", ["reserved"])
        seats.create_index("ix_seats_holder", ["holder"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("ix_seats_holder")
        seats.drop_index("ix_seats_reserved")
        seats.drop_column("reserved")
    with op.batch_alter_table("tables") as table:
        for column in ("rematch_by", "rematch", "rating_changes", "result"):
            table.drop_column(column)
