"""The HTTP API (documented at /docs, OpenAPI at /openapi.json) and each table's WebSocket.

Who you are is a signed session cookie: a guest identity made on your first request, with the
display name you give. A seat is bound to the identity that took it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from kingdomkit.core.record import make_record
from kingdomkit.core.registry import GAMES
from kingdomkit.server.accounts import Accounts
from kingdomkit.server.board import board
from kingdomkit.server.chat import author_key, speaker
from kingdomkit.server.limits import Guard, address
from kingdomkit.server.live import BOT, FINISHED, Clock, RefusedError
from kingdomkit.server.ratings import USER_PREFIX, user_id
from kingdomkit.server.service import Tables
from kingdomkit.server.sessions import SECRET_KEY, Sessions, digest
from kingdomkit.server.setups import offered
from kingdomkit.server.text import (
    TOKEN_LIMIT,
    clean_account_name,
    clean_name,
    clean_password,
    clean_text,
    clean_word,
)

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


def guard_of(request: Request | WebSocket) -> Guard:
    guard: Guard = request.app.state.guard
    return guard


class StrictBody(BaseModel):
    """A request body: a field the API does not know is refused (422 naming it), not ignored,
    so that a misspelt option never silently falls back to a default; and a value of another
    type is refused, not converted (`true`, `1.0` or `"1"` is not action 1, as on the
    WebSocket)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def text_rule(check: Callable[[Any], str]) -> BeforeValidator:
    """A rule of kingdomkit.server.text as a check of a body's field: its refusal is a 422
    naming the field, with the rule's reason."""

    def checked(value: Any) -> str:
        try:
            return check(value)
        except RefusedError as refused:
            raise PydanticCustomError("text", "{reason}", {"reason": str(refused)}) from None

    return BeforeValidator(checked)


def word(what: str) -> BeforeValidator:
    return text_rule(lambda value: clean_word(value, what))


DisplayName = Annotated[str, text_rule(clean_name)]
AccountName = Annotated[str, text_rule(clean_account_name)]
Password = Annotated[str, text_rule(clean_password)]
GameName = Annotated[str, word("a game's name")]
OptionName = Annotated[str, word("an option's name")]
BotLevel = Annotated[str, word("a bot's level")]
Invitation = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]+$", max_length=TOKEN_LIMIT)]


class SeatSpec(StrictBody):
    kind: Literal["human", "bot"]
    bot: BotLevel | None = Field(
        None, description="a level: easy, medium, hard, expert (or random)"
    )


class NewTable(StrictBody):
    game: GameName = Field(description="the game's name, as GET /api/games lists them")
    options: dict[OptionName, bool | int] = Field(default_factory=dict, description="e.g. harmony")
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    name: DisplayName | None = Field(
        None, description="your display name (you take the first human seat)"
    )
    move_seconds: float | None = Field(None, description="time per decision (a bot plays it then)")
    game_seconds: float | None = Field(None, description="time per seat for the whole game")
    rated: bool = Field(False, description="count the game for the accounts' ratings")
    hints: bool = Field(False, description="let the seat to act ask the analyst for advice")


class StandIn(StrictBody):
    bot: BotLevel = Field("medium", description="the level of the bot that plays for the seat")


class Credentials(StrictBody):
    name: AccountName = Field(min_length=1, max_length=40)
    password: Password = Field(min_length=1, max_length=200)


class NewPassword(StrictBody):
    current: Password = Field(min_length=1, max_length=200, description="your password now")
    new: Password = Field(min_length=1, max_length=200, description="the password from now on")


class Join(StrictBody):
    name: DisplayName | None = None
    token: Invitation | None = Field(None, description="the invitation of a seat")
    seat: int | None = None


class Action(StrictBody):
    action: int = Field(description="the id of a legal action, from the view")
    version: int = Field(description="the version of the view it was chosen in")


class Me(StrictBody):
    name: DisplayName


class Say(StrictBody):
    text: str = Field(description="the message (cleaned as names are; at most 300 characters)")


@lobby.get("/games")
def games() -> list[dict[str, Any]]:
    """The games this server plays: their printed names, variants (with what each changes),
    player counts, and every set-up each refuses (players, then the variants on joined by
    "+", to the reason in words), so that a form offers only what would be accepted."""
    return offered()


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


def sessions_of(request: Request) -> Sessions:
    sessions: Sessions = request.app.state.sessions
    return sessions


async def signed_in(request: Request, holder: str, name: str) -> dict[str, Any]:
    """Sign the caller in as account `holder`: a new server-side session, whose secret only
    the (signed) cookie holds."""
    old = request.session.get("id")
    user = user_id(holder)
    assert user is not None
    secret = await asyncio.to_thread(sessions_of(request).open, user)
    request.session["id"], request.session["name"] = holder, name
    request.session[SECRET_KEY] = secret
    if old is not None and old != holder and str(old).startswith("guest-"):
        await tables_of(request).adopt(str(old), holder)
    return me(request)


@lobby.post("/accounts", status_code=201)
async def register(request: Request, body: Credentials) -> dict[str, Any]:
    """Make an account and sign in; the seats you took as a guest become the account's."""
    name = body.name  # cleaned as an account name by its type
    guard_of(request).spend("accounts", "hour", None, address(request))
    holder = await request.app.state.accounts.register(name, body.password)
    return await signed_in(request, holder, name)


@lobby.post("/login")
async def login(request: Request, body: Credentials) -> dict[str, Any]:
    """Sign in. Failed sign-ins are limited per account name and per address, in tiers
    (e.g. 5 a minute, 20 an hour, 100 a day): beyond, 429 with the seconds to wait."""
    name = body.name  # cleaned as an account name by its type
    guard_of(request).login(name, address(request))
    holder = await request.app.state.accounts.login(name, body.password)
    guard_of(request).signed_in(name)
    return await signed_in(request, holder, name)


@lobby.post("/logout")
async def logout(request: Request) -> dict[str, Any]:
    """Sign out: the session ends on the server too (its cookie, even copied, is a guest's
    from now on) and its live connections close."""
    secret = request.session.get(SECRET_KEY)
    if isinstance(secret, str):
        ended = await asyncio.to_thread(sessions_of(request).end, secret)
        await tables_of(request).hub.close_session(ended)
    request.session.clear()
    return me(request)


@lobby.post("/password")
async def change_password(request: Request, body: NewPassword) -> dict[str, Any]:
    """Change your account's password; every other session of the account ends (signed out
    everywhere else, their connections closed)."""
    user = user_id(request.session.get("id"))
    secret = request.session.get(SECRET_KEY)
    if user is None or not isinstance(secret, str):
        raise RefusedError(403, "sign in to change your password")
    accounts: Accounts = request.app.state.accounts
    name = str(request.session.get("name", ""))
    guard_of(request).login(name, address(request))  # guessing the current one is throttled
    await accounts.change_password(user, body.current, body.new)
    guard_of(request).signed_in(name)
    ended = await asyncio.to_thread(sessions_of(request).end_others, user, secret)
    for key in ended:
        await tables_of(request).hub.close_session(key)
    return {**me(request), "sessions_ended": len(ended)}


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
    guard_of(request).spend("uploads", "hour", identity(request.session), address(request))
    table = await tables_of(request).upload(record)
    return {"table": table.id, "steps": len(table.decisions)}


@lobby.get("/tables")
async def listing(
    request: Request, status: Literal["open", "running", "finished"] | None = None
) -> list[dict[str, Any]]:
    """Tables, newest first, yours first of all (`you`: your seat), those waiting for your
    move before them (`your_turn`): open ones wait for people, running ones can be watched,
    finished ones have their `result`."""
    return await tables_of(request).listing(status, request.session.get("id"))


@lobby.post("/tables", status_code=201)
async def create(request: Request, body: NewTable) -> dict[str, Any]:
    """Create a table; you take its first human seat, and get an invitation per seat."""
    name = body.name or request.session.get("name")
    holder = identity(request.session)
    if name is not None:
        request.session["name"] = clean_name(name)
    seats = [seat.model_dump(exclude_none=True) for seat in body.seats]
    clock = Clock(body.move_seconds, body.game_seconds)
    bots_only = all(seat.kind == BOT for seat in body.seats)
    account, at = holder.startswith(USER_PREFIX), address(request)
    guard, tables = guard_of(request), tables_of(request)
    made_from = guard.address_key(at)
    counted = await tables.counted(holder)
    from_address = await tables.unfinished_from(made_from)
    guard.new_table(counted, holder, at, bots_only, account, from_address)
    table, mine = await tables.create(
        body.game,
        body.options,
        seats,
        holder,
        name or "guest",
        clock,
        body.rated,
        body.hints,
        made_from,
    )
    return {
        "table": table.id,
        "seat": mine,
        "invitations": [
            {"seat": s.index, "token": s.token}
            for s in table.seats
            if s.kind == "human" and s.holder is None
        ],
        "view": tables_of(request).view(table, mine),
    }


@play.post("/{table_id}/rematch", status_code=201)
async def rematch(request: Request, table_id: str) -> dict[str, Any]:
    """Propose a rematch of a finished game you played: a new table with the same seats,
    options and table rules, each person's seat kept for them (they join it from the old
    table's view, which links to it). Asked again, by anyone seated, it is the same table."""
    holder = identity(request.session)
    at, tables, guard = address(request), tables_of(request), guard_of(request)
    made_from = guard.address_key(at)
    counted = await tables.counted(holder)
    from_address = await tables.unfinished_from(made_from)

    def allow() -> None:  # limited as creating a table is
        account = holder.startswith(USER_PREFIX)
        guard.new_table(counted, holder, at, False, account, from_address)

    made = await tables.rematch(table_id, holder, allow, made_from)
    table = await tables.settled(made)
    return {"table": made, "seat": table.seat_of(holder), "view": table.view(table.seat_of(holder))}


@play.get("/{table_id}")
async def view(request: Request, table_id: str) -> dict[str, Any]:
    """The table as you see it: your seat's view, or a spectator's (with `kept`, the seat of
    this rematch kept for you, if there is one: join to take it)."""
    tables = tables_of(request)
    table = await tables.settled(table_id)
    holder = request.session.get("id")
    seen = tables.view(table, table.seat_of(holder))
    kept = table.kept_for(holder)
    return seen if kept is None else {**seen, "kept": kept}


@play.delete("/{table_id}")
async def cancel(request: Request, table_id: str) -> dict[str, Any]:
    """Cancel a table you made that still waits for players: it is deleted (no move was
    played on it), and the pages open on it are told why."""
    await tables_of(request).cancel(table_id, request.session.get("id"))
    return {"cancelled": table_id}


@play.get("/{table_id}/components")
async def components(request: Request, table_id: str) -> dict[str, Any]:
    """The box of the table's game (dominoes, buildings or tiles, the board's frame), for
    drawing its views; the same for every seat ({} for a game with no board: the browser
    shows its text board)."""
    table = await tables_of(request).settled(table_id)
    drawn = board(table.game)
    return drawn.components() if drawn is not None else {}


@play.post("/{table_id}/join")
async def join(request: Request, table_id: str, body: Join) -> dict[str, Any]:
    holder = identity(request.session)
    name = body.name or request.session.get("name")
    if body.name:
        request.session["name"] = clean_name(body.name)
    seat = await tables_of(request).join(table_id, holder, name, body.token, body.seat)
    table = await tables_of(request).settled(table_id)
    return {"seat": seat, "view": tables_of(request).view(table, seat)}


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
    return tables.view(table, table.seat_of(request.session.get("id")))


@play.post("/{table_id}/seats/{index}/back")
async def take_back(request: Request, table_id: str, index: int) -> dict[str, Any]:
    """Take your seat back from the bot that played it."""
    tables = tables_of(request)
    await tables.stand_in(table_id, request.session.get("id"), index, None)
    table = await tables.settled(table_id)
    return tables.view(table, table.seat_of(request.session.get("id")))


@play.get("/{table_id}/chat")
async def chat(request: Request, table_id: str) -> dict[str, Any]:
    """The table's chat: its last messages, oldest first; your author key (to know your own
    messages) and whether you may write (seated players, and spectators who gave a name)."""
    tables = tables_of(request)
    messages = await tables.chat(table_id)
    table = await tables.get(table_id)
    holder = request.session.get("id")
    try:
        speaker(table, holder, request.session.get("name"))
        may_write = True
    except RefusedError:
        may_write = False
    return {
        "messages": messages,
        "you": author_key(holder) if holder else None,
        "may_write": may_write and guard_of(request).limits.chat_chars > 0,
        "limit": guard_of(request).limits.chat_chars,
    }


@play.post("/{table_id}/chat", status_code=201)
async def say(request: Request, table_id: str, body: Say) -> dict[str, Any]:
    """Write in the table's chat (seated players, and spectators who gave a name; a
    spectator's message is marked so). Limited in length and in messages a minute."""
    holder = identity(request.session)
    return await said(request, table_id, holder, request.session.get("name"), body.text)


async def said(
    connection: Request | WebSocket, table_id: str, holder: str | None, name: Any, text: Any
) -> dict[str, Any]:
    """Say `text` at the table for `holder`: cleaned, limited, stored and sent to all."""
    guard = guard_of(connection)
    most = guard.limits.chat_chars
    if most == 0:
        raise RefusedError(403, "this server has no chat")
    cleaned = clean_text(text, "a chat message", most)
    table = await tables_of(connection).get(table_id)
    speaker(table, holder, name)  # who may write, before their rate is spent
    guard.spend("chat_messages", "minute", holder, address(connection))
    return await tables_of(connection).say(table_id, holder, name, cleaned)


@play.get("/{table_id}/hint")
async def advice(request: Request, table_id: str) -> list[dict[str, Any]]:
    """Your legal actions, best first, with the expected final points an analysing search
    gives each from your view (tables with hints on, on your turn; about a second)."""
    holder = request.session.get("id")
    guard_of(request).spend("hints", "minute", holder, address(request))
    return await tables_of(request).hint(table_id, holder)


@play.post("/{table_id}/review", status_code=202)
async def ask_review(request: Request, table_id: str) -> dict[str, Any]:
    """Start grading every decision of the finished game (as `kingdomkit analyze`); the
    result appears at GET .../review."""
    table = await tables_of(request).get(table_id)
    if table.finished and table.review is None and not table.reviewing:
        guard_of(request).spend("reviews", "hour", identity(request.session), address(request))
    table = await tables_of(request).start_review(table_id, request.session.get("id"))
    return {"ready": table.review is not None}


@play.get("/{table_id}/review")
async def get_review(request: Request, table_id: str) -> dict[str, Any]:
    """The post-game review: each decision's expected points lost against the best move."""
    tables = tables_of(request)
    table = await tables.settled(table_id)
    if table.review is None:
        busy = table.reviewing
        raise RefusedError(
            409 if busy else 404,
            "the review is being made" if busy else "no review yet: POST to ask for one",
        )
    return table.review


@play.get("/{table_id}/log")
async def log(
    request: Request, table_id: str, since: int = 0, limit: int | None = None
) -> dict[str, Any]:
    """The table's log from its `since`-th decision on, at most `limit` entries (and never
    more than the server's `log_page`): `total` says how many there are, so a client reads
    the whole game page by page. The log is public, like the table."""
    page = guard_of(request).limits.log_page
    if limit is not None and limit < 1:
        raise RefusedError(422, "'limit' is 1 or more")
    table = await tables_of(request).settled(table_id)
    return table.log_page(since, min(page, limit) if limit is not None else page)


@play.get("/{table_id}/replay/{step}")
async def replay(request: Request, table_id: str, step: int) -> dict[str, Any]:
    """A finished game after its first `step` decisions, as a spectator saw it."""
    table = await tables_of(request).settled(table_id)
    return table.view_at(step)


@play.get("/{table_id}/record")
async def record(request: Request, table_id: str) -> dict[str, Any]:
    """The record of a finished game (the engines' record format, without the secret seed)."""
    table = await tables_of(request).settled(table_id)
    if table.status != FINISHED:
        raise RefusedError(409, "the record can be downloaded once the game is over")
    names = [s.name or s.bot or f"seat {s.index}" for s in table.seats]
    made = make_record(table.game, None, names, [a for _, a in table.actions])
    made["made_by"] = [
        {"decision": k, "seat": entry["seat"], "by": entry["by"]}
        for k, entry in enumerate(table.decisions)
        if "by" in entry
    ]
    return made


def parsed(text: str | None) -> dict[str, Any]:
    """A WebSocket message as a JSON object, or {} (refused with a reason) for anything else:
    a binary frame, not JSON, nested too deeply for the parser, not an object."""
    try:
        message = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):
        return {}
    return message if isinstance(message, dict) else {}


@sockets.websocket("/ws/tables/{table_id}")
async def live(socket: WebSocket, table_id: str) -> None:
    """Views as they change; actions may be sent here too ({"action": id, "version": v})."""
    tables = tables_of(socket)
    await socket.accept()
    holder, at = socket.session.get("id"), address(socket)
    secret = socket.session.get(SECRET_KEY)
    session = digest(secret) if isinstance(secret, str) else None
    too_many = guard_of(socket).open_socket(holder, at)
    if too_many is not None:
        await socket.send_json({"type": "error", "status": 429, "detail": too_many})
        await socket.close(code=4429, reason="too many connections")
        return
    try:
        await _live(socket, tables, table_id, holder, session)
    finally:
        guard_of(socket).close_socket(holder, at)


async def _live(
    socket: WebSocket, tables: Tables, table_id: str, holder: str | None, session: str | None
) -> None:
    try:
        table = await tables.settled(table_id)
    except RefusedError as refused:
        await socket.send_json({"type": "error", "status": refused.status, "detail": str(refused)})
        await socket.close(code=4404)
        return
    back = holder is not None and tables.hub.connected(table_id, holder)
    tables.hub.join(table_id, socket, holder, session)
    try:  # every message goes through the hub's queue of the socket: nothing waits on it
        first = {"type": "view", "view": tables.view(table, table.seat_of(holder))}
        tables.hub.send(table_id, socket, first)
        await arrived(tables, table_id, holder, socket, back)
        while True:
            incoming = await socket.receive()
            if incoming["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(incoming.get("code", 1000))
            message = parsed(incoming.get("text"))
            try:
                if "chat" in message:
                    name = socket.session.get("name")
                    await said(socket, table_id, holder, name, message["chat"])
                    continue
                if "action" not in message or "version" not in message:
                    raise RefusedError(
                        422, "send {'action': <id>, 'version': <version seen>} or {'chat': <text>}"
                    )
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
        await left(tables, table_id, holder)


async def arrived(
    tables: Tables, table_id: str, holder: str | None, socket: WebSocket, back: bool
) -> None:
    """A seated person opened the table (and had it open nowhere else): the others' views
    say they are here."""
    table = tables.live.get(table_id)
    if not back and table is not None and table.seat_of(holder) is not None:
        await tables.hub.broadcast(table, skip=socket)


async def left(tables: Tables, table_id: str, holder: str | None) -> None:
    """A seated person closed their last connection to the table: the others' views say
    they have left (a bot may then be put on their seat)."""
    if holder is None or tables.hub.connected(table_id, holder):
        return
    table = tables.live.get(table_id)  # (one no longer in memory has nobody to tell)
    if table is not None and table.seat_of(holder) is not None:
        await tables.hub.broadcast(table)
