"""`kingdomkit arena --ray`: a real local Ray head, the same results as a local run.

The head is started with `ray start --head --block` in its own session and stopped by ending
that process (which stops what it started), then by killing what is left of its process
group: `ray stop` would also stop any other Ray on the machine.
"""

from __future__ import annotations

import contextlib
import csv
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kingdomkit.cli.main import main
from system import free_port

ARGV = ["arena", "kingdomino", "--players", "3", "--bots", "random", "greedy-placement"]
ARGV += ["--deals", "2", "--seed", "9"]


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # whatever the head left behind
    process.wait(timeout=10)


@pytest.fixture
def ray_head(tmp_path: Path) -> Iterator[str]:
    ray = Path(sys.executable).parent / "ray"
    port = free_port()
    command = [
        str(ray), "start", "--head", f"--port={port}", "--num-cpus=2",
        "--include-dashboard=false", "--disable-usage-stats", "--block",
        f"--dashboard-port={free_port()}",
        f"--dashboard-agent-listen-port={free_port()}",
    ]  # fmt: skip
    log = (tmp_path / "ray-head.log").open("wb")
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not listening(port):
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(
                    "the Ray head did not start:\n" + (tmp_path / "ray-head.log").read_text()
                )
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        stop(process)
        log.close()


def without_seconds(path: Path) -> list[list[str]]:
    return [row[:-1] for row in csv.reader(path.open(encoding="utf-8"))]


def test_ray_equals_local(ray_head: str, tmp_path: Path) -> None:
    local, remote = tmp_path / "local", tmp_path / "ray"
    assert main([*ARGV, "--out", str(local), "--workers", "1"]) == 0
    assert main([*ARGV, "--out", str(remote), "--ray", ray_head]) == 0
    assert (remote / "results.json").read_text("utf-8") == (local / "results.json").read_text(
        "utf-8"
    )
    assert without_seconds(remote / "games.csv") == without_seconds(local / "games.csv")
    assert len((remote / "games.jsonl").read_text("utf-8").splitlines()) == 2 * 2 * 3
