"""Results per side: in team play (`Game.teams`) the players of a team win, lose and score
together, so a player's result is their side's, measured against the other sides.

    win share   1/k for each player of one of k sides sharing the victory, else 0
    margin      the side's score minus the best score of any other side

Outside team play every side is one player, and these are the usual per-seat results.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

Sides = Sequence[Sequence[int]]


def alone(players: int) -> tuple[tuple[int, ...], ...]:
    """Each of `players` players a side of their own (play without teams)."""
    return tuple((player,) for player in range(players))


def side_of(sides: Sides) -> tuple[int, ...]:
    """The side of each player."""
    owner = {player: number for number, side in enumerate(sides) for player in side}
    return tuple(owner[player] for player in range(len(owner)))


def side_scores(sides: Sides, scores: Sequence[float]) -> tuple[float, ...]:
    """Each side's score (its players share it; the best of them if they ever differ)."""
    return tuple(max(scores[player] for player in side) for side in sides)


def win_shares(sides: Sides, winners: Collection[int]) -> tuple[float, ...]:
    """Each player's share of the victory, counted per side: an outright team win is a
    whole win for each of its players, not half of one."""
    won = [number for number, side in enumerate(sides) if any(p in winners for p in side)]
    return tuple(1.0 / len(won) if side in won else 0.0 for side in side_of(sides))


def margins(sides: Sides, scores: Sequence[float]) -> tuple[float, ...]:
    """Each player's margin: their side's score minus the best score of any other side
    (a teammate, with the same score, is not an opponent)."""
    per_side = side_scores(sides, scores)
    return tuple(
        per_side[side] - max(s for other, s in enumerate(per_side) if other != side)
        for side in side_of(sides)
    )
