"""Gauntlets played apart on the same deals, joined into the one tournament they amount to, so
that their candidates are compared deal by deal (`stats.candidate_pairs`).

Two settings of a bot are often measured in separate arenas against the same opponent and
seed: the second on another day, or with other code. Their games are on the same deals in the
same seats, so the comparison one gauntlet of both candidates makes (each one's win share and
margin less the other's, deal by deal, with a t interval over the deals both played whole)
holds for them too, and is narrower than their two intervals side by side wherever the
deals' luck is shared. `joined`
checks that the directories hold such gauntlets (same game, options, opponents, seed and
clock; no candidate twice) and renumbers their games' line-ups into the joined schedule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from kingdomkit.arena.outcome import Outcome
from kingdomkit.arena.schedule import Tournament
from kingdomkit.arena.store import held, stored
from kingdomkit.core.protocol import KingdomkitError

SAME = ("game", "options", "opponents", "seed", "clock")  # what puts two gauntlets on one deal


def joined(outs: Sequence[Path]) -> tuple[Tournament, list[Outcome]]:
    """The gauntlet of every candidate in `outs` against their common opponents, and the games
    the directories hold, renumbered into it; KingdomkitError if they are not gauntlets on the
    same deals."""
    parts = [(out, stored(out)) for out in outs]
    first_out, first = parts[0]
    expected = first.identity()
    owner: dict[str, Path] = {}
    for out, tournament in parts:
        if tournament.mode != "gauntlet":
            raise KingdomkitError(
                f"{out} holds a {tournament.mode}: only the candidates of gauntlets are compared"
            )
        identity = tournament.identity()
        for name in SAME:
            here, there = identity[name], expected[name]
            if here != there:
                raise KingdomkitError(
                    f"{out} and {first_out} are not played on the same deals ({name}: "
                    f"{here!r} there, {there!r} in {first_out})"
                )
        for bot in tournament.bots:
            if bot in owner:
                raise KingdomkitError(f"{bot!r} is a candidate in both {owner[bot]} and {out}")
            owner[bot] = out
    if len(owner) < 2:
        raise KingdomkitError(
            f"{first_out} holds one candidate: give the arenas to compare it with"
        )
    whole = Tournament(
        game=first.game,
        options=first.options,
        bots=tuple(owner),
        opponents=first.opponents,
        deals=max(tournament.deals for _, tournament in parts),
        seed=first.seed,
        clock=first.clock,
    )
    lineup_of = {lineup.bots: number for number, lineup in enumerate(whole.lineups)}
    outcomes = []
    for out, tournament in parts:
        for outcome in held(out, tournament).values():
            bots = tournament.lineups[outcome.lineup].bots
            outcomes.append(replace(outcome, lineup=lineup_of[bots]))
    return whole, outcomes


def compared(outs: Sequence[Path]) -> list[dict[str, Any]]:
    """Every two candidates of the gauntlets in `outs` against each opponent, deal by deal
    (`stats.candidate_pairs`: the first's win share and margin less the second's)."""
    from kingdomkit.arena.stats import candidate_pairs, tournament_sides

    tournament, outcomes = joined(outs)
    return candidate_pairs(outcomes, tournament, tournament_sides(tournament))
