"""The schema's data migrations: accounts made before look-alike keys existed get theirs, so
that a new name cannot read like an old one either."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient

from kingdomkit.server.app import ServerConfig, create_app
from kingdomkit.server.database import MIGRATIONS, open_engine
from kingdomkit.server.models import Base


def test_old_accounts_get_their_look_alike_keys(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = sa.create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with old.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")  # as a server before the keys left it
        connection.execute(
            sa.text("INSERT INTO users (name, password_hash) VALUES ('Ace', 'x'), ('ACE', 'y')")
        )
    with open_engine(url).connect() as connection:
        keys = connection.execute(sa.text("SELECT name, name_key FROM users ORDER BY id")).all()
    assert keys == [("Ace", "ace"), ("ACE", None)]  # the older account keeps the key

    with TestClient(create_app(ServerConfig(url, "secret"))) as client:
        cyrillic = "\u0410\u0441\u0435"  # reads "Ace"
        body = {"name": cyrillic, "password": "plum orchard at dusk 7"}
        answer = client.post("/api/accounts", json=body)
        assert answer.status_code == 409 and "like" in answer.json()["detail"]


def test_a_table_played_under_older_rules_is_kept_and_refused_not_replayed(
    tmp_path: Path,
) -> None:
    """Queendomino version 2 added a chance node (the pile's face-up top): a version 1 table's
    actions would replay as another game, so it is refused with 410, and the server starts."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    with TestClient(create_app(ServerConfig(url, "secret"))) as client:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]
        made = client.post("/api/tables", json={"game": "queendomino", "seats": seats}).json()
        assert client.get(f"/api/tables/{made['table']}").status_code == 200
    with open_engine(url).begin() as connection:
        connection.execute(sa.text("UPDATE tables SET rules_version = 1"))
    with TestClient(create_app(ServerConfig(url, "secret"))) as client:  # resumes the others
        answer = client.get(f"/api/tables/{made['table']}")
        assert answer.status_code == 410 and "version 1" in answer.json()["detail"]
        listed = client.get("/api/tables").json()
        assert [row["table"] for row in listed] == [made["table"]]  # kept


def test_the_migrations_make_the_schema_the_models_declare(tmp_path: Path) -> None:
    """Every column and index of models.py has its migration (a column added to a model
    alone would be missing from every database made or upgraded by Alembic)."""
    engine = open_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []
