"""`kingdomkit serve`: the web platform on http://127.0.0.1:8000 (the `web` extra).

Data (the SQLite database and the key that signs session cookies) lives in `--data`
(default: $XDG_DATA_HOME/kingdomkit, else ~/.local/share/kingdomkit); `--database URL` or
KINGDOMKIT_DATABASE chooses another database, e.g. postgresql+psycopg://user@host/kingdomkit.
Each limit on what one visitor may ask (`--limit-...`, see --help) can also be set by the
environment (KINGDOMKIT_LIMIT_...).

At start it says which engine the bots play on: the levels are calibrated (docs/strength.md)
with the compiled kernel, which the `web` extra brings (through `fast`); without it, or with
KINGDOMKIT_COMPILED=0, the search bots run pure-Python playouts and play weaker.
"""

from __future__ import annotations

import argparse
import os
import secrets
from pathlib import Path
from typing import Any

from kingdomkit.bots.compiled import every_game
from kingdomkit.cli import serve_workers
from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.server import limits
from kingdomkit.server.logs import show_logs

SECRET_ENV = "KINGDOMKIT_SECRET"
DATABASE_ENV = "KINGDOMKIT_DATABASE"
ORIGINS_ENV = "KINGDOMKIT_ORIGINS"  # comma-separated, like repeated --origin
PROXIES_ENV = "KINGDOMKIT_TRUSTED_PROXIES"
METRICS_TOKEN_ENV = "KINGDOMKIT_METRICS_TOKEN"
RATE_STORAGE_ENV = "KINGDOMKIT_RATE_STORAGE"
LAZY_KERNELS_ENV = "KINGDOMKIT_LAZY_KERNELS"  # "1": as --lazy-kernels
LOG_LEVEL_ENV = "KINGDOMKIT_LOG_LEVEL"
LOG_LEVELS = ("debug", "info", "warning", "error")
METRICS_TOKEN_LEAST = 16  # characters: a token short enough to guess protects nothing
PRIVATE_UMASK = 0o077  # the data folder, the database and the key: the server's user only


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
    serve_workers.add_analyst(parser)
    parser.add_argument(
        "--https",
        action="store_true",
        help="the server is reached over HTTPS (behind a proxy): session cookies are Secure",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=None,
        metavar="ADDRESS",
        help="a proxy whose X-Forwarded-For names the client (repeatable; "
        f"{PROXIES_ENV}); default: none, every client is the address it connects from",
    )
    parser.add_argument(
        "--origin",
        action="append",
        default=None,
        metavar="URL",
        help="an origin whose pages may act here, e.g. https://play.example.org (repeatable; "
        f"{ORIGINS_ENV}); default: the address the request was sent to",
    )
    parser.add_argument(
        "--metrics-token",
        default=None,
        metavar="TOKEN",
        help="lets clients not on loopback read /metrics with `Authorization: Bearer TOKEN` "
        f"({METRICS_TOKEN_ENV}); default: /metrics answers loopback only",
    )
    parser.add_argument(
        "--rate-storage",
        default=None,
        metavar="URI",
        help="where the rate limits are counted: memory:// (this process) or a Redis every"
        f" serve process shares, redis://host:6379/0 ({RATE_STORAGE_ENV}; default memory://)",
    )
    add_lazy_kernels(parser)
    add_log_level(parser)
    limits.add_arguments(parser)
    parser.set_defaults(run=run)


def add_lazy_kernels(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lazy-kernels",
        action="store_true",
        help="compile a game's bot kernel (numba) at its first bot move, not at start in a"
        f" process of its own ({LAZY_KERNELS_ENV}=1): on a fresh install that move then"
        " waits minutes",
    )


def add_log_level(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default=None,
        help="the server's own log lines on standard error from this level up: a kernel"
        f" ready, a slow socket dropped, a job run again ({LOG_LEVEL_ENV}; default info)",
    )


def log_level(args: argparse.Namespace) -> str:
    """--log-level, else the environment's (refused in words if not a level), else info."""
    if args.log_level is not None:
        return str(args.log_level)
    text = os.environ.get(LOG_LEVEL_ENV, "").strip().lower() or "info"
    if text not in LOG_LEVELS:
        raise ServeError(f"{LOG_LEVEL_ENV} is one of {', '.join(LOG_LEVELS)}, not {text!r}")
    return text


def prepares_kernels(args: argparse.Namespace) -> bool:
    """Whether this process makes the bots' kernels ready at start (bots/compiled.py).

    The environment says 1 (lazy) or 0; any other word is refused, not read as 0, so that a
    deployment that meant "yes" is told rather than left compiling at every start."""
    text = os.environ.get(LAZY_KERNELS_ENV, "").strip()
    if text not in ("", "0", "1"):
        raise ServeError(f"{LAZY_KERNELS_ENV} is 1 (compile at a first move) or 0, not {text!r}")
    return not (args.lazy_kernels or text == "1")


def secret_key(data: Path) -> str:
    """The session key: KINGDOMKIT_SECRET, else one made once and kept in the data folder."""
    if os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV]
    path = data / "secret"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()


def make_private(data: Path) -> None:
    """The data folder 0700 and what is in it 0600, also when an older version made them
    readable by others."""
    data.chmod(0o700)
    for path in data.iterdir():
        if path.is_file():
            path.chmod(0o600)


def bot_engine_line() -> str:
    """One line saying which engine the bots' playouts run on (the compiled kernel of each
    game that has one, or the pure-Python engine, and why)."""
    fast = [name for name, _ in every_game()]
    if fast:
        return (
            f"kingdomkit: bots play on the compiled kernel for {', '.join(fast)} (numba), "
            "the levels as docs/strength.md calibrates them"
        )
    if os.environ.get("KINGDOMKIT_COMPILED") == "0":
        why = "KINGDOMKIT_COMPILED=0 turns the compiled kernel off"
    else:
        why = 'the compiled kernel is missing: pip install -e ".[web]" brings it'
    return (
        f"kingdomkit: bots play on the pure-Python engine ({why}); "
        "hard and expert are weaker than docs/strength.md says"
    )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
        from limits.errors import ConfigurationError

        from kingdomkit.server.analysts import Analysts
        from kingdomkit.server.app import ServerConfig, create_app
        from kingdomkit.server.database import default_url
        from kingdomkit.server.guard import is_loopback, normal_origin
        from kingdomkit.server.rates import MEMORY, Rates
    except ImportError as missing:
        raise ServeError(
            f"the web platform needs the web extra ({missing.name} is missing): "
            'pip install -e ".[web]"'
        ) from None
    workers = serve_workers.settings(args)
    analysts = Analysts.read(args.analyst)
    prepare_playouts = prepares_kernels(args)
    logs = log_level(args)
    data = args.data or default_data()
    os.umask(PRIVATE_UMASK)
    try:
        data.mkdir(parents=True, exist_ok=True)
        make_private(data)
    except OSError as error:
        raise ServeError(f"cannot use the data folder {data}: {error.strerror}") from None
    database = args.database or os.environ.get(DATABASE_ENV) or default_url(data)
    metrics_token = args.metrics_token or os.environ.get(METRICS_TOKEN_ENV) or None
    if metrics_token is not None and len(metrics_token) < METRICS_TOKEN_LEAST:
        raise ServeError(f"the metrics token has at least {METRICS_TOKEN_LEAST} characters")
    origins = args.origin or [o for o in os.environ.get(ORIGINS_ENV, "").split(",") if o.strip()]
    rate_storage = args.rate_storage or os.environ.get(RATE_STORAGE_ENV) or MEMORY
    try:
        rates = Rates(rate_storage)
    except (ConfigurationError, ValueError) as error:
        shown = rate_storage.partition(":")[0] + "://..."  # never the rest: it may hold a password
        why = str(error).replace(rate_storage, shown)
        raise ServeError(f"the rate storage {shown} cannot be used: {why}") from None
    if not rates.check():
        print(
            f"kingdomkit: warning: the rate storage ({rate_storage.partition(':')[0]}://...) does"
            " not answer: each process counts the rate limits itself until it does",
            flush=True,
        )
    try:
        config = ServerConfig(
            database,
            secret_key(data),
            secure_cookies=args.https,
            origins=tuple(normal_origin(o) for o in origins),
            local_only=is_loopback(args.host),
            limits=limits.from_arguments(args, os.environ),
            metrics_token=metrics_token,
            rates=rates,
            analysts=analysts,
            prepare_playouts=prepare_playouts,
            **workers,
        )
    except ValueError as error:
        raise ServeError(str(error)) from None
    print(f"kingdomkit: serving on http://{args.host}:{args.port} (data in {data})", flush=True)
    if database.startswith("postgresql") and not os.environ.get(SECRET_ENV):
        print(
            f"kingdomkit: warning: every serve process on this database must sign cookies with"
            f" the same key: set {SECRET_ENV} for all of them (this one uses {data / 'secret'})",
            flush=True,
        )
    # The per-address limits count the address a client connects from: a forwarded one is
    # believed only from the proxies named, never by default (anyone on loopback could
    # otherwise claim any address).
    proxies = args.trusted_proxy or [
        p.strip() for p in os.environ.get(PROXIES_ENV, "").split(",") if p.strip()
    ]
    print(bot_engine_line(), flush=True)
    show_logs(logs)
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        log_level="warning",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        ws_max_size=config.limits.socket_message_bytes,
    )
    return 0
