"""kernel.borrowed: the same arrays, not reference counted. Skipped without numba."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

numba = pytest.importorskip("numba")
kn = pytest.importorskip("kingdomkit.games.kingdomino.kernel")


def write_through(arrays: Any) -> int:
    first, (second, third) = kn.borrowed(arrays)
    first[0] = 7
    row = second[1]  # a view of a borrowed array is borrowed too
    row[2] = 8
    third[:] = first[0] + row[2]
    return int(first.sum() + second.sum() + third.sum())


def test_a_borrowed_array_is_the_same_memory() -> None:
    first = np.zeros(3, np.int64)
    second = np.zeros((2, 3), np.int64)
    third = np.zeros(2, np.int64)
    assert numba.njit(write_through)((first, (second, third))) == 7 + 8 + 2 * 15
    assert first.tolist() == [7, 0, 0]
    assert second.tolist() == [[0, 0, 0], [0, 0, 8]]
    assert third.tolist() == [15, 15]


def test_only_arrays_are_borrowed() -> None:
    def borrow_a_number(value: int) -> int:
        return int(kn.borrowed(value))

    with pytest.raises(numba.core.errors.TypingError):
        numba.njit(borrow_a_number)(3)
