"""The table page around the board, in chromium against `kingdomkit serve`: two people and a
spectator chat both ways (the text shown as text, a person muted for one of them only), the tab
says whose turn it is, "confirm each move" asks before sending, an invitation seats you as you
type your name, a bot is offered for a person only once they have left, a phone shows the turn
and the kingdom on one screen, an unknown table says so, and a replay's header shows the
scores at the step shown. No page has a JavaScript or console error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
import test_browser
from playwright.sync_api import Browser, BrowserContext, Page

from paths import EXAMPLES
from serving import ServeProcess

browser = test_browser.browser  # the shared fixture: one chromium per module

TIMEOUT = 60_000  # ms: the machine may be busy
HINT_TIMEOUT = 300_000  # ms: a hint's 1,000 playouts, with the kernel's first compilation
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = ServeProcess(tmp_path_factory.mktemp("serve"))
    process.start()
    yield process
    process.stop()


class Person:
    """A browser page of its own (its own cookies), with its errors collected."""

    def __init__(self, browser: Browser, options: dict[str, Any] | None = None) -> None:
        self.context: BrowserContext = browser.new_context(**(options or DESKTOP))
        self.context.set_default_timeout(TIMEOUT)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} at {message.location.get('url')}")

    def wait(self, expression: str, arg: Any = None) -> None:
        self.page.wait_for_function(expression, arg=arg, timeout=TIMEOUT)

    def new_table(self, server: ServeProcess, seats: list[dict[str, str]], **more: Any) -> Any:
        """Create a table as the lobby does (the invitations kept for the table's page) and
        open it."""
        self.page.goto(server.url)
        body = {"game": "kingdomino", "seats": seats, "name": "Ann", **more}
        made = self.page.evaluate(
            """body => fetch('/api/tables', {method: 'POST', headers: {'Content-Type':
            'application/json'}, body: JSON.stringify(body)}).then(r => r.json())""",
            body,
        )
        self.page.evaluate(
            "m => sessionStorage.setItem('invitations:' + m.table, JSON.stringify(m.invitations))",
            made,
        )
        self.page.goto(f"{server.url}/t/{made['table']}")
        self.wait("() => typeof view !== 'undefined' && view !== null")
        return made

    def close(self) -> None:
        self.context.close()


def said(score: float) -> str:
    """A seat's score as the page writes it."""
    return f"{score:g} point" if score == 1 else f"{score:g} points"


def in_viewport(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1


def chat(person: Person, text: str) -> None:
    person.page.fill("#chat-text", text)
    person.page.click("#chat-send")


def chat_texts(person: Person) -> list[str]:
    texts: list[str] = person.page.eval_on_selector_all(
        "#chat-list .chat-text", "nodes => nodes.map(n => n.textContent)"
    )
    return texts


def test_two_people_and_a_spectator_at_a_table(browser: Browser, server: ServeProcess) -> None:
    ann, bob, eve = Person(browser), Person(browser), Person(browser)
    made = ann.new_table(server, [{"kind": "human"}, {"kind": "human"}])
    table = made["table"]

    # Waiting: who is missing, and nobody is shown playing yet.
    turn = ann.page.inner_text("#turn")
    assert "Waiting for someone to take seat 2" in turn and "invitation link" in turn
    assert ann.page.locator("#drawn .kk-turn-tag").count() == 0
    assert "is choosing" not in ann.page.inner_text("#prompt")

    # Bob opens his invitation: asked for a name beside the field, not by an error; seated
    # as he types it (no Enter, no leaving the field).
    invitation = f"{server.url}/t/{table}?invite={made['invitations'][0]['token']}"
    bob.page.goto(invitation)
    bob.wait("() => !$('name-ask').hidden")
    assert "type your name" in bob.page.inner_text("#name-ask")
    assert bob.page.locator("#error").is_hidden()
    bob.page.locator("#me-name").press_sequentially("Bob", delay=50)
    bob.wait("() => view && view.you === 1 && view.status === 'running'")
    assert bob.page.locator("#name-ask").is_hidden()

    # The tab's title says whose turn it is.
    ann.wait("() => view.status === 'running'")
    first, second = (ann, bob) if ann.page.evaluate("view.to_act") == 0 else (bob, ann)
    first.wait("() => document.title.startsWith('▶ Your turn')")
    assert first.page.title() == "▶ Your turn — Kingdomino"
    assert "Your turn" not in second.page.title()

    # Eve watches: she may chat once she has given a name.
    eve.page.goto(f"{server.url}/t/{table}")
    eve.wait("() => view && view.you === null")
    eve.wait("() => $('chat-text').disabled && !$('chat-note').hidden")
    eve.page.fill("#me-name", "Eve")
    eve.page.press("#me-name", "Tab")
    eve.wait("() => !$('chat-text').disabled")

    # Chat both ways; markup is shown as the text it is.
    markup = "<b>hi</b> Bob & <img src=x>"
    chat(ann, markup)
    for person in (bob, eve):
        person.wait(
            "t => [...document.querySelectorAll('.chat-text')].some(n => n.textContent === t)",
            markup,
        )
        assert person.page.locator("#chat-list b, #chat-list img").count() == 0
    chat(bob, "hello Ann")
    ann.wait("() => document.querySelectorAll('#chat-list .chat-item').length === 2")
    chat(eve, "good luck")
    for person in (ann, bob):
        person.wait("() => document.querySelectorAll('#chat-list .chat-item').length === 3")
    assert chat_texts(ann) == [markup, "hello Ann", "good luck"]
    assert (
        ann.page.locator("#chat-list .chat-item").nth(2).locator(".chat-tag").inner_text()
        == "watching"
    )

    # Ann mutes Eve: hidden for Ann (after a reload too), not for Bob.
    ann.page.locator("#chat-list .chat-item").nth(2).locator(".chat-mute").click()
    assert chat_texts(ann) == [markup, "hello Ann"]
    assert "Eve" in ann.page.inner_text("#chat-muted")
    assert len(chat_texts(bob)) == 3
    ann.page.reload()
    ann.wait("() => view && document.querySelectorAll('#chat-list .chat-item').length === 2")
    assert chat_texts(ann) == [markup, "hello Ann"]
    ann.page.click("#chat-muted .chat-unmute")
    assert len(chat_texts(ann)) == 3

    # A bot is offered for a person only once they have left; never to a spectator.
    ann.wait("() => view.here && view.here.includes(1)")
    assert ann.page.locator("[data-key='menu:1']").count() == 0
    assert eve.page.locator("[data-key^='menu:']").count() == 0
    bob.page.goto("about:blank")  # Bob leaves the table
    ann.wait("() => view.here && !view.here.includes(1)")
    ann.page.wait_for_selector("[data-key='menu:1']")
    assert eve.page.locator("[data-key^='menu:']").count() == 0
    bob.page.goto(f"{server.url}/t/{table}")
    bob.wait("() => view && view.you === 1")
    ann.wait("() => view.here && view.here.includes(1)")
    assert ann.page.locator("[data-key='menu:1']").count() == 0

    # Confirm each move: the chosen move waits for Confirm; Undo sends nothing.
    mover = ann if ann.page.evaluate("view.legal.length") else bob
    mover.page.click("#table-settings summary")
    mover.page.check("#set-confirm")
    mover.page.click("#table-settings summary")
    version = mover.page.evaluate("view.version")
    mover.page.locator("#legal button").first.click()
    assert mover.page.locator("#confirm-move").is_visible()
    assert "Play it?" in mover.page.inner_text("#confirm-label")
    mover.page.click("#confirm-undo")
    assert mover.page.locator("#confirm-move").is_hidden()
    assert httpx2.get(f"{server.url}/api/tables/{table}").json()["version"] == version
    mover.page.locator("#legal button").first.click()
    assert httpx2.get(f"{server.url}/api/tables/{table}").json()["version"] == version
    mover.page.click("#confirm-yes")
    mover.wait("v => view.version > v", version)
    assert mover.page.evaluate("localStorage.getItem('kingdomkit:confirm-moves')") == "yes"

    for person in (ann, bob, eve):
        assert person.errors == []
        person.close()


def test_a_phone_shows_the_turn_and_the_kingdom_on_one_screen(
    browser: Browser, server: ServeProcess
) -> None:
    ann = Person(browser, PHONE)
    ann.new_table(server, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], hints=True)
    page = ann.page
    ann.wait("() => view.legal.length > 0")
    version = page.evaluate("view.version")
    page.locator("#legal button").first.click()  # a claim: then a domino to place
    ann.wait("v => view.version > v && view.legal.length > 0", version)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator(".kk-card.kk-mine").scroll_into_view_if_needed()
    for shown in ("#turn", ".board-bar", "#hint-quick", ".kk-card.kk-mine .kk-kingdom"):
        assert in_viewport(page, shown), shown
    assert "Your turn" in page.inner_text("#turn")
    prompt = page.inner_text("#prompt") + page.inner_text("#board-tools")
    for key in ("(R)", "Enter", "Esc", "press"):
        assert key not in prompt, prompt
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#hint-quick").click()  # beside the board's tools: the board stars the best
    # The first search of a fresh checkout compiles the kernel: on a busy machine, minutes.
    page.wait_for_function("() => !$('hint-list').hidden", timeout=HINT_TIMEOUT)
    page.locator("#hint-button").click()  # the hint box below the board is reachable too
    ann.wait("() => !$('hint-list').hidden")
    assert ann.errors == []
    ann.close()


def test_an_unknown_table_says_so(browser: Browser, server: ServeProcess) -> None:
    person = Person(browser)
    person.page.goto(f"{server.url}/t/nonexistent")
    person.page.wait_for_selector("#missing:not([hidden])")
    assert "There is no table here" in person.page.inner_text("#missing")
    assert person.page.locator("#missing a[href='/']").count() == 1
    assert person.page.locator("#table").is_hidden()
    assert person.page.locator("#error").is_hidden()
    # The one console line is the browser's note of the API's 404: the answer it should be.
    assert all("404" in error and "/api/tables/nonexistent" in error for error in person.errors)
    person.close()


def test_a_replay_shows_the_board_and_the_scores_of_its_step(
    browser: Browser, server: ServeProcess
) -> None:
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    table = httpx2.post(f"{server.url}/api/records", json=record).json()["table"]
    final = httpx2.get(f"{server.url}/api/tables/{table}").json()
    person = Person(browser)
    page = person.page
    page.goto(f"{server.url}/t/{table}")
    person.wait("() => view && view.status === 'finished' && !$('replay-bar').hidden")
    step = final["decisions"] // 2
    frame = httpx2.get(f"{server.url}/api/tables/{table}/replay/{step}").json()
    assert frame["scores"] != final["scores"]
    page.click("#replay-first")
    for _ in range(step):
        page.click("#replay-next")
    person.wait("s => KKP.replay.step === s && KKP.replay.frame() !== null", step)
    person.wait(
        "s => [...document.querySelectorAll('.seat-score')].map(n => n.textContent).join() === s",
        ",".join(said(score) for score in frame["scores"]),
    )
    page.evaluate("() => window.scrollTo(0, 0)")
    for shown in ("#replay-bar", "#drawn .kk-card"):
        assert in_viewport(page, shown), shown
    page.click("#replay-last")
    person.wait(
        "s => [...document.querySelectorAll('.seat-score')].map(n => n.textContent).join() === s",
        ",".join(said(score) for score in final["scores"]),
    )
    assert person.errors == []
    person.close()


def test_the_turn_signals_are_settings_kept_in_the_browser(
    browser: Browser, server: ServeProcess
) -> None:
    """Sound and notification are off until chosen; a notification is chosen only where the
    browser allows it (else the page says how to allow it), and both are kept."""
    allowed = Person(browser, {**DESKTOP, "permissions": ["notifications"]})
    allowed.new_table(server, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    page = allowed.page
    assert not page.is_checked("#set-sound") and not page.is_checked("#set-notify")
    page.click("#table-settings summary")
    page.check("#set-sound")
    page.check("#set-notify")
    allowed.wait("() => localStorage.getItem('kingdomkit:turn-notify') === 'yes'")
    page.reload()
    allowed.wait("() => typeof view !== 'undefined' && view !== null")
    assert page.is_checked("#set-sound") and page.is_checked("#set-notify")
    assert allowed.errors == []
    allowed.close()

    refused = Person(browser)
    refused.page.goto(server.url)
    refused.new_table(server, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    page = refused.page
    assert page.evaluate("Notification.permission") != "granted"  # not given to this context
    page.click("#table-settings summary")
    page.click("#set-notify")
    refused.wait("() => !$('set-notify-note').hidden")
    assert not page.is_checked("#set-notify")
    assert "allow them" in page.inner_text("#set-notify-note")
    assert page.evaluate("localStorage.getItem('kingdomkit:turn-notify')") == "no"
    assert refused.errors == []
    refused.close()


def test_the_maker_cancels_an_open_table_and_its_players_are_told(
    browser: Browser, server: ServeProcess
) -> None:
    ann, bob = Person(browser), Person(browser, PHONE)
    made = ann.new_table(server, [{"kind": "human"}] * 3, options={"players": 3})
    bob.page.goto(f"{server.url}/t/{made['table']}?invite={made['invitations'][0]['token']}")
    bob.wait("() => !$('name-ask').hidden")
    bob.page.locator("#me-name").press_sequentially("Bob", delay=50)
    bob.wait("() => view && view.you === 1")
    assert bob.page.locator("#cancel-table").is_hidden()  # only the maker may
    ann.wait("() => view.seats[1].taken")
    assert ann.page.locator("#cancel-table").is_visible()
    ann.page.once("dialog", lambda dialog: dialog.accept())
    ann.page.click("#cancel-table")
    ann.page.wait_for_selector("#missing:not([hidden])")
    assert "You cancelled this table" in ann.page.inner_text("#missing-why")
    bob.page.wait_for_selector("#missing:not([hidden])")
    assert "The player who made this table cancelled it" in bob.page.inner_text("#missing-why")
    assert bob.page.locator("#missing a[href='/']").is_visible()
    assert not ann.errors and not bob.errors, ann.errors + bob.errors
    ann.close()
    bob.close()
