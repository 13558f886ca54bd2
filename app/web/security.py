"""Security headers on every answer, and `/metrics` only for the configured networks.

Pages get a Content-Security-Policy whose scripts come from this origin or carry the
request's nonce (the import map and the replay page's inline scripts: templates use
`csp_nonce(request)`), may not be framed, and send no referrer to other sites. Every
answer says `nosniff`, so a JSON or text body is never run as a script.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Iterable
from typing import Any

from fastapi import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

NONCE_KEY = "csp_nonce"


def policy(nonce: str) -> str:
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' 'nonce-{nonce}'",
            # the client draws with inline SVG and sets inline styles on it
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def csp_nonce(request: Request) -> str:
    """This request's script nonce (templates: `nonce="{{ csp_nonce(request) }}"`)."""
    nonce = request.scope.setdefault("state", {}).get(NONCE_KEY)
    if nonce is None:  # a page rendered outside the middleware (a test's bare app)
        nonce = request.scope["state"][NONCE_KEY] = secrets.token_urlsafe(16)
    return str(nonce)


class SecurityHeaders:
    """Pure ASGI (WebSockets and streamed bodies pass untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state.setdefault(NONCE_KEY, secrets.token_urlsafe(16))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                extra = [(b"x-content-type-options", b"nosniff")]
                content_type = dict(headers).get(b"content-type", b"")
                if content_type.startswith(b"text/html"):
                    extra += [
                        (b"content-security-policy", policy(state[NONCE_KEY]).encode()),
                        (b"x-frame-options", b"DENY"),
                        (b"referrer-policy", b"same-origin"),
                    ]
                headers += [(k, v) for k, v in extra if k not in names]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def parse_networks(spec: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """`METRICS_NETWORKS`: comma-separated networks (`127.0.0.0/8,10.0.0.0/8`)."""
    parts = [part.strip() for part in spec.split(",")]
    return [ipaddress.ip_network(part, strict=False) for part in parts if part]


def allowed(host: Any, networks: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    """True when `host` (a client address) is in one of `networks`."""
    try:
        address = ipaddress.ip_address(str(host))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)
