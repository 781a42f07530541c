"""What a table was set up with and who set it up; who made each move; server-side sessions of
accounts; the look-alike key of account names.

- tables.owner: the identity that created the table (its share of the bot workers, its limits).
- tables.started_at: when the last seat was taken: the clocks run from there.
- actions.by: who chose a decision when it was not the seat itself: "stand-in" (a bot playing
  for a person who left) or "clock" (the person's time ran out); NULL otherwise.
- users.name_key: the name folded to its look-alike skeleton, unique, so that no account can
  take a name that reads like another's.
- sessions: one row per signed-in session (the SHA-256 of its secret); logout deletes it.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("owner", sa.String(64), nullable=True))
        table.add_column(sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
        table.create_index("ix_tables_owner", ["owner"])
    with op.batch_alter_table("actions") as actions:
        actions.add_column(sa.Column("by", sa.String(16), nullable=True))
    with op.batch_alter_table("users") as users:
        users.add_column(sa.Column("name_key", sa.String(160), nullable=True))
        users.create_unique_constraint("uq_users_name_key", ["name_key"])
    op.create_table(
        "sessions",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )


def downgrade() -> None:
    op.drop_table("sessions")
    with op.batch_alter_table("users") as users:
        users.drop_constraint("uq_users_name_key", type_="unique")
        users.drop_column("name_key")
    with op.batch_alter_table("actions") as actions:
        actions.drop_column("by")
    with op.batch_alter_table("tables") as table:
        table.drop_index("ix_tables_owner")
        table.drop_column("started_at")
        table.drop_column("owner")
