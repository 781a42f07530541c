"""Text that people type: display names, account names, passwords, and the short words and
tokens of the API. Every such text passes one of these checks before it is used, stored or
sent back, so that the two databases see the same text and refuse nothing themselves
(PostgreSQL cannot store NUL; no text with a lone surrogate can be encoded as UTF-8).

    what                 refused (422)                           then
    -------------------  --------------------------------------  ------------------------------
    every text           not a string; Cc controls (NUL, tab,    -
                         newline, DEL, C1); Cs lone surrogates
    names and words      also Cf format characters (zero-width   NFKC; runs of spaces become one
                         joiner, bidi overrides, soft hyphen),   space, none at the ends; 1 to a
                         Co private use, Cn unassigned, and      limit of characters
                         blank letters (Hangul fillers, braille
                         blank, combining grapheme joiner)
    account names        also a mix of scripts (UTS #39 "highly  a look-alike key (`name_key`),
                         restrictive": one script, or Latin      unique among accounts
                         with Han and kana, Bopomofo or Hangul)
    passwords            only what every text refuses            kept exactly as typed
    ids and tokens       anything but 1 to N of A-Z a-z 0-9 _ -  -
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from typing import Any

from confusable_homoglyphs import categories, confusables

from kingdomkit.server.live import RefusedError

NAME_LIMIT = 40  # characters of a display or account name (the columns' width)
WORD_LIMIT = 32  # characters of a game, option or bot name
KEY_LIMIT = 160  # characters of a stored look-alike key (the column's width)
TABLE_ID_LIMIT = 32  # characters of a table id (the column's width)
TOKEN_LIMIT = 64  # characters of a seat's invitation (the column's width)
TYPED_LIMIT = 4  # times its limit a text may be as typed (spaces and NFKC shorten it)

# Unicode general categories, with what a person is told when one is refused.
NEVER = {"Cc": "control characters such as NUL", "Cs": "lone surrogates"}
HIDDEN = {
    **NEVER,
    "Cf": "invisible format characters such as zero-width joiners or direction marks",
    "Co": "private-use characters",
    "Cn": "unassigned characters",
}
# Letters, marks and signs that show nothing, the stuff of blank-looking names: the Hangul
# fillers, the braille blank, the combining grapheme joiner.
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")
# Scripts that are part of every script (digits, punctuation, combining marks), and the
# mixes that UTS #39's "highly restrictive" level allows besides a single script.
ANY_SCRIPT = {"COMMON", "INHERITED"}
SCRIPT_MIXES = (
    {"LATIN", "HAN", "HIRAGANA", "KATAKANA"},  # Japanese
    {"LATIN", "HAN", "BOPOMOFO"},  # Chinese
    {"LATIN", "HAN", "HANGUL"},  # Korean
)
ID_CHARACTERS = re.compile(r"[A-Za-z0-9_-]+")
LEFT_TO_RIGHT_MARK = "\u200e"  # wraps right-to-left glyphs in the library's table


def refuse_characters(
    text: str, what: str, refused: dict[str, str], blank: frozenset[str] = frozenset()
) -> None:
    """RefusedError(422) naming `what` if `text` holds a character of a category in `refused`
    or one of `blank` (the character itself is not echoed: it may be unprintable or
    unencodable)."""
    for char in text:
        reason = "blank characters" if char in blank else refused.get(unicodedata.category(char))
        if reason is not None:
            raise RefusedError(422, f"{what} may not hold {reason}: it holds U+{ord(char):04X}")


def clean_text(value: Any, what: str, limit: int, cut: bool = False) -> str:
    """`value` NFKC-normalised with its spaces tidied; RefusedError(422) naming `what` if it is
    not a string, holds a hidden character, is empty, or is longer than `limit` characters
    (cut to `limit` instead, when `cut`)."""
    if not isinstance(value, str):
        raise RefusedError(422, f"{what} must be text")
    if len(value) > TYPED_LIMIT * limit and not cut:
        raise RefusedError(422, f"{what} has at most {limit} characters")  # before looking
    refuse_characters(value, what, HIDDEN, BLANK)
    text = unicodedata.normalize("NFKC", value)
    refuse_characters(text, what, HIDDEN, BLANK)
    text = " ".join(text.split())
    if not text:
        raise RefusedError(422, f"{what} is needed")
    if len(text) > limit:
        if not cut:
            raise RefusedError(422, f"{what} has at most {limit} characters")
        text = text[:limit].rstrip()
    return text


def clean_name(value: Any) -> str:
    """A display name, as a table's seat shows it."""
    return clean_text(value, "a display name", NAME_LIMIT)


def clean_account_name(value: Any) -> str:
    """An account's name as typed to sign up or in (the scripts are checked at sign up)."""
    return clean_text(value, "an account name", NAME_LIMIT)


def clean_word(value: Any, what: str) -> str:
    """A game's, an option's or a bot's name (looked up afterwards among the known ones)."""
    return clean_text(value, what, WORD_LIMIT)


def clean_password(value: Any) -> str:
    """A password as typed (any printable character, not normalised: it is hashed as is);
    RefusedError(422) if it holds a control character or a lone surrogate. Its length is
    the accounts' business."""
    if not isinstance(value, str):
        raise RefusedError(422, "a password must be text")
    refuse_characters(value, "a password", NEVER)
    return value


def check_account_name(name: str) -> None:
    """RefusedError(422) if the (cleaned) `name` mixes scripts, as look-alikes do ("Ann" with
    a Cyrillic capital A, U+0410)."""
    scripts = {categories.alias(char) for char in name} - ANY_SCRIPT
    if len(scripts) > 1 and not any(scripts <= mix for mix in SCRIPT_MIXES):
        mixed = " and ".join(sorted(script.title() for script in scripts))
        raise RefusedError(422, f"an account name is written in one script, not {mixed}")


def name_key(name: str) -> str:
    """The look-alike key of a (cleaned) account name: case folded and each character replaced
    by the prototype of the characters that look like it (UTS #39's skeleton, from the
    confusables table of `confusable-homoglyphs`), so that "Ace", "ACE" and a Cyrillic "Ace"
    (U+0410 U+0441 U+0435) have one key. A key too long for its column is its SHA-256."""
    folded = unicodedata.normalize("NFD", name.casefold())
    skeleton = "".join(prototype(char) for char in folded)
    key = unicodedata.normalize("NFD", skeleton).casefold()
    if len(key) > KEY_LIMIT:
        return "sha256:" + hashlib.sha256(key.encode()).hexdigest()
    return key


@lru_cache(maxsize=4096)
def prototype(char: str) -> str:
    """The character (or characters: "m" is "rn") that `char` is folded to. The library lists
    a prototype with all its look-alikes, and a look-alike with its prototype alone; of two
    characters that are each the other's only look-alike, the smaller stands for both."""
    glyphs = look_alikes(char)
    if len(glyphs) != 1:
        return char  # none, or a prototype
    glyph = glyphs[0]
    if len(glyph) != 1 or len(look_alikes(glyph)) > 1:
        return glyph
    return min(char, glyph)


def look_alikes(char: str) -> list[str]:
    found = confusables.is_confusable(char, greedy=True)
    if not found:
        return []
    return [entry["c"].replace(LEFT_TO_RIGHT_MARK, "") for entry in found[0]["homoglyphs"]]


def could_be_id(value: Any, limit: int) -> bool:
    """Could `value` be a table id or a seat's invitation (1 to `limit` URL-safe characters)?
    One that cannot is refused without asking the database."""
    return isinstance(value, str) and len(value) <= limit and bool(ID_CHARACTERS.fullmatch(value))
