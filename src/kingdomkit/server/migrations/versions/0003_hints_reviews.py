"""Hints on a table, and the graded review of a finished game.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(
            sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        table.add_column(sa.Column("review", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.drop_column("review")
        table.drop_column("hints")
