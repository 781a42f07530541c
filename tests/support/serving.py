"""`kingdomkit serve` as a real process for the tests: started on a free port with its own
data folder (and a database URL, limits or environment when given), killed with SIGKILL or
stopped, and started again on the same data; its standard error goes to the test's output,
or to a file when a test reads it. Its bots compile their kernels at their first move, not
at start (LAZY): a process more at every start would cost the suite minutes."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import httpx2

from system import free_port

START_SECONDS = 60
LAZY = {"KINGDOMKIT_LAZY_KERNELS": "1"}  # serve --lazy-kernels
COMPILE_SECONDS = 900  # the three kernels compiled on a slow machine, the suite beside them


class ServeProcess:
    """`kingdomkit serve` on one port and data folder, which can be killed and restarted."""

    def __init__(
        self,
        data: Path,
        database: str | None = None,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        log: Path | None = None,
    ) -> None:
        self.data = data
        self.log = log
        self.database = database
        self.args = list(args)
        self.env = dict(env or {})
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "kingdomkit", "serve", "--port", str(self.port)]
        if self.database is not None:
            command += ["--database", self.database]
        command += self.args
        env = {**os.environ, **LAZY, "XDG_DATA_HOME": str(self.data), **self.env}
        with open(self.log, "ab") if self.log else contextlib.nullcontext() as stderr:
            self.process = subprocess.Popen(
                command, env=env, stdout=subprocess.DEVNULL, stderr=stderr
            )
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if httpx2.get(f"{self.url}/api/games").is_success:
                    return
            except httpx2.TransportError:
                pass
            assert self.process.poll() is None, "the server stopped while starting"
            if time.monotonic() >= deadline:
                kill(self.process)  # not left running after the test
                raise AssertionError(f"the server did not start in {START_SECONDS} s")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: nothing is flushed or closed, as in a crash."""
        assert self.process is not None
        kill(self.process)

    def stop(self) -> None:
        """A clean stop (SIGTERM), if it still runs."""
        stop(self.process)


def kill(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


def stop(process: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM, then SIGKILL if it has not stopped within 30 s."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            kill(process)
