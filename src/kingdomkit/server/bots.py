"""Bot moves in worker processes, so that a search never blocks the event loop.

A worker gets everything as plain values (game, options, the actions so far, the bot, a seed),
replays the position and answers with the action: no state is shared, and a table's bot seat
can move in any worker.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import kingdomkit.games  # noqa: F401  (registers every game, in each worker too)
from kingdomkit.bots import make_bot
from kingdomkit.core.registry import make_game

RETRIES = 2  # new pools tried when a worker dies under a move


def choose(game_name: str, options: dict[str, Any], actions: list[int], bot: str, seed: str) -> int:
    """The move of `bot` after `actions` (runs in a worker)."""
    game = make_game(game_name, options)
    state = game.initial_state()
    for action in actions:
        state = game.apply(state, action)
    agent = make_bot(bot)
    try:
        return agent.act(game, state, random.Random(seed))
    finally:
        close = getattr(agent, "close", None)
        if close is not None:
            close()


class BotPool:
    """A pool of worker processes playing bot moves; a pool broken by a dying worker is
    replaced and the move asked again."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=context)

    async def move(
        self, game_name: str, options: dict[str, Any], actions: list[int], bot: str, seed: str
    ) -> int:
        loop = asyncio.get_running_loop()
        for attempt in range(RETRIES + 1):
            executor = self.executor
            try:
                return await loop.run_in_executor(
                    executor, choose, game_name, options, actions, bot, seed
                )
            except BrokenProcessPool:
                if attempt == RETRIES:
                    raise
                if self.executor is executor:
                    executor.shutdown(wait=False, cancel_futures=True)
                    self.executor = self._start()
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
