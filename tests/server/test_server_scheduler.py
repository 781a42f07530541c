"""The bot scheduler with real worker processes: who starts first, checked by the order of
starts it records, never by a clock. A flood by one identity (tables of expert bots, reviews)
does not hold back another identity's bot move; identities take turns; an identity alone keeps
to its share; a move whose table moved on is dropped before it takes a worker."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from kingdomkit.core.protocol import CHANCE
from kingdomkit.core.registry import make_game
from kingdomkit.games.kingdoms.heuristics import LEVELS as KINGDOMS_LEVELS
from kingdomkit.server.bots import choose, in_one_process, review
from kingdomkit.server.floodtest import FLOOD_BOT, FLOOD_RECORDS, FLOOD_TABLES, random_game
from kingdomkit.server.scheduler import DroppedError, Scheduler

GATE_SECONDS = 120  # a gated job gives up waiting after this (the test has failed by then)


def wait_for_gate(path: str, answer: str) -> str:
    """A job that holds its worker until the file `path` exists (runs in a worker)."""
    end = time.monotonic() + GATE_SECONDS
    while not os.path.exists(path) and time.monotonic() < end:
        time.sleep(0.01)
    return answer


def opening(players: int, seed: int) -> list[int]:
    """The actions of a new Kingdomino table up to its first decision (the first draw)."""
    game = make_game("kingdomino", {"players": players})
    state, actions, rng = game.initial_state(), [], random.Random(seed)
    while game.current_player(state) == CHANCE:
        actions.append(game.sample_chance(state, rng))
        state = game.apply(state, actions[-1])
    return actions


def play_starts(scheduler: Scheduler) -> list[tuple[str, str]]:
    return [(key, label) for lane, key, label in scheduler.started if lane == "play"]


def test_another_identitys_move_starts_before_the_floods_later_jobs() -> None:
    async def scenario() -> tuple[Scheduler, int]:
        scheduler = Scheduler(play_workers=2, play_share=1, analysis_workers=1)
        try:
            flood: list[asyncio.Task[Any]] = []
            for i in range(FLOOD_TABLES):
                moves = opening(4, i)
                flood.append(
                    asyncio.create_task(
                        scheduler.move(
                            "kingdomino",
                            {"players": 4},
                            moves,
                            FLOOD_BOT,
                            f"seed {i}",
                            key="flood",
                            label=f"flood {i}",
                        )
                    )
                )
            for i in range(FLOOD_RECORDS):
                actions = random_game("kingdomino", 4, i)
                flood.append(
                    asyncio.create_task(
                        scheduler.analysis.run(
                            "flood",
                            f"review {i}",
                            review,
                            "kingdomino",
                            {"players": 4},
                            actions,
                            None,  # each game's own analyst
                            "0",
                        )
                    )
                )
            await asyncio.sleep(0)  # every flood job is queued before the other table's
            action = await scheduler.move(
                "kingdomino", {"players": 2}, opening(2, 0), "easy", "s", "ann", "ann's table"
            )
            assert isinstance(action, int)
            queued = scheduler.play.queued("flood")
            for task in flood:
                task.cancel()
            return scheduler, queued
        finally:
            scheduler.close()

    scheduler, queued = asyncio.run(scenario())
    starts = play_starts(scheduler)
    ann = starts.index(("ann", "ann's table"))
    assert [key for key, _ in starts[:ann]] == ["flood"]  # only the flood's first job before
    assert queued >= FLOOD_TABLES - 2  # the flood's later moves were still waiting
    analysis = [label for lane, _, label in scheduler.started if lane == "analysis"]
    assert analysis == ["review 0"]  # reviews queue in their own lane, one at a time
    assert not any(label.startswith("review") for _, label in starts)


def test_identities_take_turns(tmp_path: Path) -> None:
    gate = str(tmp_path / "open")

    async def scenario() -> Scheduler:
        scheduler = Scheduler(play_workers=1, play_share=1)
        try:
            jobs = [
                asyncio.create_task(scheduler.play.run(key, f"{key}{n}", wait_for_gate, gate, key))
                for key, n in [("A", 1), ("A", 2), ("A", 3), ("B", 1), ("B", 2)]
            ]
            await asyncio.sleep(0)
            assert scheduler.play.queued() == 4  # A1 holds the one worker
            Path(gate).touch()
            assert await asyncio.gather(*jobs) == ["A", "A", "A", "B", "B"]
            return scheduler
        finally:
            scheduler.close()

    scheduler = asyncio.run(scenario())
    assert [label for _, label in play_starts(scheduler)] == ["A1", "B1", "A2", "B2", "A3"]


def test_an_identity_keeps_to_its_share_of_the_workers(tmp_path: Path) -> None:
    gate = str(tmp_path / "open")

    async def scenario() -> None:
        scheduler = Scheduler(play_workers=3, play_share=2)
        lane = scheduler.play
        try:
            jobs = [
                asyncio.create_task(lane.run("A", f"A{n}", wait_for_gate, gate, "A"))
                for n in range(4)
            ]
            await asyncio.sleep(0)
            assert (lane.running["A"], lane.queued("A")) == (2, 2)  # alone, still only 2 of 3
            jobs.append(asyncio.create_task(lane.run("B", "B0", wait_for_gate, gate, "B")))
            jobs.append(asyncio.create_task(lane.run("C", "C0", wait_for_gate, gate, "C")))
            await asyncio.sleep(0)
            assert (lane.running["B"], lane.queued("C")) == (1, 1)  # the free worker: B's
            Path(gate).touch()
            await asyncio.gather(*jobs)
            # with three identities waiting, each held at most one of the three workers
            order = [label for _, _, label in scheduler.started]
            assert order[:4] == ["A0", "A1", "B0", "C0"]
        finally:
            scheduler.close()

    asyncio.run(scenario())


def test_a_move_no_longer_wanted_is_dropped_before_it_takes_a_worker(tmp_path: Path) -> None:
    gate = str(tmp_path / "open")
    wanted = {"flood 1": True}

    async def scenario() -> Scheduler:
        scheduler = Scheduler(play_workers=1)
        try:
            first = asyncio.create_task(
                scheduler.play.run("flood", "flood 0", wait_for_gate, gate, "done")
            )
            stale = asyncio.create_task(
                scheduler.move(
                    "kingdomino",
                    {"players": 2},
                    opening(2, 1),
                    "easy",
                    "s",
                    "flood",
                    "flood 1",
                    lambda: wanted["flood 1"],
                )
            )
            await asyncio.sleep(0)
            wanted["flood 1"] = False  # its table moved on while it waited
            Path(gate).touch()
            assert await first == "done"
            with pytest.raises(DroppedError):
                await stale
            return scheduler
        finally:
            scheduler.close()

    scheduler = asyncio.run(scenario())
    assert [label for _, label in play_starts(scheduler)] == ["flood 0"]


def test_a_level_searches_in_its_worker_alone() -> None:
    kingdomino, kingdoms = make_game("kingdomino"), make_game("kingdoms")
    assert in_one_process("expert", kingdomino) == "mcts:time=2"  # the level says workers=2
    assert in_one_process("easy", kingdomino) == "greedy-placement"
    assert in_one_process("easy", kingdoms) == KINGDOMS_LEVELS["easy"]  # its own
    assert in_one_process("mcts:time=1:workers=2", kingdoms) == "mcts:time=1"
    moves = opening(2, 3)
    assert choose("kingdomino", {"players": 2}, moves, "easy", "s") >= 0
