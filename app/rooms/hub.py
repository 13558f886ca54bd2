"""The hub tells every server process that something changed in a room.

A message is small: `{"room": code, "kind": "seq", "seq": n}` after an action is
committed, `{"room": code, "kind": "room"}` after seats or status change, and
`{"room": code, "kind": "chat", "chat": {...}}`. Each process then reads what it needs
(the log, the room row) and sends each of its own connections what that viewer may see.
Delivery reaches every process exactly once, the publisher included, so the publisher
never fans out on its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

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
