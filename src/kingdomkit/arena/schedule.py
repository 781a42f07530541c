"""The schedule of a tournament: which bots sit where, in which game, from which seed.

    line-up    one bot spec per seat, e.g. (A, B, B, B): a match is played through line-ups
    rotation   line-up r places its bot i in seat (i + r) mod players, r = 0 .. players-1
    deal       a seed: deal d is played from seed S + d, once per rotation of every line-up

    round robin (--bots A B C)        gauntlet (--bots A B --gauntlet X Y)
    match A-B, B-C, A-C (every pair)  match A-X, A-Y, B-X, B-Y (candidate-opponent)
    2 players: line-up (A, B)         line-up (A, X, ..., X): one candidate, players-1
    more: (A, B, .., B), (B, A, .., A)   copies of the opponent (one agent against three)

    table (--table A B X X)           one line-up, the table as given (a bot may sit more
                                      than once): two bots compared at the same table

Every line-up is played in all its rotations on the same deal (the same chance draws, each
bot in every seat), so the luck of the deal and the seat cancel out. Every match is played on
the same deals, so a deal (all its games) is the unit of sampling of the statistics. Games
are numbered deal-major (deal, line-up, rotation), so raising the number of deals extends a
tournament without changing the games already played.

Any game can be replayed alone: `play(make_game(game, options), [make_bot(s) for s in
seats], seed)`, or `kingdomkit simulate GAME --bots s0,s1,... --games 1 --seed SEED`.

A tournament counts its bots' time budgets on one clock (`bots.budget`): `wall` seconds, or
`cpu`, each search process's own CPU seconds, which a machine shared with other work does not
shorten. The clock is part of what a tournament is: a run is never resumed on the other.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from kingdomkit.bots import parse_spec
from kingdomkit.bots.budget import clock_kind
from kingdomkit.core.protocol import OptionError

Mode = Literal["round-robin", "gauntlet", "table"]
GameKey = tuple[int, int, int]  # (deal, line-up, rotation)


@dataclass(frozen=True)
class Match:
    """Bots that meet: (candidate, opponent) in a gauntlet, a pair in a round robin, the
    table's bots (each once) at a table."""

    bots: tuple[str, ...]

    @property
    def name(self) -> str:
        return " vs ".join(self.bots)


@dataclass(frozen=True)
class LineUp:
    """One bot spec per seat (before rotation), and the match it belongs to."""

    match: int
    bots: tuple[str, ...]

    def rotated(self, rotation: int) -> tuple[str, ...]:
        """The seats of rotation `rotation`: bot i of the line-up sits in seat i + rotation."""
        players = len(self.bots)
        seats = [""] * players
        for position, bot in enumerate(self.bots):
            seats[(position + rotation) % players] = bot
        return tuple(seats)


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the tournament: where it sits in the schedule, its seed and its seats."""

    index: int
    deal: int
    lineup: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    clock: str = "wall"

    @property
    def key(self) -> GameKey:
        return (self.deal, self.lineup, self.rotation)


def deal_seed(seed: int, deal: int) -> int:
    """The seed that deal `deal` of a tournament started from `seed` is played from."""
    return seed + deal


def canonical_spec(text: str) -> str:
    """A bot spec as the tournament names it (lower-case name, trimmed settings)."""
    return parse_spec(text).text


@dataclass(frozen=True)
class Tournament:
    """A tournament's configuration; everything else (line-ups, games) follows from it."""

    game: str
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    opponents: tuple[str, ...] = ()
    deals: int = 1
    seed: int = 0
    clock: str = "wall"
    table: tuple[str, ...] = ()  # one bot spec per seat (the table mode; bots stays empty)
    matches: tuple[Match, ...] = field(init=False, repr=False, compare=False)
    lineups: tuple[LineUp, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise OptionError(f"--deals must be at least 1, not {self.deals}")
        clock_kind(self.clock)
        if self.players < 2:
            raise OptionError("a tournament needs at least 2 players per game")
        if self.table:
            self._check_table()
        _refuse_repeats(self.bots, "--bots")
        _refuse_repeats(self.opponents, "--gauntlet")
        both = sorted(set(self.bots) & set(self.opponents))
        if both:
            raise OptionError(f"{both[0]!r} is both a candidate (--bots) and an opponent")
        if self.mode == "round-robin" and len(self.bots) < 2:
            raise OptionError("a round robin needs at least 2 bots (or give --gauntlet)")
        matches = self._matches()
        object.__setattr__(self, "matches", matches)
        object.__setattr__(self, "lineups", self._lineups(matches))

    def _check_table(self) -> None:
        if self.bots or self.opponents:
            raise OptionError("--table names every seat: give it without --bots or --gauntlet")
        if len(self.table) != self.players:
            raise OptionError(
                f"--table names {len(self.table)} bots for {self.players} seats: one per seat"
            )
        if len(self.everyone) < 2:
            raise OptionError("--table needs at least 2 different bots to compare")

    @property
    def mode(self) -> Mode:
        if self.table:
            return "table"
        return "gauntlet" if self.opponents else "round-robin"

    @property
    def players(self) -> int:
        return int(self.options["players"])

    @property
    def everyone(self) -> tuple[str, ...]:
        """Every bot of the tournament, candidates first (a table's in its order, once)."""
        if self.table:
            return tuple(dict.fromkeys(self.table))
        return self.bots + self.opponents

    @property
    def games_per_deal(self) -> int:
        return len(self.lineups) * self.players

    @property
    def total_games(self) -> int:
        return self.deals * self.games_per_deal

    def _matches(self) -> tuple[Match, ...]:
        if self.mode == "table":
            return (Match(self.everyone),)
        if self.mode == "gauntlet":
            return tuple(Match((bot, other)) for bot in self.bots for other in self.opponents)
        return tuple(
            Match((bot, other))
            for first, bot in enumerate(self.bots)
            for other in self.bots[first + 1 :]
        )

    def _lineups(self, matches: Sequence[Match]) -> tuple[LineUp, ...]:
        if self.mode == "table":
            return (LineUp(0, self.table),)
        rest = self.players - 1
        lineups = []
        for number, match in enumerate(matches):
            first, second = match.bots
            lineups.append(LineUp(number, (first, *[second] * rest)))
            # With 2 players (B, A) is a rotation of (A, B); a gauntlet has one line-up.
            if self.mode == "round-robin" and self.players > 2:
                lineups.append(LineUp(number, (second, *[first] * rest)))
        return tuple(lineups)

    def games(self) -> Iterator[ScheduledGame]:
        """Every game, deal by deal, line-up by line-up, rotation by rotation."""
        index = 0
        for deal in range(self.deals):
            seed = deal_seed(self.seed, deal)
            for number, lineup in enumerate(self.lineups):
                for rotation in range(self.players):
                    yield ScheduledGame(
                        index, deal, number, rotation, seed, lineup.rotated(rotation), self.clock
                    )
                    index += 1

    def scheduled(self, key: GameKey) -> ScheduledGame | None:
        """The game with this key (of any number of deals), or None if there is none."""
        deal, lineup, rotation = key
        if deal < 0 or not 0 <= lineup < len(self.lineups) or not 0 <= rotation < self.players:
            return None
        index = (deal * len(self.lineups) + lineup) * self.players + rotation
        seats = self.lineups[lineup].rotated(rotation)
        seed = deal_seed(self.seed, deal)
        return ScheduledGame(index, deal, lineup, rotation, seed, seats, self.clock)

    def identity(self) -> dict[str, Any]:
        """What makes two runs the same tournament (the number of deals may grow)."""
        identity = {
            "game": self.game,
            "options": dict(self.options),
            "mode": self.mode,
            "bots": list(self.bots),
            "opponents": list(self.opponents),
            "seed": self.seed,
            "clock": self.clock,
        }
        if self.table:  # kept only when there is one: older tournaments read back the same
            identity["table"] = list(self.table)
        return identity

    def to_json(self) -> dict[str, Any]:
        return {**self.identity(), "deals": self.deals}


def _refuse_repeats(bots: Sequence[str], flag: str) -> None:
    seen: set[str] = set()
    for bot in bots:
        if bot in seen:
            raise OptionError(f"{bot!r} is given twice in {flag}")
        seen.add(bot)
