"""A `kingdomkit serve` killed with SIGKILL while its bots play leaves no bot worker running
on, on SQLite and on PostgreSQL (kingdomkit.core.workers); stopped with SIGTERM, it ends its
workers and leaves nothing behind to report at exit. The bots' kernels are made ready at
start in a process of their own, which ends then or with the server; a `kingdomkit worker`
makes them ready at its start too."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest

from kingdomkit.cli.main import main
from kingdomkit.server.bots import prepare_playouts
from postgres import PostgresServer
from processes import DEATH_SECONDS, gone, started_workers, still_running, workers_of
from serving import COMPILE_SECONDS, ServeProcess, stop

HUMAN = {"kind": "human"}


def test_a_server_killed_while_its_bots_play_leaves_no_worker(served: ServeProcess) -> None:
    workers = bots_playing(served)
    served.kill()
    assert not still_running(workers)


def test_a_server_stopped_while_its_bots_play_stops_cleanly(tmp_path: Path) -> None:
    served = ServeProcess(tmp_path, log=tmp_path / "serve.log")
    served.start()
    try:
        workers = bots_playing(served)
        assert served.process is not None
        # It reports at exit what the server left unreleased: read its words once it is gone.
        trackers = workers_of(served.process.pid, b"resource_tracker")
    finally:
        served.stop()
    assert not still_running(workers)
    assert gone(trackers)
    log = (tmp_path / "serve.log").read_text()
    assert "leaked" not in log
    assert "Traceback" not in log


def bots_playing(served: ServeProcess) -> set[int]:
    """The bot workers of `served` once two bots play a table there and have moved."""
    ann = httpx2.Client(base_url=served.url, timeout=60)
    made = ann.post(
        "/api/tables",
        json={"game": "kingdomino", "seats": [HUMAN, {"kind": "bot", "bot": "hard"}]},
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    handed = ann.post(f"/api/tables/{table}/seats/0/bot", json={"bot": "hard"})
    assert handed.status_code == 200, handed.text
    assert served.process is not None
    server = served.process.pid
    deadline = time.monotonic() + DEATH_SECONDS
    while time.monotonic() < deadline:  # until the bots have moved: their workers run
        workers = workers_of(server)
        if workers and ann.get(f"/api/tables/{table}").json()["log"]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the bots did not move")
    return workers


def test_the_bots_kernels_are_made_ready_in_a_process_that_then_ends() -> None:
    pytest.importorskip("numba")
    assert asyncio.run(prepare_playouts()) == ["kingdomino", "kingdoms", "queendomino"]
    assert not workers_of(os.getpid())


def test_a_server_stopped_while_the_kernels_compile_ends_that_process() -> None:
    async def stopped_early() -> set[int]:
        preparing = asyncio.create_task(prepare_playouts())
        process = await asyncio.to_thread(started_workers, os.getpid())
        preparing.cancel()
        await asyncio.gather(preparing, return_exceptions=True)
        return process

    assert gone(asyncio.run(stopped_early()))


def test_serve_makes_the_kernels_ready_at_start_in_a_process_that_then_ends(
    tmp_path: Path,
) -> None:
    """`kingdomkit serve` without --lazy-kernels: a worker appears with no table made, and
    ends once the kernels are compiled (minutes on a fresh install) or loaded; the server's
    log says so, with the time, at the default level."""
    log = tmp_path / "serve.log"
    served = ServeProcess(tmp_path, env={"KINGDOMKIT_LAZY_KERNELS": "0"}, log=log)
    served.start()
    try:
        deadline = kernels_made_ready(served)
        assert served.process is not None and not workers_of(served.process.pid)
        games = "kingdomino, kingdoms, queendomino"
        ready = f"kingdomkit.server INFO: bots' compiled playouts ready ({games})"
        while ready not in log.read_text():
            assert time.monotonic() < deadline, f"the log never said it: {log.read_text()!r}"
            time.sleep(0.1)
        line = next(line for line in log.read_text().splitlines() if ready in line)
        assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} kingdomkit.server INFO: ", line)
    finally:
        served.stop()


def test_a_worker_makes_the_kernels_ready_at_start_too(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    """`kingdomkit worker` without --lazy-kernels: its bots' first moves must not wait for a
    compiler either, so it makes the kernels ready at start as serve does, and says so."""
    log = tmp_path / "worker.log"
    command = [sys.executable, "-m", "kingdomkit", *WORKER[:2], postgres.database()]
    command += ["--bot-workers", "1", "--analysis-workers", "0"]
    env = {**os.environ, "KINGDOMKIT_LAZY_KERNELS": "0"}
    with open(log, "ab") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=output)
    try:
        deadline = time.monotonic() + COMPILE_SECONDS
        games = "kingdomino, kingdoms, queendomino"
        ready = f"kingdomkit.server INFO: bots' compiled playouts ready ({games})"
        while ready not in log.read_text():
            assert process.poll() is None, f"the worker ended: {log.read_text()!r}"
            assert time.monotonic() < deadline, f"the log never said it: {log.read_text()!r}"
            time.sleep(0.1)
    finally:
        stop(process)
    assert process.returncode == 0, log.read_text()
    assert "Traceback" not in log.read_text()


def test_the_log_level_hides_the_lines_below_it(tmp_path: Path) -> None:
    """At --log-level warning the kernels are made ready with nothing said."""
    log = tmp_path / "serve.log"
    served = ServeProcess(
        tmp_path, args=["--log-level", "warning"], env={"KINGDOMKIT_LAZY_KERNELS": "0"}, log=log
    )
    served.start()
    try:
        kernels_made_ready(served)
    finally:
        served.stop()
    assert "INFO" not in log.read_text()


def kernels_made_ready(served: ServeProcess) -> float:
    """Wait until the process serve starts to make the kernels ready has ended; the deadline
    of that wait (for what the caller waits for next)."""
    assert served.process is not None
    preparing = started_workers(served.process.pid)
    deadline = time.monotonic() + COMPILE_SECONDS
    while not gone(preparing):
        assert time.monotonic() < deadline, "the kernels were not ready"
    return deadline


WORKER = ["worker", "--database", "postgresql+psycopg://nobody@nowhere/none"]
BAD_SETTINGS = [  # a word that is not a setting is refused, not read as the default
    ("KINGDOMKIT_LAZY_KERNELS", "yes", "is 1 (compile at a first move) or 0, not 'yes'"),
    ("KINGDOMKIT_LOG_LEVEL", "loud", "is one of debug, info, warning, error, not 'loud'"),
]


@pytest.mark.parametrize("argv", [["serve"], WORKER])
@pytest.mark.parametrize(("variable", "value", "message"), BAD_SETTINGS)
def test_a_setting_in_the_environment_that_is_none_is_refused_before_starting(
    argv: list[str],
    variable: str,
    value: str,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(variable, value)
    data = tmp_path / "data"
    assert main([*argv, *(["--data", str(data)] if argv[0] == "serve" else [])]) == 2
    assert f"{variable} {message}" in capsys.readouterr().err
    assert not data.exists()
