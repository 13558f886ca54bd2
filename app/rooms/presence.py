"""Who is connected to a room, across every server process.

Each process knows its own connections. With one process that is the whole truth
(`LocalPresence`); with several, each writes its share to a Redis hash per room and reads
the others' (`RedisPresence`). Shares carry a timestamp and are refreshed by a heartbeat,
so a process that died without cleaning up stops counting after `STALE_AFTER` seconds;
the live processes' heartbeats then remove its shares of the rooms they serve and tell
those rooms (`drop_stale`).

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

    async def _write(self, room: str, share: tuple[list[int], int]) -> bool:
        """Write this process's share of `room`; True if Redis had none of it (a first
        write, or one another process dropped as stale: see `drop_stale`)."""
        key = self.prefix + room
        if not share[0] and not share[1]:
            await self.redis.hdel(key, self.process_id)
            self._mine.pop(room, None)
            return False
        entry = {"seats": share[0], "spectators": share[1], "at": time.time()}
        added = await self.redis.hset(key, self.process_id, json.dumps(entry))
        await self.redis.expire(key, int(STALE_AFTER * 4))
        self._mine[room] = share
        return bool(added)

    async def heartbeat(self) -> list[str]:
        """Re-stamp this process's shares so that the others keep counting them (and
        write again what could not be written while Redis was away). Returns the rooms
        whose share was missing from Redis (not written yet, or dropped as stale while
        this process was slow): their presence changed for the others, who are to be told."""
        wanted, self._wanted = self._wanted, {}
        back = []
        for room, share in (self._mine | wanted).items():
            try:
                if await self._write(room, share):
                    back.append(room)
            except Exception as exc:
                self._wanted[room] = share
                self._warn(exc)
        return back

    async def drop_stale(self, rooms: list[str]) -> list[str]:
        """Remove the shares of `rooms` that their process stopped refreshing (it died:
        `kill -9`, a lost machine) and return the rooms that had one. `merged` already
        ignores such a share, but nothing told the rooms' pages: a crashed process's
        players looked connected to everyone for as long as no other news came, and
        the others were never offered to let the computer play their seats. Removed,
        not just ignored, so that whichever process removes it announces it once
        (`HDEL` answers who did)."""
        changed = []
        now = time.time()
        for room in rooms:
            key = self.prefix + room
            try:
                entries = await self.redis.hgetall(key)
                stale = [
                    field
                    for field, raw in entries.items()
                    if _text(field) != self.process_id and _stale(raw, now)
                ]
                if stale and await self.redis.hdel(key, *stale):
                    changed.append(room)
            except Exception as exc:
                self._warn(exc)
                break  # Redis away: the next heartbeat looks again
        return changed

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


def _stale(raw: bytes | str, now: float) -> bool:
    """Whether a share was last stamped more than `STALE_AFTER` ago (or is unreadable)."""
    try:
        return bool(now - float(json.loads(raw)["at"]) > STALE_AFTER)
    except (ValueError, KeyError, TypeError):
        return True


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
