"""A real Redis server for the tests (Debian's `redis-server`, installed with apt when missing
and the tests run as root, as PostgreSQL is), on a free port of 127.0.0.1, keeping nothing on
disk. It can be stopped and started again on the same port (a Redis that goes away)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from system import apt_install, free_port

START_SECONDS = 30.0


def ensure_installed() -> str:
    found = shutil.which("redis-server")
    if found is None:
        apt_install("redis-server")
        found = shutil.which("redis-server")
    assert found is not None, "redis-server was installed but is not found"
    return found


class RedisServer:
    def __init__(self) -> None:
        self.program = ensure_installed()
        self.root = Path(tempfile.mkdtemp(prefix="kingdomkit-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [self.program, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.root)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                assert self.process.poll() is None, "redis-server stopped at its start"
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=30)
            self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
