"""Bot moves in worker processes, so that a search never blocks the event loop.

A worker gets everything as plain values (game, options, the actions so far, the bot, a seed),
replays the position and answers with the action: no state is shared, and a table's bot seat
can move in any worker.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from kingdomkit.bots import make_bot
from kingdomkit.bots.compiled import compile_playouts
from kingdomkit.bots.levels import LEVELS, level_spec
from kingdomkit.bots.review import analysis_rng, grading_of, player_grades, review_game
from kingdomkit.core.protocol import Game
from kingdomkit.core.registry import make_game
from kingdomkit.core.workers import worker_pool
from kingdomkit.server.analysts import analyst_for, one_process
from kingdomkit.server.board import words

RETRIES = 2  # new pools tried when a worker dies under a move
STOP_SECONDS = 5  # a worker not gone this long after SIGTERM is killed
TIMEOUT_BOT = "medium"  # plays a person's decision when their time runs out

log = logging.getLogger("kingdomkit.server")


def in_one_process(bot: str, game: Game[Any]) -> str:
    """The spec of `bot` (a level, as `game` plays it, or a spec) searching in its worker
    alone (the expert level's `workers=2` included: analysts.one_process)."""
    return one_process(level_spec(bot, game) if bot in LEVELS else bot)


def choose(game_name: str, options: dict[str, Any], actions: list[int], bot: str, seed: str) -> int:
    """The move of `bot` after `actions` (runs in a worker)."""
    game, state = _replayed(game_name, options, actions)
    agent = make_bot(in_one_process(bot, game))
    try:
        return agent.act(game, state, random.Random(seed))
    finally:
        close = getattr(agent, "close", None)
        if close is not None:
            close()


def _replayed(game_name: str, options: dict[str, Any], actions: list[int]) -> tuple[Any, Any]:
    game = make_game(game_name, options)
    state = game.initial_state()
    for action in actions:
        state = game.apply(state, action)
    return game, state


def hint(
    game_name: str, options: dict[str, Any], actions: list[int], analyst: str | None, seed: str
) -> list[dict[str, Any]]:
    """Every legal action of the player to act, with the expected final score the analyst
    gives it from that player's view, best first (runs in a worker). `analyst`: the spec
    set for this game, None for its own (analysts.py; the own one also stands in where the
    set one does not fit); `seed`: the table's, as the review takes it, so that
    a hint and the review of the same decision are the same search."""
    game, state = _replayed(game_name, options, actions)
    bot, _ = analyst_for(game, analyst)
    try:
        analysis = bot.analyse(game, state, analysis_rng(seed, len(actions)))
    finally:
        bot.close()
    ranked = sorted(analysis.actions, key=lambda e: (-e.points, -e.visits))
    said = words(game)
    return [
        {
            "id": e.action,
            "label": said.move_label(state, e.action),
            "notation": game.action_to_string(state, e.action),
            "points": round(e.points, 2),
            "visits": e.visits,
        }
        for e in ranked
    ]


def review(
    game_name: str, options: dict[str, Any], actions: list[int], analyst: str | None, seed: str
) -> dict[str, Any]:
    """Every decision with a choice graded by the analyst: the move played, the best one,
    the expected score lost and its grade; each player's summary; the game's unit and the
    thresholds of the grades (runs in a worker). `analyst` and `seed` as for `hint`."""
    game = make_game(game_name, options)
    grading = grading_of(game)
    bot, spec = analyst_for(game, analyst)
    try:
        graded = review_game(game, actions, bot, seed)
    finally:
        bot.close()
    states = [game.initial_state()]
    decision_of = []  # the decision count before each action: a replay step
    made = 0
    for action in actions:
        decision_of.append(made)
        made += game.current_player(states[-1]) >= 0
        states.append(game.apply(states[-1], action))
    said = words(game)
    return {
        "analyst": spec,
        "unit": game.score_unit,
        "mistake": grading.mistake,
        "blunder": grading.blunder,
        "decisions": [
            {
                "step": d.step,
                "decision": decision_of[d.step],
                "seat": d.player,
                "choices": d.choices,
                "played": said.move_label(states[d.step], d.played),
                "best": said.move_label(states[d.step], d.best),
                "played_notation": game.action_to_string(states[d.step], d.played),
                "best_notation": game.action_to_string(states[d.step], d.best),
                "loss": round(d.loss, 2),
                "grade": grading.grade(d.loss),
            }
            for d in graded
        ],
        "players": [
            {
                "seat": g.player,
                "decisions": g.decisions,
                "best_moves": g.best_moves,
                "mean_loss": round(g.mean_loss, 2),
                "mistakes": g.mistakes,
                "blunders": g.blunders,
            }
            for g in player_grades(game, graded, grading)
        ],
    }


class BotPool:
    """A pool of worker processes playing bot moves; a pool broken by a dying worker is
    replaced and the move asked again."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return worker_pool(self.workers)

    async def move(
        self, game_name: str, options: dict[str, Any], actions: list[int], bot: str, seed: str
    ) -> int:
        action: int = await self.run(choose, game_name, options, actions, bot, seed)
        return action

    async def run(self, work: Callable[..., Any], *args: Any) -> Any:
        """`work(*args)` in a worker process."""
        loop = asyncio.get_running_loop()
        for attempt in range(RETRIES + 1):
            executor = self.executor
            try:
                return await loop.run_in_executor(executor, work, *args)
            except BrokenProcessPool:
                if attempt == RETRIES:
                    raise
                if self.executor is executor:
                    executor.shutdown(wait=False, cancel_futures=True)
                    self.executor = self._start()
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop the workers now: a search or review under way is abandoned, not awaited.
        The workers are ended first, so that the pool's shutdown can wait for its own
        thread and release its queues: a serve process stopped by SIGTERM dies of the
        signal (uvicorn raises it again), and what the pool still held was reported
        leaked at exit."""
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
        self.executor.shutdown(wait=True, cancel_futures=True)


async def prepare_playouts() -> list[str]:
    """Every game's compiled playouts made ready at start in a process of their own, which
    then ends; the games that have them (none if that failed). On a fresh install a kernel
    compiles for minutes (Queendomino's about two), and the first bot move of a game would
    wait for it; done ahead, one process of the machine compiles each kernel and every bot
    worker loads numba's copy (bots/kernel_playouts.py). Cancelled with the server, it ends
    its process."""
    pool = BotPool(1)
    started = time.monotonic()
    try:
        games: list[str] = await pool.run(compile_playouts)
    except Exception as error:  # the bots still compile on their first move
        log.warning("bots' compiled playouts not made ready ahead: %r", error)
        return []
    finally:
        pool.close()
    took = time.monotonic() - started
    log.info("bots' compiled playouts ready (%s) in %.0f s", ", ".join(games), took)
    return games
