"""A WebSocket client that never reads does not freeze its table, against a real uvicorn
(`kingdomkit serve`, a small send queue and time-out): the table's other sockets receive every
view, its bots play the game to the end, and the server closes the slow socket."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
from pathlib import Path
from typing import Any

import httpx2
import websockets

from serving import ServeProcess

GAME_SECONDS = 180  # the bots play a whole game well within this; a frozen table never ends
SLOW_ENV = {
    "KINGDOMKIT_SEND_QUEUE": "4",
    "KINGDOMKIT_SEND_TIMEOUT": "1",
    "KINGDOMKIT_SEND_BUFFER": "4096",
}


async def bot_table(http: httpx2.AsyncClient) -> str:
    """A four-player table of `easy` bots and its creator, who is waiting at their turn."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 3
    made = await http.post("/api/tables", json={"game": "kingdomino", "seats": seats, "name": "A"})
    made.raise_for_status()
    table: str = made.json()["table"]
    return table


async def watch(connection: Any) -> list[dict[str, Any]]:
    """Every view the connection receives, until the game is over."""
    views = []
    async for raw in connection:
        message = json.loads(raw)
        if message["type"] == "view":
            views.append(message["view"])
            if message["view"]["status"] == "finished":
                return views
    return views


def never_reading(port: int, path: str, cookie: str) -> socket.socket:
    """A WebSocket client that opens the connection and then reads nothing (a receive buffer
    of the least size the kernel allows): a TCP socket that sends the handshake itself."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.settimeout(30)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Cookie: {cookie}\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)  # byte by byte: nothing past the handshake is read
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return raw


def read_to_the_end(raw: socket.socket) -> tuple[bytes, bool]:
    """What is left for the socket, and whether the server closed it (rather than keeping it
    open: no more bytes within the time-out)."""
    got = b""
    try:
        while chunk := raw.recv(65536):
            got += chunk
    except ConnectionResetError:
        return got, True  # cut: what it had not read is discarded
    except TimeoutError:
        return got, False
    return got, True


async def scenario(server: ServeProcess, shared: bool) -> None:
    async with httpx2.AsyncClient(base_url=server.url, timeout=60) as ann:
        table = await bot_table(ann)
        cookies = "; ".join(f"{k}={v}" for k, v in ann.cookies.items())
        path = f"/ws/tables/{table}"
        uri = server.ws_url + path
        slow = never_reading(server.port, path, cookies)
        player = await websockets.connect(uri, additional_headers={"Cookie": cookies})
        spectator = await websockets.connect(uri)
        watching = [asyncio.create_task(watch(c)) for c in (player, spectator)]
        await asyncio.sleep(0.5)  # both watchers have their first view
        stand_in = await ann.post(f"/api/tables/{table}/seats/0/bot", json={"bot": "easy"})
        stand_in.raise_for_status()  # now bots play every seat, to the end
        seen = await asyncio.wait_for(asyncio.gather(*watching), GAME_SECONDS)
        final = (await ann.get(f"/api/tables/{table}")).json()
        assert final["status"] == "finished"
        for views in seen:
            decisions = [view["decisions"] for view in views]
            if shared:  # the workers' moves are read back as they come: some in one view
                assert decisions == sorted(decisions) and decisions[-1] == final["decisions"]
            else:
                assert set(range(decisions[0], final["decisions"] + 1)) <= set(decisions)
            assert views[-1]["status"] == "finished"
        left, closed = await asyncio.to_thread(read_to_the_end, slow)
        assert closed, "the slow socket was still open"
        assert b'"status":"finished"' not in left  # dropped before the game's end
        slow.close()
        for connection in (player, spectator):
            await connection.close()


def test_a_socket_that_never_reads_is_dropped_and_stalls_nobody(
    served_database: str | None, tmp_path: Path
) -> None:
    server = ServeProcess(tmp_path, served_database, env=SLOW_ENV)
    server.start()
    try:
        asyncio.run(scenario(server, served_database is not None))
    finally:
        server.stop()
