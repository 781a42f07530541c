"""The look-alike key of every account made before keys existed, so that no new name can read
like theirs either. Oldest first; an older account's key wins a clash (the newer keeps none).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from kingdomkit.server.text import name_key

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    connection = op.get_bind()
    users = sa.table(
        "users", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key")
    )
    taken = set(
        connection.scalars(sa.select(users.c.name_key).where(users.c.name_key.is_not(None)))
    )
    rows = connection.execute(
        sa.select(users.c.id, users.c.name).where(users.c.name_key.is_(None)).order_by(users.c.id)
    ).all()
    for user, name in rows:
        key = name_key(name)
        if key not in taken:
            taken.add(key)
            connection.execute(sa.update(users).where(users.c.id == user).values(name_key=key))


def downgrade() -> None:
    pass  # the keys are harmless under 0004
