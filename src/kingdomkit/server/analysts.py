"""Which bot makes a game's hints and reviews: each game's own analyst, or one set by whoever
runs the server (`--analyst [GAME=]SPEC`, or $KINGDOMKIT_ANALYST), for every game or per game.

Each game declares its analyst with the thresholds of its grades (its heuristics' `grading`,
measured against that analyst's own noise: docs/bots.md). Another may be set, e.g. the `neural`
bot with a trained network for Kingdomino. A network fits one configuration of one game (its
players and options); on a table it does not fit, the game's own analyst stands in, so a hint
never fails for it. A hint and the review of the same decision stay the same search, as long
as every process that makes them is given the same analysts.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kingdomkit.bots import BotSpec, TreeBot, make_bot, parse_spec
from kingdomkit.bots.review import grading_of
from kingdomkit.core.protocol import Game, KingdomkitError
from kingdomkit.core.registry import GAMES

ANALYST_ENV = "KINGDOMKIT_ANALYST"  # `[GAME=]SPEC`, as one --analyst
log = logging.getLogger("kingdomkit.analysts")


@dataclass(frozen=True)
class Analysts:
    """The analysts set for every game (`every`) and per game (`games`); a game in neither
    uses its own. Plain values, so that they travel to worker processes."""

    every: str | None = None
    games: tuple[tuple[str, str], ...] = ()

    @classmethod
    def read(cls, texts: Sequence[str]) -> Analysts:
        """From `--analyst` texts, `SPEC` or `GAME=SPEC`; with none, from $KINGDOMKIT_ANALYST.
        KingdomkitError, in words, for an unknown game, a game or every game set twice, or a
        spec that is no searching bot (each is made once here, so a bad one stops the start)."""
        given = list(texts) or ([os.environ[ANALYST_ENV]] if os.environ.get(ANALYST_ENV) else [])
        every: str | None = None
        games: dict[str, str] = {}
        for text in given:
            game, spec = split(text)
            if game is None:
                if every is not None:
                    raise KingdomkitError(f"--analyst: two analysts for every game ({text!r})")
                every = spec
            elif game in games:
                raise KingdomkitError(f"--analyst: two analysts for {game} ({text!r})")
            else:
                games[game] = spec
            searching_bot(spec).close()
        return cls(every, tuple(sorted(games.items())))

    def spec(self, game_name: str) -> str | None:
        """The analyst set for the game called `game_name`, None for the game's own."""
        return dict(self.games).get(game_name, self.every)


def split(text: str) -> tuple[str | None, str]:
    """`GAME=SPEC` into its game and spec; a bare spec (which may hold `=` in its settings,
    as in `mcts:playouts=200`) is for every game."""
    head, equals, rest = text.partition("=")
    if equals and ":" not in head and head.strip():
        game = head.strip()
        if game not in GAMES:
            raise KingdomkitError(
                f"--analyst {text!r}: no game called {game!r} (games: {', '.join(sorted(GAMES))})"
            )
        if not rest.strip():
            raise KingdomkitError(f"--analyst {text!r}: no bot after {game}=")
        return game, rest.strip()
    if not text.strip():
        raise KingdomkitError("--analyst: an empty spec")
    return None, text.strip()


def searching_bot(spec: str) -> TreeBot:
    """The bot of `spec`, which must be a tree search (only they report every move's value)."""
    try:
        bot = make_bot(spec)
    except KingdomkitError as error:
        raise KingdomkitError(f"--analyst {spec!r}: {error}") from None
    if not isinstance(bot, TreeBot):
        close = getattr(bot, "close", None)
        if close is not None:
            close()
        raise KingdomkitError(
            f"--analyst {spec!r}: {parse_spec(spec).name} cannot analyse positions (a tree"
            " search can: mcts, uct, neural)"
        )
    return bot


def one_process(spec: str) -> str:
    """`spec` searching in its worker process alone: `workers=N` (root parallelism) would
    start N - 1 more processes for every job, beyond the workers the scheduler counts."""
    parsed = parse_spec(spec)
    return BotSpec(parsed.name, tuple(s for s in parsed.settings if s[0] != "workers")).text


def analyst_for(game: Game[Any], spec: str | None) -> tuple[TreeBot, str]:
    """The bot analysing the configured `game` and its spec: `spec` (in one process) when
    given and it can search this configuration, else the game's own (module card)."""
    own = grading_of(game).analyst
    spec = None if spec is None else one_process(spec)
    if spec is not None and spec != own:
        try:
            bot = searching_bot(spec)
        except KingdomkitError as error:  # checked at the start: a network file gone since
            log.warning("%s; the game's own analyst stands in", error)
        else:
            why = bot.unfit(game)
            if why is None:
                return bot, spec
            bot.close()
            log.info("analyst %s: %s; the game's own analyst stands in", spec, why)
    return searching_bot(own), own
