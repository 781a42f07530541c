"""The games as the lobby offers them: their printed names, their variants, and every set-up
(player count and variants) each game refuses, with the reason in words.

The reasons are the games' own: every combination of a player count and on/off options is
tried on the game's factory once, and each `OptionError` is kept with its `words`. The
lobby's form disables what would be refused and says why; creating a table asks the game
again, so the game stays the authority.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any

from kingdomkit.core.protocol import KingdomkitError, OptionError
from kingdomkit.core.registry import GAMES, GameShape, make_game

JOIN = "+"  # the variants of a set-up, in the game's order, joined: "mighty_duel+harmony"


def refusal(error: KingdomkitError) -> str:
    """What a person is told when a game refuses a set-up."""
    return error.words if isinstance(error, OptionError) else str(error)


def title(game: str) -> str:
    """A game's printed name ("Kingdomino"), or its registered name if it declares none."""
    info = GAMES.get(game)
    return info.title or info.name if info is not None else game


def refusals(info: GameShape) -> dict[str, dict[str, str]]:
    """Every refused set-up of a game: player count, then the variants on (joined by JOIN in
    the order of `option_names`; "" for none), to the reason in words."""
    game = make_game(info.name)
    refused: dict[str, dict[str, str]] = {}
    for players in range(game.min_players, game.max_players + 1):
        for count in range(len(info.option_names) + 1):
            for chosen in combinations(info.option_names, count):
                try:
                    make_game(info.name, {"players": players, **dict.fromkeys(chosen, True)})
                except KingdomkitError as error:
                    refused.setdefault(str(players), {})[JOIN.join(chosen)] = refusal(error)
    return refused


@cache
def offered() -> list[dict[str, Any]]:
    """The games this server plays, as GET /api/games serves them (worked out once)."""
    found = []
    for info in GAMES.values():
        game = make_game(info.name)
        variants = {variant.option: variant for variant in info.variants}
        found.append(
            {
                "game": info.name,
                "name": title(info.name),
                "summary": info.summary,
                "unit": info.unit,
                "options": list(info.option_names),
                "variants": [
                    {
                        "option": option,
                        "name": variants[option].name if option in variants else option,
                        "description": variants[option].description if option in variants else "",
                    }
                    for option in info.option_names
                ],
                "default_players": info.default_players,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "refused": refusals(info),
            }
        )
    return found


def variant_names(game: str, options: dict[str, Any]) -> list[str]:
    """The printed names of the variants that are on in `options`."""
    info = GAMES.get(game)
    names = {v.option: v.name for v in info.variants} if info is not None else {}
    return [names.get(key, key) for key, on in options.items() if on is True]
