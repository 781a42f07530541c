"""The terminal interfaces of `kingdomkit play`: one toolkit (kit.py), each game's own part."""
