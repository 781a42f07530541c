"""`kingdomkit arena`: the files it writes, resuming, local workers and clean errors."""

from __future__ import annotations

import csv
import json
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from kingdomkit.arena.extras import require
from kingdomkit.arena.outcome import Outcome
from kingdomkit.arena.runner import run_serial
from kingdomkit.arena.schedule import GameKey, ScheduledGame, Tournament
from kingdomkit.arena.tournament import play_tournament
from kingdomkit.cli.main import main
from kingdomkit.core.protocol import KingdomkitError
from system import free_port

# Three bots, three players: 6 line-ups x 3 rotations = 18 games a deal, all fast.
SMALL = ["arena", "kingdomino", "--players", "3", "--bots", "random", "greedy-placement", "greedy"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def without_seconds(path: Path) -> list[list[str]]:
    rows = list(csv.reader(path.open(encoding="utf-8")))
    return [row[:-1] for row in rows]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small round robin played in this process, uninterrupted."""
    out = tmp_path_factory.mktemp("arena") / "full"
    assert main([*SMALL, "--deals", "3", "--seed", "2", "--out", str(out), "--workers", "1"]) == 0
    return out


def test_files_written(finished: Path) -> None:
    names = {path.name for path in finished.iterdir()}
    assert names == {
        "arena.json", "games.jsonl", "games.csv", "results.csv", "results.json",
        "ratings.png", "scores.png",
    }  # fmt: skip
    for chart in ("ratings.png", "scores.png"):
        data = (finished / chart).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000
    results = json.loads((finished / "results.json").read_text(encoding="utf-8"))
    assert results["games"] == 3 * 18 and results["deals_played"] == 3
    assert sorted(row["bot"] for row in results["bots"]) == ["greedy", "greedy-placement", "random"]
    assert [row["rank"] for row in results["bots"]] == [1, 2, 3]
    assert sum(row["win_rate"]["mean"] * row["seats"] for row in results["bots"]) == (
        pytest.approx(54)
    )
    rows = list(csv.DictReader((finished / "results.csv").open(encoding="utf-8")))
    assert len(rows) == 3 + 3 * 2
    assert {row["scope"] for row in rows} == {
        "all", "random vs greedy-placement", "random vs greedy", "greedy-placement vs greedy",
    }  # fmt: skip
    first = rows[0]
    assert float(first["win_rate_low"]) <= float(first["win_rate"]) <= float(first["win_rate_high"])
    games = list(csv.DictReader((finished / "games.csv").open(encoding="utf-8")))
    assert [int(row["index"]) for row in games] == list(range(54))
    assert {row["seed"] for row in games} == {"2", "3", "4"}
    lines = (finished / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 54
    config = json.loads((finished / "arena.json").read_text(encoding="utf-8"))
    assert config["bots"] == ["random", "greedy-placement", "greedy"] and config["deals"] == 3


def test_summary_on_stdout(capsys: pytest.CaptureFixture[str], finished: Path) -> None:
    status, out, _ = run(capsys, *SMALL, "--deals", "3", "--seed", "2", "--out", str(finished))
    assert status == 0
    assert "win rate" in out and "Elo" in out and "matches" in out
    assert "0 played now, 54 before" in out.replace("\n", " ")
    status, out, _ = run(
        capsys, *SMALL, "--deals", "3", "--seed", "2", "--out", str(finished), "--json"
    )
    assert json.loads(out) == json.loads((finished / "results.json").read_text("utf-8"))


def recording(asked: list[GameKey]) -> object:
    def play(games: Sequence[ScheduledGame]) -> Iterator[Outcome]:
        asked.extend(game.key for game in games)
        return run_serial("kingdomino", {"players": 3}, games)

    return play


def test_resume_plays_only_the_missing_games(finished: Path, tmp_path: Path) -> None:
    out = tmp_path / "resumed"
    out.mkdir()
    shutil.copy(finished / "arena.json", out / "arena.json")
    lines = (finished / "games.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    kept = lines[:20]
    # Killed in the middle of writing the 21st line.
    (out / "games.jsonl").write_text("".join(kept) + lines[20][:37], encoding="utf-8")
    setup = Tournament(
        "kingdomino", {"players": 3}, ("random", "greedy-placement", "greedy"), deals=3, seed=2
    )
    asked: list[GameKey] = []
    results = play_tournament(setup, out, recording(asked))  # type: ignore[arg-type]
    done = {Outcome.from_json(json.loads(line)).key for line in kept}
    assert len(asked) == 54 - 20
    assert set(asked) == {game.key for game in setup.games()} - done
    assert results == json.loads((finished / "results.json").read_text("utf-8"))
    for name in ("results.json", "results.csv"):
        assert (out / name).read_text("utf-8") == (finished / name).read_text("utf-8")
    assert without_seconds(out / "games.csv") == without_seconds(finished / "games.csv")
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 54 and all(json.loads(line) for line in lines)


def test_a_games_file_replaced_during_a_run_gets_the_games_that_follow(
    finished: Path, tmp_path: Path
) -> None:
    """A checkout or `git stash` replaces games.jsonl under a running arena (a new file at the
    path, the old one deleted). The games after that must go to the file at the path, not to
    the deleted one, where nothing could read them."""
    out = tmp_path / "replaced"
    out.mkdir()
    shutil.copy(finished / "arena.json", out / "arena.json")
    setup = Tournament(
        "kingdomino", {"players": 3}, ("random", "greedy-placement", "greedy"), deals=3, seed=2
    )
    games = out / "games.jsonl"

    def replacing(scheduled: Sequence[ScheduledGame]) -> Iterator[Outcome]:
        for number, outcome in enumerate(run_serial("kingdomino", {"players": 3}, scheduled)):
            if number == 10:  # ten games are on disk: the file is put back as it was
                kept = games.read_text(encoding="utf-8")
                games.unlink()
                games.write_text(kept, encoding="utf-8")
            yield outcome

    results = play_tournament(setup, out, replacing)
    lines = games.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 54 == results["games"]
    assert results == json.loads((finished / "results.json").read_text("utf-8"))


def test_so_far_reports_the_whole_deals_and_leaves_the_games_as_they_are(
    capsys: pytest.CaptureFixture[str], finished: Path, tmp_path: Path
) -> None:
    """A run still going (or stopped): its whole deals are reported, nothing is played, and
    its games file, a line half written included, is not touched."""
    out = tmp_path / "going"
    out.mkdir()
    shutil.copy(finished / "arena.json", out / "arena.json")
    lines = (finished / "games.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    written = "".join(lines[:40]) + lines[40][:37]  # deals 0 and 1 whole, then 4 games and a half
    (out / "games.jsonl").write_text(written, encoding="utf-8")
    argv = [*SMALL, "--deals", "3", "--seed", "2", "--out", str(out), "--so-far"]
    status, text, _ = run(capsys, *argv)
    assert status == 0
    assert "So far: 2 of 3 deals played whole; games of other deals, not counted: 4." in text
    assert (out / "games.jsonl").read_text(encoding="utf-8") == written
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["games"] == 36 and results["deals_played"] == 2
    whole = [Outcome.from_json(json.loads(line)) for line in lines[:36]]
    setup = Tournament(
        "kingdomino", {"players": 3}, ("random", "greedy-placement", "greedy"), deals=3, seed=2
    )
    from kingdomkit.arena.stats import summarize

    assert results == summarize(setup, whole)
    status, _, err = run(capsys, *argv[:-3], "--out", str(tmp_path / "none"), "--so-far")
    assert status == 2 and "holds no tournament" in err and "Traceback" not in err
    assert not (tmp_path / "none").exists()


def test_more_deals_extend_a_tournament(finished: Path, tmp_path: Path) -> None:
    out = tmp_path / "extended"
    shutil.copytree(finished, out)
    setup = Tournament(
        "kingdomino", {"players": 3}, ("random", "greedy-placement", "greedy"), deals=4, seed=2
    )
    asked: list[GameKey] = []
    results = play_tournament(setup, out, recording(asked), resamples=50)  # type: ignore[arg-type]
    assert {key[0] for key in asked} == {3} and len(asked) == 18
    assert results["games"] == 72


def test_two_workers_equal_one(
    capsys: pytest.CaptureFixture[str], finished: Path, tmp_path: Path
) -> None:
    out = tmp_path / "parallel"
    status, _, _ = run(
        capsys, *SMALL, "--deals", "3", "--seed", "2", "--out", str(out), "--workers", "2"
    )
    assert status == 0
    assert (out / "results.json").read_text("utf-8") == (finished / "results.json").read_text(
        "utf-8"
    )
    assert without_seconds(out / "games.csv") == without_seconds(finished / "games.csv")


def test_gauntlet_one_against_three(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(
        capsys, "arena", "kingdomino", "--players", "4", "--bots", "GREEDY-placement",
        "--gauntlet", "random", "--deals", "2", "--out", str(tmp_path), "--json", "--workers", "1",
    )  # fmt: skip
    assert status == 0
    results = json.loads(out)
    assert results["games"] == 2 * 4
    roles = {row["bot"]: row["role"] for row in results["bots"]}
    assert roles == {"greedy-placement": "candidate", "random": "opponent"}
    seats = {row["bot"]: row["seats"] for row in results["bots"]}
    assert seats == {"greedy-placement": 8, "random": 24}
    assert results["matches"][0]["match"] == "greedy-placement vs random"


def test_two_candidates_are_compared_on_the_same_deals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["arena", "kingdomino", "--bots", "greedy", "random", "--gauntlet", "greedy-placement",
            "--deals", "3", "--out", str(tmp_path), "--workers", "1"]  # fmt: skip
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert "candidates on the same deals" in out
    results = json.loads((tmp_path / "results.json").read_text())
    (pair,) = results["candidate_pairs"]
    assert pair["bots"] == ["greedy", "random"] and pair["deals"] == 3
    assert pair["against"] == "greedy-placement"
    assert pair["margin_difference"]["mean"] > 0  # greedy scores more than random


def test_a_long_spec_is_printed_whole_in_a_narrow_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rich used to cut a long name short ("neural:w…") to fit 80 columns, so that two
    # settings of one bot could not be told apart in the table.
    monkeypatch.setenv("COLUMNS", "80")
    status, out, err = run(
        capsys, "arena", "kingdomino", "--bots", "mcts:playouts=2:c=1.25", "--gauntlet", "random",
        "--deals", "1", "--out", str(tmp_path), "--workers", "1",
    )  # fmt: skip
    assert status == 0, err
    cells = "".join(line.split("│")[2].strip() for line in out.splitlines() if line.count("│") > 2)
    assert "mcts:playouts=2:c=1.25" in cells
    assert "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_two_bots_at_one_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    table = ["--table", "greedy", "random", "random", "greedy-placement"]
    argv = ["arena", "kingdomino", "--players", "4", *table, "--deals", "2"]
    status, out, _ = run(capsys, *argv, "--out", str(tmp_path), "--workers", "1")
    assert status == 0
    assert "at the same table" in out and "wins more" in out
    results = json.loads((tmp_path / "results.json").read_text("utf-8"))
    assert results["games"] == 2 * 4 and results["tournament"]["mode"] == "table"
    assert {row["bot"]: row["seats"] for row in results["bots"]} == {
        "greedy": 8,
        "random": 16,
        "greedy-placement": 8,
    }
    assert len(results["pairs"]) == 3
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert sorted(game["seats"].index("greedy") for game in games if game["deal"] == 0) == [
        0,
        1,
        2,
        3,
    ]
    status, _, err = run(capsys, *argv, "--out", str(tmp_path), "--workers", "1")
    assert status == 0  # resumed: nothing to play
    other = ["--table", "random", "greedy", "random", "greedy-placement"]
    status, _, err = run(capsys, "arena", "kingdomino", "--players", "4", *other, "--out",
                         str(tmp_path))  # fmt: skip
    assert status == 2 and "holds another tournament (table there" in err


def test_another_tournament_in_the_directory_is_refused(
    capsys: pytest.CaptureFixture[str], finished: Path, tmp_path: Path
) -> None:
    out = tmp_path / "other"
    shutil.copytree(finished, out)
    argv = ["arena", "kingdomino", "--players", "3", "--bots", "random", "greedy-placement"]
    status, _, err = run(capsys, *argv, "--deals", "1", "--seed", "2", "--out", str(out))
    assert status == 2
    assert "holds another tournament" in err and "--force" in err and "Traceback" not in err
    status, _, _ = run(capsys, *argv, "--deals", "1", "--seed", "2", "--out", str(out), "--force")
    assert status == 0
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 * 3  # 1 vs 2 both ways round, 3 rotations each
    status, _, err = run(capsys, *argv, "--deals", "1", "--seed", "3", "--out", str(out))
    assert status == 2 and "seed there: 2, here: 3" in err


def test_corrupted_games_file_is_refused(
    capsys: pytest.CaptureFixture[str], finished: Path, tmp_path: Path
) -> None:
    out = tmp_path / "corrupted"
    shutil.copytree(finished, out)
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1][:30] + "\n"
    (out / "games.jsonl").write_text("".join(lines), encoding="utf-8")
    status, _, err = run(capsys, *SMALL, "--deals", "3", "--seed", "2", "--out", str(out))
    assert status == 2
    assert "games.jsonl line 2 is corrupted" in err and "Traceback" not in err
    other = json.loads((finished / "games.jsonl").read_text("utf-8").splitlines()[1])
    other["seed"] = 99
    lines[1] = json.dumps(other) + "\n"
    (out / "games.jsonl").write_text("".join(lines), encoding="utf-8")
    status, _, err = run(capsys, *SMALL, "--deals", "3", "--seed", "2", "--out", str(out))
    assert status == 2 and "is not the one scheduled" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "random", "deep_blue"], "unknown bot 'deep_blue'"),
        (["--bots", "random", "greedy:depth=2"], "greedy has no setting 'depth'"),
        (["--bots", "random", "greedy:depth"], "is not key=value"),
        (["--bots", "random", "greedy", "--option", "typo"], "unknown option 'typo'"),
        (["--bots", "random", "greedy", "--players", "7"], "2 to 4 players"),
        (["--bots", "random", "greedy", "--deals", "0"], "--deals must be at least 1"),
        (["--bots", "random", "greedy", "--workers", "0"], "--workers must be at least 1"),
        (["--bots", "random"], "at least 2 bots"),
        (["--bots", "random", "Random"], "given twice"),
        (["--bots", "random", "--gauntlet", "random"], "both a candidate"),
        (["--bots", "random", "greedy", "--ray", "nowhere"], "HOST:PORT"),
        (["--table", "random", "greedy", "greedy"], "--table names 3 bots for 4 seats"),
        (["--table", "random", "greedy", "--gauntlet", "random"], "without --bots or --gauntlet"),
    ],
)
def test_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, "arena", "kingdomino", *argv, "--out", str(tmp_path / "o"))
    assert status == 2
    assert message in err and "Traceback" not in err


def test_a_table_and_bots_together_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["arena", "kingdomino", "--table", "random", "greedy", "--bots", "random",
              "--out", str(tmp_path)])  # fmt: skip
    assert exit.value.code == 2
    assert "--bots: not allowed with argument --table" in capsys.readouterr().err


def test_unreachable_ray_cluster(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    status, _, err = run(
        capsys, "arena", "kingdomino", "--players", "2", "--bots", "random", "greedy",
        "--deals", "1", "--out", str(tmp_path), "--ray", address,
    )  # fmt: skip
    assert status == 2
    assert f"cannot reach the Ray cluster at {address}" in err and "Traceback" not in err


def test_unwritable_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    status, _, err = run(
        capsys, "arena", "kingdomino", "--bots", "random", "greedy", "--out", str(blocker / "d")
    )
    assert status == 2 and f"cannot use {blocker / 'd'}" in err and "Traceback" not in err


def test_missing_extra_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(KingdomkitError, match=r"pip install 'kingdomkit\[arena\]'"):
        require("matplotlib", "charts")
    status, _, err = run(
        capsys, "arena", "kingdomino", "--bots", "random", "greedy", "--out", str(tmp_path)
    )
    assert status == 2 and "kingdomkit[arena]" in err and "matplotlib" in err
