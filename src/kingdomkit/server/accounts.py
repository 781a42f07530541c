"""Accounts: a unique name and a password, hashed with Argon2 (argon2-cffi). A signed-in
person's identity is `user-<id>`; a guest's is `guest-<random>`."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from kingdomkit.server.live import RefusedError
from kingdomkit.server.models import UserRow
from kingdomkit.server.ratings import USER_PREFIX
from kingdomkit.server.text import check_account_name, clean_account_name, name_key

PASSWORD_MIN = 8
PASSWORD_MAX = 200
HASHER = PasswordHasher()
# Checked against when the name is unknown, so that a wrong name takes as long as a wrong
# password and does not tell which names exist.
DECOY_HASH = HASHER.hash("not a password of anyone")


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise RefusedError(422, f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")


class Accounts:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def register(self, name: str, password: str) -> str:
        """A new account's identity; RefusedError if the name mixes scripts (422), or is
        taken or reads like the name of another account (409)."""
        name = clean_account_name(name)
        check_account_name(name)
        check_password(password)
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

    def change_password(self, user: int, current: str, new: str) -> None:
        """Set a new password for account `user`, who must give the current one."""
        with Session(self.engine) as session, session.begin():
            row = session.get(UserRow, user)
            if row is None:
                raise RefusedError(403, "sign in to change your password")
            try:
                HASHER.verify(row.password_hash, current)
            except (VerificationError, InvalidHashError):
                raise RefusedError(403, "the current password is wrong") from None
            check_password(new)
            row.password_hash = HASHER.hash(new)

    def login(self, name: str, password: str) -> str:
        """The identity of the account; RefusedError (the same for both) if the name is
        unknown or the password wrong."""
        name = clean_account_name(name)  # as it was stored: NFKC, spaces tidied
        with Session(self.engine) as session:
            user = session.scalar(select(UserRow).where(UserRow.name == name))
        try:
            HASHER.verify(DECOY_HASH if user is None else user.password_hash, password)
        except (VerificationError, InvalidHashError):
            user = None
        if user is None:
            raise RefusedError(401, "unknown name or wrong password")
        return f"{USER_PREFIX}{user.id}"
