"""Who is connected to a room, across every server process.

Each process knows its own connections. With one process that is the whole truth
(`LocalPresence`); with several, each writes its share to a Redis hash per room and reads
the others' (`RedisPresence`). Shares carry a timestamp and are refreshed by a heartbeat,
so a process that died without cleaning up stops counting after `STALE_AFTER` seconds.

While Redis is away, presence is this process's own share (a room looks emptier than it
is, nothing fails); the heartbeat writes every share again once Redis answers.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Protocol

log = logging.getLogger("app.presence")

STALE_AFTER = 30.0


class Presence(Protocol):
    async def merged(self, room: str, seats: set[int], spectators: int) -> tuple[set[int], int]:
        """Record this process's share for `room`; return the share of all processes."""
        ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalPresence:
    async def merged(self, room: str, seats: set[int], spectators: int) -> tuple[set[int], int]:
        return seats, spectators

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


class RedisPresence:
    def __init__(self, redis: Any, process_id: str, prefix: str = "labyrinth:presence:") -> None:
        self.redis = redis
        self.process_id = process_id
        self.prefix = prefix
        self._mine: dict[str, tuple[list[int], int]] = {}
        # Shares that could not be written (Redis away): written by the next heartbeat.
        self._wanted: dict[str, tuple[list[int], int]] = {}
        self._warned = 0.0

    async def merged(self, room: str, seats: set[int], spectators: int) -> tuple[set[int], int]:
        key = self.prefix + room
        share = (sorted(seats), spectators)
        try:
            if share != self._mine.get(room):
                await self._write(room, share)
            entries = await self.redis.hgetall(key)
        except Exception as exc:
            self._wanted[room] = share
            self._warn(exc)
            return set(seats), spectators
        now = time.time()
        all_seats, all_spectators = set(seats), spectators
        for field, raw in entries.items():
            if _text(field) == self.process_id:
                continue
            entry = json.loads(raw)
            if now - entry["at"] <= STALE_AFTER:
                all_seats.update(entry["seats"])
                all_spectators += entry["spectators"]
        return all_seats, all_spectators

    async def _write(self, room: str, share: tuple[list[int], int]) -> None:
        key = self.prefix + room
        if not share[0] and not share[1]:
            await self.redis.hdel(key, self.process_id)
            self._mine.pop(room, None)
            return
        entry = {"seats": share[0], "spectators": share[1], "at": time.time()}
        await self.redis.hset(key, self.process_id, json.dumps(entry))
        await self.redis.expire(key, int(STALE_AFTER * 4))
        self._mine[room] = share

    async def heartbeat(self) -> None:
        """Re-stamp this process's shares so that the others keep counting them (and
        write again what could not be written while Redis was away)."""
        wanted, self._wanted = self._wanted, {}
        for room, share in (self._mine | wanted).items():
            try:
                await self._write(room, share)
            except Exception as exc:
                self._wanted[room] = share
                self._warn(exc)

    def _warn(self, exc: Exception) -> None:
        """One warning a minute while Redis is away, not one per request."""
        now = time.monotonic()
        if now - self._warned > 60:
            self._warned = now
            log.warning("presence: Redis unavailable (%s); counting this process only", exc)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        for room in list(self._mine):
            await self.redis.hdel(self.prefix + room, self.process_id)
        self._mine.clear()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
