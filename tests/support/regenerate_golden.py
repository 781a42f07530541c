"""Rewrite the golden playthroughs and perft counts (tests/golden/) and the example records
(examples/). Run it ONLY ON PURPOSE, when the engine's behaviour changes on purpose:

    /tmp/kvenv/bin/python tests/support/regenerate_golden.py

then read the diff of the rewritten files, which is exactly the change in behaviour, bump the
game's version (and say why in its module docstring) if games or records change, and commit the
files with the change. tests/core/test_golden.py compares fresh games with these files and fails on
any difference; never regenerate just to make it pass.

A playthrough is a seeded game between fixed bots: every action (chance outcomes included) as
`game.action_to_string` text, then the final scores and winners. A perft position is a state
reached by a fixed action sequence, with its number of legal actions (or chance outcomes) and
the number of action paths of each depth from it (chance outcomes count as branches).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kingdomkit.bots import make_bot
from kingdomkit.core.driver import play
from kingdomkit.core.protocol import CHANCE, TERMINAL, Game
from kingdomkit.core.record import make_record
from kingdomkit.core.registry import make_game
from paths import EXAMPLES, ROOT

GOLDEN = ROOT / "tests" / "golden"
PERFT_FILE = "perft.json"


@dataclass(frozen=True)
class Playthrough:
    name: str
    options: Mapping[str, Any]
    seed: int
    bots: tuple[str, ...]
    game: str = "kingdomino"


PLAYTHROUGHS = (
    Playthrough("kingdomino-4p-random", {"players": 4}, 11, ("random",) * 4),
    Playthrough("kingdomino-2p-greedy-vs-random", {"players": 2}, 12, ("greedy", "random")),
    Playthrough("kingdomino-3p", {"players": 3}, 15, ("random", "greedy", "random")),
    Playthrough(
        "kingdomino-3p-draw-four",
        {"players": 3, "draw_four": True},
        13,
        ("random", "greedy", "random"),
    ),
    Playthrough(
        "kingdomino-2p-mighty-duel-harmony-middle",
        {"players": 2, "mighty_duel": True, "harmony": True, "middle_kingdom": True},
        14,
        ("greedy", "random"),
    ),
    Playthrough("kingdomino-2p-dynasty", {"players": 2, "dynasty": True}, 16, ("random", "greedy")),
    Playthrough(
        "kingdoms-2p-greedy-vs-random", {"players": 2}, 51, ("greedy", "random"), "kingdoms"
    ),
    Playthrough("kingdoms-3p-random", {"players": 3}, 52, ("random",) * 3, "kingdoms"),
    Playthrough(
        "kingdoms-4p-no-luck",
        {"players": 4, "no_luck": True},
        53,
        ("greedy", "random") * 2,
        "kingdoms",
    ),
    Playthrough(
        "kingdoms-3p-last-castle-score-as-you-go",
        {"players": 3, "down_to_the_last_castle": True, "score_as_you_go": True},
        54,
        ("random", "greedy", "random"),
        "kingdoms",
    ),
    Playthrough(
        "queendomino-2p-greedy-vs-random", {"players": 2}, 31, ("greedy", "random"), "queendomino"
    ),
    Playthrough(
        "queendomino-3p", {"players": 3}, 33, ("random", "greedy", "random"), "queendomino"
    ),
    Playthrough("queendomino-4p-random", {"players": 4}, 32, ("random",) * 4, "queendomino"),
    Playthrough(
        "queendomino-royal-wedding-4p",
        {"players": 4, "royal_wedding": True},
        34,
        ("greedy", "random", "random", "random"),
        "queendomino",
    ),
    Playthrough(
        "queendomino-royal-wedding-5p",
        {"players": 5, "royal_wedding": True},
        35,
        ("random",) * 5,
        "queendomino",
    ),
    Playthrough(
        "queendomino-royal-wedding-teams-8p",
        {"players": 8, "royal_wedding": True, "teams": True},
        36,
        ("greedy", "random") * 4,
        "queendomino",
    ),
)


@dataclass(frozen=True)
class PerftPosition:
    """The position after `plies` actions of a seeded game (or, with `plies` None, the first
    position where the player to act can only discard); perft counted to `depth`."""

    name: str
    options: Mapping[str, Any]
    seed: int
    bots: tuple[str, ...]
    plies: int | None
    depth: int
    game: str = "kingdomino"


PERFT_POSITIONS = (
    PerftPosition("4p-start", {"players": 4}, 21, ("random",) * 4, 0, 3),
    PerftPosition("4p-first-claim", {"players": 4}, 21, ("random",) * 4, 5, 4),
    PerftPosition("2p-second-line-place", {"players": 2}, 22, ("random",) * 2, 13, 4),
    PerftPosition(
        "3p-draw-four-claim", {"players": 3, "draw_four": True}, 23, ("random",) * 3, 13, 3
    ),
    PerftPosition(
        "2p-mighty-duel-midgame", {"players": 2, "mighty_duel": True}, 24, ("greedy",) * 2, 53, 3
    ),
    PerftPosition("2p-forced-discard", {"players": 2}, 25, ("random",) * 2, None, 3),
    PerftPosition(
        "4p-last-placements", {"players": 4, "harmony": True}, 26, ("random",) * 4, 141, 5
    ),
    PerftPosition("kingdoms-4p-start", {"players": 4}, 61, ("random",) * 4, 0, 3, "kingdoms"),
    PerftPosition("kingdoms-2p-midgame", {"players": 2}, 62, ("random",) * 2, 20, 2, "kingdoms"),
    PerftPosition("queendomino-4p-start", {"players": 4}, 41, ("random",) * 4, 0, 2, "queendomino"),
    PerftPosition(
        "queendomino-2p-midgame", {"players": 2}, 42, ("greedy",) * 2, 90, 3, "queendomino"
    ),
    PerftPosition(
        "queendomino-4p-late-turn", {"players": 4}, 43, ("random",) * 4, 200, 3, "queendomino"
    ),
)


@dataclass(frozen=True)
class ExampleRecord:
    file: str
    options: Mapping[str, Any]
    seed: int
    bots: tuple[str, ...]
    names: tuple[str, ...]
    plies: int | None = None  # stop early: an unfinished game
    game: str = "kingdomino"


EXAMPLE_RECORDS = (
    ExampleRecord("record-2p.json", {"players": 2}, 1, ("greedy", "random"), ("ann", "bob")),
    ExampleRecord(
        "record-dynasty.json",
        {"players": 2, "dynasty": True},
        2,
        ("greedy", "random"),
        ("ann", "bob"),
    ),
    ExampleRecord(
        "record-unfinished.json", {"players": 3}, 3, ("random",) * 3, ("ann", "bob", "cyd"), 40
    ),
    ExampleRecord(
        "kingdoms-record-3p.json",
        {"players": 3},
        6,
        ("greedy", "random", "random"),
        ("ann", "bob", "cyd"),
        game="kingdoms",
    ),
    ExampleRecord(
        "queendomino-record-2p.json",
        {"players": 2},
        4,
        ("greedy", "random"),
        ("ann", "bob"),
        game="queendomino",
    ),
    ExampleRecord(
        "queendomino-record-teams.json",
        {"players": 6, "royal_wedding": True, "teams": True},
        5,
        ("greedy", "random") * 3,
        ("ann", "bob", "cyd", "dee", "eve", "fay"),
        game="queendomino",
    ),
)


def trace(case: Playthrough) -> dict[str, Any]:
    """The golden content of a playthrough: what a fresh game from its seed gives."""
    game = make_game(case.game, case.options)
    texts: list[str] = []

    def note(before: Any, action: int, after: Any) -> None:
        texts.append(game.action_to_string(before, action))

    played = play(game, [make_bot(name) for name in case.bots], case.seed, on_step=note)
    return {
        "game": case.game,
        "options": dict(case.options),
        "seed": case.seed,
        "bots": list(case.bots),
        "trace": texts,
        "scores": [int(score) for score in game.scores(played.final_state)],
        "winners": list(game.winners(played.final_state)),
    }


def perft(game: Game[Any], state: Any, depth: int) -> int:
    """Action paths of length `depth` from `state` (chance outcomes are branches too)."""
    if depth == 0:
        return 1
    player = game.current_player(state)
    if player == TERMINAL:
        return 0
    if player == CHANCE:
        moves: tuple[int, ...] = tuple(outcome for outcome, _ in game.chance_outcomes(state))
    else:
        moves = game.legal_actions(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.apply(state, move), depth - 1) for move in moves)


def moves_at(game: Game[Any], state: Any) -> int:
    if game.current_player(state) == CHANCE:
        return len(game.chance_outcomes(state))
    return len(game.legal_actions(state))


def perft_entry(position: PerftPosition) -> dict[str, Any]:
    game = make_game(position.game, position.options)
    played = play(game, [make_bot(name) for name in position.bots], position.seed)
    state = game.initial_state()
    actions: list[int] = []
    texts: list[str] = []
    for action in played.actions:
        if position.plies is not None and len(actions) == position.plies:
            break
        if position.plies is None and game.legal_actions(state) == (game.num_actions - 1,):
            break
        texts.append(game.action_to_string(state, action))
        actions.append(action)
        state = game.apply(state, action)
    else:
        raise ValueError(f"{position.name}: the game ended before the position was reached")
    return {
        "name": position.name,
        "game": position.game,
        "options": dict(position.options),
        "actions": actions,
        "trace": texts,
        "moves": moves_at(game, state),
        "perft": [perft(game, state, depth) for depth in range(1, position.depth + 1)],
    }


def example_record(example: ExampleRecord) -> dict[str, Any]:
    game = make_game(example.game, example.options)
    played = play(game, [make_bot(name) for name in example.bots], example.seed)
    actions = played.actions if example.plies is None else played.actions[: example.plies]
    return make_record(game, example.seed, list(example.names), actions)


def format_record(record: Mapping[str, Any], indent: str = "") -> str:
    """A record as JSON with one event per line, so that diffs and docs stay readable."""
    inner = indent + "  "
    fields = []
    for key, value in record.items():
        if key == "events":
            body = "[\n" + ",\n".join(inner + "  " + json.dumps(e) for e in value)
            body += "\n" + inner + "]"
        elif key == "games":
            body = "[\n" + ",\n".join(
                inner + "  " + format_record(game, inner + "  ") for game in value
            )
            body += "\n" + inner + "]"
        else:
            body = json.dumps(value)
        fields.append(f"{inner}{json.dumps(key)}: {body}")
    return "{\n" + ",\n".join(fields) + "\n" + indent + "}"


def golden_texts() -> dict[Path, str]:
    """Every file this script writes, with its content."""
    files = {
        GOLDEN / f"{case.name}.json": json.dumps(trace(case), indent=1) + "\n"
        for case in PLAYTHROUGHS
    }
    perfts = [perft_entry(position) for position in PERFT_POSITIONS]
    files[GOLDEN / PERFT_FILE] = json.dumps(perfts, indent=1) + "\n"
    for example in EXAMPLE_RECORDS:
        files[EXAMPLES / example.file] = format_record(example_record(example)) + "\n"
    return files


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for path, text in golden_texts().items():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        path.write_text(text, encoding="utf-8")
        status = "new" if old is None else ("unchanged" if old == text else "CHANGED")
        print(f"{status:>9}  {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
