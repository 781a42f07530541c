"""Time budgets counted in CPU seconds (`--clock cpu`), so that a shared machine measures the
same bots as a quiet one; the clock is part of a tournament."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from kingdomkit.arena.schedule import Tournament
from kingdomkit.bots.budget import CLOCK_VARIABLE, Budget, clock_kind, counting
from kingdomkit.bots.parallel import WorkerPool
from kingdomkit.cli.main import main
from kingdomkit.core.protocol import OptionError

TWO = ["arena", "kingdomino", "--players", "2", "--bots", "mcts:time=0.01", "--gauntlet", "random"]


def test_a_cpu_budget_does_not_count_time_spent_waiting() -> None:
    with counting("cpu"):
        clock = Budget(seconds=0.05).start()
        time.sleep(0.2)  # a starved process: the wall clock runs, its CPU clock does not
        assert clock.more(0)
    clock = Budget(seconds=0.05).start()
    time.sleep(0.2)
    assert not clock.more(0)


def test_counting_puts_the_environment_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CLOCK_VARIABLE, raising=False)
    with counting("cpu"):
        assert os.environ[CLOCK_VARIABLE] == "cpu" and clock_kind() == "cpu"
        with counting("wall"):
            assert clock_kind() == "wall"
        assert clock_kind() == "cpu"
    assert CLOCK_VARIABLE not in os.environ and clock_kind() == "wall"


def test_an_unknown_clock_is_refused_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CLOCK_VARIABLE, "sundial")
    with pytest.raises(OptionError, match="wall or cpu, not 'sundial'"):
        Budget(seconds=1).start()
    with pytest.raises(OptionError, match="wall or cpu"):
        Tournament("kingdomino", {"players": 2}, ("greedy", "random"), clock="sundial")


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
def test_helper_processes_of_a_parallel_search_count_on_the_same_clock() -> None:
    with counting("cpu"):
        pool = WorkerPool(1)
    try:
        # between its fork and its exec the helper's environment reads empty: wait for the exec
        deadline = time.monotonic() + 30
        while not (environ := Path(f"/proc/{pool.processes[0].pid}/environ").read_bytes()):
            assert time.monotonic() < deadline, "the helper process did not start"
            time.sleep(0.01)
        assert f"{CLOCK_VARIABLE}=cpu".encode() in environ.split(b"\0")
    finally:
        pool.close()


def test_a_cpu_tournament_says_so_and_is_not_resumed_on_the_wall_clock(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "cpu"
    argv = [*TWO, "--deals", "1", "--seed", "3", "--out", str(out), "--workers", "1"]
    assert main([*argv, "--clock", "cpu"]) == 0
    printed = capsys.readouterr().out.replace("\n", " ")
    assert "time budgets in CPU seconds" in printed
    assert json.loads((out / "arena.json").read_text("utf-8"))["clock"] == "cpu"
    results = json.loads((out / "results.json").read_text("utf-8"))
    assert results["tournament"]["clock"] == "cpu" and results["games"] == 2
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert 'clock there: "cpu", here: "wall"' in err and "Traceback" not in err


def test_a_tournament_from_before_the_clock_resumes_on_the_wall_clock(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "old"
    argv = [*TWO, "--seed", "3", "--out", str(out), "--workers", "1"]
    assert main([*argv, "--deals", "1"]) == 0
    config = json.loads((out / "arena.json").read_text("utf-8"))
    del config["clock"]  # as arena.json was written before --clock
    (out / "arena.json").write_text(json.dumps(config), "utf-8")
    assert main([*argv, "--deals", "2"]) == 0
    assert "2 played now, 2 before" in capsys.readouterr().out.replace("\n", " ")
    assert main([*argv, "--deals", "2", "--clock", "cpu"]) == 2
