"""What every game's compiled batched simulator shares (games/<name>/batch.py): the checks of
how it is made and called, the settings and opponents' policies its batch kernel reads, each
game's SplitMix64 stream and how a seed starts it, and the `SimulatorStep` it answers. A game's
simulator adds its kernel's arrays and calls its kernel's step (`_run`).

The settings array, read by every batch kernel (which import these constants):
SELF_PLAY (1: every decision is the learner's), DRAWN_SEAT (1: the learner's seat is drawn each
episode), FIXED_SEAT (its seat otherwise). `policies[learner, seat]` is the policy code of the
bot in `seat` when the learner sits in `learner`, LEARNER for the learner's own seat.

The batch kernels step their games on numba's threads, OpenMP's here, which by default spin
while they wait for the slowest block. Sharing the cores with anything else (a learner's
network, another simulator) that spinning takes the time the working thread needs, and a step
can cost twenty times as much (docs/benchmarks.md). So a batch asks OpenMP for threads that
sleep while they wait (`OMP_WAIT_POLICY=PASSIVE`) unless the environment already says how to
wait; it must be said before the process's first parallel kernel runs (docs/rl.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from kingdomkit.core.compiling import first_call
from kingdomkit.core.protocol import Game, OptionError
from kingdomkit.core.rng import MASK64, splitmix64_next
from kingdomkit.rl.observation import SimulatorStep, observer

Ints = npt.NDArray[np.int64]
LEARNER = -1  # a seat's policy code when the learner plays it
SELF_PLAY, DRAWN_SEAT, FIXED_SEAT = 0, 1, 2
SETTINGS_SIZE = 3
WAITING = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")  # how OpenMP threads wait, if the user says


def sleep_while_waiting() -> None:
    """OpenMP threads that sleep while they wait, unless the environment says otherwise
    (module card); no effect once the process has run a parallel kernel."""
    if not any(name in os.environ for name in WAITING):
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"


def stream_seed(seed: int) -> int:
    """The SplitMix64 state a game's stream starts from, for `seed` (one mixing step, so
    that the streams of seeds 0, 1, 2 ... share nothing visible)."""
    return splitmix64_next(seed & MASK64)[1]


class CompiledBatch:
    """N games of one configured game in a compiled kernel's arrays (module card). A game's
    simulator calls this `__init__` first, then makes its kernel's arrays around `streams`,
    `seats`, `actors` and `pending`, names its batch kernel (`kernel`), and implements `_run`,
    which calls it."""

    kernel: Any  # the game's batch kernel (a numba dispatcher)

    def __init__(
        self,
        game: Game[Any],
        num_envs: int,
        opponents: Sequence[str] | None,
        seat: int | None,
        policy_codes: Mapping[str, int],
    ) -> None:
        sleep_while_waiting()
        players = game.num_players
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise OptionError(f"the number of games is a whole number from 1 up, not {num_envs!r}")
        settings = np.zeros(SETTINGS_SIZE, np.int64)
        self.policies = np.full((players, players), LEARNER, np.int64)
        if opponents is None:
            settings[SELF_PLAY] = 1
        else:
            codes = [_policy(name, policy_codes) for name in opponents]
            if len(codes) != players - 1:
                raise OptionError(f"{players - 1} opponents needed, {len(codes)} given")
            if seat is None:
                settings[DRAWN_SEAT] = 1
            elif isinstance(seat, bool) or seat not in range(players):
                raise OptionError(f"seat must be 0 to {players - 1} (or None), not {seat!r}")
            else:
                settings[FIXED_SEAT] = seat
            for learner in range(players):
                others = [p for p in range(players) if p != learner]
                self.policies[learner, others] = codes
        self.settings = settings
        self.game = game
        self.num_envs = n = num_envs
        self.players = players
        self.num_actions = game.num_actions
        self.streams = np.zeros(n, np.uint64)
        self.seats = np.full(n, -1, np.int64)  # the learner's seat in each game
        self.actors = np.full(n, -1, np.int64)  # who made each game's latest decision
        self.pending = np.ones(n, np.int64)  # 1: the game starts a new episode at the next step
        spec = observer(game).spec()
        self.observation = {
            name: np.zeros((n, *array.shape), np.dtype(array.dtype)) for name, array in spec.items()
        }
        self.out = (
            np.zeros((n, self.num_actions), np.int8),  # the action mask
            np.zeros(n, np.int8),  # terminated
            np.zeros(n, np.int8),  # illegal
            np.zeros(n, np.int64),  # the player to act
            np.zeros((n, players), np.float64),  # returns
            np.zeros((n, players), np.float64),  # scores
        )
        self._ignored: Ints = np.zeros(n, np.int64)
        self.seeded = False

    def reset(self, seeds: Iterable[int] | None = None) -> SimulatorStep:
        """New episodes in every game; game i's stream starts at stream_seed(seeds[i]) (None:
        the streams go on, or are drawn from the operating system the first time)."""
        if seeds is not None:
            values = [int(seed) for seed in seeds]
            if len(values) != self.num_envs:
                raise OptionError(f"{self.num_envs} seeds needed, {len(values)} given")
            self.streams[:] = [stream_seed(seed) for seed in values]
            self.seeded = True
        elif not self.seeded:
            self.streams[:] = np.random.SeedSequence().generate_state(self.num_envs, np.uint64)
            self.seeded = True
        self.pending[:] = 1
        return self._step(self._ignored)

    def step(self, actions: Any) -> SimulatorStep:
        """Plays actions[i] in game i (the game's own action numbers)."""
        if not self.seeded:
            raise OptionError("call reset() before step()")
        values = np.asarray(actions)
        if values.shape != (self.num_envs,):
            raise OptionError(
                f"one action per game needed: shape ({self.num_envs},), not {values.shape}"
            )
        if not np.issubdtype(values.dtype, np.integer):
            raise OptionError(f"actions are whole numbers, not {values.dtype}")
        return self._step(values.astype(np.int64, copy=False))

    def _run(self, actions: Ints) -> None:
        """The game's batch kernel: plays `actions` and fills `observation` and `out`."""
        raise NotImplementedError

    def _step(self, actions: Ints) -> SimulatorStep:
        # The first step in a process compiles the kernel, or loads it: by one process of
        # the machine at a time (the environments of a vectorised run start together).
        first_call(self.kernel, lambda: self._run(actions))
        mask, terminated, illegal, player, returns, scores = self.out
        return SimulatorStep(
            self.observation,
            mask,
            terminated.view(np.bool_),
            illegal.view(np.bool_),
            player,
            self.actors,
            self.seats,
            returns,
            scores,
        )


def _policy(name: str, codes: Mapping[str, int]) -> int:
    """The kernel's code of an opponent's playout policy; OptionError for any other."""
    code = codes.get(name)
    if code is None:
        raise OptionError(
            f"the batched simulator plays compiled opponents only ({', '.join(codes)}), "
            f"not {name!r}"
        )
    return code
