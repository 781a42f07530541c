"""Accounts: a unique name and a password, hashed with Argon2 (argon2-cffi). A signed-in
person's identity is `user-<id>`; a guest's is `guest-<random>`.

Hashing and checking passwords is deliberately slow, so it runs on a few threads of its own
(Argon2 lets go of the GIL), never on the event loop nor on the threads other requests share,
with a bounded queue: beyond it a sign-in is answered 429 at once, so a flood of sign-ins
cannot slow the rest of the server. A common or guessable password (zxcvbn's score below 2,
the name counting as a guess) is refused with zxcvbn's advice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import zxcvbn
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from kingdomkit.server.limits import BUSY_RETRY, LimitedError
from kingdomkit.server.live import RefusedError
from kingdomkit.server.models import UserRow
from kingdomkit.server.ratings import USER_PREFIX
from kingdomkit.server.text import check_account_name, clean_account_name, name_key

PASSWORD_MIN = 8
PASSWORD_MAX = 200
PASSWORD_SCORE = 2  # zxcvbn's score (0 to 4) a password needs: 1 is "too guessable"
GUESSED_CHARACTERS = 64  # zxcvbn's time grows fast with length: it judges this many
# argon2-cffi's default asks for 4 lanes (parallelism 4): on a small server that is more
# threads than cores, taking the CPU the event loop needs. One lane, 64 MiB and 3 passes
# (RFC 9106's second choice with one lane) take about 0.2 s on one core. Hashes made with
# other parameters still verify, and are made again with these at the next sign-in.
HASHER = PasswordHasher(time_cost=3, memory_cost=64 * 1024, parallelism=1)
# Checked against when the name is unknown, so that a wrong name takes as long as a wrong
# password and does not tell which names exist.
DECOY_HASH = HASHER.hash("not a password of anyone")


T = TypeVar("T")


def check_password(password: str, name: str | None = None) -> None:
    """RefusedError (422, with the reason and advice) if `password` is too short, too long,
    common or easily guessed (from the account's name too). Slow for a long password: call
    it on the password threads (`Accounts.run`)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise RefusedError(422, f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    judged = zxcvbn.zxcvbn(password[:GUESSED_CHARACTERS], user_inputs=[name] if name else [])
    if judged["score"] < PASSWORD_SCORE:
        feedback = judged["feedback"]
        advice = [feedback["warning"], *feedback["suggestions"]]
        words = " ".join(a for a in advice if a) or "Choose a longer one."
        raise RefusedError(422, f"this password is too easy to guess. {words}")


class Accounts:
    def __init__(self, engine: Engine, workers: int = 1, queue: int = 8) -> None:
        self.engine = engine
        self.hashing = ThreadPoolExecutor(workers, thread_name_prefix="kingdomkit-passwords")
        self.most = workers + queue  # password checks running or waiting
        self.taken = 0

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """`work` on the password threads (any work that hashes or checks a password);
        LimitedError at once if they and their queue are full."""
        if self.taken >= self.most:
            raise LimitedError("the server is busy checking other passwords", BUSY_RETRY)
        loop = asyncio.get_running_loop()
        future = self.hashing.submit(work, *args)
        self.taken += 1  # until the work is done, even if its request is gone
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._done))
        return await asyncio.wrap_future(future)

    def _done(self) -> None:
        self.taken -= 1

    async def register(self, name: str, password: str) -> str:
        """A new account's identity; RefusedError if the name mixes scripts (422), is taken
        or reads like the name of another account (409), or the password is weak (422)."""
        return await self.run(self._register, name, password)

    async def login(self, name: str, password: str) -> str:
        """The identity of the account; RefusedError (the same for both) if the name is
        unknown or the password wrong."""
        return await self.run(self._login, name, password)

    async def change_password(self, user: int, current: str, new: str) -> None:
        """Set a new password for account `user`, who must give the current one."""
        await self.run(self._change_password, user, current, new)

    def close(self) -> None:
        self.hashing.shutdown(wait=False, cancel_futures=True)

    def _register(self, name: str, password: str) -> str:
        name = clean_account_name(name)
        check_account_name(name)
        check_password(password, name)
        key = name_key(name)
        try:
            with Session(self.engine) as session, session.begin():
                alike = session.scalar(select(UserRow.name).where(UserRow.name_key == key))
                if alike is not None:
                    taken = "is taken" if alike == name else "is too much like an existing name"
                    raise RefusedError(409, f"the name {name!r} {taken}")
                user = UserRow(name=name, name_key=key, password_hash=HASHER.hash(password))
                session.add(user)
                session.flush()
                return f"{USER_PREFIX}{user.id}"
        except IntegrityError:  # made meanwhile
            raise RefusedError(409, f"the name {name!r} is taken or too much like one") from None

    def _change_password(self, user: int, current: str, new: str) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(UserRow, user)
            if row is None:
                raise RefusedError(403, "sign in to change your password")
            try:
                HASHER.verify(row.password_hash, current)
            except (VerificationError, InvalidHashError):
                raise RefusedError(403, "the current password is wrong") from None
            check_password(new, row.name)
            row.password_hash = HASHER.hash(new)

    def _login(self, name: str, password: str) -> str:
        name = clean_account_name(name)  # as it was stored: NFKC, spaces tidied
        with Session(self.engine) as session:
            user = session.scalar(select(UserRow).where(UserRow.name == name))
        try:
            HASHER.verify(DECOY_HASH if user is None else user.password_hash, password)
        except (VerificationError, InvalidHashError):
            user = None
        if user is None:
            raise RefusedError(401, "unknown name or wrong password")
        if HASHER.check_needs_rehash(user.password_hash):
            with Session(self.engine) as session, session.begin():
                again = HASHER.hash(password)
                session.execute(
                    update(UserRow).where(UserRow.id == user.id).values(password_hash=again)
                )
        return f"{USER_PREFIX}{user.id}"
