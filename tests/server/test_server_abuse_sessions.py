"""Sessions and requests against a real `kingdomkit serve`: logout and a password change end
sessions on the server (a copied cookie is a guest's, their sockets close), other sites'
pages cannot act (Origin, DNS rebinding), every page carries the security headers, the API
docs load nothing from elsewhere, and the data folder is the server user's alone."""

from __future__ import annotations

import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from serving import ServeProcess

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "easy"}
PASSWORD = "plum orchard at dusk 7"
NEW_PASSWORD = "kites over a salt marsh 9"
EVIL = "http://evil.example"


@pytest.fixture
def server(served: ServeProcess) -> ServeProcess:
    return served


@pytest.fixture
def local(server: ServeProcess) -> ServeProcess:
    """The server, for what does not depend on the database (run on both all the same)."""
    return server


def browser(server: ServeProcess) -> httpx2.Client:
    return httpx2.Client(base_url=server.url, timeout=60)


def cookie_header(client: httpx2.Client) -> str:
    return "; ".join(f"{name}={value}" for name, value in client.cookies.items())


@contextmanager
def socket_of(
    server: ServeProcess, client: httpx2.Client, table: str
) -> Iterator[ClientConnection]:
    """The table's WebSocket as `client`'s browser opens it (its cookie, its origin)."""
    with connect(
        f"{server.ws_url}/ws/tables/{table}",
        origin=Origin(server.url),
        additional_headers={"Cookie": cookie_header(client)},
        open_timeout=30,
    ) as socket:
        assert socket.recv(timeout=30)  # the first view
        yield socket


def closed_code(socket: ClientConnection) -> int | None:
    """The close code once the server closes `socket` (views may come before)."""
    try:
        while True:
            socket.recv(timeout=30)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None
    except TimeoutError:
        return None


def sign_up(client: httpx2.Client, name: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text


def test_logout_ends_the_session_a_copied_cookie_is_a_guest(server: ServeProcess) -> None:
    ann = browser(server)
    sign_up(ann, "ann")
    table = ann.post("/api/tables", json={"game": "kingdomino", "seats": [HUMAN, BOT]}).json()
    copied = dict(ann.cookies.items())
    with socket_of(server, ann, table["table"]) as socket:
        assert ann.post("/api/logout", json={}).json()["account"] is False
        assert closed_code(socket) == 4401  # the signed-out session's socket is closed

    thief = httpx2.Client(base_url=server.url, cookies=copied)
    me = thief.get("/api/me").json()
    assert me["account"] is False and not me["id"].startswith("user-")
    assert thief.get(f"/api/tables/{table['table']}").json()["you"] is None  # not ann's seat


def test_a_password_change_ends_every_other_session(server: ServeProcess) -> None:
    home, phone, guest = browser(server), browser(server), browser(server)
    sign_up(home, "ann")
    login = phone.post("/api/login", json={"name": "ann", "password": PASSWORD})
    assert login.status_code == 200
    table = home.post("/api/tables", json={"game": "kingdomino", "seats": [HUMAN, BOT]}).json()
    with socket_of(server, phone, table["table"]) as socket:
        check_password_change(home, guest, socket)
    assert phone.get("/api/me").json()["account"] is False  # signed out there
    assert home.get("/api/me").json()["account"] is True  # not here
    assert home.get(f"/api/tables/{table['table']}").json()["you"] == 0
    again = browser(server)
    old = again.post("/api/login", json={"name": "ann", "password": PASSWORD})
    assert old.status_code == 401
    assert again.post("/api/login", json={"name": "ann", "password": NEW_PASSWORD}).is_success


def check_password_change(
    home: httpx2.Client, guest: httpx2.Client, socket: ClientConnection
) -> None:
    """A wrong current password and a guest are refused; a change ends the other session."""
    wrong = home.post("/api/password", json={"current": "not it at all", "new": NEW_PASSWORD})
    assert wrong.status_code == 403 and "current password" in wrong.json()["detail"]
    assert (
        guest.post("/api/password", json={"current": PASSWORD, "new": NEW_PASSWORD}).status_code
        == 403
    )
    changed = home.post("/api/password", json={"current": PASSWORD, "new": NEW_PASSWORD})
    assert changed.status_code == 200 and changed.json()["sessions_ended"] == 1

    assert closed_code(socket) == 4401


def test_pages_of_other_sites_cannot_act(local: ServeProcess) -> None:
    ann = browser(local)
    body = {"game": "kingdomino", "seats": [HUMAN, BOT]}
    refused = ann.post("/api/tables", json=body, headers={"Origin": EVIL})
    assert refused.status_code == 403 and "evil.example" in refused.json()["detail"]
    assert ann.post("/api/tables", json=body, headers={"Origin": "null"}).status_code == 403
    assert ann.post("/api/tables", json=body, headers={"Origin": local.url}).status_code == 201
    made = ann.post("/api/tables", json=body)  # no Origin: not a browser
    assert made.status_code == 201
    assert ann.get("/api/games", headers={"Origin": EVIL}).status_code == 200  # reading is fine

    url = f"{local.ws_url}/ws/tables/{made.json()['table']}"
    with pytest.raises(InvalidStatus) as handshake:
        connect(url, origin=Origin(EVIL), additional_headers={"Cookie": cookie_header(ann)})
    assert handshake.value.response.status_code == 403
    with connect(
        url, origin=Origin(local.url), additional_headers={"Cookie": cookie_header(ann)}
    ) as ok:
        assert ok.recv(timeout=30)

    # DNS rebinding: evil.example resolves to 127.0.0.1, so its page is same-origin with
    # itself; the server, listening on loopback, answers loopback names only.
    rebound = ann.get("/", headers={"Host": f"evil.example:{local.port}"})
    assert rebound.status_code == 403
    assert ann.get("/", headers={"Host": f"localhost:{local.port}"}).status_code == 200


def test_a_proxy_deployment_names_its_public_origin(tmp_path: Path) -> None:
    public = "https://play.example.org"
    process = ServeProcess(tmp_path, args=["--origin", public, "--https"])
    process.start()
    try:
        ann = browser(process)
        body = {"game": "kingdomino", "seats": [HUMAN, BOT]}
        behind = {"Origin": public, "Host": "play.example.org"}
        assert ann.post("/api/tables", json=body, headers=behind).status_code == 201
        assert (
            ann.post("/api/tables", json=body, headers={"Origin": process.url}).status_code == 403
        )
        headers = ann.get("/", headers={"Host": "play.example.org"}).headers
        assert "max-age" in headers["strict-transport-security"]
    finally:
        process.stop()


def test_every_answer_has_the_security_headers_and_docs_load_nothing_from_elsewhere(
    local: ServeProcess,
) -> None:
    client = browser(local)
    for path in ("/", "/api/games", "/docs", "/static/app.js", "/api/tables/nowhere"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert not re.search(r"(src|href)=\"(https?:)?//", docs.text)  # nothing from elsewhere
    assert "<script>" not in docs.text  # no inline script: the CSP would block it
    for asset in re.findall(r"(?:src|href)=\"([^\"]+)\"", docs.text):
        assert client.get(asset).status_code == 200, asset
    assert client.get("/openapi.json").status_code == 200


def test_the_data_folder_is_the_server_users_alone(local: ServeProcess) -> None:
    data = local.data / "kingdomkit"
    assert browser(local).post("/api/tables", json={"game": "kingdomino", "seats": [HUMAN, BOT]})
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    files: list[Any] = [p for p in data.iterdir() if p.is_file()]
    expected = {"secret"} if local.database else {"secret", "kingdomkit.db"}
    assert {p.name for p in files} >= expected
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
