"""Opening the database: SQLite by default, any SQLAlchemy URL (PostgreSQL) by choice, with
the schema brought up to date by the package's Alembic migrations on every start."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.orm import sessionmaker

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x6B6B_0001  # the advisory lock migrations take on PostgreSQL


def default_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'kingdomkit.db'}"


def open_engine(url: str) -> Engine:
    """An engine for `url`, its schema migrated to the newest revision."""
    sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"check_same_thread": False} if sqlite else {})
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    upgrade(engine)
    return engine


def _sqlite_pragmas(connection: object, _record: object) -> None:
    # WAL keeps readers off the writer's back; every commit still reaches the disk before the
    # server broadcasts it (synchronous=FULL), so a crash loses nothing that was shown.
    cursor = connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def upgrade(engine: Engine) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # processes starting together migrate one after the other, not all at once
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def conninfo(url: str) -> str:
    """The libpq connection string of an SQLAlchemy PostgreSQL URL (for psycopg itself)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def session_factory(engine: Engine) -> sessionmaker:  # type: ignore[type-arg]
    return sessionmaker(engine, expire_on_commit=False)
