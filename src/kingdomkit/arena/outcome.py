"""One game of a tournament played and its outcome: what a worker sends back, one JSON line.

    {"deal": 0, "lineup": 1, "rotation": 2, "seed": 7, "seats": ["greedy", "random"],
     "scores": [41.0, 17.0], "returns": [1.0, 0.0], "winners": [0], "steps": 61,
     "seconds": 0.21}

`play_scheduled` runs in a worker (a local process or a Ray task): it builds the game and
the bots from their names, so nothing but plain data crosses process boundaries.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from kingdomkit.arena.schedule import GameKey, ScheduledGame
from kingdomkit.bots import make_bot
from kingdomkit.bots.budget import counting
from kingdomkit.core.driver import Agent, play
from kingdomkit.core.protocol import Game, RecordError
from kingdomkit.core.registry import make_game


@dataclass(frozen=True)
class Outcome:
    """A finished game of the tournament (seconds is wall time, the only unrepeatable part)."""

    deal: int
    lineup: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    steps: int  # actions from the start, chance outcomes included
    seconds: float

    @property
    def key(self) -> GameKey:
        return (self.deal, self.lineup, self.rotation)

    def to_line(self) -> str:
        """The outcome as one line of games.jsonl (with its newline)."""
        return json.dumps(asdict(self), separators=(", ", ": ")) + "\n"

    @classmethod
    def from_json(cls, data: Any) -> Outcome:
        """The outcome a games.jsonl line holds; RecordError if any field is missing or bad."""
        if not isinstance(data, dict):
            raise RecordError("not a JSON object")
        try:
            players = len(data["seats"])
            outcome = cls(
                deal=_integer(data["deal"]),
                lineup=_integer(data["lineup"]),
                rotation=_integer(data["rotation"]),
                seed=_integer(data["seed"]),
                seats=tuple(str(bot) for bot in _list(data["seats"], players)),
                scores=tuple(float(score) for score in _list(data["scores"], players)),
                returns=tuple(float(share) for share in _list(data["returns"], players)),
                winners=tuple(_integer(seat) for seat in data["winners"]),
                steps=_integer(data["steps"]),
                seconds=float(data["seconds"]),
            )
        except KeyError as error:
            raise RecordError(f"no {error.args[0]!r}") from None
        except (TypeError, ValueError) as error:
            raise RecordError(str(error)) from None
        return outcome


def _integer(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _list(value: Any, length: int) -> Sequence[Any]:
    if not isinstance(value, list) or len(value) != length:
        raise ValueError(f"{value!r} is not a list of {length} values")
    return value


@functools.lru_cache(maxsize=8)
def _game(name: str, options_json: str) -> Game[Any]:
    return make_game(name, json.loads(options_json))


def close_agents(agents: Sequence[Agent]) -> None:
    """Release what bots hold between moves (helper processes), for those that can."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


def play_scheduled(game_name: str, options: Mapping[str, Any], task: ScheduledGame) -> Outcome:
    """Play one scheduled game with fresh bots built from their specs, on its clock."""
    game = _game(game_name, json.dumps(dict(options), sort_keys=True))
    started = time.perf_counter()
    with counting(task.clock):
        agents = [make_bot(spec) for spec in task.seats]
        try:
            played = play(game, agents, task.seed)
        finally:
            close_agents(agents)
    seconds = time.perf_counter() - started
    final = played.final_state
    return Outcome(
        deal=task.deal,
        lineup=task.lineup,
        rotation=task.rotation,
        seed=task.seed,
        seats=task.seats,
        scores=tuple(float(score) for score in game.scores(final)),
        returns=tuple(float(share) for share in game.returns(final)),
        winners=tuple(game.winners(final)),
        steps=len(played.actions),
        seconds=round(seconds, 6),
    )
