"""Checks shared by the tests of the games' words (tests/test_words_<game>.py): random seeded
games in which every legal move's label and every move's sentence is read as a person would.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from boards import drawn
from kingdomkit.core.protocol import Game

# Engine notation that words must never show: coordinate pairs ("2,5", "-1,0"), building
# tile ids ("B09"), the board notation's special tiles, the engine's lower-case verbs.
PAIR = re.compile(r"-?\d+,-?\d+")  # as the notation writes them; "5, 12" is a list
TILE_ID = re.compile(r"\bB\d+\b")
SPECIAL = re.compile(r"\b(MTN|DRG|GLD|WIZ)\b")
ENGINE_VERB = re.compile(
    r"^(claim|place|discard|knight|build|at|burn|pass|castle|draw|start|take)\b"
)
WHO = "Ann"


def unreadable(text: str) -> str | None:
    """What in `text` is not words for people (None: nothing)."""
    if not text.strip():
        return "it is empty"
    for pattern in (PAIR, TILE_ID, SPECIAL, ENGINE_VERB):
        found = pattern.search(text)
        if found:
            return f"it shows engine notation {found.group()!r}"
    return None


def decisions(game: Game[Any], seed: int) -> Iterator[tuple[Any, tuple[int, ...], int]]:
    """Each decision of a random game from `seed`: the state, its legal actions, the one
    played."""
    rng = random.Random(seed)
    state = game.initial_state()
    while not game.is_terminal(state):
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        legal = game.legal_actions(state)
        action = rng.choice(legal)
        yield state, legal, action
        state = game.apply(state, action)


def chance_sentences(game: Game[Any], seed: int) -> Iterator[tuple[Any, int, str]]:
    """Each chance outcome of a random game from `seed` that the game says something of:
    the state before, the outcome, the sentence."""
    rng = random.Random(seed)
    state = game.initial_state()
    names = [f"Player {p + 1}" for p in range(game.num_players)]
    board = drawn(game)
    while not game.is_terminal(state):
        if game.is_chance(state):
            outcome = game.sample_chance(state, rng)
            after = game.apply(state, outcome)
            said = board.chance_sentence(state, outcome, after, names)
            if said is not None:
                yield state, outcome, said
        else:
            after = game.apply(state, rng.choice(game.legal_actions(state)))
        state = after


def check_random_games(game: Game[Any], seeds: range) -> int:
    """Read every label and sentence of random games (chance's too); the number of
    sentences read."""
    read, board = 0, drawn(game)
    for seed in seeds:
        for _, _, said in chance_sentences(game, seed):
            assert unreadable(said) is None and said[0].isupper(), f"{game}: {said!r}"
        for state, legal, action in decisions(game, seed):
            labels = [board.move_label(state, a) for a in legal]
            for a, label in zip(legal, labels, strict=True):
                why = unreadable(label)
                assert why is None, f"{game}: label {label!r} of {a}: {why}"
                assert label[0].isupper(), label
            assert len(set(labels)) == len(labels), (
                f"{game}: labels a player cannot tell apart: "
                f"{sorted(x for x in labels if labels.count(x) > 1)[:4]}"
            )
            sentence = board.move_sentence(state, action, game.apply(state, action), WHO)
            why = unreadable(sentence.removeprefix(f"{WHO} "))
            assert sentence.startswith(f"{WHO} ") and why is None, (
                f"{game}: sentence {sentence!r}: {why}"
            )
            read += 1
    return read


def first_move(game: Game[Any], seed: int, notation: str) -> tuple[Any, int]:
    """The first decision of the random game from `seed` whose notation is `notation`, or
    that has a legal move of that notation: (state, action)."""
    for state, legal, _ in decisions(game, seed):
        for action in legal:
            if game.action_to_string(state, action) == notation:
                return state, action
    raise AssertionError(f"no move {notation!r} in the game of seed {seed}")


def said(game: Game[Any], state: Any, action: int, who: str = WHO) -> tuple[str, str]:
    """The label and the sentence of `action` in `state`."""
    after = game.apply(state, action)
    board = drawn(game)
    return board.move_label(state, action), board.move_sentence(state, action, after, who)
