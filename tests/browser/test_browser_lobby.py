"""The lobby and the table around the game in a real browser (Playwright, Debian's chromium,
against `kingdomkit serve` in its own process): one click starts a game against a bot, a
set-up the game refuses is disabled with its reason, and after a game two people take up a
rematch, one proposing it, the other joining from the link on their finished table. No page
logs an error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import test_browser
from playwright.sync_api import Browser, Page

from serving import ServeProcess

browser = test_browser.browser  # the shared fixture: one chromium per module

TIMEOUT = 60_000  # ms: a ceiling against hanging on a busy machine, not a measure
PLAY_FIRST = """async () => {
  const seen = await api("GET", `/api/tables/${tableId}`);
  if (seen.status === "finished") return "finished";
  if (!seen.legal.length) return "waiting";
  const move = {action: seen.legal[0].id, version: seen.version};
  await api("POST", `/api/tables/${tableId}/actions`, move);
  return "played";
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = ServeProcess(tmp_path_factory.mktemp("lobby"))
    process.start()
    yield process
    process.stop()


class Person:
    """A browser context of its own (its own cookie), whose page's errors are collected."""

    def __init__(self, browser: Browser, server: ServeProcess, name: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.context.set_default_timeout(TIMEOUT)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        self.page.goto(server.url)
        self.page.wait_for_function("() => $('game').options.length > 0")
        with self.page.expect_response(lambda r: r.url.endswith("/api/me")):
            self.page.fill("#me-name", name)
            self.page.press("#me-name", "Tab")

    def wait(self, expression: str, arg: object = None) -> None:
        self.page.wait_for_function(expression, arg=arg, timeout=TIMEOUT)

    def close(self) -> None:
        assert self.errors == []
        self.context.close()


def test_one_click_starts_a_running_game_against_a_bot(
    browser: Browser, server: ServeProcess
) -> None:
    ann = Person(browser, server, "Ann")
    ann.page.get_by_role("button", name="Play Kingdomino against a bot").click()
    ann.page.wait_for_url("**/t/**")
    ann.wait(
        "() => view && view.status === 'running' && view.you === 0"
        " && view.seats[1].kind === 'bot' && view.seats[1].name === 'medium'"
    )
    assert ann.page.inner_text("#title").startswith("Kingdomino")
    ann.wait("() => view.legal.length > 0")  # the bot has moved, if it was first
    table = ann.page.url.rsplit("/", 1)[1]
    ann.page.goto(server.url)
    mine = ann.page.locator(f"#my-tables li[data-table='{table}']")
    mine.wait_for()
    assert "your turn" in mine.inner_text()
    assert ann.page.locator("#my-tables li").first.get_attribute("data-table") == table
    ann.close()


def test_a_set_up_the_game_refuses_is_disabled_with_its_reason(
    browser: Browser, server: ServeProcess
) -> None:
    ann = Person(browser, server, "Ann")
    page = ann.page
    duel = page.locator("[data-option='mighty_duel']")
    page.select_option("#players", "3")
    assert duel.is_disabled()
    label = page.locator("label.variant", has=duel)
    assert "Mighty Duel is for 2 players." in label.inner_text()
    page.select_option("#players", "2")
    assert duel.is_enabled() and "is for" not in label.inner_text()
    duel.check()
    assert page.locator("#players option[value='3']").is_disabled()
    assert "Mighty Duel is for 2 players." in page.inner_text("#players-note")

    page.select_option("#game", "queendomino")
    teams = page.locator("[data-option='teams']")
    assert teams.is_disabled()
    reason = page.locator("label.variant", has=teams).inner_text()
    assert "choose the Royal Wedding too" in reason and "royal_wedding" not in reason
    assert page.locator("#players option[value='6']").is_disabled()
    page.locator("[data-option='royal_wedding']").check()
    page.select_option("#players", "6")
    assert teams.is_enabled()
    wedding = page.locator("[data-option='royal_wedding']")
    assert wedding.is_disabled()  # 6 players play only the Royal Wedding
    page.screenshot(path=str(Path(server.data) / "form.png"))
    ann.close()


def finish(people: list[Person]) -> None:
    """Everyone plays their first legal move, in turn, until the game is over."""
    while True:
        states = [person.page.evaluate(PLAY_FIRST) for person in people]
        if "finished" in states:
            return


def test_two_people_finish_then_take_up_a_rematch_from_the_finished_table(
    browser: Browser, server: ServeProcess
) -> None:
    ann, bob = Person(browser, server, "Ann"), Person(browser, server, "Bob")
    ann.page.select_option("#game", "kingdomino")
    ann.page.select_option("#players", "2")
    ann.page.select_option("[data-seat='1']", "person")
    ann.page.click("#new-table button[type=submit]")
    ann.page.wait_for_url("**/t/**")
    invitation = ann.page.locator("#invitation-list a").first.get_attribute("href")
    assert invitation
    bob.page.goto(invitation)
    bob.wait("() => view && view.you === 1 && view.status === 'running'")
    old = ann.page.url.rsplit("/", 1)[1]

    finish([ann, bob])
    for person in (ann, bob):
        person.wait("() => view.status === 'finished' && $('after-game') !== null")
        assert person.page.get_by_role("link", name="Back to the lobby").is_visible()
    ann.page.get_by_role("button", name="Rematch").click()
    ann.page.wait_for_url(lambda url: old not in url)
    new = ann.page.url.rsplit("/", 1)[1]
    ann.wait("(t) => view && view.table === t && view.you === 0", new)
    # (the turn line is written once the new table's components are in: wait for it)
    ann.wait("() => $('turn').textContent.includes('Waiting for Bob to join the rematch')")

    cyd = Person(browser, server, "Cyd")  # a passer-by is not offered Bob's kept seat
    cyd.page.goto(f"{server.url}/t/{new}")
    cyd.wait("() => view && view.status === 'open' && view.seats[1].kept")
    assert cyd.page.locator("#seat-list button").count() == 0
    cyd.close()

    offer = bob.page.locator(".rematch-offer")
    offer.wait_for()
    assert "Ann proposes a rematch" in offer.inner_text()
    offer.get_by_role("button", name="Join").click()
    bob.page.wait_for_url(f"**/t/{new}")
    bob.wait("() => view && view.you === 1 && view.status === 'running'")
    ann.wait("() => view.status === 'running'")
    assert ann.page.evaluate("view.seats.map(s => s.name)") == ["Ann", "Bob"]

    ann.page.goto(server.url)  # the lobby lists the finished game with its scores
    row = ann.page.locator(f"#finished-tables li[data-table='{old}']")
    row.wait_for()
    assert "Ann" in row.inner_text() and "Bob" in row.inner_text() and "today" in row.inner_text()
    ann.close()
    bob.close()
