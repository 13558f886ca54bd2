"""What each process does now and then: rooms out of memory, abandoned lobbies deleted,
presence kept fresh.

A part of `RoomService` (app/rooms/service.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime, timedelta

from app.rooms.core import RoomsCore

log = logging.getLogger("app.rooms")
# Abandoned lobbies deleted per sweep at most (the next sweep takes the rest).
SWEEP_BATCH = 200


class Upkeep(RoomsCore):
    """The periodic work of a process's rooms."""

    def games_with_players(self) -> list[str]:
        """Live games with a seated player connected to this process."""
        return [
            room.live.id
            for room in self.rooms.values()
            if room.live is not None
            and not room.live.finished
            and any(c.greeted and c.seat is not None for c in room.connections)
        ]

    async def sweep(self, now: datetime, idle: float, lobby_ttl: float = 86_400.0) -> None:
        """Evict from memory the rooms with no socket here unused for `idle` seconds (the
        log has everything; the next visitor loads them again), and delete the rooms
        whose game never started, created more than `lobby_ttl` seconds before `now`,
        with no socket here and no seat connected in any process. Rooms with a game,
        finished or not, are kept."""
        quiet_since = time.monotonic() - idle
        for code, room in list(self.rooms.items()):
            if not room.connections and not room.lock.locked() and room.touched <= quiet_since:
                del self.rooms[code]
        cutoff = now - timedelta(seconds=lobby_ttl)
        for code in await self._db(self.repo.stale_lobbies, cutoff, SWEEP_BATCH):
            room = self.rooms.get(code)
            if room is not None and room.connections:
                continue
            seats, _ = await self.presence.merged(code, set(), 0)
            if seats:
                continue
            if await self._db(self.repo.delete_lobby, code, cutoff):
                self.rooms.pop(code, None)
                log.info("unstarted room deleted after a day", extra={"room": code})

    async def janitor(self, every: float, idle: float, lobby_ttl: float) -> None:
        """`sweep` every `every` seconds, for as long as the process serves."""
        while every > 0:
            await asyncio.sleep(every)
            try:
                await self.sweep(datetime.now(UTC), idle, lobby_ttl)
            except Exception:
                log.exception("room sweep failed")

    async def heartbeat(self, every: float = 10.0) -> None:
        """Keep this process's presence shares fresh (a no-op with one process), and
        notice the shares of processes that stopped keeping theirs (`presence_beat`)."""
        beat = getattr(self.presence, "heartbeat", None)
        while beat is not None:
            await asyncio.sleep(every)
            try:
                await self.presence_beat()
            except Exception:
                log.exception("presence heartbeat failed")

    async def presence_beat(self) -> list[str]:
        """One heartbeat: re-stamp this process's shares, drop the stale shares of dead
        processes in the rooms with connections here, and tell every process about each
        room whose presence so changed (a `presence` hub message: each re-announces the
        room to its pages, the seat shown disconnected, its away time counted from now,
        so that the takeover is offered after `away_after` as for a closed tab).
        Returns those rooms."""
        changed: list[str] = []
        beat = getattr(self.presence, "heartbeat", None)
        if beat is not None:
            changed += await beat() or []
        drop = getattr(self.presence, "drop_stale", None)
        if drop is not None:
            served = [code for code, room in self.rooms.items() if room.connections]
            changed += await drop(served)
        for code in dict.fromkeys(changed):
            await self.hub.publish({"room": code, "kind": "presence"})
        return changed
