"""The HTTP API (documented at /docs, OpenAPI at /openapi.json) and each table's WebSocket.

Who you are is a signed session cookie: a guest identity made on your first request, with the
display name you give. A seat is bound to the identity that took it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Any, Literal

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field

from kingdomkit.core.record import make_record
from kingdomkit.core.registry import GAMES, make_game
from kingdomkit.server.live import FINISHED, Clock, RefusedError
from kingdomkit.server.ratings import USER_PREFIX
from kingdomkit.server.service import Tables, clean_name

lobby = APIRouter(prefix="/api", tags=["lobby"])
play = APIRouter(prefix="/api/tables", tags=["play"])
sockets = APIRouter(tags=["live"])


def identity(session: dict[str, Any]) -> str:
    """The caller's identity, made on first use."""
    if "id" not in session:
        session["id"] = "guest-" + secrets.token_urlsafe(12)
    return str(session["id"])


def tables_of(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


class StrictBody(BaseModel):
    """A request body: a field the API does not know is refused (422 naming it), not ignored,
    so that a misspelt option never silently falls back to a default."""

    model_config = ConfigDict(extra="forbid")


class SeatSpec(StrictBody):
    kind: Literal["human", "bot"]
    bot: str | None = Field(None, description="a level: easy, medium, hard, expert (or random)")


class NewTable(StrictBody):
    game: str = Field(description="kingdomino, queendomino or kingdoms")
    options: dict[str, bool | int] = Field(default_factory=dict, description="e.g. harmony")
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    name: str | None = Field(None, description="your display name (you take the first human seat)")
    move_seconds: float | None = Field(None, description="time per decision (a bot plays it then)")
    game_seconds: float | None = Field(None, description="time per seat for the whole game")
    rated: bool = Field(False, description="count the game for the accounts' ratings")
    hints: bool = Field(False, description="let the seat to act ask the analyst for advice")


class StandIn(StrictBody):
    bot: str = Field("medium", description="the level of the bot that plays for the seat")


class Credentials(StrictBody):
    name: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=200)


class Join(StrictBody):
    name: str | None = None
    token: str | None = Field(None, description="the invitation of a seat")
    seat: int | None = None


class Action(StrictBody):
    action: int = Field(description="the id of a legal action, from the view")
    version: int = Field(description="the version of the view it was chosen in")


class Me(StrictBody):
    name: str


@lobby.get("/games")
def games() -> list[dict[str, Any]]:
    """The games this server plays, with their options."""
    found = []
    for info in GAMES.values():
        game = make_game(info.name)
        found.append(
            {
                "game": info.name,
                "summary": info.summary,
                "options": list(info.option_names),
                "default_players": info.default_players,
                "min_players": game.min_players,
                "max_players": game.max_players,
            }
        )
    return found


@lobby.get("/me")
def me(request: Request) -> dict[str, Any]:
    holder = identity(request.session)
    return {
        "id": holder,
        "name": request.session.get("name"),
        "account": holder.startswith(USER_PREFIX),
    }


@lobby.post("/me")
def set_me(request: Request, body: Me) -> dict[str, Any]:
    request.session["name"] = clean_name(body.name)
    return me(request)


async def signed_in(request: Request, holder: str, name: str) -> dict[str, Any]:
    old = request.session.get("id")
    request.session["id"], request.session["name"] = holder, name
    if old is not None and old != holder and str(old).startswith("guest-"):
        await tables_of(request).adopt(str(old), holder)
    return me(request)


@lobby.post("/accounts", status_code=201)
async def register(request: Request, body: Credentials) -> dict[str, Any]:
    """Make an account and sign in; the seats you took as a guest become the account's."""
    name = clean_name(body.name)
    holder = await asyncio.to_thread(request.app.state.accounts.register, name, body.password)
    return await signed_in(request, holder, name)


@lobby.post("/login")
async def login(request: Request, body: Credentials) -> dict[str, Any]:
    name = clean_name(body.name)
    holder = await asyncio.to_thread(request.app.state.accounts.login, name, body.password)
    return await signed_in(request, holder, name)


@lobby.post("/logout")
def logout(request: Request) -> dict[str, Any]:
    request.session.clear()
    return me(request)


@lobby.get("/leaderboard/{game}")
async def leaderboard(request: Request, game: str) -> list[dict[str, Any]]:
    """The accounts' Elo ratings in `game`, best first."""
    if game not in GAMES:
        raise RefusedError(404, f"unknown game {game!r}")
    return await asyncio.to_thread(tables_of(request).store.leaderboard, game)


@lobby.post("/records", status_code=201)
async def upload(request: Request, record: dict[str, Any]) -> dict[str, Any]:
    """Upload a finished game's record (the engines' format): it becomes a finished table,
    to replay and to review."""
    table = await tables_of(request).upload(record)
    return {"table": table.id, "steps": len(table.decisions)}


@lobby.get("/tables")
async def listing(
    request: Request, status: Literal["open", "running", "finished"] | None = None
) -> list[dict[str, Any]]:
    """Tables, newest first: open ones wait for people, running ones can be watched."""
    return await asyncio.to_thread(tables_of(request).store.listing, status)


@lobby.post("/tables", status_code=201)
async def create(request: Request, body: NewTable) -> dict[str, Any]:
    """Create a table; you take its first human seat, and get an invitation per seat."""
    name = body.name or request.session.get("name")
    holder = identity(request.session)
    if name is not None:
        request.session["name"] = clean_name(name)
    seats = [seat.model_dump(exclude_none=True) for seat in body.seats]
    clock = Clock(body.move_seconds, body.game_seconds)
    table, mine = await tables_of(request).create(
        body.game, body.options, seats, holder, name or "guest", clock, body.rated, body.hints
    )
    return {
        "table": table.id,
        "seat": mine,
        "invitations": [
            {"seat": s.index, "token": s.token}
            for s in table.seats
            if s.kind == "human" and s.holder is None
        ],
        "view": table.view(mine),
    }


@play.get("/{table_id}")
async def view(request: Request, table_id: str) -> dict[str, Any]:
    """The table as you see it: your seat's view, or a spectator's."""
    table = await tables_of(request).settled(table_id)
    return table.view(table.seat_of(request.session.get("id")))


@play.get("/{table_id}/components")
async def components(request: Request, table_id: str) -> dict[str, Any]:
    """The box of the table's game (dominoes, buildings or tiles, the board's frame), for
    drawing its views; the same for every seat."""
    table = await tables_of(request).get(table_id)
    return table.game.components()


@play.post("/{table_id}/join")
async def join(request: Request, table_id: str, body: Join) -> dict[str, Any]:
    holder = identity(request.session)
    name = body.name or request.session.get("name")
    if body.name:
        request.session["name"] = clean_name(body.name)
    seat = await tables_of(request).join(table_id, holder, name, body.token, body.seat)
    table = await tables_of(request).settled(table_id)
    return {"seat": seat, "view": table.view(seat)}


@play.post("/{table_id}/actions")
async def act(request: Request, table_id: str, body: Action) -> dict[str, Any]:
    """Play an action of your seat, naming the version you chose it in (a stale one is
    refused with 409)."""
    version = await tables_of(request).act(
        table_id, request.session.get("id"), body.action, body.version
    )
    return {"version": version}


@play.post("/{table_id}/seats/{index}/bot")
async def stand_in(request: Request, table_id: str, index: int, body: StandIn) -> dict[str, Any]:
    """Have a bot play a person's seat: its holder's choice when leaving, or another seated
    person's when the holder has gone (no connection open)."""
    tables = tables_of(request)
    await tables.stand_in(table_id, request.session.get("id"), index, body.bot)
    table = await tables.settled(table_id)
    return table.view(table.seat_of(request.session.get("id")))


@play.post("/{table_id}/seats/{index}/back")
async def take_back(request: Request, table_id: str, index: int) -> dict[str, Any]:
    """Take your seat back from the bot that played it."""
    tables = tables_of(request)
    await tables.stand_in(table_id, request.session.get("id"), index, None)
    table = await tables.settled(table_id)
    return table.view(table.seat_of(request.session.get("id")))


@play.get("/{table_id}/hint")
async def advice(request: Request, table_id: str) -> list[dict[str, Any]]:
    """Your legal actions, best first, with the expected final points an analysing search
    gives each from your view (tables with hints on, on your turn; about a second)."""
    return await tables_of(request).hint(table_id, request.session.get("id"))


@play.post("/{table_id}/review", status_code=202)
async def ask_review(request: Request, table_id: str) -> dict[str, Any]:
    """Start grading every decision of the finished game (as `kingdomkit analyze`); the
    result appears at GET .../review."""
    table = await tables_of(request).start_review(table_id, request.session.get("id"))
    return {"ready": table.review is not None}


@play.get("/{table_id}/review")
async def get_review(request: Request, table_id: str) -> dict[str, Any]:
    """The post-game review: each decision's expected points lost against the best move."""
    tables = tables_of(request)
    table = await tables.get(table_id)
    if table.review is None:
        busy = table.reviewing
        raise RefusedError(
            409 if busy else 404,
            "the review is being made" if busy else "no review yet: POST to ask for one",
        )
    return table.review


@play.get("/{table_id}/replay/{step}")
async def replay(request: Request, table_id: str, step: int) -> dict[str, Any]:
    """A finished game after its first `step` decisions, as a spectator saw it."""
    table = await tables_of(request).get(table_id)
    return table.view_at(step)


@play.get("/{table_id}/record")
async def record(request: Request, table_id: str) -> dict[str, Any]:
    """The record of a finished game (the engines' record format, without the secret seed)."""
    table = await tables_of(request).get(table_id)
    if table.status != FINISHED:
        raise RefusedError(409, "the record can be downloaded once the game is over")
    names = [s.name or s.bot or f"seat {s.index}" for s in table.seats]
    return make_record(table.game, None, names, [a for _, a in table.actions])


@sockets.websocket("/ws/tables/{table_id}")
async def live(socket: WebSocket, table_id: str) -> None:
    """Views as they change; actions may be sent here too ({"action": id, "version": v})."""
    tables = tables_of(socket)
    await socket.accept()
    holder = socket.session.get("id")
    try:
        table = await tables.settled(table_id)
    except RefusedError as refused:
        await socket.send_json({"type": "error", "status": refused.status, "detail": str(refused)})
        await socket.close(code=4404)
        return
    tables.hub.join(table_id, socket, holder)
    try:  # every message goes through the hub's queue of the socket: nothing waits on it
        first = {"type": "view", "view": table.view(table.seat_of(holder))}
        tables.hub.send(table_id, socket, first)
        while True:
            text = await socket.receive_text()
            try:
                message = json.loads(text)
                if not isinstance(message, dict):
                    raise ValueError
            except ValueError:
                message = {}
            try:
                if "action" not in message or "version" not in message:
                    raise RefusedError(422, "send {'action': <id>, 'version': <version seen>}")
                await tables.act(table_id, holder, message["action"], message["version"])
            except RefusedError as refused:
                error = {"type": "error", "status": refused.status, "detail": str(refused)}
                tables.hub.send(table_id, socket, error)
    except WebSocketDisconnect:
        pass
    finally:
        tables.hub.leave(table_id, socket)
        with contextlib.suppress(Exception):
            await socket.close()
