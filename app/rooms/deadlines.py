"""Turns past their deadline: found by the clock replayed from the log, or given their
time again after an outage.

A part of `RoomService` (app/rooms/service.py).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from app.rooms.core import RoomsCore

log = logging.getLogger("app.rooms")


class Deadlines(RoomsCore):
    """The clocks' questions about a room's running game."""

    def clock_of(self, code: str) -> Any:
        """This process's clock of the room's running game (None: not loaded, no timer)."""
        room = self.rooms.get(code)
        return None if room is None or room.live is None else room.live.clock

    async def overdue(self, code: str, game_id: str, seq: int) -> int | None:
        """The seat whose turn of game `game_id` at `seq` is past its deadline, by the
        clock replayed from the log, or None (moved on, not due, no timer)."""
        room = await self._room(code)
        async with room.lock:
            live = await self._live(room)
            if live is None or live.id != game_id:
                return None
            await self._catch_up(live)
            clock = live.clock
            deadline = None if clock is None else clock.deadline
            now = datetime.now(UTC)
            if live.seq != seq or deadline is None or deadline > now:
                return None
            # Another process may have given this turn its time again (an outage): the
            # game row says so.
            row = await self._db(self.repo.get_game, game_id)
            if row is not None:
                live.follow_row(row)
            deadline = None if live.clock is None else live.clock.deadline
            if deadline is None or deadline > now:
                return None
            return live.game.to_move

    async def grace(self, code: str, game_id: str, seq: int) -> datetime | None:
        """Give the turn of `game_id` at `seq` its time again from now (the turn limit, or
        the bank the mover had when the turn began): it fell due while no process ran,
        when its player could not move, and was not to be timed out at once (nor count
        toward the timeouts in a row that hand a seat to the computer). Kept on the game
        row, so that every process and restart honours it; the pages are sent the new
        deadline. Returns it, or None when the turn moved on (nothing changed)."""
        room = await self._room(code)
        async with room.lock:
            live = await self._live(room)
            if live is None or live.id != game_id or live.clock is None:
                return None
            await self._catch_up(live)
            clock = live.clock
            if live.seq != seq or clock is None or clock.mover is None:
                return None
            now = datetime.now(UTC)
            until = now + timedelta(seconds=clock.budget)
            if not await self._db(self.repo.extend_deadline, game_id, seq, now, until):
                row = await self._db(self.repo.get_game, game_id)
                if row is None:
                    return None
                live.follow_row(row)  # given by another process: the same grace
                return clock.extended
            live.grace(until)
        log.info("turn given its time again after an outage", extra={"room": code})
        # Every process's pages are sent the state again, with the new deadline.
        grace = {"room": code, "kind": "seq", "seq": seq, "game": game_id}
        await self.hub.publish(grace | {"grace": until.isoformat()})
        return until
