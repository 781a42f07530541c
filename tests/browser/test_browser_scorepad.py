"""The end-of-game score pad of each game, drawn by its board (boards/<game>.js `pad` and
`summary`, panels/scorepad.js the rest), for finished tables made from the example records:
Kingdomino's territories, a dynasty game by game, Queendomino's buildings and wealth,
Kingdoms' epoch sheets. No console error.
"""

from __future__ import annotations

import json

import httpx2
import pytest
import test_browser
from playwright.sync_api import Browser

from paths import EXAMPLES
from serving import ServeProcess

browser, server = test_browser.browser, test_browser.server  # the shared fixtures


def finished_table(server: ServeProcess, record: str) -> dict[str, object]:
    body = json.loads((EXAMPLES / record).read_text())
    made = httpx2.post(f"{server.url}/api/records", json=body)
    assert made.status_code == 201, made.text
    view: dict[str, object] = httpx2.get(f"{server.url}/api/tables/{made.json()['table']}").json()
    return view


@pytest.mark.parametrize(
    ("record", "rows"),
    [
        ("record-2p.json", ["Territories", "Total"]),
        (
            "queendomino-record-2p.json",
            ["Territories", "The Queen", "Buildings", "Wealth", "Total"],
        ),
    ],
)
def test_each_sides_pad_has_the_games_own_lines(
    browser: Browser, server: ServeProcess, record: str, rows: list[str]
) -> None:
    view = finished_table(server, record)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/t/{view['table']}")
    page.wait_for_selector(".scorepad .pad-card")
    cards = page.locator(".scorepad .pad-card")
    assert cards.count() == len(view["seats"])  # type: ignore[arg-type]
    first = cards.first.locator("tfoot th").all_inner_texts()
    assert [line for line in rows if any(text.startswith(line) for text in first)] == rows
    totals = [int(t) for t in page.locator(".scorepad .pad-card .pad-total").all_inner_texts()]
    assert totals == view["scores"]
    assert errors == []
    page.close()


def test_a_dynasty_is_told_game_by_game(browser: Browser, server: ServeProcess) -> None:
    view = finished_table(server, "record-dynasty.json")
    page = browser.new_page()
    page.goto(f"{server.url}/t/{view['table']}")
    page.wait_for_selector(".scorepad")
    assert "The dynasty, game by game" in page.inner_text(".scorepad")
    games = page.locator(".scorepad table.pad-wide tbody tr").all_inner_texts()
    assert [row.split("\t")[0] for row in games] == ["game 1", "game 2", "game 3"]
    total = page.locator(".scorepad table.pad-wide tfoot td").all_inner_texts()
    assert [int(t) for t in total] == view["scores"]
    page.close()


def test_kingdoms_shows_every_epochs_sheet(browser: Browser, server: ServeProcess) -> None:
    view = finished_table(server, "kingdoms-record-3p.json")
    page = browser.new_page()
    page.goto(f"{server.url}/t/{view['table']}")
    page.wait_for_selector(".scorepad .pad-sheets table")
    heads = page.locator(".scorepad .pad-sheets thead th:first-child").all_inner_texts()
    assert heads == ["Epoch 1", "Epoch 2", "Epoch 3"]
    last = page.locator(".scorepad .pad-sheets table").last.locator("tfoot td").all_inner_texts()
    assert [int(t) for t in last] == view["scores"]
    page.close()
