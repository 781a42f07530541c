"""The log panel in a real browser (Playwright, chromium, `kingdomkit serve`): a spectator
who arrives late sees the whole game from move 1 in words, read page by page, scrolled to its
end; a reader who scrolled up keeps their place when moves arrive; one at the end follows."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import test_browser
from playwright.sync_api import Browser, Page

from serving import ServeProcess

browser = test_browser.browser  # the shared fixture: one chromium per module

PAGE = 20  # the server's log_page: the page must read several
AT_END = "() => { const l = $('log'); return l.scrollTop + l.clientHeight >= l.scrollHeight - 8; }"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    process = ServeProcess(tmp_path, args=["--limit-log-page", str(PAGE)])
    process.start()
    yield process
    process.stop()


def play_until(ann: httpx2.Client, table: str, decisions: int) -> dict[str, Any]:
    """Ann plays her first legal move whenever it is her turn (the bot answers) until the
    table has made `decisions` decisions."""
    deadline = time.monotonic() + 120
    while True:
        view: dict[str, Any] = ann.get(f"/api/tables/{table}").json()
        if view["decisions"] >= decisions or view["status"] == "finished":
            return view
        if view["legal"]:
            body = {"action": view["legal"][0]["id"], "version": view["version"]}
            ann.post(f"/api/tables/{table}/actions", json=body)
        assert time.monotonic() < deadline, "the game did not go on"
        time.sleep(0.02)


def shown(page: Page) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        "#log li", "items => items.map(i => i.textContent)"
    )
    return found


def test_the_log_scrolls_back_to_move_1(browser: Browser, server: ServeProcess) -> None:
    ann = httpx2.Client(base_url=server.url)
    made = ann.post(
        "/api/tables",
        json={
            "game": "kingdomino",
            "options": {"players": 2, "mighty_duel": True},  # 12 rounds: a long log
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "name": "Ann",
        },
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    view = play_until(ann, table, 3 * PAGE)
    assert view["log_start"] > 0  # the view alone does not hold the whole log

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_function(
        "n => document.querySelectorAll('#log li').length >= n", arg=view["decisions"]
    )
    log = ann.get(f"/api/tables/{table}/log?since=0&limit={PAGE}").json()["entries"]
    lines = shown(page)
    for line, entry in zip(lines, log, strict=False):  # from move 1, in words
        assert line == entry["text"] + "".join(entry.get("then", []))
    assert page.eval_on_selector("#log", "l => l.start") == 1
    assert lines[0].startswith(("Ann claimed domino", "easy (bot) claimed domino"))
    assert not any(re.search(r"-?\d+,-?\d+", line) for line in lines)
    page.wait_for_function(AT_END)

    # A reader who scrolled up keeps their place while moves arrive.
    page.eval_on_selector("#log", "l => { l.scrollTop = 40; }")
    before = page.eval_on_selector("#log", "l => l.scrollTop")
    count = len(lines)
    later = play_until(ann, table, view["decisions"] + 4)
    page.wait_for_function(
        "n => document.querySelectorAll('#log li').length >= n", arg=later["decisions"]
    )
    assert len(shown(page)) > count
    assert page.eval_on_selector("#log", "l => l.scrollTop") == before

    # One at the end follows the game.
    page.eval_on_selector("#log", "l => { l.scrollTop = l.scrollHeight; }")
    last = play_until(ann, table, later["decisions"] + 4)
    page.wait_for_function(
        "n => document.querySelectorAll('#log li').length >= n", arg=last["decisions"]
    )
    page.wait_for_function(AT_END)
    assert not errors, errors
    context.close()
