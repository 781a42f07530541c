"""End to end in a real browser: Playwright driving Debian's chromium (headless, installed by
the tests when missing) against `kingdomkit serve` in its own process.

For each game, two people in two browser contexts play a whole game: Ann creates the table
from the lobby, Bob opens her invitation link, and both play from their pages. In the middle
the server is killed (`kill -9`) and started again on the same data; the pages reconnect on
their own and the game goes on with nothing lost. A spectator watches. Every view any page
receives is checked for secrets (Kingdoms' starting tiles of the others), and screenshots of
each game's board are written to `artifacts/screenshots/`.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, Route, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kingdomkit.games.queendomino.rules import Queendomino
from paths import ROOT
from serving import ServeProcess
from system import apt_install

ARTIFACTS = Path(os.environ.get("KINGDOMKIT_ARTIFACTS", ROOT / "artifacts")) / "screenshots"
RESTART_AFTER = 12  # decisions before the server is killed and started again
STEP_TIMEOUT = 60_000  # ms for a page to show the next version


def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    apt_install("chromium")
    found = shutil.which("chromium")
    assert found, "chromium was installed but is not found"
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    process = ServeProcess(tmp_path)
    process.start()
    yield process
    if process.process is not None and process.process.poll() is None:
        process.kill()


class Watcher:
    """Collects every view a page receives (HTTP answers and WebSocket messages) and any
    JavaScript error."""

    def __init__(self, page: Page) -> None:
        self.views: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.log: list[str] = []  # requests, answers and console lines, to explain a failure
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("websocket", self._socket)
        page.on("response", self._response)
        page.on("console", lambda message: self._note(f"console {message.type}: {message.text}"))
        page.on("request", lambda request: self._note(f"-> {request.method} {request.url}"))
        page.on("requestfailed", lambda r: self._note(f"failed {r.url}: {r.failure}"))

    def _note(self, line: str) -> None:
        self.log.append(f"{time.monotonic():.3f} {line}")

    def _socket(self, socket_: Any) -> None:
        self._note(f"socket {socket_.url}")
        socket_.on("framereceived", lambda payload: self._keep(payload))
        socket_.on("close", lambda _: self._note(f"socket closed {socket_.url}"))

    def _response(self, response: Any) -> None:
        self._note(f"<- {response.status} {response.url}")
        if "/api/tables/" in response.url and response.ok:
            with contextlib.suppress(Exception):  # a response the page navigated away from
                self._keep(response.text())

    def _keep(self, payload: Any) -> None:
        try:
            data = json.loads(payload)
        except (TypeError, ValueError):
            return
        view = data.get("view", data) if isinstance(data, dict) else None
        if isinstance(view, dict) and "model" in view:
            self.views.append(view)
            self._note(
                f"view version {view.get('version')} you {view.get('you')} {view.get('status')}"
            )

    def wait(self, page: Page, expression: str, arg: Any = None) -> None:
        """`page.wait_for_function`, which on a time-out says what the page saw and did."""
        try:
            page.wait_for_function(expression, arg=arg, timeout=STEP_TIMEOUT)
        except PlaywrightTimeout:
            shown = page.inner_text("#error") if page.locator("#error").count() else ""
            lines = "\n".join(self.log[-60:])
            raise AssertionError(
                f"waited for {expression} ({arg}); the page shows {page_view(page)} and "
                f"the error {shown!r}; its last events:\n{lines}"
            ) from None


def page_view(page: Page) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(
        "() => (typeof view === 'undefined' || !view) ? null : "
        "{version: view.version, status: view.status, legal: view.legal.length, "
        "decisions: view.decisions}"
    )
    return found


def play_one(page: Page, server: ServeProcess, table: str) -> bool:
    """If it is this page's turn, play its first listed move and wait for the next version.
    A click that did not reach the server (the list was being redrawn) is made again; a
    move the server took but the page never heard of fails the test."""
    seen = page_view(page)
    if seen is None or not seen["legal"] or seen["status"] != "running":
        return False
    for _ in range(3):
        page.locator("#legal button").first.click()
        try:
            page.wait_for_function(
                "v => view && view.version > v", arg=seen["version"], timeout=STEP_TIMEOUT / 3
            )
            return True
        except PlaywrightTimeout:
            on_server = httpx2.get(f"{server.url}/api/tables/{table}").json()["version"]
            assert on_server == seen["version"], "the page missed a broadcast"
    shown = page.inner_text("#error")
    raise AssertionError(f"the move was not played (the page says: {shown!r})")


def assert_no_secret(views: list[dict[str, Any]], seat: int | None) -> None:
    """No view shows a hidden tile of another seat (Kingdoms: a starting tile's face is in its
    owner's model only); a spectator sees none at all; no view carries the engine's state."""
    assert views, "the page received no view"
    for view in views:
        assert "state" not in view
        players = view["model"].get("players")
        for other, player in enumerate(players if isinstance(players, list) else []):
            if other != seat and isinstance(player, dict):
                assert "starting_tile" not in player, f"seat {seat} saw seat {other}'s tile"


@pytest.mark.parametrize("game", ["kingdomino", "queendomino", "kingdoms"])
def test_two_people_play_a_whole_game_through_a_server_restart(
    browser: Browser, server: ServeProcess, game: str
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    ann_context, bob_context, eve_context = (browser.new_context() for _ in range(3))
    for context in (ann_context, bob_context, eve_context):
        # CI runs this beside the compiled kernels and the training run on 2 cores: a page
        # may take well over Playwright's 30 s to load and join when both are busy.
        context.set_default_timeout(STEP_TIMEOUT)
    ann, bob, eve = (c.new_page() for c in (ann_context, bob_context, eve_context))
    watchers = {name: Watcher(page) for name, page in (("ann", ann), ("bob", bob), ("eve", eve))}

    ann.goto(server.url)
    ann.fill("#me-name", "Ann")
    ann.press("#me-name", "Tab")
    ann.select_option("#game", game)
    ann.select_option("#players", "2")
    ann.select_option("[data-seat='1']", "person")
    ann.click("button[type=submit]")
    ann.wait_for_url("**/t/**")
    invitation = ann.locator("#invitation-list a").first.get_attribute("href")
    assert invitation and "invite=" in invitation
    table = ann.url.rsplit("/", 1)[1]

    # Bob opens the invitation before he has given a name: the page asks for one and seats
    # him as soon as he types it.
    bob.goto(invitation)
    watchers["bob"].wait(bob, "() => $('name-ask').textContent.includes('type your name')")
    assert page_view(bob) is not None and bob.evaluate("view.you") is None
    bob.fill("#me-name", "Bob")
    bob.press("#me-name", "Tab")
    watchers["bob"].wait(bob, "() => view && view.you === 1 && view.status === 'running'")
    assert bob.evaluate("view.seats[1].name") == "Bob"
    eve.goto(f"{server.url}/t/{table}")
    watchers["eve"].wait(eve, "() => view && view.you === null")
    if game == "queendomino":
        # The pile lies face up: every page, a spectator's too, shows the next building.
        top = eve.evaluate("view.model.top.building")
        tile = Queendomino({"players": 2}).table[top].tile
        assert f"Next: {tile}" in eve.inner_text(".kk-pile-top")

    played, restarted = 0, False
    screenshots = 0
    while True:
        moved = False
        for page in (ann, bob):
            if play_one(page, server, table):
                played += 1
                moved = True
                if played in (4, 40):
                    page.screenshot(
                        path=str(ARTIFACTS / f"{game}-{screenshots}.png"), full_page=True
                    )
                    screenshots += 1
        if not restarted and played >= RESTART_AFTER:
            before = httpx2.get(f"{server.url}/api/tables/{table}").json()["decisions"]
            server.kill()
            server.start()
            restarted = True
            after = httpx2.get(f"{server.url}/api/tables/{table}").json()["decisions"]
            assert after == before  # nothing committed was lost
            for name, page in (("ann", ann), ("bob", bob), ("eve", eve)):
                # the pages reconnect by themselves
                watchers[name].wait(page, "d => view && view.decisions >= d", after)
        states = [page_view(page) for page in (ann, bob)]
        if all(s is not None and s["status"] == "finished" for s in states):
            break
        if not moved:
            time.sleep(0.05)
    assert restarted
    watchers["eve"].wait(eve, "() => view && view.status === 'finished'")
    for page in (ann, bob, eve):
        assert "The game is over" in page.inner_text("#turn")
    ann.screenshot(path=str(ARTIFACTS / f"{game}-end.png"), full_page=True)
    record = httpx2.get(f"{server.url}/api/tables/{table}/record").json()
    assert record["game"] == game and record["seed"] is None

    assert_no_secret(watchers["ann"].views, 0)
    assert_no_secret(watchers["bob"].views, 1)
    assert_no_secret(watchers["eve"].views, None)
    for name, watcher in watchers.items():
        assert not watcher.errors, f"{name}'s page had JavaScript errors: {watcher.errors}"
    for context in (ann_context, bob_context, eve_context):
        context.close()


def test_a_name_typed_before_the_page_knows_you_is_kept(
    browser: Browser, server: ServeProcess
) -> None:
    """The page asks the server who you are (GET /api/me) as it opens; a name typed before
    the answer comes is neither wiped by it nor left unsaved."""
    context = browser.new_context()
    context.set_default_timeout(STEP_TIMEOUT)
    page = context.new_page()
    held: list[Route] = []

    def hold_who_am_i(route: Route) -> None:
        if route.request.method == "GET":
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/me", hold_who_am_i)
    page.goto(server.url)
    with page.expect_response(lambda r: r.url.endswith("/api/me") and r.request.method == "POST"):
        page.fill("#me-name", "Cleo")
        page.press("#me-name", "Tab")
    assert len(held) == 1, "the page's question was not held back"
    held[0].continue_()
    page.wait_for_function("() => $('game').options.length > 0")  # the lobby has opened
    assert page.input_value("#me-name") == "Cleo"
    cookies = {c["name"]: c["value"] for c in context.cookies()}
    saved = httpx2.get(f"{server.url}/api/me", cookies=cookies).json()
    assert saved["name"] == "Cleo"
    context.close()
