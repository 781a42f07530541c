"""Alembic's environment: migrations run on the connection `database.upgrade` passes in."""

from __future__ import annotations

from alembic import context

from kingdomkit.server.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters tables by copying them
)
with context.begin_transaction():
    context.run_migrations()
