"""Screenshots of the site as a player sees it, for the README and docs/server.md.

A real `kingdomkit serve` runs on a free port with a data folder of its own; for each game a
table is set up through the page's own API (you against bots), a bot stands in for you until
the game is well under way, you take your seat back, and the page is photographed at desktop
and phone size when it is your turn. Nothing is faked: what the pictures show is what a person
would see at that moment. Needs Playwright and a chromium (`pip install kingdomkit[test]`;
Debian's chromium from apt).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx2

from kingdomkit.core.protocol import KingdomkitError

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

DESKTOP = (1280, 800)
PHONE = (390, 844)
START_SECONDS = 60
WAIT_MS = 120_000  # for a page to reach a scene on a busy machine
SETTLE_MS = 900  # animations end before the picture is taken


@dataclass(frozen=True)
class Scene:
    """One table to photograph: a game with its options and seats, played by bots for you
    until `decisions` have been made (None: to the end), then shown at `sizes`."""

    name: str
    game: str
    players: int
    decisions: int | None
    sizes: tuple[str, ...] = ("desktop", "phone")
    options: dict[str, Any] = field(default_factory=dict)


SCENES = (
    Scene("kingdomino", "kingdomino", 2, 11),
    Scene("kingdomino-4p", "kingdomino", 4, 20, ("desktop",)),
    Scene("kingdomino-over", "kingdomino", 2, None, ("desktop",)),
    Scene("queendomino", "queendomino", 2, 40),
    Scene("queendomino-4p", "queendomino", 4, 60, ("desktop",)),
    Scene("kingdoms", "kingdoms", 2, 34),
    Scene("kingdoms-4p", "kingdoms", 4, 30, ("desktop",)),
)
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def viewport(size: str) -> ViewportSize:
    width, height = SIZES[size]
    return {"width": width, "height": height}


def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    raise KingdomkitError("no chromium found: install Debian's (apt install chromium)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def served() -> Iterator[str]:
    """A `kingdomkit serve` of its own, on embedded SQLite in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="kingdomkit-shots-") as data:
        port = free_port()
        command = [sys.executable, "-m", "kingdomkit", "serve", "--port", str(port)]
        env = {**os.environ, "XDG_DATA_HOME": data}
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + START_SECONDS
            while True:
                try:
                    if httpx2.get(f"{url}/api/games").is_success:
                        break
                except httpx2.TransportError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    raise KingdomkitError("kingdomkit serve did not start")
                time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=30)


FETCH = """async ([method, path, body]) => {
  const answer = await fetch(path, {method, headers: {'Content-Type': 'application/json'},
                                    body: body === null ? undefined : JSON.stringify(body)});
  const data = await answer.json();
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${JSON.stringify(data)}`);
  return data;
}"""


def call(page: Any, method: str, path: str, body: Any = None) -> Any:
    """The page's own API, from the page (its session cookie and origin)."""
    return page.evaluate(FETCH, [method, path, body])


def set_up(page: Any, url: str, scene: Scene) -> str:
    """The scene's table, played by a stand-in for you up to its decision; its id."""
    page.goto(url)
    call(page, "POST", "/api/me", {"name": "Ann"})
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "medium"}] * (scene.players - 1)
    options = {"players": scene.players, **scene.options}
    made = call(
        page,
        "POST",
        "/api/tables",
        {"game": scene.game, "options": options, "seats": seats, "name": "Ann"},
    )
    table: str = made["table"]
    # A searching stand-in: its moves come a few per second, so it is stopped near the scene.
    call(page, "POST", f"/api/tables/{table}/seats/0/bot", {"bot": "hard"})
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        view = call(page, "GET", f"/api/tables/{table}")
        if view["status"] == "finished":
            return table
        if scene.decisions is not None and view["decisions"] >= scene.decisions:
            break
        if time.monotonic() > deadline:
            raise KingdomkitError(f"{scene.name}: the bots did not reach the scene in time")
        time.sleep(0.05)
    call(page, "POST", f"/api/tables/{table}/seats/0/back")
    return table


def photograph(url: str, out: Path, scenes: tuple[Scene, ...] = SCENES) -> list[Path]:
    """Every scene (and the lobby) at its sizes, as PNG files in `out`."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as missing:
        raise KingdomkitError(
            "screenshots need Playwright: pip install kingdomkit[test]"
        ) from missing
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        for size in ("desktop", "phone"):
            page = browser.new_page(viewport=viewport(size))
            page.goto(url)
            page.wait_for_function("() => $('game').options.length > 0", timeout=WAIT_MS)
            page.wait_for_timeout(SETTLE_MS)
            written.append(out / f"lobby-{size}.png")
            page.screenshot(path=str(written[-1]))
            page.close()
        for scene in scenes:
            context = browser.new_context(viewport=viewport("desktop"))
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            table = set_up(page, url, scene)
            for size in scene.sizes:
                page.set_viewport_size(viewport(size))
                page.goto(f"{url}/t/{table}")
                ready = (
                    "() => view && view.status === 'finished'"
                    if scene.decisions is None
                    else "() => view && view.legal.length > 0"
                )
                page.wait_for_function(ready, timeout=WAIT_MS)
                page.wait_for_timeout(SETTLE_MS)
                written.append(out / f"{scene.name}-{size}.png")
                page.screenshot(path=str(written[-1]))
            context.close()
        browser.close()
    return written


def take(out: Path) -> list[Path]:
    """Starts a server of its own and photographs every scene into `out`."""
    with served() as url:
        return photograph(url, out)
