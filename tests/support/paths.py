"""Where the tests find the checkout's own files, defined once for every test module."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DOCS = ROOT / "docs"
# Domino Duel, a test-only fourth game (tests/plugins/dominoduel): its package is on the tests'
# path; its metadata (tests/plugins/installed) only on that of the processes they start.
PLUGINS = ROOT / "tests" / "plugins"


def with_plugins() -> str:
    """The PYTHONPATH of a process that has Domino Duel installed."""
    found = [str(PLUGINS), str(PLUGINS / "installed"), os.environ.get("PYTHONPATH")]
    return os.pathsep.join(filter(None, found))
