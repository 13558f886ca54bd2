"""The room's chat: players to the whole room, spectators among themselves.

A part of `RoomService` (app/rooms/service.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app import text as text_rules
from app.rooms import chat as chat_lines
from app.rooms import table
from app.rooms.connection import Connection
from app.rooms.core import RoomsCore
from app.rooms.errors import RoomError
from app.rooms.ratelimit import TokenBucket
from app.rooms.room import clean_name
from app.store.repository import ChatRecord

# Speakers whose chat allowance is remembered before the memory starts afresh.
MAX_SPEAKERS = 10_000


class Talk(RoomsCore):
    """Chat lines: cleaned, limited per speaker, kept, then told."""

    async def chat(self, conn: Connection, text: str, name: str | None = None) -> None:
        """Players talk to the whole room; spectators talk among themselves, so that
        watchers can discuss the game without disturbing (or advising) the players.

        A spectator may give the name it goes by (`name`), so that a crowd's lines are
        told apart (they were all "spectator"); not a seated player's, lookalikes
        included, so that no watcher passes for one. A seat's line carries its seat's
        name, whatever it sends."""
        try:
            text = text_rules.clean_chat(text)
        except text_rules.TextError as exc:
            raise RoomError(exc.code, exc.message, extra={"reason": exc.reason}) from exc
        if conn.seat is None and name:
            name = clean_name(name)
        if not self._chat_bucket(conn).take():
            raise RoomError("rate_limited", "too many chat lines; wait a moment")
        room = await self._room(conn.room)
        if conn.seat is not None:
            name = next((s.name for s in room.record.seats if s.seat == conn.seat), "?")
        elif name:
            table.check_name_free(room.record, name)
        else:
            name = "spectator"
        channel = "room" if conn.seat is not None else "spectators"
        at = datetime.now(UTC)
        # Kept before it is said: a welcome read after this carries it (or the hub does).
        async with room.chat.speaking:
            kept = (conn.room, conn.seat, name, text, channel, at)
            line_id = await self._db(self.repo.add_chat, *kept)
            message = chat_lines.line_message(ChatRecord(line_id, *kept[1:]))
            await self.hub.publish({"room": conn.room, "kind": "chat", "chat": message})

    def _chat_bucket(self, conn: Connection) -> TokenBucket:
        """The allowance of whoever speaks: the seat, or a spectator's address (a
        connection of its own when the address is unknown)."""
        if conn.seat is not None:
            speaker: tuple[str, str, Any] = ("seat", conn.room, conn.seat)
        elif conn.address:
            speaker = ("address", conn.room, conn.address)
        else:
            return conn.chats
        bucket = self._chats.get(speaker)
        if bucket is None:
            if len(self._chats) >= MAX_SPEAKERS:
                self._chats.clear()  # a full bucket is the worst a reset can give
            bucket = self._chats[speaker] = TokenBucket(*self.chat_limits)
        return bucket
