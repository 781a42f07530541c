"""`kingdomkit serve`: the web platform on http://127.0.0.1:8000 (the `web` extra).

Data (the SQLite database and the key that signs session cookies) lives in `--data`
(default: $XDG_DATA_HOME/kingdomkit, else ~/.local/share/kingdomkit); `--database URL` or
KINGDOMKIT_DATABASE chooses another database, e.g. postgresql+psycopg://user@host/kingdomkit.
"""

from __future__ import annotations

import argparse
import os
import secrets
from pathlib import Path
from typing import Any

from kingdomkit.cli import serve_workers
from kingdomkit.core.protocol import KingdomkitError

SECRET_ENV = "KINGDOMKIT_SECRET"
DATABASE_ENV = "KINGDOMKIT_DATABASE"


class ServeError(KingdomkitError):
    pass


def default_data() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kingdomkit"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the web platform (play in a browser)",
        description="Serve the lobby, the tables and the browser client. Tables, seats and "
        "every action are stored in the database, so a restart resumes every game.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--data", type=Path, default=None, help="data folder")
    parser.add_argument("--database", default=None, help="an SQLAlchemy database URL")
    serve_workers.add_arguments(parser)
    parser.add_argument(
        "--https",
        action="store_true",
        help="the server is reached over HTTPS (behind a proxy): session cookies are Secure",
    )
    parser.set_defaults(run=run)


def secret_key(data: Path) -> str:
    """The session key: KINGDOMKIT_SECRET, else one made once and kept in the data folder."""
    if os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV]
    path = data / "secret"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from kingdomkit.server.app import ServerConfig, create_app
        from kingdomkit.server.database import default_url
    except ImportError as missing:
        raise ServeError(
            f"the web platform needs the web extra ({missing.name} is missing): "
            'pip install -e ".[web]"'
        ) from None
    workers = serve_workers.settings(args)
    data = args.data or default_data()
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ServeError(f"cannot use the data folder {data}: {error.strerror}") from None
    database = args.database or os.environ.get(DATABASE_ENV) or default_url(data)
    config = ServerConfig(database, secret_key(data), secure_cookies=args.https, **workers)
    print(f"kingdomkit: serving on http://{args.host}:{args.port} (data in {data})", flush=True)
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level="warning")
    return 0
