"""Compiled playouts (a game's `playouts` capability, numba): the same games as
`kingdomkit.bots.playouts`, from the same stream of uniforms, much faster.

Search bots hand whole batches of playouts to them when a game offers them; everything else
stays on the pure-Python engine, which remains the reference. They are optional twice over:
a game's provider gives None when the compiled extra (numba) is not installed, and
KINGDOMKIT_COMPILED=0 turns them off for every game (to compare, or to rule them out).
"""

from __future__ import annotations

import os
from typing import Any, Protocol

from kingdomkit.bots.playouts import POLICIES
from kingdomkit.core.protocol import Game, OptionError
from kingdomkit.core.registry import GAMES, make_game, shape_of
from kingdomkit.core.shape import capability

OFF_SWITCH = "KINGDOMKIT_COMPILED"  # "0": no compiled playouts for any game


class CompiledPlayouts(Protocol):
    """A game's compiled playouts, bound to one configured game."""

    def playouts(
        self, state: Any, policy: str, player: int, epsilon: float, count: int, seed: int
    ) -> tuple[Any, Any]:
        """`count` playouts from `state` with the playout policy named `policy` (a name of
        `kingdomkit.bots.playouts.POLICIES`; `player` the searching player, for
        player-greedy; `epsilon` for epsilon-greedy), playing exactly as
        `kingdomkit.bots.playouts` would from the same stream of
        `kingdomkit.core.rng.SplitMix64(seed)` uniforms, one playout after the other: two
        count x players arrays, the final `scores` and `returns` of each playout. An unknown
        policy or an epsilon outside [0, 1] raises OptionError."""
        ...

    def ready(self) -> None:
        """Compiled, or loaded from numba's cache, in this process, as the first call of
        `playouts` would be; by one process of the machine at a time, the others waiting
        for its copy (bots/kernel_playouts.py)."""
        ...


def compiled(game: Game[Any]) -> CompiledPlayouts | None:
    """The compiled playouts of the configured `game`, made once per game; None when its
    shape offers none, when they cannot be made here (numba missing), or when
    KINGDOMKIT_COMPILED=0 (read at every call)."""
    if os.environ.get(OFF_SWITCH) == "0":
        return None
    return capability(game, "playouts", shape_of(game).capabilities.playouts)


def every_game() -> list[tuple[str, CompiledPlayouts]]:
    """Each registered game that has compiled playouts here, by name, with those of its
    default number of players; in the order of the names."""
    found = []
    for name in sorted(GAMES):
        playouts = compiled(make_game(name, {"players": GAMES[name].default_players}))
        if playouts is not None:
            found.append((name, playouts))
    return found


def compile_playouts() -> list[str]:
    """Every game's compiled playouts made ready in this process, the cheapest first (a
    server starting does this in a process of its own, so that a fresh install's first bot
    move does not wait minutes for a compilation); the names of the games that have them."""
    games = every_game()  # by name: Kingdomino's kernel compiles fastest, Queendomino's slowest
    for _, playouts in games:
        playouts.ready()
    return [name for name, _ in games]


def policy_code(policy: str, epsilon: float) -> int:
    """A playout policy's code in a compiled kernel (its place in `POLICIES`), once `policy`
    and `epsilon` are checked as `CompiledPlayouts.playouts` says: OptionError otherwise."""
    if policy not in POLICIES:
        raise OptionError(f"unknown playout policy {policy!r} (known: {', '.join(POLICIES)})")
    if not 0.0 <= epsilon <= 1.0:
        raise OptionError(f"epsilon is a probability between 0 and 1, not {epsilon}")
    return POLICIES.index(policy)
