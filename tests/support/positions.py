"""Kingdoms in notation that the rules tests of more than one game read the same way."""

# A 5x5 forest with a gap in its bottom row, where a forest domino fits nowhere else.
FOREST_WITH_A_GAP = """
F F F F F
F F F F F
F F C F F
F F F F F
. . . F F
"""
