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
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger("app.hub")

HubMessage = dict[str, Any]
# Messages kept for Redis while it is away; past this the oldest go (the others resync).
MAX_BACKLOG = 10_000
Deliver = Callable[[HubMessage], Awaitable[None]]


class Hub(Protocol):
    # False while messages from other processes may be missed (Redis away): what this
    # process holds in memory about a room may then be stale and is read again.
    connected: bool

    async def start(self, deliver: Deliver) -> None: ...

    async def publish(self, message: HubMessage) -> None: ...

    async def stop(self) -> None: ...


class LocalHub:
    """One process: publishing is delivering."""

    connected = True

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

    Publishing never fails the caller: it is called after a commit, and the request that
    committed answers its result whatever Redis does. A message Redis refuses is
    delivered to this process at once (its own sockets hear of the change) and kept to be
    published again, oldest first, until Redis takes it; the copy that then comes back
    here is recognised by its `origin` and not delivered twice.
    """

    def __init__(
        self,
        redis: Any,
        channel: str = "labyrinth:hub",
        subscriber: Any = None,
        origin: str | None = None,
    ) -> None:
        self.redis = redis
        # Subscribing holds a connection for good: a client of its own, without the
        # commands' read timeout.
        self.subscriber = subscriber if subscriber is not None else redis
        self.channel = channel
        self.origin = origin or secrets.token_hex(8)
        self._deliver: Deliver | None = None
        self._task: asyncio.Task[None] | None = None
        self._retry: asyncio.Task[None] | None = None
        # Per room, the messages heard and not yet delivered, in the order published,
        # and the one task delivering them (`_dispatch`).
        self._queues: dict[str, deque[HubMessage]] = {}
        self._pending: set[asyncio.Task[None]] = set()
        self._backlog: deque[HubMessage] = deque(maxlen=MAX_BACKLOG)
        self._ready = asyncio.Event()
        self.connected = False

    async def start(self, deliver: Deliver) -> None:
        self._deliver = deliver
        self._task = asyncio.create_task(self._listen())
        try:
            await asyncio.wait_for(self._ready.wait(), timeout=10)
        except TimeoutError:
            # Serve anyway: this process's own rooms work, and the others catch up
            # (resync) once the subscription is made.
            log.warning("hub: Redis does not answer; serving this process only for now")

    async def _listen(self) -> None:
        backoff = 0.1
        first = True
        while True:
            try:
                async with self.subscriber.pubsub() as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._ready.set()
                    self.connected = True
                    if not first and self._deliver is not None:
                        await self._deliver({"kind": "resync"})
                    first, backoff = False, 0.1
                    async for raw in pubsub.listen():
                        if raw.get("type") != "message":
                            continue
                        self._dispatch(raw["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                first, self.connected = False, False
                log.warning("hub subscription lost (%s); reconnecting", exc)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    def _dispatch(self, data: bytes | str) -> None:
        """Queue a heard message behind the earlier ones of its room, and start that
        room's delivery task if none runs. One room's messages are delivered one after
        the other, in the order published: a rematch's `room` news (the new game id) and
        the new game's seq-0 news, delivered side by side, let the seq 0 be judged
        against the finished game (older than its last seq: nothing sent), and the
        other processes' pages stayed on "Game over". Rooms do not wait for each other:
        a room waiting on the database must not hold up the fan-out of every other."""
        try:
            message = json.loads(data)
            if message.pop("origin", None) == self.origin:
                return  # published late by this process, which delivered it already
            key = str(message.get("room", ""))
        except Exception:  # one bad message must not stop the fan-out of the others
            log.exception("hub message unreadable: %r", data[:200])
            return
        queue = self._queues.get(key)
        if queue is not None:
            queue.append(message)  # its room's task is running: it takes it in turn
            return
        self._queues[key] = deque([message])
        task = asyncio.create_task(self._drain(key))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _drain(self, key: str) -> None:
        """Deliver one room's queued messages in order until none is left."""
        queue = self._queues[key]
        try:
            while queue:
                message = queue.popleft()
                try:
                    if self._deliver is not None:
                        await self._deliver(message)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one bad message must not stop the ones behind it
                    log.exception("hub message failed: %r", message)
        finally:
            # No await between the last look at the queue and this: a message heard
            # from now on starts a new task.
            if self._queues.get(key) is queue:
                del self._queues[key]

    async def publish(self, message: HubMessage) -> None:
        if not self._backlog:
            try:
                await self.redis.publish(self.channel, _encode(message))
                return
            except Exception as exc:
                log.warning("hub publish failed (%s); delivering here, retrying", exc)
        # Behind earlier failures (order kept), or failed now: this process hears it now,
        # the others when Redis takes it (or by their resync).
        self._backlog.append(message | {"origin": self.origin})
        if self._retry is None or self._retry.done():
            self._retry = asyncio.create_task(self._republish())
        if self._deliver is not None:
            try:
                await self._deliver(message)
            except Exception:
                log.exception("local delivery failed: %r", message)

    async def _republish(self) -> None:
        backoff = 0.2
        while self._backlog:
            try:
                await self.redis.publish(self.channel, _encode(self._backlog[0]))
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
                continue
            self._backlog.popleft()
            backoff = 0.2
        log.info("hub: Redis takes messages again")

    async def stop(self) -> None:
        for task in (self._task, self._retry):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._deliver = None
        if self.subscriber is not self.redis:
            with contextlib.suppress(Exception):
                await self.subscriber.aclose()


def _encode(message: HubMessage) -> str:
    return json.dumps(message, separators=(",", ":"))
