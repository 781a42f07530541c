"""`kingdomkit bench --only/--clock/--pin` and `--against`: one part of the figures, timed by
either clock, and two checkouts compared round by round."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import kingdomkit
from kingdomkit.cli.bench_compare import paired, source_folder
from kingdomkit.cli.main import main

SOURCES = Path(kingdomkit.__file__).resolve().parents[1]
LISTS = [
    "kingdomino legal-placement lists",
    *(["kingdomino compiled legal-placement lists"] if importlib.util.find_spec("numba") else []),
]


def bench(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["bench", "--quick", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_only_the_figures_named_timed_in_cpu_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = bench(
        capsys, "--game", "kingdomino", "--only", "LEGAL-placement", "--clock", "cpu", "--json"
    )
    assert status == 0
    report = json.loads(out)
    names = [result["name"] for result in report["results"]]
    assert names == LISTS
    assert all(result["median_per_second"] > 0 for result in report["results"])
    assert report["machine"]["clock"] == "cpu"


def test_a_name_nothing_matches_is_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = bench(capsys, "--game", "kingdoms", "--only", "no such figure")
    assert status == 2
    assert "no figure's name contains 'no such figure'" in err


def test_a_processor_that_is_not_there_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = bench(capsys, "--game", "kingdoms", "--pin", "4096")
    assert status == 2
    assert "cannot pin to processor 4096" in err


def test_a_checkout_against_itself_measures_every_shared_figure_each_round(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = bench(
        capsys, "--game", "kingdomino", "--only", "legal-placement", "--json",
        "--against", str(SOURCES.parent), "--rounds", "2",
    )  # fmt: skip
    assert status == 0
    report = json.loads(out)
    assert report["other"] == str(SOURCES) == report["this"]
    assert [figure["name"] for figure in report["figures"]] == LISTS
    for figure in report["figures"]:
        assert len(figure["ratios"]) == 2
        assert figure["this"] > 0 and figure["other"] > 0 and figure["ratio"] > 0


def test_a_folder_without_kingdomkit_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = bench(capsys, "--against", str(tmp_path))
    assert status == 2
    assert "holds no kingdomkit sources" in err
    assert source_folder(str(SOURCES.parent)) == SOURCES


def test_the_other_trees_failure_is_told_with_its_own_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    package = tmp_path / "src" / "kingdomkit"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text("raise SystemExit('this old tree has no bench')\n")
    status, _, err = bench(
        capsys, "--game", "kingdoms", "--only", "epoch scorings", "--against", str(tmp_path)
    )
    assert status == 1
    assert "other tree" in err and "this old tree has no bench" in err


def test_ratios_are_taken_round_by_round() -> None:
    this = [{"a": 2.0, "b": 1.0}, {"a": 6.0, "b": 1.0}]
    other = [{"a": 1.0}, {"a": 4.0, "b": 1.0}]
    (row,) = paired(this, other)  # b is missing from one run of the other tree
    assert (row.name, row.this, row.other, row.ratios, row.ratio) == (
        "a",
        4.0,
        2.5,
        [2.0, 1.5],
        1.75,
    )


@pytest.mark.skipif(not importlib.util.find_spec("numba"), reason="needs the fast extra")
def test_a_vector_figure_makes_its_env_only_when_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--only` keeps a figure's work from running; the envs (and their compiling) must be
    in that work, not made while the list of figures is."""
    from kingdomkit.cli.bench import game_vector_benchmarks
    from kingdomkit.rl import vector

    made: list[int] = []
    real = vector.KingdomkitVectorEnv

    def counted(*args: object, **kwargs: object) -> object:
        made.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(vector, "KingdomkitVectorEnv", counted)
    cases = ((2, "self-play", None), (2, "against random", "random"))
    figures = game_vector_benchmarks("kingdomino", cases, 2, None)
    assert [f.name for f in figures] == [
        "kingdomino vector env steps, self-play (2 players, 256 games)",
        "kingdomino vector env steps, against random (2 players, 256 games)",
    ]
    assert made == []
    assert figures[0].work() == 2 * 256
    assert figures[0].work() == 2 * 256
    assert made == [1]
