"""The hub tells every server process that something changed in a room.

A message is small: `{"room": code, "kind": "seq", "seq": n}` after an action is
committed, `{"room": code, "kind": "room"}` after seats or status change, and
`{"room": code, "kind": "chat", "chat": {...}}`. Each process then reads what it needs
(the log, the room row) and sends each of its own connections what that viewer may see.
Delivery reaches every process exactly once, the publisher included, so the publisher
never fans out on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger("app.hub")

HubMessage = dict[str, Any]
Deliver = Callable[[HubMessage], Awaitable[None]]


class Hub(Protocol):
    async def start(self, deliver: Deliver) -> None: ...

    async def publish(self, message: HubMessage) -> None: ...

    async def stop(self) -> None: ...


class LocalHub:
    """One process: publishing is delivering."""

    def __init__(self) -> None:
        self._deliver: Deliver | None = None

    async def start(self, deliver: Deliver) -> None:
        self._deliver = deliver

    async def publish(self, message: HubMessage) -> None:
        if self._deliver is not None:
            await self._deliver(message)

    async def stop(self) -> None:
        self._deliver = None


class RedisHub:
    """Several processes: Redis pub/sub carries hub messages to all of them.

    If the subscription drops, it reconnects with backoff and then tells this process to
    catch up every room it serves (`{"kind": "resync"}`), since messages published
    meanwhile are lost: the log, not the hub, is the truth.
    """

    def __init__(self, redis: Any, channel: str = "labyrinth:hub") -> None:
        self.redis = redis
        self.channel = channel
        self._deliver: Deliver | None = None
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self._ready = asyncio.Event()

    async def start(self, deliver: Deliver) -> None:
        self._deliver = deliver
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def _listen(self) -> None:
        backoff = 0.1
        first = True
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._ready.set()
                    if not first and self._deliver is not None:
                        await self._deliver({"kind": "resync"})
                    first, backoff = False, 0.1
                    async for raw in pubsub.listen():
                        if raw.get("type") != "message":
                            continue
                        # One task per message: a room waiting on the database must not
                        # hold up the fan-out of every other room.
                        task = asyncio.create_task(self._handle(raw["data"]))
                        self._pending.add(task)
                        task.add_done_callback(self._pending.discard)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hub subscription lost; reconnecting")
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    async def _handle(self, data: bytes | str) -> None:
        try:
            message = json.loads(data)
            if self._deliver is not None:
                await self._deliver(message)
        except Exception:  # one bad message must not stop the fan-out of the others
            log.exception("hub message failed: %r", data[:200])

    async def publish(self, message: HubMessage) -> None:
        await self.redis.publish(self.channel, json.dumps(message, separators=(",", ":")))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._deliver = None
