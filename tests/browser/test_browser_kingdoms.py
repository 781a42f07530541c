"""Kingdoms in a real browser (Playwright driving Debian's chromium against `kingdomkit
serve`): a 2-player game against a bot played to its end by clicking the board, one placement
made with the keyboard alone, the score sheet of each epoch shown when it ends with the gold
each player gained, and reachable again from the log; the opponents' moves animated (and not
with reduced motion); a 4-player table's layout at desktop and phone sizes; no console error.
Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import test_browser
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize
from test_browser import ARTIFACTS, STEP_TIMEOUT

from serving import ServeProcess

browser = test_browser.browser  # the fixtures: one chromium for the module, a fresh server
server = test_browser.server

DESKTOP = ViewportSize(width=1280, height=800)
PHONE = ViewportSize(width=390, height=844)
MINUS = "\u2212"  # how the sheet writes a loss
SIGNED = re.compile(rf"^[+{MINUS}]?\d+$")

# Counts the slides the board starts (element.animate), so a test can tell that opponents'
# moves are animated without timing them, and can hold them mid-way.
COUNT_SLIDES = """
window.__slides = 0;
window.__held = [];  // while window.__hold, each new slide is paused where it starts
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__slides += 1;
  const made = animate.apply(this, args);
  if (window.__hold) { made.pause(); window.__held.push(made); }
  return made;
};
"""


class Errors:
    """Every page error and console error of a page."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("pageerror", lambda error: self.seen.append(f"pageerror: {error}"))
        page.on(
            "console",
            lambda m: self.seen.append(f"console: {m.text}") if m.type == "error" else None,
        )


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=DESKTOP)
    made.set_default_timeout(STEP_TIMEOUT)
    made.add_init_script(COUNT_SLIDES)
    yield made
    made.close()


def new_table(page: Page, server: ServeProcess, players: int) -> None:
    page.goto(server.url)
    page.fill("#me-name", "Ann")
    page.press("#me-name", "Tab")
    page.select_option("#game", "kingdoms")
    page.select_option("#players", str(players))
    for seat in range(1, players):
        page.select_option(f"[data-seat='{seat}']", "bot: easy")
    page.click("button[type=submit]")
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => view && view.model && document.querySelector('.kk-kingdoms')")


def wait_turn(page: Page) -> dict[str, Any]:
    """Wait for our turn or the end; what the page's model says then."""
    page.wait_for_function(
        "() => view && (view.status === 'finished' || (view.legal.length && view.model))"
    )
    state: dict[str, Any] = page.evaluate(
        "() => ({status: view.status, version: view.version, model: view.model, "
        "moves: view.legal.map(a => a.move)})"
    )
    return state


def sheet_totals(page: Page) -> list[int]:
    cells = page.locator(".kk-sheet tfoot tr.total td").all_inner_texts()
    assert all(SIGNED.match(c) for c in cells), cells
    return [int(c.replace(MINUS, "-")) for c in cells]


def place_by_keyboard(page: Page) -> int:
    """A rank-1 castle placed with keys only: 1 chooses it, Tab reaches the board, the
    arrows walk to a free space, Enter places it. Returns the space."""
    page.keyboard.press("1")
    page.wait_for_selector(".kk-space-hot")
    for _ in range(80):
        key = page.evaluate("() => document.activeElement.dataset.key || ''")
        if key.startswith("space:"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the board")
    for _ in range(30):
        hot = page.evaluate("() => document.activeElement.classList.contains('kk-space-hot')")
        if hot:
            break
        page.keyboard.press("ArrowRight")
    space = int(page.evaluate("() => document.activeElement.dataset.key").split(":")[1])
    version = page.evaluate("view.version")
    page.keyboard.press("Enter")
    page.wait_for_function("v => view.version > v", arg=version)
    return space


def play_by_clicking(page: Page, turn: dict[str, Any], number: int) -> None:
    kinds = {move["kind"] for move in turn["moves"]}
    version = turn["version"]
    if "tile" in kinds:  # the tile drawn: onto the first free space
        page.locator(".kk-space-hot").first.click()
    elif "castle" in kinds and number % 3:
        ranks = sorted({m["rank"] for m in turn["moves"] if m["kind"] == "castle"})
        page.click(f"[data-key='piece:castle:{ranks[number % len(ranks)]}']")
        free = page.locator(".kk-space-hot")
        free.nth(number % free.count()).click()
    elif "starting_tile" in kinds:
        page.click("[data-key='piece:start']")
        page.locator(".kk-space-hot").last.click()
    elif "draw" in kinds:
        page.click("[data-key='draw']")
    elif "castle" in kinds:
        page.click(
            "[data-key='piece:castle:1']"
            if any(m.get("rank") == 1 for m in turn["moves"])
            else "[data-key^='piece:castle']"
        )
        page.locator(".kk-space-hot").first.click()
    else:
        page.click("button:has-text('Pass')")
    page.wait_for_function("v => view.version > v", arg=version)


def test_a_game_against_a_bot_to_its_end_with_the_epoch_sheets(
    context: BrowserContext,
    server: ServeProcess,
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    errors = Errors(page)
    new_table(page, server, 2)

    turn = wait_turn(page)
    space = place_by_keyboard(page)
    model = page.evaluate("view.model")
    assert model["board"][space] == {"kind": "castle", "player": 0, "rank": 1, "strength": 1}
    assert page.evaluate("() => (document.activeElement.dataset.key || '')").startswith("space:")

    gold = [p["gold"] for p in model["players"]]
    scored = 0
    number = 0
    while True:
        turn = wait_turn(page)
        epochs = turn["model"]["epochs"]
        if len(epochs) > scored:
            # An epoch has just ended: its sheet is open above the board with what each
            # player gained, and the board shows the next epoch's (or the game's end).
            sheet = epochs[-1]
            page.wait_for_selector(".kk-sheet")
            heading = page.inner_text(".kk-sheet h4")
            assert heading == f"Score of epoch {sheet['epoch']}"
            now = [p["gold"] for p in turn["model"]["players"]]
            gained = [a - b for a, b in zip(now, gold, strict=True)]
            assert sheet_totals(page) == gained
            assert sheet["gold"] == gained and sheet["before"] == gold
            assert page.locator(".kk-sheet tbody tr").count() == 11
            if scored == 0:
                page.screenshot(path=str(ARTIFACTS / "kingdoms-sheet-1280.png"))
            # It stays until closed, and the log's button opens it again.
            page.click(".kk-sheet-close")
            assert page.locator(".kk-sheet").count() == 0
            button = page.locator(
                f"#epoch-links button:has-text('Score of epoch {sheet['epoch']}')"
            )
            button.click()
            assert sheet_totals(page) == gained
            page.click(".kk-sheet-close")
            gold, scored = now, len(epochs)
        if turn["status"] == "finished":
            break
        if number == 4:
            # An opponent's slide held mid-way blocks nothing: the next click plays, and
            # ends the slide.
            slides = page.evaluate("() => { window.__hold = true; return window.__slides; }")
            play_by_clicking(page, turn, number)
            number += 1
            page.wait_for_function("n => window.__slides > n", arg=slides)
            page.evaluate("() => { window.__hold = false; }")
            turn = wait_turn(page)
            held = "() => window.__held.map(a => a.playState)"
            assert "paused" in page.evaluate(held)
            if turn["status"] == "finished" or turn["model"]["epochs"]:
                continue
            play_by_clicking(page, turn, number)
            assert set(page.evaluate(held)) == {"finished"}
            number += 1
            continue
        play_by_clicking(page, turn, number)
        number += 1

    assert scored == 3
    assert page.locator("#epoch-links button").count() == 3
    assert page.evaluate("window.__slides") > 0  # the bot's moves slid in
    page.click("#epoch-links button:has-text('Score of epoch 2')")
    assert page.inner_text(".kk-sheet h4") == "Score of epoch 2"
    page.screenshot(path=str(ARTIFACTS / "kingdoms-end-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / "kingdoms-end-390.png"), full_page=True)
    assert not errors.seen, errors.seen


def test_a_four_player_table_fits_desktop_and_phone_without_motion(
    browser: Browser,
    server: ServeProcess,
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    made.set_default_timeout(STEP_TIMEOUT)
    made.add_init_script(COUNT_SLIDES)
    page = made.new_page()
    errors = Errors(page)
    new_table(page, server, 4)
    for number in range(3):
        play_by_clicking(page, wait_turn(page), number)
    wait_turn(page)
    for size, name in ((DESKTOP, "1280"), (PHONE, "390")):
        page.set_viewport_size(size)
        assert page.locator(".kk-kingdoms .kk-card").count() == 4
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= size["width"], f"the page is {wide} px wide at {name}"
        board = page.locator(".kk-kingdoms-board").bounding_box()
        assert board is not None and board["width"] <= size["width"]
        page.screenshot(path=str(ARTIFACTS / f"kingdoms-4p-{name}.png"), full_page=True)
    # The three bots have played between our moves: with reduced motion nothing slid.
    assert page.evaluate("view.decisions") >= 3 + 3
    assert page.evaluate("window.__slides") == 0
    assert not errors.seen, errors.seen
    made.close()
