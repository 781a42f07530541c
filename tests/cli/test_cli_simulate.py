"""`kingdomkit simulate` and `kingdomkit bench` from the command line, good input and bad."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from kingdomkit.cli.bench import search_benchmarks, selected
from kingdomkit.cli.main import main
from kingdomkit.core.record import read_record, replay_record
from paths import ROOT

# The compiled kernel's figures, measured when numba is installed (the `fast` extra).
COMPILED_FIGURES = (
    [
        "kingdomino compiled random 4-player games",
        "kingdomino compiled legal-placement lists",
        "kingdomino compiled full-kingdom scorings",
        *(
            f"kingdomino compiled {policy} playouts (first 4-player decision)"
            for policy in ("random", "greedy", "epsilon-greedy", "player-greedy")
        ),
    ]
    if importlib.util.find_spec("numba")
    else []
)
KINGDOMS_COMPILED = (
    [
        "kingdoms compiled random 4-player games",
        *(
            f"kingdoms compiled {policy} playouts (first 4-player decision)"
            for policy in ("random", "greedy", "epsilon-greedy", "player-greedy")
        ),
        *(
            f"kingdoms vector env steps, {label} ({players} players, 256 games)"
            for players, label in (
                (2, "self-play"),
                (2, "against random"),
                (2, "against greedy"),
                (3, "against greedy"),
                (4, "self-play"),
                (4, "against greedy"),
            )
            if importlib.util.find_spec("gymnasium")
        ),
    ]
    if importlib.util.find_spec("numba")
    else []
)
QUEENDOMINO_COMPILED = (
    [
        "queendomino compiled random 4-player games",
        *(
            f"queendomino compiled {policy} playouts (first 4-player decision)"
            for policy in ("random", "greedy", "epsilon-greedy", "player-greedy")
        ),
        *(
            f"queendomino vector env steps, {label} ({players} players, 256 games)"
            for players, label in (
                (2, "self-play"),
                (2, "against random"),
                (2, "against greedy"),
                (4, "self-play"),
                (4, "against random"),
                (4, "against greedy"),
            )
            if importlib.util.find_spec("gymnasium")
        ),
    ]
    if importlib.util.find_spec("numba")
    else []
)

# The batched simulator's figures through the vector env (numba again).
VECTOR_FIGURES = (
    [
        f"kingdomino vector env steps, {label} (2 players, 256 games)"
        for label in ("self-play", "against random")
    ]
    if importlib.util.find_spec("numba")
    else []
)


def python_playouts(game: str) -> list[str]:
    policies = ("random", "greedy", "epsilon-greedy", "player-greedy")
    return [f"{game} python {p} playouts (first 4-player decision)" for p in policies]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_summary_and_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(
        capsys, "simulate", "kingdomino", "--players", "3", "--bots", "greedy,random,random",
        "--games", "6", "--seed", "5", "--records", str(tmp_path), "--json",
    )  # fmt: skip
    assert status == 0
    summary = json.loads(out)
    assert summary["games"] == 6
    assert [seat["bot"] for seat in summary["seats"]] == ["greedy", "random", "random"]
    assert sum(seat["wins"] for seat in summary["seats"]) == pytest.approx(6)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [f"kingdomino-{seed}.json" for seed in sorted(
        range(5, 11), key=str
    )]  # fmt: skip
    scores = []
    for path in files:
        record = read_record(path)
        replay = replay_record(record)
        assert replay.game.is_terminal(replay.final_state)
        assert record["seed"] in range(5, 11)
        scores.append(record["result"]["scores"])
    means = [sum(s[seat] for s in scores) / 6 for seat in range(3)]
    for seat, mean in enumerate(means):
        assert summary["seats"][seat]["mean_score"] == pytest.approx(mean)
    margins = [
        sum(s[seat] - max(x for other, x in enumerate(s) if other != seat) for s in scores) / 6
        for seat in range(3)
    ]
    for seat, mean_margin in enumerate(margins):
        assert summary["seats"][seat]["mean_margin"] == pytest.approx(mean_margin)


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "kingdomino", "--players", "2", "--bots", "random", "--games", "5"]
    first = json.loads(run(capsys, *argv, "--seed", "3", "--json")[1])
    second = json.loads(run(capsys, *argv, "--seed", "3", "--json")[1])
    other = json.loads(run(capsys, *argv, "--seed", "4", "--json")[1])
    assert first["seats"] == second["seats"]
    assert first["seats"] != other["seats"]


def test_simulate_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "simulate", "kingdomino", "--option", "draw_four", "--players", "3",
        "--bots", "random", "--games", "3",
    )  # fmt: skip
    assert status == 0
    assert "mean score" in out and "win rate" in out and "games per second" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5", "--bots", "random"], "2 to 4 players"),
        (["--players", "3", "--bots", "random,greedy"], "3 bots needed"),
        (["--players", "2", "--bots", "random,deep_blue"], "unknown bot 'deep_blue'"),
        (["--players", "2", "--bots", "random", "--option", "typo"], "unknown option 'typo'"),
        (["--players", "3", "--bots", "random", "--option", "mighty_duel"], "2-player"),
        (["--players", "4", "--bots", "random", "--option", "draw_four"], "3-player"),
        (["--players", "2", "--bots", "random", "--games", "0"], "at least 1"),
    ],
)
def test_simulate_bad_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "simulate", "kingdomino", *argv)
    assert status == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_simulate_unusable_records_dir(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    status, _, err = run(
        capsys, "simulate", "kingdomino", "--bots", "random", "--games", "1",
        "--records", str(blocker / "sub"),
    )  # fmt: skip
    assert status == 2
    assert "cannot use" in err


def test_unknown_game_and_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "chess", "--bots", "random"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err


BENCH_FIGURES = {
    "kingdomino": [
        "kingdomino random 4-player games (protocol)",
        "kingdomino random 4-player games (simulate)",
        "kingdomino legal-placement lists",
        "kingdomino full-kingdom scorings",
        *COMPILED_FIGURES,
        *python_playouts("kingdomino"),
    ],
    "kingdoms": [
        "kingdoms random 4-player games (protocol)",
        "kingdoms random 4-player games (simulate)",
        "kingdoms whole-board epoch scorings",
        *KINGDOMS_COMPILED,
        *python_playouts("kingdoms"),
    ],
    "queendomino": [
        "queendomino random 4-player games (protocol)",
        "queendomino random 4-player games (simulate)",
        "queendomino full score pads",
        "queendomino Royal Wedding random 8-player games",
        *QUEENDOMINO_COMPILED,
        *python_playouts("queendomino"),
    ],
    "bots": [
        "kingdomino search: mcts, 2 players",
        *(
            f"kingdomino search: neural batch={batch}, {table}"
            for table in ("2 players", "Mighty Duel", "4 players, Middle Kingdom and Harmony")
            for batch in (1, 8)
        ),
    ],
    "rl": [
        "kingdomino rl AEC observe + step (2 players)",
        "kingdomino engine steps, the same actions (2 players)",
        *VECTOR_FIGURES,
    ],
}


@pytest.mark.parametrize("part", sorted(BENCH_FIGURES))
def test_bench_quick_measures_every_figure(capsys: pytest.CaptureFixture[str], part: str) -> None:
    """Each part alone (a game, or the RL figures), so that the parts run side by side."""
    option = [f"--{part}"] if part in ("rl", "bots") else ["--game", part]
    status, out, _ = run(capsys, "bench", "--quick", "--json", *option)
    assert status == 0
    report = json.loads(out)
    assert [result["name"] for result in report["results"]] == BENCH_FIGURES[part]
    assert ("rl_overhead_microseconds_per_step" in report) == (part == "rl")
    if part == "rl":
        assert isinstance(report["rl_overhead_microseconds_per_step"], float)
    for result in report["results"]:
        assert result["median_per_second"] > 0
        assert len(result["runs_per_second"]) == 1
    assert report["machine"]["python"].startswith("3.")


def test_the_search_figures_count_what_each_search_spent() -> None:
    """A figure is a search of its budget at each of the three positions, all counted: mcts
    160 playouts, neural 40 leaves (--quick's budgets)."""
    figures = {benchmark.name: benchmark for benchmark in search_benchmarks(quick=True)}
    assert figures["kingdomino search: mcts, 2 players"].work() == 3 * 160
    assert figures["kingdomino search: neural batch=8, Mighty Duel"].work() == 3 * 40


def test_bench_measures_everything_unless_told() -> None:
    every = ["kingdomino", "kingdoms", "queendomino"]
    assert selected(None, False, False) == (every, True, True)
    assert selected(["queendomino", "kingdoms"], False, False) == (every[1:], False, False)
    assert selected(None, True, False) == ([], True, False)
    assert selected(None, False, True) == ([], False, True)
    assert selected(["kingdoms"], True, False) == (["kingdoms"], True, False)


@pytest.mark.parametrize(
    ("options", "bots"),
    [
        (["--players", "2"], "greedy,random"),
        (["--players", "3"], "random"),
        (["--players", "4", "--option", "royal_wedding"], "greedy,random,random,random"),
        (["--players", "6", "--option", "royal_wedding", "--option", "teams"], "random"),
    ],
)
def test_simulate_queendomino_modes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: list[str], bots: str
) -> None:
    status, out, _ = run(
        capsys, "simulate", "queendomino", *options, "--bots", bots, "--games", "2",
        "--seed", "1", "--records", str(tmp_path), "--json",
    )  # fmt: skip
    assert status == 0
    summary = json.loads(out)
    assert summary["games"] == 2
    for path in sorted(tmp_path.iterdir()):
        record = read_record(path)
        assert record["game"] == "queendomino"
        replay = replay_record(record)
        assert replay.game.is_terminal(replay.final_state)
        assert record["result"]["scores"] == [
            int(s) for s in replay.game.scores(replay.final_state)
        ]
        if "teams" in options:
            teams = record["result"]["teams"]
            assert teams == [[0, 1], [2, 3], [4, 5]]
            for team, score in zip(teams, record["result"]["team_scores"], strict=True):
                assert all(record["result"]["scores"][p] == score for p in team)


def test_simulate_queendomino_with_a_corrected_building_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from kingdomkit.games.queendomino.buildings import shipped_buildings

    shipped = ROOT / "src/kingdomkit/games/queendomino/data"
    text = (shipped / "queendomino_buildings.csv").read_text(encoding="utf-8")
    # Every Statue also gives 3 knights: the table is the user's to correct.
    corrected = text.replace("B27,Statue,0,,,unknown", "B27,Statue,0,3,,established")
    assert corrected != text
    table = tmp_path / "buildings.csv"
    table.write_text(corrected, encoding="utf-8")
    records = tmp_path / "records"
    records.mkdir()
    status, _, err = run(
        capsys, "simulate", "queendomino", "--players", "2", "--bots", "random", "--games", "1",
        "--buildings", str(table), "--records", str(records), "--json",
    )  # fmt: skip
    assert status == 0, err
    record = read_record(next(records.iterdir()))
    assert record["options"]["buildings"] == str(table)
    assert record["buildings"]["sha256"] != shipped_buildings().sha256
    assert replay_record(record).game.is_terminal(replay_record(record).final_state)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["queendomino", "--players", "5"], "add royal_wedding"),
        (["queendomino", "--players", "4", "--option", "teams"], "add the royal_wedding option"),
        (["queendomino", "--players", "2", "--option", "royal_wedding"], "3 to 8 players"),
        (["queendomino", "--players", "2", "--buildings", "/no/such/file.csv"], "cannot read"),
        (["kingdomino", "--players", "2", "--buildings", "x.csv"], "not an option of kingdomino"),
    ],
)
def test_simulate_queendomino_bad_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "simulate", *argv, "--bots", "random", "--games", "1")
    assert status == 2
    assert message in err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize(
    "options",
    [
        ["--players", "2"],
        ["--players", "3", "--option", "no_luck"],
        ["--players", "4", "--option", "down_to_the_last_castle", "--option", "score_as_you_go"],
    ],
)
def test_simulate_kingdoms(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: list[str]
) -> None:
    status, out, _ = run(
        capsys, "simulate", "kingdoms", *options, "--bots", "greedy,random" + ",random" * (
            int(options[1]) - 2
        ), "--games", "3", "--seed", "4", "--records", str(tmp_path), "--json",
    )  # fmt: skip
    assert status == 0
    summary = json.loads(out)
    assert summary["games"] == 3
    for path in sorted(tmp_path.iterdir()):
        record = read_record(path)
        assert record["game"] == "kingdoms"
        replay = replay_record(record)
        state = replay.final_state
        assert replay.game.is_terminal(state)
        assert record["result"]["scores"] == list(state.gold)
        ends = [e for e in record["events"] if e["type"] == "epoch_end"]
        assert ends[-1]["gold"] == list(state.gold)
        assert len(ends) == record["result"]["epochs"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5"], "2 to 4 players"),
        (["--players", "2", "--option", "royal_wedding"], "unknown option 'royal_wedding'"),
    ],
)
def test_simulate_kingdoms_bad_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "simulate", "kingdoms", *argv, "--bots", "random")
    assert status == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_simulate_scores_team_play_per_team(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(
        capsys, "simulate", "queendomino", "--players", "6", "--option", "royal_wedding",
        "--option", "teams", "--bots", "greedy,random,random,random,random,random",
        "--games", "3", "--seed", "2", "--records", str(tmp_path), "--json",
    )  # fmt: skip
    assert status == 0
    seats = json.loads(out)["seats"]
    assert [seat["team"] for seat in seats] == [0, 0, 1, 1, 2, 2]
    wins = [0.0] * 6
    margins = [0.0] * 6
    for path in sorted(tmp_path.iterdir()):
        result = read_record(path)["result"]
        team_scores, winning = result["team_scores"], result["winning_teams"]
        for seat in range(6):
            team = seat // 2
            others = [s for t, s in enumerate(team_scores) if t != team]
            margins[seat] += (team_scores[team] - max(others)) / 3
            wins[seat] += 1 / len(winning) if team in winning else 0.0
    # A team's outright win is a whole win for each of its players; margins are per team.
    assert [seat["wins"] for seat in seats] == pytest.approx(wins)
    assert [seat["mean_margin"] for seat in seats] == pytest.approx(margins)
    assert any(margin > 0 for margin in margins)
    status, out, _ = run(
        capsys, "simulate", "queendomino", "--players", "6", "--option", "royal_wedding",
        "--option", "teams", "--bots", "random", "--games", "1",
    )  # fmt: skip
    assert status == 0 and "team" in out and "wins and margins per team" in out
