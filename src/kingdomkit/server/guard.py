"""The server's edge against other sites: which origins may change anything, and the headers
that keep the pages from being framed, sniffed or fed scripts from elsewhere.

A browser sends `Origin` with every state-changing request and every WebSocket handshake; a
page of another site (or a DNS-rebound name) that tries to act with the visitor's cookie is
refused with 403. Requests without `Origin` (command-line clients, the load test) hold no
visitor's cookie unless their owner gave it, and pass.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})

# Everything from the server itself; no inline script or style, no frames, no plugins. Styles
# set through the CSSOM (element.style) are not governed by style-src, so the boards may colour
# their chips without 'unsafe-inline'.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")


def is_loopback(host: str) -> bool:
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def normal_origin(origin: str) -> str:
    """`scheme://host[:port]` in lower case, the default port left out, as browsers send it."""
    parts = urlsplit(origin.strip().lower())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"an origin is http(s)://host[:port], not {origin!r}")
    default = 443 if parts.scheme == "https" else 80
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    port = "" if parts.port in (None, default) else f":{parts.port}"
    return f"{parts.scheme}://{host}{port}"


class OriginCheck:
    """Refuse state-changing requests and WebSocket handshakes from another origin (403).

    With `origins` given (a deployment behind a proxy names its public address), exactly
    those are allowed. Without, an origin is allowed when it names the host the request was
    sent to, and, when the server listens on loopback only, that host must be a loopback
    name: a DNS-rebinding page (evil.example resolving to 127.0.0.1) is refused.
    """

    def __init__(self, app: ASGIApp, origins: Iterable[str] = (), loopback: bool = True) -> None:
        self.app = app
        self.origins = frozenset(normal_origin(o) for o in origins)
        self.loopback = loopback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if not self.origins and self.loopback and not self._loopback_host(headers):
            await self._refuse(scope, receive, send, "this server answers on a loopback name only")
            return
        changes = kind == "websocket" or scope["method"] not in SAFE_METHODS
        origin = headers.get("origin")
        if changes and origin is not None and not self._allowed(origin, headers):
            await self._refuse(scope, receive, send, f"requests from {origin!r} are not allowed")
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _loopback_host(headers: Headers) -> bool:
        host = headers.get("host")
        if host is None:
            return True  # HTTP/1.0 without Host: nothing a browser sends
        name = urlsplit(f"//{host}").hostname or ""
        return is_loopback(name)

    def _allowed(self, origin: str, headers: Headers) -> bool:
        try:
            seen = normal_origin(origin)
        except ValueError:
            return False  # "null" (a sandboxed frame, a file) or garbage
        if self.origins:
            return seen in self.origins
        host = headers.get("host", "").lower()
        return seen in (normal_origin(f"http://{host}"), normal_origin(f"https://{host}"))

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, why: str) -> None:
        if scope["type"] == "websocket":
            # Closing before accepting answers the handshake with 403.
            await send({"type": "websocket.close", "code": 1008, "reason": why})
            return
        response = JSONResponse({"detail": why}, status_code=403)
        await response(scope, receive, send)


class SecurityHeaders:
    """Add the security headers to every HTTP answer (HSTS too when served over HTTPS)."""

    def __init__(self, app: ASGIApp, https: bool = False) -> None:
        self.app = app
        self.headers = [*HEADERS, HSTS] if https else list(HEADERS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
