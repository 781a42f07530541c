"""Where each table was made from: a keyed digest of the maker's network address (never the
address), so that the limit on unfinished tables per address is counted in the database,
the same in every serve process and after a restart. Tables made before this revision have
none and count for no address.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("made_from", sa.String(64), nullable=True))
        batch.create_index("ix_tables_made_from", ["made_from"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_made_from")
        batch.drop_column("made_from")
