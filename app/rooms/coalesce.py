"""News that may be merged: the latest one says all, so send it at most once a second.

A room's presence (who is connected, how many watch) changes with every arrival. Sent on
each change to everyone in the room, 5,000 spectators arriving would cost 25 million
messages; the room message carries the whole count, so one per second tells as much.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

INTERVAL = 1.0  # seconds: at most one broadcast per room in this time


class Coalescer:
    """Runs `action(key)` at most once per `interval` for each key: at once when the key
    was quiet that long (a lone arrival shows at once), otherwise once when the interval
    is over, covering every change meanwhile."""

    def __init__(self, action: Callable[[str], Awaitable[None]], interval: float = INTERVAL):
        self._action = action
        self._interval = interval
        self._last: dict[str, float] = {}
        self._later: dict[str, asyncio.Task[None]] = {}

    async def poke(self, key: str) -> None:
        if key in self._later:
            return  # already due: it will say this too
        now = asyncio.get_running_loop().time()
        wait = self._last.get(key, now - self._interval) + self._interval - now
        if wait <= 0:
            self._last[key] = now
            self._forget_quiet(now)
            await self._action(key)
            return
        self._later[key] = asyncio.create_task(self._run_later(key, wait))

    async def _run_later(self, key: str, wait: float) -> None:
        await asyncio.sleep(wait)
        del self._later[key]
        self._last[key] = asyncio.get_running_loop().time()
        try:
            await self._action(key)
        except Exception:
            log.exception("a coalesced broadcast failed", extra={"room": key})

    def _forget_quiet(self, now: float) -> None:
        """Keys quiet for longer than the interval need no memory (bounded by live ones)."""
        if len(self._last) > 1024:
            self._last = {k: t for k, t in self._last.items() if now - t < self._interval}

    async def stop(self) -> None:
        tasks = list(self._later.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._later.clear()
