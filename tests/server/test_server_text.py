"""The rules for text that people type (kingdomkit.server.text), without a server: what a
name becomes, which names read alike, which scripts an account name may mix."""

from __future__ import annotations

import pytest

from kingdomkit.server.live import RefusedError
from kingdomkit.server.text import (
    check_account_name,
    clean_name,
    clean_password,
    clean_text,
    could_be_id,
    name_key,
)


def test_a_name_is_nfkc_normalised_tidied_and_limited() -> None:
    assert clean_name("\uff21nn \u2003 Lee\u00a0") == "Ann Lee"  # fullwidth A, em and nbsp
    assert clean_name("\u2460 \ufb01sh") == "1 fish"  # circled one, the fi ligature
    long = "mcts:iterations=2000,exploration=1.4,rollouts=8"
    assert clean_text(long, "a name", 40, cut=True) == long[:40]
    for bad, words in [
        ("x" * 41, "at most 40"),
        ("   ", "needed"),
        (None, "must be text"),
        ("A\u00adnn", r"U\+00AD"),  # soft hyphen (Cf)
        ("A\ue000", "private-use"),
        ("A\U000e0041", r"U\+E0041"),  # a tag character (Cf)
    ]:
        with pytest.raises(RefusedError, match=words):
            clean_name(bad)


def test_a_password_is_kept_as_typed() -> None:
    typed = " \ufb01 \u200d \uff21 "
    assert clean_password(typed) == typed
    with pytest.raises(RefusedError, match=r"U\+0009"):
        clean_password("tab\there")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ace", "ACE"),
        ("Ace", "\u0410\u0441\u0435"),  # Cyrillic
        ("Bob", "B0b"),  # zero for O
        ("Tim", "Tirn"),  # r n for m
        ("paypal", "\u0440\u0430\u0443\u0440\u0430l"),  # Cyrillic p a y p a, Latin l
    ],
)
def test_names_that_read_alike_have_one_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


def test_names_that_read_differently_have_different_keys() -> None:
    names = ["Ann", "Anne", "Ann Lee", "Zoë", "Zoe", "田中", "Ελένη"]
    assert len({name_key(name) for name in names}) == len(names)


def test_an_account_name_is_in_one_script_or_a_mix_written_together() -> None:
    for name in ("Ann", "Zoë 2", "田中さん", "山田 Taro", "김민준", "Ελένη", "Иван"):
        check_account_name(name)
    for name in ("\u0410nn", "Alloτ", "Ivan Иван", "Ελ Ann"):
        with pytest.raises(RefusedError, match="one script"):
            check_account_name(name)


def test_ids_and_invitations_are_url_safe_words() -> None:
    assert could_be_id("aZ09_-", 32)
    for bad in ("", "a b", "a\x00", "\u00e9", "x" * 33, None):
        assert not could_be_id(bad, 32)
