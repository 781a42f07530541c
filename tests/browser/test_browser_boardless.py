"""A game with no board (Domino Duel, tests/plugins, installed for its own `kingdomkit serve`
through its entry point) is played whole in chromium against a bot, on the text board: the moves are
buttons in its notation, there is nothing to draw and no way to switch to a drawing, and the
page has no JavaScript or console error."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest
import test_browser
from playwright.sync_api import Browser
from test_browser_table import Person

from paths import with_plugins
from serving import ServeProcess

browser = test_browser.browser  # the shared fixture: one chromium per module
MOVES = 20  # more than a game of Domino Duel has decisions (8)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = ServeProcess(tmp_path_factory.mktemp("serve"), env={"PYTHONPATH": with_plugins()})
    process.start()
    yield process
    process.stop()


def test_a_whole_game_on_the_text_board(browser: Browser, server: ServeProcess) -> None:
    games = [g["game"] for g in httpx2.get(f"{server.url}/api/games").json()]
    assert "dominoduel" in games
    ann = Person(browser)
    made = ann.new_table(
        server, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], game="dominoduel"
    )
    table, page = made["table"], ann.page
    for _ in range(MOVES):
        ann.wait("() => view.status === 'finished' || view.legal.length > 0")
        if page.evaluate("view.status") == "finished":
            break
        assert page.evaluate("view.model") == {"version": 0}
        assert page.locator("#board").is_visible() and page.locator("#drawn").is_hidden()
        assert page.locator("#text-toggle").is_hidden()
        assert page.inner_text("#board") == page.evaluate("view.board")
        labels = page.evaluate("view.legal.map(a => [a.label, a.notation])")
        assert all(label == notation for label, notation in labels)
        buttons = page.locator("#legal button").all_inner_texts()
        assert buttons == [label for label, _ in labels]
        version = page.evaluate("view.version")
        page.locator("#legal button").first.click()
        ann.wait("v => view.version > v", version)
    assert page.evaluate("view.status") == "finished"
    finished = httpx2.get(f"{server.url}/api/tables/{table}").json()
    assert finished["result"]["scores"] and finished["model"] == {"version": 0}
    assert ann.errors == []
    ann.close()
