"""kingdomkit: exact, fast, seedable engines, bots and tools for tile-laying games."""

__version__ = "0.1.0"
