"""A table's chat: who may write, and a message as the clients are sent it.

Seated players write under their seat's name; a spectator writes once they have given a
name, and their messages are marked as a spectator's. Each message carries an `author` key,
the same for one identity at every table and telling nothing of it, so that a client can mute
a person (muting is the client's: the server sends every message to everyone). The text is
cleaned as names are (kingdomkit.server.text) and limited in length and rate
(kingdomkit.server.limits); clients show it as text, never as markup.
"""

from __future__ import annotations

import hashlib
from typing import Any

from kingdomkit.server.live import LiveTable, RefusedError
from kingdomkit.server.models import ChatRow

CHAT_SHOWN = 100  # the last messages a client is sent when it opens a table
AUTHOR_CHARS = 16  # hex digits of an author key


def author_key(holder: str) -> str:
    """The key a client mutes a person by: a digest of their identity, which it does not
    reveal (a guest's identity is a random token; it must not leak, being the session)."""
    digest = hashlib.sha256(f"kingdomkit chat author {holder}".encode()).hexdigest()
    return digest[:AUTHOR_CHARS]


def speaker(table: LiveTable, holder: str | None, name: str | None) -> tuple[int | None, str]:
    """The seat (None: a spectator) and name `holder` writes under; RefusedError(403) if
    they may not write: a spectator without a name."""
    seat = table.seat_of(holder)
    if seat is not None:
        return seat, table.seats[seat].name or f"seat {seat + 1}"
    if holder is None or not name:
        raise RefusedError(403, "give your name (“Your name”, at the top) to chat as a spectator")
    return None, name


def message(row: ChatRow) -> dict[str, Any]:
    """A stored message as clients are sent it."""
    return {
        "id": row.id,
        "seat": row.seat,
        "spectator": row.seat is None,
        "author": row.author,
        "name": row.name,
        "text": row.text,
        "at": row.at.isoformat() if row.at else None,
    }
