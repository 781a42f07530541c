"""What a search thinks of every legal action at a position: the data behind
`kingdomkit analyze` and hints (bots/review.py grades decisions with it).

`Analysis.actions` has one `ActionEstimate` per legal action, sorted best first (most visits,
then the higher value), and `best` is the first one's action. For each action:

    visits   iterations of the search through it (at least a minimum for every action)
    value    its mean search value for the player, in [0, 1] for wdl and relative scores
    points   the player's expected final points: the mean own final score over the
             playouts through it; when the turn goes on after it (a placement before its
             claim), those of its best continuation (the most visited child, down to the
             end of the turn)

The analyser reports "expected points lost" = points(best) - points(played), where the best
is `most_points` (the most expected points; ties: the most visits, then the order listed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from kingdomkit.bots.heuristics import heuristics
from kingdomkit.bots.tree import Node
from kingdomkit.core.protocol import Game


class Estimated(Protocol):
    @property
    def points(self) -> float: ...

    @property
    def visits(self) -> int: ...


E = TypeVar("E", bound=Estimated)


def most_points(entries: Iterable[E]) -> E:
    """The entry with the most expected points (ties: the most visits, then the first): the
    move a hint lists first and a review grades against."""
    return max(entries, key=lambda entry: (entry.points, entry.visits))


@dataclass(frozen=True)
class ActionEstimate:
    action: int
    visits: int
    value: float
    points: float


@dataclass(frozen=True)
class Analysis:
    player: int
    actions: tuple[ActionEstimate, ...]

    @property
    def best(self) -> int:
        return self.actions[0].action

    def estimate(self, action: int) -> ActionEstimate:
        """The estimate of `action`; KeyError if it was not legal."""
        for entry in self.actions:
            if entry.action == action:
                return entry
        raise KeyError(action)


def analysis_of(game: Game[Any], state: Any, player: int, root: Node) -> Analysis:
    """The estimates of every legal action of `state` (a determinisation of the searcher's
    view) from the search tree `root`."""
    entries = []
    for action in game.legal_actions(state):
        child = root.children.get(action)
        if child is None or not child.visits:
            entries.append(ActionEstimate(action, 0, 0.0, 0.0))
            continue
        points = _continuation(game, state, game.apply(state, action), child, player)
        entries.append(ActionEstimate(action, child.visits, child.mean(player), points))
    entries.sort(key=lambda e: (-e.visits, -e.value, e.action))
    return Analysis(player, tuple(entries))


def _continuation(game: Game[Any], before: Any, after: Any, node: Node, player: int) -> float:
    """Expected points at `node`, following its best child while the turn goes on."""
    turn_continues = heuristics(game).turn_continues
    while turn_continues(before, after):
        action = node.best_action(game.legal_actions(after), player)
        if action is None:
            break
        node = node.children[action]
        before, after = after, game.apply(after, action)
    return node.mean_points(player)
