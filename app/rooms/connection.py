"""One WebSocket connection: who it speaks for, what it was last sent, its send queue.

Sending goes through a queue drained by a writer task, so one slow client never holds up
the fan-out to everybody else in the room; a client that falls too far behind is closed
and resyncs on reconnect, like any client that missed updates.
"""

from __future__ import annotations

import asyncio
import contextlib
import types
from collections.abc import Coroutine, Generator
from typing import Any

from fastapi import WebSocket

from app.rooms.ratelimit import TokenBucket

MAX_QUEUE = 512
CLOSE_TOO_SLOW = 4408
# The server could not send (a message it cannot encode, a broken transport): the client
# reconnects and resyncs, rather than staying on a socket that no longer hears anything.
CLOSE_SEND_FAILED = 1011


class Connection:
    def __init__(
        self,
        websocket: WebSocket,
        room: str,
        burst: int = 40,
        per_second: float = 20.0,
        address: str | None = None,
    ) -> None:
        self.websocket = websocket
        self.room = room
        self.address = address  # the client's address, for limits per address
        self.greeted = False  # said hello: counts as present
        self.welcomed = False  # was sent its welcome: the fan-out may send it updates
        # A spectator's socket of a device that holds a seat of the room (its hello named
        # one, `seated`): a pass-and-play page watching a computer's turn, not a watcher.
        self.companion = False
        self.seat: int | None = None
        # Its hello asked for each state to carry its seat's legal actions (a `legal`
        # round trip fewer per turn: docs/protocol.md).
        self.with_legal = False
        # SHA-256 of the token it said hello with: finds its seat again when seats are
        # renumbered (a seat before it was freed); a seat moved to another device keeps
        # the connections holding the new token and demotes the others.
        self.token_hash: str | None = None
        # seq of the last `state` this connection was sent; -1 before any.
        self.sent_seq = -1
        self.game_id: str | None = None
        self.messages = TokenBucket(capacity=burst, refill_per_second=per_second)
        self.chats = TokenBucket(capacity=5, refill_per_second=0.5)
        self._queue: asyncio.Queue[str | _Rest | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._busy = False  # the writer task is in the middle of a send
        self._closer: asyncio.Task[None] | None = None
        self.closed = False

    @property
    def viewer(self) -> int | None:
        return self.seat

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write())

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self._writer is not None and not self._busy and self._queue.empty():
            self._send_now(text)
            return
        if self._queue.qsize() >= MAX_QUEUE:
            self.closed = True
            self._closer = asyncio.create_task(self._close(CLOSE_TOO_SLOW, "too far behind"))
            return
        self._queue.put_nowait(text)

    def _send_now(self, text: str) -> None:
        """Send at once when nothing is queued before: a send to a socket that can take it
        finishes without waiting, so it is run here rather than by waking the writer task
        (a wake-up per connection per message, thousands per move in a watched game). If
        it has to wait (the client reads slowly), the writer task finishes it, and what is
        sent meanwhile queues behind it."""
        send = self.websocket.send_text(text)
        try:
            waiting = send.send(None)
        except StopIteration:
            return
        except Exception:
            send.close()
            self._failed()
            return
        self._queue.put_nowait(_Rest(send, waiting))

    def _failed(self) -> None:
        # The peer went away, or this message could not be sent: either way the socket
        # is closed, never left open and deaf (its reader then cleans up).
        self.closed = True
        self._closer = asyncio.create_task(self._close(CLOSE_SEND_FAILED, "send failed"))

    async def _write(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            self._busy = True
            try:
                if isinstance(item, _Rest):
                    await item.finish()
                else:
                    await self.websocket.send_text(item)
            except Exception:
                self.closed = True
                await self._close(CLOSE_SEND_FAILED, "send failed")
                return
            finally:
                self._busy = False

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code, reason=reason)

    async def finish(self, code: int | None = None, reason: str = "") -> None:
        """Flush what is queued, stop the writer, and close if a code is given."""
        self._queue.put_nowait(None)
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer, timeout=5)
        self.closed = True
        if code is not None:
            await self._close(code, reason)

    def info(self) -> dict[str, Any]:
        return {"room": self.room, "seat": self.seat}


class _Rest:
    """A send begun by `Connection._send_now` that had to wait for `waiting` (what it
    yielded to the event loop): the writer task runs the rest of it, in order."""

    def __init__(self, send: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.send, self.waiting = send, waiting

    @types.coroutine
    def finish(self) -> Generator[Any, Any, None]:
        yield self.waiting  # back to the loop, as the send itself asked
        yield from self.send  # type: ignore[misc]
