"""A room's recent chat, kept by each process that holds the room.

A page that reloads, a seat continued on another device, a spectator who arrives late:
each finds the conversation in its `welcome` (`chat`), as far as it may read it (the
spectators' channel is for spectators only). The lines are kept in the database, so
that a restart or another process has them too; in memory a process keeps the last
`KEPT` of each room it holds, read once, then followed through the hub, which every
line passes through.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from app.store.repository import ChatRecord

KEPT = 50  # lines a welcome carries, and each process keeps per room


def line_message(line: ChatRecord) -> dict[str, Any]:
    """A kept line as the protocol's `chat` message."""
    return {
        "type": "chat",
        "id": line.id,
        "from": {"seat": line.seat, "name": line.name},
        "text": line.text,
        "at": line.at.isoformat(),
        "channel": line.channel,
    }


def readable_by(message: dict[str, Any], player: bool) -> bool:
    """Players (and a player's device watching a computer's turn) do not read the
    spectators' channel; spectators read everything."""
    return not player or message.get("channel") != "spectators"


@dataclass
class ChatHistory:
    """The last lines of one room, in the order of their ids. `lines` is None until read
    from the database; lines the hub brings while they are being read wait in `heard`,
    so that a line said meanwhile is neither lost nor shown twice."""

    lines: list[dict[str, Any]] | None = None
    heard: list[dict[str, Any]] | None = None
    # Held from a line's write to its publication: lines are said in the order they are
    # kept (their ids), as they were when nothing was kept.
    speaking: asyncio.Lock = field(default_factory=asyncio.Lock)

    def hear(self, message: dict[str, Any]) -> None:
        """A line the hub delivered to this process (one without an id, from a process
        of an older version, is told but not kept)."""
        if not isinstance(message.get("id"), int):
            return
        if self.lines is not None:
            self.lines = _last([*self.lines, message])
        elif self.heard is not None:
            self.heard.append(message)

    async def read(self, stored: Callable[[], Awaitable[list[ChatRecord]]]) -> None:
        """Read the room's last lines once (the caller holds the room's lock, so a second
        welcome waits for the first read rather than reading again)."""
        if self.lines is not None:
            return
        self.heard = []
        try:
            kept = [line_message(line) for line in await stored()]
            self.lines = _last([*kept, *self.heard])
        finally:
            self.heard = None

    def readable(self, player: bool) -> list[dict[str, Any]]:
        return [m for m in self.lines or [] if readable_by(m, player)]


def _last(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last `KEPT` lines by id, each once."""
    by_id = {m["id"]: m for m in messages}
    return [by_id[i] for i in sorted(by_id)][-KEPT:]
