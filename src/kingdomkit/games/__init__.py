"""The games. Importing this package registers every game in `kingdomkit.core.registry`."""

from kingdomkit.games import kingdomino, kingdoms, queendomino

__all__ = ["kingdomino", "kingdoms", "queendomino"]
