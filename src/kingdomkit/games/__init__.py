"""The games, each a package that declares its shape (shape.py) as a `kingdomkit.games` entry
point; `kingdomkit.core.registry` finds them there."""
