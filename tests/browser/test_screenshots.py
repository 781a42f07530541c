"""`kingdomkit screenshots` photographs real tables: a scene is set up through the page's own
API on a real server, and each picture is a PNG of the asked size showing that table."""

from __future__ import annotations

import struct
from pathlib import Path

from kingdomkit.server.screenshots import SIZES, Scene, photograph, served


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_a_scene_is_photographed_at_each_size(tmp_path: Path) -> None:
    scene = Scene("kingdomino-test", "kingdomino", 2, 3)
    with served() as url:
        written = photograph(url, tmp_path, (scene,))
    names = sorted(path.name for path in written)
    assert names == sorted(
        ["lobby-desktop.png", "lobby-phone.png", *(f"{scene.name}-{s}.png" for s in scene.sizes)]
    )
    for path in written:
        size = path.stem.rsplit("-", 1)[1]
        assert png_size(path) == SIZES[size]
        assert path.stat().st_size > 10_000  # a drawn page, not a blank one
