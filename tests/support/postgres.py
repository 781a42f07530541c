"""A real PostgreSQL server for the tests (Debian's package), started in a temporary folder.

`ensure_installed` installs the `postgresql` package with apt when the machine has none and
the tests run as root (a fresh CI machine; see system.py). `PostgresServer` runs `initdb`
and `pg_ctl` as the `postgres` system user when the tests are root (PostgreSQL refuses to
run as root), with trust authentication on 127.0.0.1 and a free port, and makes one
database per test.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from system import apt_install, free_port

USER = "kingdomkit"


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def ensure_installed() -> Path:
    bin_dir = _bin_dir()
    if bin_dir is None:
        apt_install("postgresql")
        bin_dir = _bin_dir()
    assert bin_dir is not None, "PostgreSQL was installed but pg_ctl is not found"
    return bin_dir


class PostgresServer:
    def __init__(self) -> None:
        self.bin = ensure_installed()
        self.root = Path(tempfile.mkdtemp(prefix="kingdomkit-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8")
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-w",
            "-l",
            str(self.root / "log"),
            "start",
        )

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, text=True)

    def database(self) -> str:
        """The URL of a new, empty database."""
        name = f"test_{uuid.uuid4().hex[:12]}"
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name)
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
