"""Many processes on one database: each table's change counter (a write is accepted only
against the count it read), the wall time its turn started (clocks survive restarts and read
the same in every process), what it waits for (the job sweep finds a bot move or a clock
whose job was lost), the analyst's advice kept per decision, and on PostgreSQL the job
queue's own schema (procrastinate's, applied once).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("changes", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("turn_started", sa.Float(), nullable=True))
        batch.add_column(sa.Column("waiting", sa.String(8), nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float(), nullable=True))
        batch.create_index("ix_tables_waiting", ["waiting"])
    op.create_table(
        "advice",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        from kingdomkit.server.jobs import job_schema

        if not bind.exec_driver_sql("SELECT to_regclass('procrastinate_jobs')").scalar():
            bind.connection.cursor().execute(job_schema())


def downgrade() -> None:
    op.drop_table("advice")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_waiting")
        for column in ("deadline", "waiting", "turn_started", "changes"):
            batch.drop_column(column)
