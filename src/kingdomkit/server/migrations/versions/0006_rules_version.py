"""The version of the game's rules each table is played under. A table is the replay of its
actions, which only mean the same game under the same rules: a server whose engine has moved
on (Queendomino version 2 turned the pile's top face up, a new chance node) keeps the table
and says why it cannot be played here, instead of replaying it wrongly. Every table made
before this revision was played under version 1 (the first version of every game).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(
            sa.Column("rules_version", sa.Integer(), nullable=False, server_default="1")
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.drop_column("rules_version")
