"""Where the rate limits are counted: this process's memory, or a Redis that every serve
process shares (`--rate-storage redis://host:6379/0`), so that N processes behind a balancer
allow a visitor what one process would, not N times it (sign-in attempts above all).

If the shared storage stops answering, each process counts in its own memory until it answers
again, and tries it again only every RETRY_SECONDS: the limits hold (per process meanwhile),
and no request waits on a dead connection more than once in that time. Redis is reached with
short time-outs for the same reason: a rate check is on the path of every limited request.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from limits import RateLimitItem
    from limits.strategies import MovingWindowRateLimiter
    from limits.util import WindowStats

log = logging.getLogger("kingdomkit.server")
T = TypeVar("T")
MEMORY = "memory://"
RETRY_SECONDS = 5.0  # a shared storage that failed is tried again after this
TIMEOUT_SECONDS = 0.25  # Redis: to connect, and for each answer
KEY_PREFIX = "kingdomkit"  # the keys' prefix in a shared storage
REDIS_SCHEMES = ("redis", "rediss", "redis+unix", "redis+sentinel", "redis+cluster")


class Rates:
    """Moving-window rate limits (the `limits` library) on `uri`, with this process's memory
    standing in while a shared storage does not answer."""

    def __init__(self, uri: str = MEMORY) -> None:
        from limits.storage import MemoryStorage, storage_from_string
        from limits.strategies import MovingWindowRateLimiter

        self.local: MovingWindowRateLimiter = MovingWindowRateLimiter(MemoryStorage())
        self.shared: MovingWindowRateLimiter | None = None
        if uri != MEMORY:
            if uri.partition("://")[0] not in REDIS_SCHEMES:
                raise ValueError("the rates are counted in memory:// or in a redis://")
            options: dict[str, float | str | bool] = {
                "key_prefix": KEY_PREFIX,
                "wrap_exceptions": True,
                "socket_timeout": TIMEOUT_SECONDS,
                "socket_connect_timeout": TIMEOUT_SECONDS,
            }
            self.shared = MovingWindowRateLimiter(storage_from_string(uri, **options))
        self.failed_at: float | None = None  # when the shared storage last failed

    def check(self) -> bool:
        """Does the shared storage answer (True without one)? Said at start."""
        return self.shared is None or bool(self.shared.storage.check())

    def _use(self, ask: Callable[[MovingWindowRateLimiter], T]) -> T:
        shared = self.shared
        if shared is not None and (
            self.failed_at is None or time.monotonic() - self.failed_at >= RETRY_SECONDS
        ):
            from limits.errors import StorageError

            try:
                answer = ask(shared)
            except StorageError as error:
                if self.failed_at is None:
                    log.warning(
                        "the rate limits' shared storage does not answer (%s): counting in"
                        " this process until it does",
                        type(error.storage_error).__name__,
                    )
                self.failed_at = time.monotonic()
            else:
                if self.failed_at is not None:
                    log.warning("the rate limits' shared storage answers again")
                    self.failed_at = None
                return answer
        return ask(self.local)

    def test(self, item: RateLimitItem, *keys: str) -> bool:
        return self._use(lambda limiter: limiter.test(item, *keys))

    def hit(self, item: RateLimitItem, *keys: str) -> bool:
        return self._use(lambda limiter: limiter.hit(item, *keys))

    def clear(self, item: RateLimitItem, *keys: str) -> None:
        self._use(lambda limiter: limiter.clear(item, *keys))

    def get_window_stats(self, item: RateLimitItem, *keys: str) -> WindowStats:
        return self._use(lambda limiter: limiter.get_window_stats(item, *keys))
