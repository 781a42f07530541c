"""How the server's own log lines look on standard error, and how they are read back.

`serve` and `worker` show them (`show_logs`); `loadtest` counts a server's errors in them
(`LOGGED`), so the format and its reading are kept side by side here.
"""

from __future__ import annotations

import logging
import re

LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s: %(message)s"  # name: whose line it is
# A line of LOG_FORMAT: logging's default time (2026-11-29 05:32:05,123), the logger, the level.
LOGGED = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \S+ ([A-Z]+): ")


def show_logs(level: str) -> None:
    """kingdomkit's log lines on standard error, with their time, from `level` up. Left to
    Python's default, they would show only from warnings up and with no time (uvicorn sets
    up its own loggers only); other libraries still show only their warnings."""
    logging.basicConfig(format=LOG_FORMAT, level=logging.WARNING)
    logging.getLogger("kingdomkit").setLevel(level.upper())
