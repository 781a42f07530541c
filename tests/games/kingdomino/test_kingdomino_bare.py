"""The kernel's rule on numba's runtime (kernel.py's card): everything a playout or a batch
step runs is compiled without reference counting; only the entry points, which allocate,
keep it. Skipped without numba."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

numba = pytest.importorskip("numba")
kn = pytest.importorskip("kingdomkit.games.kingdomino.kernel")
kp = pytest.importorskip("kingdomkit.games.kingdomino.playouts")
kb = pytest.importorskip("kingdomkit.games.kingdomino.batch_kernel")

# The functions that allocate (scratch arrays, copies of the start): numba's runtime on.
ENTRIES = {"work_arrays", "placement_lists", "kingdom_scores", "playouts", "step_batch"}


def dispatchers(module: Any) -> dict[str, Any]:
    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, numba.core.registry.CPUDispatcher)
        and value.py_func.__module__ == module.__name__
    }


@pytest.mark.parametrize("module", [kn, kp, kb], ids=lambda module: module.__name__)
def test_only_the_entry_points_count_references(module: Any) -> None:
    found = dispatchers(module)
    assert found
    for name, function in found.items():
        bare = function.targetoptions.get("_nrt") is False
        assert bare != (name in ENTRIES), name


def test_a_bare_function_cannot_allocate() -> None:
    """Why the entry points keep the runtime: an array made inside fails numba's typing, and
    a slice assignment of one array to another (which may copy its source first) fails to
    compile; copy_into is the bare copy."""

    def allocate(count: int) -> Any:
        return np.zeros(count, np.int64)

    def assign(target: Any, source: Any) -> None:
        target[:] = source

    with pytest.raises(numba.core.errors.TypingError):
        kn.jit(allocate)(3)
    with pytest.raises(numba.core.errors.NumbaError, match="NRT required"):
        kn.jit(assign)(np.zeros(3, np.int64), np.ones(3, np.int64))


def test_copy_into_copies_every_item() -> None:
    source = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    target = np.zeros_like(source)
    kn.copy_into(target, source)
    assert target.tolist() == source.tolist()
