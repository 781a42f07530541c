"""What the tests need from the machine: system packages (Debian's PostgreSQL and chromium),
installed with apt when missing and the tests run as root, as on a fresh CI machine (a lock
file makes parallel pytest-xdist workers install one at a time); and free ports."""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

LOCK = Path(tempfile.gettempdir()) / "kingdomkit-apt.lock"


def apt_install(package: str) -> None:
    """`apt-get install -y package`, once across parallel test workers (root only)."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise RuntimeError(f"{package} is not installed and cannot be installed here")
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        done = subprocess.run(
            ["apt-get", "install", "-y", "-q", package], env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=True)
            subprocess.run(
                ["apt-get", "install", "-y", "-q", package],
                env=env,
                capture_output=True,
                check=True,
            )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port
