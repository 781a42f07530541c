"""What a game gives learners: its `observation` and `batch` capabilities (core/shape.py).

    observer(game)                  the game's encoding (its encoding.py): `spec()`, `observe`,
                                    `symmetries`, and the layout's `version`
    symmetries(game, obs, mask)     the position's symmetries, the identity alone without one
    batch_maker(game)               its compiled simulator of many games at once, or None

They live with the RL layer, not with the rules, as OpenSpiel keeps its observer apart from the
game: only learners need numpy arrays. A game's shape names a provider that imports its
encoding when called, so that loading a game never loads numpy, Gymnasium or PettingZoo.
The rewards of a batched simulator are the RL layer's too (batch.py), not the game's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from kingdomkit.core.protocol import Game, KingdomkitError
from kingdomkit.core.registry import shape_of
from kingdomkit.core.shape import capability

if TYPE_CHECKING:
    from numpy.typing import NDArray

S_contra = TypeVar("S_contra", contravariant=True)
# A player's observation: named numpy arrays of fixed shapes.
Observation = dict[str, "NDArray[Any]"]


class ArraySpec(NamedTuple):
    """One array of an observation: its shape, numpy dtype name and bounds (every value v
    has low <= v <= high), so that the environments can declare their spaces."""

    shape: tuple[int, ...]
    dtype: str
    low: int
    high: int


class Symmetry(NamedTuple):
    """One symmetry of a position as a player sees it (`Observer.symmetries`): the
    transformed observation and action mask, and `actions`, the image of every action (a
    permutation of range(num_actions)): a vector over actions v (a mask, a policy) becomes w
    with w[actions] = v. For data augmentation: what the rules treat alike, learned once."""

    observation: Observation
    action_mask: NDArray[Any]
    actions: NDArray[Any]


class Observer(Protocol[S_contra]):
    """A configured game's observation encoding (its encoding.py), made once per game."""

    @property
    def version(self) -> int:
        """The layout of `observe`'s arrays, bumped whenever the layout or a meaning changes
        (a model trained on one layout cannot read another)."""
        ...

    def spec(self) -> dict[str, ArraySpec]:
        """The arrays `observe` returns, by name (their shapes depend on the options, never
        on the state), from which the environments build their spaces."""
        ...

    def observe(self, state: S_contra, player: int) -> Observation:
        """`state` as `player` sees it (always encoded from `view(state, player)`, so never a
        secret), as the arrays of `spec`, seats ordered from `player` on."""
        ...

    def symmetries(self, observation: Observation, action_mask: NDArray[Any]) -> list[Symmetry]:
        """Every symmetry of the position behind `observation`, the identity first."""
        ...


class SimulatorStep(NamedTuple):
    """What a game's batched simulator returns for its N games after a reset or a step
    (arrays with the game as first index, owned by the simulator: copy them to keep them).
    How a game ended, not what it is worth: the RL layer makes the rewards (batch.py)."""

    observation: Observation  # name -> (N, ...) array: `observe` from `player`'s seat
    action_mask: NDArray[Any]  # (N, num_actions) int8: 1 on the legal actions, 0 at the end
    terminated: NDArray[Any]  # (N,) bool: this step ended the game
    illegal: NDArray[Any]  # (N,) bool: ended by an illegal action
    player: NDArray[Any]  # (N,) int64: whose observation it is (the player to decide)
    actor: NDArray[Any]  # (N,) int64: who made this step's decision, -1 after a new start
    seat: NDArray[Any]  # (N,) int64: the learner's seat, -1 in self-play
    returns: NDArray[Any]  # (N, players) float64: the final win shares (`Game.returns`), else 0
    scores: NDArray[Any]  # (N, players) float64: the final scores, else 0


class BatchSimulator(Protocol):
    """Many games stepped at once. Each game plays the learner's decisions given to `step`;
    chance and the opponents' moves are played inside. A game whose episode ended starts a
    new one at the next `step` (its action is ignored)."""

    num_envs: int

    def reset(self, seeds: Sequence[int] | None = None) -> SimulatorStep:
        """New episodes everywhere; game i's stream from seeds[i] (None: go on)."""
        ...

    def step(self, actions: NDArray[Any]) -> SimulatorStep:
        """Plays actions[i] in game i (an illegal one ends that episode)."""
        ...


class BatchMaker(Protocol):
    """Makes a configured game's compiled simulator of `num_envs` games: `opponents` one
    playout policy name ("random", "greedy") per other seat, in seat order, or None for
    self-play (every decision is the learner's); `seat` the learner's seat, None to draw it
    each episode. OptionError for anything it does not offer."""

    def __call__(
        self, num_envs: int, opponents: Sequence[str] | None, seat: int | None
    ) -> BatchSimulator: ...


def _declared(game: Game[Any]) -> Observer[Any] | None:
    """The configured `game`'s observer from its shape (made once), None if it has none."""
    return capability(game, "observation", shape_of(game).capabilities.observation)


def observer(game: Game[Any]) -> Observer[Any]:
    """The observation encoding of the configured `game` (made once and kept with it);
    KingdomkitError when its game has none."""
    found = _declared(game)
    if found is None:
        raise KingdomkitError(f"{game.name} has no observation encoding")
    return found


def symmetries(
    game: Game[Any], observation: Observation, action_mask: NDArray[Any]
) -> list[Symmetry]:
    """Every symmetry of the position behind `observation` (the identity first), for data
    augmentation; a game without an encoding has the identity alone."""
    found = _declared(game)
    if found is not None:
        return found.symmetries(observation, action_mask)
    import numpy

    return [Symmetry(observation, action_mask, numpy.arange(len(action_mask)))]


def batch_maker(game: Game[Any]) -> BatchMaker | None:
    """The configured `game`'s batched simulator maker, or None: the game has none, or not
    here (Kingdomino's needs numba)."""
    return capability(game, "batch", shape_of(game).capabilities.batch)
