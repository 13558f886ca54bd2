"""Run the server under uvicorn with the limits a public server needs (`scripts/serve`).

Uvicorn bounds an idle keep-alive connection and the size of a request's head, but not
the time a client takes to send that head: a connection that sends half a request line
and then nothing holds a file descriptor for ever, and some thousands of them stop the
process from accepting anyone. `GuardedH11Protocol` closes a connection whose request
head is not complete `HTTP_HEADER_TIMEOUT` seconds after it began (or after the
connection opened). `LIMIT_CONCURRENCY` caps connections and tasks: past it, uvicorn
answers 503 before the application is reached.
"""

from __future__ import annotations

import argparse
import asyncio
import os

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.config import get_settings

# Frames larger than this close the socket (1009) before the application reads them;
# between the protocol's 64 KiB and this, the application answers `too_large`.
WS_MAX_SIZE = 1024 * 1024


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, plus a deadline for each request head."""

    _head_deadline: asyncio.TimerHandle | None = None

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve Labyrinth under uvicorn.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    settings = get_settings()
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
