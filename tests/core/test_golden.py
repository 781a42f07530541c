"""Golden playthroughs and perft counts: any change in behaviour shows up here, exactly.

tests/golden/*.json hold seeded games between fixed bots (every action as text, final scores
and winners) and perft counts from positions reached by fixed action sequences. They change
only when behaviour changes on purpose; then run tests/support/regenerate_golden.py and review
the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import regenerate_golden as golden
from kingdomkit.core.record import replay_record
from kingdomkit.core.registry import make_game
from paths import EXAMPLES

PLAYTHROUGH_FILES = sorted(
    path for path in golden.GOLDEN.glob("*.json") if path.name != golden.PERFT_FILE
)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_playthrough_has_its_golden_file() -> None:
    names = {path.stem for path in PLAYTHROUGH_FILES}
    assert names == {case.name for case in golden.PLAYTHROUGHS}


@pytest.mark.parametrize("path", PLAYTHROUGH_FILES, ids=lambda p: p.stem)
def test_playthrough_is_unchanged(path: Path) -> None:
    stored = load(path)
    case = golden.Playthrough(
        path.stem, stored["options"], stored["seed"], tuple(stored["bots"]), stored["game"]
    )
    fresh = golden.trace(case)
    assert fresh["trace"] == stored["trace"]
    assert fresh["scores"] == stored["scores"]
    assert fresh["winners"] == stored["winners"]
    assert fresh == stored


@pytest.mark.parametrize(
    ("game", "players", "flags"),
    [
        ("kingdomino", {2, 3, 4}, ("mighty_duel", "middle_kingdom", "harmony", "dynasty",
                                   "draw_four")),
        ("queendomino", {2, 3, 4, 5, 8}, ("royal_wedding", "teams")),
        ("kingdoms", {2, 3, 4}, ("no_luck", "down_to_the_last_castle", "score_as_you_go")),
    ],
)  # fmt: skip
def test_playthroughs_cover_the_variants(game: str, players: set[int], flags: tuple[str]) -> None:
    options = [load(path)["options"] for path in PLAYTHROUGH_FILES if load(path)["game"] == game]
    assert {o["players"] for o in options} == players
    for flag in flags:
        assert any(o.get(flag) for o in options), flag


@pytest.fixture(scope="module")
def perft_positions() -> list[dict[str, Any]]:
    positions: list[dict[str, Any]] = load(golden.GOLDEN / golden.PERFT_FILE)
    return positions


def test_every_perft_position_is_stored(perft_positions: list[dict[str, Any]]) -> None:
    assert [p["name"] for p in perft_positions] == [p.name for p in golden.PERFT_POSITIONS]


@pytest.mark.parametrize("index", range(len(golden.PERFT_POSITIONS)))
def test_perft_counts_are_unchanged(perft_positions: list[dict[str, Any]], index: int) -> None:
    stored = perft_positions[index]
    game = make_game(stored["game"], stored["options"])
    state = game.initial_state()
    for action, text in zip(stored["actions"], stored["trace"], strict=True):
        assert game.action_to_string(state, action) == text
        state = game.apply_checked(state, action)
    assert golden.moves_at(game, state) == stored["moves"]
    counts = [golden.perft(game, state, depth) for depth in range(1, len(stored["perft"]) + 1)]
    assert counts == stored["perft"]


def test_a_forced_discard_position_is_stored(perft_positions: list[dict[str, Any]]) -> None:
    stored = next(p for p in perft_positions if p["name"] == "2p-forced-discard")
    game = make_game(stored["game"], stored["options"])
    state = game.initial_state()
    for action in stored["actions"]:
        state = game.apply(state, action)
    assert game.legal_actions(state) == (game.num_actions - 1,)
    assert game.action_to_string(state, game.num_actions - 1).startswith("discard ")


@pytest.mark.parametrize("example", golden.EXAMPLE_RECORDS, ids=lambda e: e.file)
def test_example_records_are_unchanged_and_valid(example: golden.ExampleRecord) -> None:
    path = EXAMPLES / example.file
    stored = load(path)
    assert stored == golden.example_record(example)
    assert path.read_text(encoding="utf-8") == golden.format_record(stored) + "\n"
    replay = replay_record(stored)
    assert replay.game.is_terminal(replay.final_state) == (example.plies is None)
