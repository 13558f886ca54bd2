"""Run the server under uvicorn with the limits a public server needs (`scripts/serve`).

Uvicorn bounds an idle keep-alive connection and the size of a request's head, but not
the time a client takes to send that head: a connection that sends half a request line
and then nothing holds a file descriptor for ever, and some thousands of them stop the
process from accepting anyone. `GuardedH11Protocol` closes a connection whose request
head is not complete `HTTP_HEADER_TIMEOUT` seconds after it began (or after the
connection opened). `LIMIT_CONCURRENCY` caps connections and tasks: past it a request is
answered 503 before the application is reached. Uvicorn's own answer is plain text; clients
of the protocol expect every error in its JSON shape with a stable code, so the protocol
here makes the same check itself and answers `{"error": {"code": "unavailable", ...}}`
with `Retry-After`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
from typing import Any

import h11
import uvicorn
from uvicorn._types import ASGIReceiveCallable, ASGISendCallable, Scope
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.config import get_settings

# Frames larger than this close the socket (1009) before the application reads them;
# between the protocol's 64 KiB and this, the application answers `too_large`.
WS_MAX_SIZE = 1024 * 1024


OVERLOADED = json.dumps(
    {
        "error": {
            "code": "unavailable",
            "message": "the server has too many connections right now; try again",
        }
    }
).encode()


async def overloaded(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
    """The protocol's error shape for a request past the connection limit."""
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(OVERLOADED)).encode()),
                (b"retry-after", b"2"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": OVERLOADED, "more_body": False})


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, plus a deadline for each request head and a JSON 503."""

    _head_deadline: asyncio.TimerHandle | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's check would answer in plain text: it is switched off and made by
        # `_limited` instead, when the request's task runs (it is then one of the tasks).
        self._limit = self.limit_concurrency
        self.limit_concurrency = None
        if self._limit is not None:
            self.app = self._limited(self.app)

    def _limited(self, app: Any) -> Any:
        limit: int = self._limit  # type: ignore[assignment]

        async def guarded(
            scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
        ) -> None:
            # As uvicorn counts: this connection is one of the connections, and this
            # request's task (already started) one of the tasks.
            if len(self.connections) >= limit or len(self.tasks) > limit:
                self.logger.warning("Exceeded concurrency limit.")
                await overloaded(scope, receive, send)
                return
            await app(scope, receive, send)

        return guarded

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            # Part of a request head arrived (or a new one began on a kept-alive
            # connection): it has until the deadline to be complete.
            if self._head_deadline is None:
                self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        timeout = get_settings().http_header_timeout
        if timeout > 0:
            self._head_deadline = self.loop.call_later(timeout, self._head_late)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_late(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.logger.debug("request head not complete in time; closing")
            self.transport.close()


def raise_open_files(connections: int) -> int:
    """Let the process hold `connections` sockets (plus its files and database handles):
    the soft limit on open files, often 1,024, is raised as far as the hard limit allows.
    Without it, a process that may take 10,000 connections fails at about a thousand with
    "too many open files" instead of answering 503. Returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        return wanted
    return soft


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve Labyrinth under uvicorn.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    settings = get_settings()
    raise_open_files(settings.limit_concurrency or 10_000)
    uvicorn.run(
        "app.main:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        http="app.web.serve:GuardedH11Protocol",
        timeout_keep_alive=int(settings.keep_alive_timeout),
        h11_max_incomplete_event_size=settings.max_header_bytes,
        limit_concurrency=settings.limit_concurrency or None,
        ws_max_size=WS_MAX_SIZE,
        # uvicorn's CLI reads this variable itself; uvicorn.run does not.
        ws_per_message_deflate=os.environ.get("UVICORN_WS_PER_MESSAGE_DEFLATE", "true").lower()
        not in ("false", "0", "no"),
        # Client addresses come from X-Forwarded-For only when the proxy is trusted.
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        timeout_graceful_shutdown=10,
    )


if __name__ == "__main__":
    main()
