"""Queendomino in a real browser, played by pointing at the board (Playwright, Debian's
chromium, a real `kingdomkit serve`): a whole 2-player game against a bot and the first
rounds of a 4-player table, every decision made by clicking the drawn board (claims,
placements, knights, buildings and their squares, passes). The board reads only the view
model; buildings whose effects the table lacks carry one explained mark each and no page
says "(unverified)"; no console error. Screenshots at 1280x800 and 390x844 go to
artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from test_browser import ARTIFACTS, STEP_TIMEOUT, browser, server  # noqa: F401

from kingdomkit.games.queendomino.rules import Queendomino
from serving import ServeProcess

UNVERIFIED = {b.tile for b in Queendomino({"players": 2}).table.unverified}


class Errors:
    """Every JavaScript error and console error of a page."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("pageerror", lambda error: self.seen.append(str(error)))
        page.on(
            "console",
            lambda message: self.seen.append(message.text) if message.type == "error" else None,
        )


def open_table(
    browser: Browser,  # noqa: F811
    server: ServeProcess,  # noqa: F811
    players: int,
    size: tuple[int, int],
) -> tuple[Page, Errors]:
    """Ann's page at a new Queendomino table of `players`, the other seats easy bots."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(STEP_TIMEOUT)
    page = context.new_page()
    errors = Errors(page)
    page.goto(server.url)
    page.fill("#me-name", "Ann")
    page.press("#me-name", "Tab")
    page.select_option("#game", "queendomino")
    page.select_option("#players", str(players))
    for seat in range(1, players):
        page.select_option(f"[data-seat='{seat}']", "bot: easy")
    page.click("button[type=submit]")
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => view && view.status === 'running'")
    return page, errors


def model(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        "() => ({phase: view.model.phase, version: view.version, status: view.status,"
        " mine: view.legal.length > 0, kinds: view.legal.map((a) => a.move.kind)})"
    )
    return found


def wait_for_my_turn(page: Page) -> dict[str, Any]:
    page.wait_for_function("() => view && (view.legal.length > 0 || view.status === 'finished')")
    return model(page)


def click(page: Page, selector: str) -> None:
    page.locator(selector).first.click()


def play_by_pointing(page: Page, seen: dict[str, Any]) -> str:
    """Make the decision due on Ann's page by clicking the board (or its tools); wait for the
    next version. Returns what was done."""
    phase, version = seen["phase"], seen["version"]
    did = str(phase)
    if phase == "claim":
        click(page, "[data-key^='claim:']")
    elif phase == "place":
        if page.locator(".kk-target").count():
            click(page, ".kk-target > rect")  # the square itself, not its preview
            click(page, "[data-key='ghost']")
        else:
            page.locator("#board-tools").get_by_role("button", name="Discard domino").click()
            did = "discard"
    elif phase == "tax":
        click(page, "[data-key^='tax:'] > rect")
    elif phase == "build":
        if "build" in seen["kinds"] and page.locator("#drawn [data-key^='bb:']").count():
            click(page, "#drawn [data-key^='bb:']")
            page.wait_for_selector("[data-key^='site:']")
            # The building and then its square: the board plays the site step by itself.
            click(page, "[data-key^='site:'] > rect")
            page.wait_for_function(
                "v => view.version > v && view.model.phase !== 'site'", arg=version
            )
            did = "build and site"
        else:
            click(page, "[data-key='tool:pass']")
            did = "pass build"
    elif phase == "site":
        click(page, "[data-key^='site:'] > rect")
    elif phase == "dragon":
        click(page, "[data-key='tool:pass']")
    else:
        raise AssertionError(f"nothing to click in the {phase} phase")
    page.wait_for_function("v => view.version > v", arg=version)
    return did


def check_unknown_marks(page: Page) -> None:
    """One mark per unverified building on the Builders' Board, each explaining itself."""
    board = page.evaluate(
        "() => view.model.builders_board.filter((s) => s.tile).map((s) => s.tile)"
    )
    marks = page.locator("#drawn [data-unknown]")
    tiles = [marks.nth(i).get_attribute("data-unknown") or "" for i in range(marks.count())]
    assert sorted(tiles) == sorted(t for t in board if t in UNVERIFIED)
    for i in range(marks.count()):
        label = marks.nth(i).get_attribute("aria-label") or ""
        assert "not in the" in label and "--buildings FILE" in label, label


def test_a_game_against_a_bot_played_on_the_board(
    browser: Browser,  # noqa: F811
    server: ServeProcess,  # noqa: F811
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page, errors = open_table(browser, server, 2, (1280, 800))
    done: set[str] = set()
    marks_checked = explained = False
    while True:
        seen = wait_for_my_turn(page)
        if seen["status"] == "finished":
            break
        if not marks_checked and page.locator("#drawn [data-unknown]").count():
            check_unknown_marks(page)
            marks_checked = True
        if marks_checked and not explained and seen["phase"] == "place":
            # A tap on a mark explains it under the board; OK closes the note.
            click(page, "#drawn [data-unknown]")
            note = page.locator(".kk-unknown-note")
            assert "count" in note.inner_text() and "--buildings FILE" in note.inner_text()
            page.locator("[data-key='tool:explained']").click()
            assert page.locator(".kk-unknown-note").count() == 0
            explained = True
        if "bb" not in done and seen["phase"] == "build":
            page.screenshot(path=str(ARTIFACTS / "queendomino-board-build-1280.png"))
            done.add("bb")
        done.add(play_by_pointing(page, seen))
    assert {"claim", "place"} <= done and marks_checked and explained
    assert done & {"tax", "build and site", "site"}, done
    page.wait_for_selector(".scorepad")
    text = page.inner_text("body")
    assert "(unverified)" not in text
    pads = page.evaluate("() => view.result.breakdown.flatMap((pad) => pad.buildings)")
    unknown = [b for b in pads if not b["verified"]]
    assert page.locator(".scorepad .unknown-mark").count() == len(unknown)
    if unknown:
        mark = page.locator(".scorepad .unknown-mark").first
        mark.click()
        assert "--buildings FILE" in page.locator(".scorepad .unknown-note").first.inner_text()
    page.screenshot(path=str(ARTIFACTS / "queendomino-end-1280.png"), full_page=True)
    assert not errors.seen, errors.seen


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_four_player_table_first_rounds(
    browser: Browser,  # noqa: F811
    server: ServeProcess,  # noqa: F811
    size: tuple[int, int],
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page, errors = open_table(browser, server, 4, size)
    placed = 0
    while placed < 2:
        seen = wait_for_my_turn(page)
        if seen["phase"] == "place":
            placed += 1
        play_by_pointing(page, seen)
    seen = wait_for_my_turn(page)
    assert page.locator("#drawn .kk-card").count() == 4
    assert page.locator("#drawn .kk-kingdom").count() == 4
    pieces = page.evaluate("() => view.model.realms.map((r) => r.kingdom.pieces.length)")
    assert pieces[0] == 2 and all(n >= 1 for n in pieces), pieces
    assert "(unverified)" not in page.inner_text("body")
    check_unknown_marks(page)
    page.screenshot(path=str(ARTIFACTS / f"queendomino-4p-{size[0]}.png"))
    assert not errors.seen, errors.seen
