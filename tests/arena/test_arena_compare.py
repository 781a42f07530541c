"""`kingdomkit arena-compare`: gauntlets played apart compare their candidates as one would."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kingdomkit.cli.main import main
from paths import DOCS

OPPONENT = ["--gauntlet", "greedy-placement"]


def arena(out: Path, *bots: str, deals: int = 3, seed: int = 5) -> Path:
    argv = ["arena", "kingdomino", "--bots", *bots, *OPPONENT, "--deals", str(deals),
            "--seed", str(seed), "--out", str(out), "--workers", "1", "--json"]  # fmt: skip
    assert main(argv) == 0
    return out


def compared(capsys: pytest.CaptureFixture[str], *outs: Path) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["arena-compare", *map(str, outs), "--json"]) == 0
    pairs: list[dict[str, object]] = json.loads(capsys.readouterr().out)
    return pairs


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same candidates in one gauntlet and each in its own, on the same deals."""
    root = tmp_path_factory.mktemp("compare")
    arena(root / "both", "greedy", "random")
    arena(root / "greedy", "greedy")
    arena(root / "random", "random", deals=4)  # one deal more: the other has not played it
    return root


def test_two_gauntlets_compare_as_one_gauntlet_of_both(
    capsys: pytest.CaptureFixture[str], played: Path
) -> None:
    together = json.loads((played / "both" / "results.json").read_text())["candidate_pairs"]

    apart = compared(capsys, played / "greedy", played / "random")

    assert apart == together
    (pair,) = apart
    assert pair["deals"] == 3 and pair["against"] == "greedy-placement"


def test_the_table_names_both_candidates(capsys: pytest.CaptureFixture[str], played: Path) -> None:
    capsys.readouterr()
    assert main(["arena-compare", str(played / "random"), str(played / "greedy")]) == 0
    out = capsys.readouterr().out
    assert "candidates on the same deals" in out
    row = next(line for line in out.splitlines() if "greedy-placement" in line)
    assert row.split("│")[1].strip() == "random" and row.split("│")[2].strip() == "greedy"
    assert "-" in row.split("│")[6]  # random scores less than greedy on the same deals


def test_no_deal_played_by_both_is_said_so(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    shutil.copyfile(played / "random" / "arena.json", empty / "arena.json")  # no game yet

    assert compared(capsys, played / "greedy", empty) == []
    assert main(["arena-compare", str(played / "greedy"), str(empty)]) == 0
    assert "No deal was played whole by two candidates" in capsys.readouterr().out


def test_the_mighty_duel_figure_docs_quote(capsys: pytest.CaptureFixture[str]) -> None:
    # docs/strength.md §8: batch=1 less batch=8, -0.5 points (-9.4 to +8.4), margin +0.7
    runs = DOCS / "runs"
    (pair,) = compared(capsys, runs / "neural-md-1s-batch1", runs / "neural-md-1s")
    wins, margin = pair["win_difference"], pair["margin_difference"]
    assert isinstance(wins, dict) and isinstance(margin, dict)
    assert pair["deals"] == 100
    assert [round(100 * wins[key], 1) for key in ("mean", "low", "high")] == [-0.5, -9.4, 8.4]
    assert round(margin["mean"], 1) == 0.7


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (["--seed", "6"], "not played on the same deals (seed: 6 there, 5 in"),
        (["--gauntlet", "greedy"], "not played on the same deals (opponents:"),
        (["--clock", "cpu"], "not played on the same deals (clock: 'cpu' there"),
        (["--players", "3"], "not played on the same deals (options:"),
    ],
)
def test_gauntlets_on_other_deals_are_refused(
    capsys: pytest.CaptureFixture[str],
    played: Path,
    tmp_path: Path,
    setting: list[str],
    message: str,
) -> None:
    # the same as `played`'s gauntlets (seed 5, greedy-placement, wall clock, 2 players)
    # but for one setting; the later flag wins
    other = tmp_path / "other"
    argv = ["arena", "kingdomino", "--bots", "random", "--deals", "1", "--seed", "5",
            "--gauntlet", "greedy-placement", *setting, "--out", str(other),
            "--workers", "1"]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()

    status = main(["arena-compare", str(played / "greedy"), str(other)])

    err = capsys.readouterr().err
    assert status == 2
    assert message in err and "Traceback" not in err


def test_what_cannot_be_compared_is_refused(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    robin = tmp_path / "robin"
    assert main(["arena", "kingdomino", "--bots", "random", "greedy", "--deals", "1",
                 "--out", str(robin), "--workers", "1"]) == 0  # fmt: skip
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "arena.json").write_text("{not json")
    again = tmp_path / "again"
    shutil.copytree(played / "greedy", again)
    cases = [
        ([played / "greedy", robin], "holds a round-robin: only the candidates of gauntlets"),
        ([played / "greedy", tmp_path / "none"], "holds no tournament (arena.json is missing)"),
        ([played / "greedy", broken], "arena.json is unreadable"),
        ([played / "greedy", again], "'greedy' is a candidate in both"),
        ([played / "greedy"], "holds one candidate: give the arenas to compare it with"),
    ]
    for outs, message in cases:
        capsys.readouterr()
        status = main(["arena-compare", *map(str, outs)])
        err = capsys.readouterr().err
        assert status == 2, outs
        assert message in err and "Traceback" not in err, err
