"""Hostile text against a real `kingdomkit serve`, on SQLite and on PostgreSQL: NUL bytes, lone
surrogates, controls and invisible characters in every text field get a 422 that names the
field and the character, never a 5xx or a dropped connection; names are NFKC-normalised;
account names refuse look-alikes of existing ones; HTTP actions are strict; table ids that
cannot exist are refused before the database is asked.

Bodies are sent as JSON text written here (`json.dumps` escapes a lone surrogate as
"\\ud800" and NUL as "\\u0000"), since a client's own encoder refuses to send them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect

from paths import EXAMPLES
from postgres import PostgresServer
from serving import ServeProcess

HUMAN = {"kind": "human"}
EASY = {"kind": "bot", "bot": "easy"}
# A hostile character of each kind, with what the answer must name.
HOSTILE = {
    "nul": ("\x00", "U+0000"),
    "surrogate": ("\ud800", "U+D800"),
    "escape": ("\x1b", "U+001B"),
    "zero-width joiner": ("\u200d", "U+200D"),
    "bidi override": ("\u202e", "U+202E"),
    "hangul filler": ("\u3164", "U+3164"),  # a letter that shows nothing
}
NEVER_IN_PASSWORDS = ("nul", "surrogate", "escape")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServeProcess]:
    """One server per database for the module; each test makes its own people."""
    database = None
    if request.param == "postgresql":
        postgres: PostgresServer = request.getfixturevalue("postgres")
        database = postgres.database()
    # One server answers every case from one address: the rate limits (tested on their own in
    # test_server_limits.py) are raised so that they never answer first.
    roomy = [
        "--limit-address-accounts-per-hour=10000",
        "--limit-tables-per-minute=10000",
        "--limit-address-tables-per-minute=10000",
        "--limit-open-tables=10000",
        "--limit-address-open-tables=10000",
        "--limit-uploads-per-hour=10000",
        "--limit-address-uploads-per-hour=10000",
        "--limit-address-logins=10000/minute",
    ]
    process = ServeProcess(tmp_path_factory.mktemp("abuse-input"), database, args=roomy)
    process.start()
    try:
        yield process
    finally:
        process.stop()


class Person:
    """Someone with their own session cookie, sending JSON text as written."""

    def __init__(self, server: ServeProcess) -> None:
        self.server = server
        self.http = httpx2.Client(base_url=server.url, timeout=60)

    def send(self, method: str, path: str, body: Any = None) -> httpx2.Response:
        text = None if body is None else json.dumps(body)  # ASCII: surrogates escaped
        headers = {"content-type": "application/json"}
        response: httpx2.Response = self.http.request(method, path, content=text, headers=headers)
        return response

    def post(self, path: str, body: Any) -> httpx2.Response:
        return self.send("POST", path, body)

    def get(self, path: str) -> httpx2.Response:
        return self.send("GET", path)

    def socket(self, path: str) -> Any:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        return connect(f"{self.server.ws_url}{path}", additional_headers={"Cookie": cookie})


def table_for_two(ann: Person, bob: Person) -> tuple[str, dict[str, Any]]:
    """A running two-person Kingdomino table; its id and Ann's view."""
    made = ann.post("/api/tables", {"game": "kingdomino", "seats": [HUMAN, HUMAN], "name": "Ann"})
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    token = made.json()["invitations"][0]["token"]
    assert bob.post(f"/api/tables/{table}/join", {"name": "Bob", "token": token}).is_success
    return table, ann.get(f"/api/tables/{table}").json()


def fullwidth(text: str) -> str:
    """`text` with its ASCII letters and signs in their fullwidth forms ("Ann" as wide)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def record() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((EXAMPLES / "record-2p.json").read_text())
    return loaded


def refused_for(response: httpx2.Response, *words: str) -> None:
    """A 422 whose detail says each of `words`."""
    assert response.status_code == 422, (response.status_code, response.text)
    detail = str(response.json()["detail"])
    for word in words:
        assert word in detail, (word, detail)


# Each text field: how to send `bad` in it, and the words its refusal names.
FIELDS: dict[str, Any] = {
    "display name": lambda p, t, bad: p.post("/api/me", {"name": f"A{bad}n"}),
    "table's name": lambda p, t, bad: p.post(
        "/api/tables", {"game": "kingdomino", "seats": [HUMAN, EASY], "name": f"A{bad}n"}
    ),
    "join name": lambda p, t, bad: p.post(f"/api/tables/{t}/join", {"name": f"B{bad}"}),
    "account name": lambda p, t, bad: p.post(
        "/api/accounts", {"name": f"A{bad}n", "password": "correct horse"}
    ),
    "login name": lambda p, t, bad: p.post(
        "/api/login", {"name": f"A{bad}n", "password": "correct horse"}
    ),
    "game": lambda p, t, bad: p.post(
        "/api/tables", {"game": f"kingdomino{bad}", "seats": [HUMAN, EASY]}
    ),
    "option key": lambda p, t, bad: p.post(
        "/api/tables",
        {"game": "kingdomino", "seats": [HUMAN, EASY], "options": {f"harmony{bad}": True}},
    ),
    "bot level": lambda p, t, bad: p.post(
        "/api/tables", {"game": "kingdomino", "seats": [HUMAN, {"kind": "bot", "bot": f"e{bad}"}]}
    ),
    "stand-in bot": lambda p, t, bad: p.post(f"/api/tables/{t}/seats/1/bot", {"bot": f"e{bad}"}),
    "record player": lambda p, t, bad: p.post(
        "/api/records", {**record(), "players": ["ann", f"bob{bad}"]}
    ),
}
WHERE = {  # what each refusal names besides the character
    "display name": "display name",
    "table's name": "display name",
    "join name": "display name",
    "account name": "account name",
    "login name": "account name",
    "game": "game's name",
    "option key": "option's name",
    "bot level": "bot's level",
    "stand-in bot": "bot's level",
    "record player": "seat 1",
}


@pytest.mark.parametrize("kind", list(HOSTILE))
@pytest.mark.parametrize("field", list(FIELDS))
def test_hostile_characters_in_every_text_field_are_refused_with_422(
    server: ServeProcess, field: str, kind: str
) -> None:
    ann, bob = Person(server), Person(server)
    table = ""
    if field in ("join name", "stand-in bot"):
        made = ann.post("/api/tables", {"game": "kingdomino", "seats": [HUMAN, HUMAN]})
        table = made.json()["table"]
    bad, code_point = HOSTILE[kind]
    refused_for(FIELDS[field](bob, table, bad), WHERE[field], code_point)
    assert bob.get("/api/me").json()["name"] is None  # nothing of it was kept


@pytest.mark.parametrize("kind", NEVER_IN_PASSWORDS)
def test_a_password_takes_any_printable_character_but_no_control_or_surrogate(
    server: ServeProcess, kind: str
) -> None:
    pat = Person(server)
    bad, code_point = HOSTILE[kind]
    name = f"Pat {kind}"
    refused_for(pat.post("/api/accounts", {"name": name, "password": f"pass{bad}word"}), code_point)
    refused_for(pat.post("/api/login", {"name": name, "password": f"pass{bad}word"}), code_point)
    odd = "pässwörd ẞ 𝄞 \u200d \ufb01"  # kept as typed: not normalised (the ligature stays)
    assert pat.post("/api/accounts", {"name": name, "password": odd}).status_code == 201
    assert pat.post("/api/logout", {}).is_success
    plain = odd.replace("\ufb01", "fi")
    assert pat.post("/api/login", {"name": name, "password": plain}).status_code == 401
    assert pat.post("/api/login", {"name": name, "password": odd}).is_success


def test_names_are_nfkc_normalised_and_their_spaces_tidied(server: ServeProcess) -> None:
    ann = Person(server)
    assert ann.post("/api/me", {"name": fullwidth("Ann")}).json()["name"] == "Ann"
    made = ann.post(
        "/api/tables",
        {"game": "kingdomino", "seats": [HUMAN, HUMAN], "name": fullwidth("  Bea \u3000 Li ")},
    ).json()
    assert made["view"]["seats"][0]["name"] == "Bea Li"
    listed = next(t for t in ann.get("/api/tables").json() if t["table"] == made["table"])
    assert listed["seats"][0]["name"] == "Bea Li"  # as stored
    zed = Person(server)
    signed = zed.post("/api/accounts", {"name": fullwidth("Zed nfkc"), "password": "correct horse"})
    assert signed.status_code == 201 and signed.json()["name"] == "Zed nfkc"
    for typed in ("Zed nfkc", fullwidth("Zed nfkc"), " Zed   nfkc "):
        login = Person(server).post("/api/login", {"name": typed, "password": "correct horse"})
        assert login.status_code == 200 and login.json()["name"] == "Zed nfkc"


def test_names_in_uploaded_records_are_cleaned_like_all_others(server: ServeProcess) -> None:
    ann = Person(server)
    long = "mcts:iterations=2000,exploration=1.4,rollouts=8"  # a bot spec from simulate
    uploaded = ann.post("/api/records", {**record(), "players": [fullwidth("Ann"), long]})
    assert uploaded.status_code == 201, uploaded.text
    seats = ann.get(f"/api/tables/{uploaded.json()['table']}").json()["seats"]
    assert [seat["name"] for seat in seats] == ["Ann", long[:40]]
    refused_for(ann.post("/api/records", {**record(), "players": ["ann", "  "]}), "seat 1")


def test_account_names_refuse_look_alikes_mixed_scripts_and_zero_width(
    server: ServeProcess,
) -> None:
    ace = Person(server).post("/api/accounts", {"name": "Ace", "password": "correct horse"})
    assert ace.status_code == 201
    cyrillic = "\u0410\u0441\u0435"  # all three letters Cyrillic
    for name in (cyrillic, cyrillic.lower(), "ACE", "ace"):
        alike = Person(server).post("/api/accounts", {"name": name, "password": "correct horse"})
        assert alike.status_code == 409, (name, alike.text)
        assert "too much like an existing name" in alike.json()["detail"]
    for name in ("Ace", fullwidth("Ace")):  # the same name, as typed or in fullwidth
        taken = Person(server).post("/api/accounts", {"name": name, "password": "correct horse"})
        assert taken.status_code == 409 and "is taken" in taken.json()["detail"]
    mixed = Person(server).post("/api/accounts", {"name": "\u0410ce", "password": "correct horse"})
    refused_for(mixed, "one script", "Cyrillic and Latin")
    joined = Person(server).post(
        "/api/accounts", {"name": "A\u200dce", "password": "correct horse"}
    )
    refused_for(joined, "U+200D")
    # Scripts that are written together are one script here (UTS #39, highly restrictive).
    for name in ("田中さん", "Ελένη", "Cyd 2"):
        made = Person(server).post("/api/accounts", {"name": name, "password": "correct horse"})
        assert made.status_code == 201, (name, made.text)


def test_http_actions_are_strict_as_on_the_websocket(server: ServeProcess) -> None:
    ann, bob = Person(server), Person(server)
    table, view = table_for_two(ann, bob)
    me, other = (ann, bob) if view["legal"] else (bob, ann)
    view = me.get(f"/api/tables/{table}").json()
    action, version = view["legal"][0]["id"], view["version"]
    for body in (
        {"action": True, "version": version},
        {"action": float(action), "version": version},
        {"action": str(action), "version": version},
        {"action": action, "version": str(version)},
        {"action": action, "version": float(version)},
    ):
        answer = me.post(f"/api/tables/{table}/actions", body)
        refused_for(answer, "valid integer")
    assert me.get(f"/api/tables/{table}").json()["version"] == version  # nothing was played
    played = me.post(f"/api/tables/{table}/actions", {"action": action, "version": version})
    assert played.status_code == 200
    # a float field still takes a whole number
    timed = other.post(
        "/api/tables", {"game": "kingdomino", "seats": [HUMAN, EASY], "move_seconds": 30}
    )
    assert timed.status_code == 201 and timed.json()["view"]["clock"]["move_seconds"] == 30


def test_hostile_websocket_messages_are_refused_and_the_socket_stays_open(
    server: ServeProcess,
) -> None:
    ann, bob = Person(server), Person(server)
    table, view = table_for_two(ann, bob)
    me = ann if view["legal"] else bob
    view = me.get(f"/api/tables/{table}").json()
    action, version = view["legal"][0]["id"], view["version"]
    deep = "[" * 5_000 + "]" * 5_000  # deeper than the JSON parser recurses, under 16 KiB
    with me.socket(f"/ws/tables/{table}") as socket:
        assert json.loads(socket.recv())["type"] == "view"
        for message in (
            b"\x00\x01 a binary frame",
            deep,
            '{"action": ' + deep + ', "version": 0}',
            json.dumps({"action": "\ud800", "version": version}),
            json.dumps({"action\x00": action, "version": version}),
            json.dumps({"action": True, "version": version}),
            "9" * 5000,  # more digits than Python turns into an int
        ):
            socket.send(message)
            error = json.loads(socket.recv())
            assert (error["type"], error["status"]) == ("error", 422), (message[:30], error)
        socket.send(json.dumps({"action": action, "version": version}))
        moved = json.loads(socket.recv())
        assert moved["type"] == "view" and moved["view"]["version"] > version


@pytest.mark.parametrize("table_id", ["a%00b", "a%ED%A0%80b", "a%1Bb", "x" * 33, "%C3%A9t%C3%A9"])
def test_table_ids_that_cannot_exist_are_refused_without_the_database(
    server: ServeProcess, table_id: str
) -> None:
    ann = Person(server)
    for method, path, body in [
        ("GET", "", None),
        ("GET", "/components", None),
        ("GET", "/record", None),
        ("GET", "/replay/0", None),
        ("POST", "/join", {"name": "Ann"}),
        ("POST", "/actions", {"action": 0, "version": 0}),
        ("POST", "/seats/0/bot", {"bot": "easy"}),
        ("POST", "/review", None),
        ("GET", "/hint", None),
    ]:
        answer = ann.send(method, f"/api/tables/{table_id}{path}", body)
        assert answer.status_code == 404, (path, answer.status_code, answer.text)
        assert answer.json()["detail"] == "no table has this id"
    with ann.socket(f"/ws/tables/{table_id}") as socket:
        error = json.loads(socket.recv())
        assert (error["status"], error["detail"]) == (404, "no table has this id")


def test_an_invitation_that_cannot_exist_is_refused(server: ServeProcess) -> None:
    ann, bob = Person(server), Person(server)
    table = ann.post("/api/tables", {"game": "kingdomino", "seats": [HUMAN, HUMAN]}).json()
    for token in ("é", "\ud800", "a\x00", "x" * 65):
        answer = bob.post(f"/api/tables/{table['table']}/join", {"token": token})
        refused_for(answer, "token")
    assert bob.post(f"/api/tables/{table['table']}/join", {"name": "Bob"}).is_success
