"""The games. Importing this package registers every game in `kingdomkit.core.registry`."""

from kingdomkit.games import kingdomino, queendomino

__all__ = ["kingdomino", "queendomino"]
