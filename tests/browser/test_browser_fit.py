"""At desktop size (1280x800) the kingdom being played fits on the screen with its prompt: in
2- and 4-player Queendomino and 4-player Kingdomino tables against bots, when it is Ann's turn
to place a domino, every highlighted square of her kingdom and the prompt lie inside the
viewport with the page scrolled to the top (no scrolling between the prompt and the board),
and the status header of a 4-player table takes no more than two lines. No console error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from test_browser import ARTIFACTS, STEP_TIMEOUT, browser, server  # noqa: F401
from test_browser_queendomino import Errors, play_by_pointing, wait_for_my_turn

from serving import ServeProcess

WIDTH, HEIGHT = 1280, 800
PLACEMENTS = 3  # placements of Ann checked per table, from the first on

# Where the prompt, the highlighted squares (each target's own square, not the preview shown
# on hover) and Ann's kingdom lie, the page scrolled to the top.
MEASURE = """() => {
  window.scrollTo(0, 0);
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return [r.top, r.bottom, r.left, r.right];
  };
  const mine = document.querySelector('#drawn .kk-card.kk-mine svg.kk-kingdom');
  const seats = [...document.querySelectorAll('#seat-list > li')]
    .map((li) => li.getBoundingClientRect().top);
  return {
    prompt: box(document.querySelector('#prompt')),
    targets: [...document.querySelectorAll('#drawn .kk-target > rect')].map(box),
    kingdom: mine ? box(mine) : null,
    title: box(document.querySelector('#title')),
    settings: box(document.querySelector('#table-settings')),
    seatLines: new Set(seats.map(Math.round)).size,
    version: view.version,
  };
}"""


def open_table(
    browser: Browser,  # noqa: F811
    server: ServeProcess,  # noqa: F811
    game: str,
    players: int,
) -> tuple[Page, Errors]:
    """Ann's page at a new table of `game` against easy bots, at 1280x800."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    context.set_default_timeout(STEP_TIMEOUT)
    page = context.new_page()
    errors = Errors(page)
    page.goto(server.url)
    body = {
        "game": game,
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
    return page, errors


def inside(box: list[float]) -> bool:
    top, bottom, left, right = box
    return top >= 0 and bottom <= HEIGHT and left >= 0 and right <= WIDTH


def check_fit(page: Page, players: int) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(MEASURE)
    lowest = max((box[1] for box in seen["targets"]), default=None)
    top, bottom = seen["kingdom"][:2]
    print(f"v{seen['version']}: kingdom {top:.0f}..{bottom:.0f}, lowest square at {lowest:.0f}")
    assert seen["targets"], "no highlighted square to place on"
    assert inside(seen["prompt"]), seen["prompt"]
    outside = [box for box in seen["targets"] if not inside(box)]
    assert not outside, f"highlighted squares off screen: {outside} (kingdom at {seen['kingdom']})"
    # The settings sit on the title's line, and the seats take one line (two at most).
    assert seen["settings"][0] < seen["title"][1], (seen["settings"], seen["title"])
    assert seen["seatLines"] <= (1 if players <= 2 else 2), seen["seatLines"]
    return seen


@pytest.mark.parametrize(
    ("game", "players"),
    [("queendomino", 2), ("queendomino", 4), ("kingdomino", 4)],
    ids=["queendomino-2p", "queendomino-4p", "kingdomino-4p"],
)
def test_the_kingdom_to_place_on_fits_the_screen(
    browser: Browser,  # noqa: F811
    server: ServeProcess,  # noqa: F811
    game: str,
    players: int,
) -> None:
    page, errors = open_table(browser, server, game, players)
    checked = 0
    while checked < PLACEMENTS:
        seen = wait_for_my_turn(page)
        assert seen["status"] != "finished"
        if seen["phase"] == "place" and page.locator("#drawn .kk-target").count():
            page.wait_for_timeout(600)  # a bot's move animated in has come to rest
            check_fit(page, players)
            checked += 1
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"fit-{game}-{players}p-{checked}.png"))
        play_by_pointing(page, seen)
    assert not errors.seen, errors.seen
