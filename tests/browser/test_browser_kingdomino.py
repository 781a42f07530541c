"""Kingdomino's board in a real browser (Playwright, Debian's chromium), against bots: whole
games played by clicking (or tapping) the board itself, never the move list, at desktop and
phone size. Checked on the way: the kingdom keeps its frame (the castle does not move inside
it, the squares do not shrink), the just-placed mark is on the latest domino placed, a bot's
move is animated and a click during the animation is not lost, a whole placement by keyboard
only (arrow keys in space order, Enter) with the focus visible and kept in the board, prompts
that name keys only when a keyboard is used, and no console error.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import test_browser
from playwright.sync_api import Browser, Locator, Page, ViewportSize

from serving import ServeProcess

browser, server = test_browser.browser, test_browser.server  # the shared fixtures

STEP_TIMEOUT = 60_000  # ms for the page to show the next version
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


class Errors:
    """JavaScript errors and console errors of a page."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("pageerror", lambda error: self.seen.append(f"page error: {error}"))
        page.on(
            "console",
            lambda m: self.seen.append(f"console: {m.text}") if m.type == "error" else None,
        )


def open_game(page: Page, server: ServeProcess, players: int) -> None:
    """Ann creates a table against easy bots and opens it."""
    page.goto(server.url)
    body = {
        "game": "kingdomino",
        "name": "Ann",
        "options": {"players": players},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1),
    }
    made = page.evaluate(
        """async (body) => {
            const r = await fetch('/api/tables', {method: 'POST',
              headers: {'content-type': 'application/json'}, body: JSON.stringify(body)});
            return [r.status, await r.text()];
        }""",
        body,
    )
    assert made[0] == 201, made
    page.goto(f"{server.url}/t/{json.loads(made[1])['table']}")


def wait_turn(page: Page) -> bool:
    """Wait until it is Ann's turn (True) or the game is over (False)."""
    page.wait_for_function(
        "() => view && (view.legal.length > 0 || view.status !== 'running')", timeout=STEP_TIMEOUT
    )
    return bool(page.evaluate("() => view.legal.length > 0"))


def model(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("() => view.model")
    return found


def frame_of_mine(page: Page) -> dict[str, float]:
    """Ann's kingdom drawing: its size, and where the castle is inside it and how big."""
    found: dict[str, float] = page.evaluate(
        """() => {
            const card = document.querySelector('#drawn .kk-card.kk-mine');
            const drawing = card.querySelector('svg.kk-kingdom').getBoundingClientRect();
            const castle = card.querySelector('.kk-castle').getBoundingClientRect();
            return {width: drawing.width, castle_x: castle.left - drawing.left,
                    castle_y: castle.top - drawing.top, square: castle.width};
        }"""
    )
    return {k: round(v, 1) for k, v in found.items()}


def check_just_placed(page: Page) -> None:
    """The ring is on the latest domino placed (the model's `last`), and only there."""
    last = model(page)["last"]
    rings = page.locator("#drawn .kk-recent")
    if not last or not last["placed"]:
        return
    assert rings.count() == 1
    inside = page.evaluate(
        """(last) => {
            const piece = document.querySelector(
              `#drawn [data-piece="${last.player}:${last.placed.domino}"]`);
            const ring = document.querySelector('#drawn .kk-recent');
            if (!piece || !ring || piece.ownerSVGElement !== ring.ownerSVGElement) return false;
            // In the drawing's own units: an animation may be moving the piece on screen.
            const p = piece.getBBox(), r = ring.getBBox();
            return r.x <= p.x && r.y <= p.y && r.x + r.width >= p.x + p.width &&
              r.y + r.height >= p.y + p.height;
        }""",
        last,
    )
    assert inside, f"the just-placed ring is not on domino {last['placed']['domino']}"


def play_one_by_pointer(page: Page, touch: bool) -> None:
    """Ann's decision, made on the board: claim the first free domino, or choose the first
    highlighted square, then the domino shown there."""
    version = page.evaluate("() => view.version")

    def press(where: Locator) -> None:
        if touch:
            where.tap()
        else:
            where.click()

    claim = page.locator('#drawn [data-line^="line:"].kk-hot')
    if claim.count():
        press(claim.first)
    else:
        target = page.locator("#drawn .kk-target > rect")
        if target.count():
            press(target.first)
            press(page.locator("#drawn .kk-ghost").first)
        else:
            page.locator("#board-tools .kk-danger").click()  # it fits nowhere: discard
    page.wait_for_function("v => view.version > v", arg=version, timeout=STEP_TIMEOUT)


def play_a_game(page: Page, touch: bool) -> int:
    """Play to the end by the board; check the frame, the mark and the prompts on the way."""
    frames = []
    decisions = 0
    while wait_turn(page):
        check_just_placed(page)
        prompt = page.inner_text("#prompt")
        if touch:
            assert not any(key in prompt for key in ("Enter", "Tab", "(R)", "Esc", "arrow"))
        frames.append(frame_of_mine(page))
        count = page.inner_text("#dominoes-count")
        assert count == f"{model(page)['to_come']} to come"
        play_one_by_pointer(page, touch)
        decisions += 1
    assert page.evaluate("() => view.status") == "finished"
    assert len({json.dumps(f, sort_keys=True) for f in frames}) == 1, frames
    return decisions


@pytest.mark.parametrize(
    ("players", "viewport", "touch"),
    [(2, DESKTOP, False), (4, PHONE, True), (2, PHONE, True), (4, DESKTOP, False)],
    ids=["2p-1280", "4p-390", "2p-390", "4p-1280"],
)
def test_a_game_against_bots_played_on_the_board(
    browser: Browser, server: ServeProcess, players: int, viewport: ViewportSize, touch: bool
) -> None:
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    errors = Errors(page)
    open_game(page, server, players)
    decisions = play_a_game(page, touch)
    assert decisions == 24  # 12 dominoes each, claimed then placed
    assert page.locator("#drawn .kk-kingdom").count() == players
    points = page.locator('#drawn [title="points as things stand"]').all_inner_texts()
    totals = sorted(score["total"] for score in model(page)["scores"])
    assert sorted(points) == sorted(f"{t} point" if t == 1 else f"{t} points" for t in totals)
    assert not errors.seen, errors.seen
    context.close()


ANIMATING = """() => document.getAnimations().some((a) => a.playState === 'running' &&
    a.effect && a.effect.target && a.effect.target.closest &&
    a.effect.target.closest('#drawn [data-piece], #drawn [data-king]'))"""
FILM = """() => document.getAnimations().filter((a) => a.playState === 'running' &&
    a.effect && a.effect.target && a.effect.target.closest &&
    a.effect.target.closest('#drawn [data-piece], #drawn [data-king]'))"""


def test_a_bots_move_is_animated_and_a_click_meanwhile_is_kept(
    browser: Browser, server: ServeProcess
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = Errors(page)
    open_game(page, server, 2)
    caught = False
    while not caught and wait_turn(page):
        # Ann moves; the bot answers; catch its animation while it is Ann's turn again.
        version = page.evaluate("() => view.version")
        play_one_by_pointer(page, touch=False)
        # The bot's answer animates; with two kings Ann may also simply play again.
        either = (
            f"v => view.status !== 'running' || ({ANIMATING[6:]}) || "
            "(view.version > v && view.legal.length > 0)"
        )
        page.wait_for_function(either, arg=version, polling="raf", timeout=STEP_TIMEOUT)
        if not page.evaluate(ANIMATING) or not page.evaluate("() => view.legal.length > 0"):
            continue
        version = page.evaluate("() => view.version")
        # The film running now (a move arriving after the click may start one of its own).
        page.evaluate(f"() => {{ window.filmed = ({FILM})(); }}")
        claim = page.locator('#drawn [data-line^="line:"].kk-hot')
        if claim.count():
            claim.first.click()
            page.wait_for_function("v => view.version > v", arg=version, timeout=STEP_TIMEOUT)
        else:
            page.locator("#drawn .kk-target > rect").first.click()
            assert page.locator("#drawn .kk-ghost").count() == 1  # the choice was taken
        # and the click ended the film
        assert page.evaluate("() => window.filmed.every((a) => a.playState !== 'running')")
        caught = True
    assert caught, "no animation was seen while it was Ann's turn"
    assert not errors.seen, errors.seen


FOCUSED = "() => [document.activeElement.dataset.x, document.activeElement.dataset.y]"


def test_a_placement_by_keyboard_only(browser: Browser, server: ServeProcess) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = Errors(page)
    open_game(page, server, 2)
    # Claims by the board until Ann has a domino to place.
    while wait_turn(page) and not page.locator("#drawn .kk-target").count():
        play_one_by_pointer(page, touch=False)
    page.keyboard.press("Tab")  # the keyboard is in use from here
    for _ in range(80):
        if page.evaluate("() => Boolean(document.activeElement.closest('.kk-target'))"):
            break
        page.keyboard.press("Tab")
    at = page.evaluate(FOCUSED)
    assert at[0] is not None, "Tab never reached a square of the kingdom"
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.wait_for_function(
        "() => document.querySelector('#prompt').textContent.includes('Enter')", timeout=5000
    )
    # Arrow keys go in space order: each step to a square further that way.
    targets = page.evaluate(
        "() => [...document.querySelectorAll('#drawn .kk-target')]"
        ".map((n) => [+n.dataset.x, +n.dataset.y])"
    )
    steps = (("ArrowRight", 0, 1), ("ArrowLeft", 0, -1), ("ArrowDown", 1, 1), ("ArrowUp", 1, -1))
    for key, axis, sign in steps:
        before = [int(v) for v in at]
        further = [t for t in targets if (t[axis] - before[axis]) * sign > 0]
        page.keyboard.press(key)
        at = page.evaluate(FOCUSED)
        now = [int(v) for v in at]
        if further:
            assert (now[axis] - before[axis]) * sign > 0, (key, before, now)
        else:
            assert now == before
    version = page.evaluate("() => view.version")
    page.keyboard.press("Enter")  # choose this square for square 1
    page.wait_for_function("() => document.querySelector('#drawn .kk-ghost') !== null")
    page.keyboard.press("Enter")  # place it
    page.wait_for_function("v => view.version > v", arg=version, timeout=STEP_TIMEOUT)
    in_board = "() => document.activeElement.closest('#drawn') !== null"
    page.wait_for_function(in_board, timeout=STEP_TIMEOUT)
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    assert not errors.seen, errors.seen
