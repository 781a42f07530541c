"""The games. Importing this package registers every game in `kingdomkit.core.registry`."""

from kingdomkit.games import kingdomino

__all__ = ["kingdomino"]
