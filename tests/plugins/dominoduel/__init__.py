"""Domino Duel: a fourth game that is not in the box, made only to show that a game plugs
into kingdomkit with one declaration (shape.py, and its `kingdomkit.games` entry point in
../installed/kingdomkit_dominoduel-1.0.dist-info) and no other change (docs/adding-a-game.md)."""
