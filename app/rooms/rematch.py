"""The offer to "play again" after a game, its deadline, and the next game it starts.

A part of `RoomService` (app/rooms/service.py).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

from app.rooms import table
from app.rooms.core import RoomsCore
from app.rooms.errors import RoomError
from app.rules import get_engine

log = logging.getLogger("app.rooms")


class Rematches(RoomsCore):
    """The offer to play again and its settling, race-safe across processes."""

    async def rematch(self, code: str, token: str | None) -> dict[str, Any]:
        """A seated player asks to play again, or accepts the offer: when every seat has
        accepted, or `REMATCH_SECONDS` after the offer, the room's next game starts with
        the seats that accepted (the others are freed)."""
        room = await self._room(code)
        seat = await self.seat_for(code, token)
        await self._reload(room)
        game_id = room.record.game_id
        if game_id is None or await self._status(room) != "finished":
            raise RoomError("not_finished", "play again once the game is over", 409)
        fresh = table.rematch_offer(
            game_id, room.record, seat, datetime.now(UTC), self.rematch_seconds
        )
        offer = await self._db(self.repo.accept_rematch, code, game_id, seat, fresh)
        if offer is None:
            raise RoomError("already_started", "the next game has already started", 409)
        await self._reload(room)
        # the room's own shape (`room.rematch`), whoever asked, even if this settles it
        offer = offer | {"asked": sorted(table.answering(room.record))}
        if table.rematch_due(offer, room.record, datetime.now(UTC)):
            # Settled now (the next game, or the room open again): the offer itself is
            # not shown, which said "1 of 1 ready, 60 s left" for a moment to a player
            # whose only opponent had left.
            try:
                await self.settle_rematch(code)
            finally:
                await self.hub.publish({"room": code, "kind": "room"})
            return offer
        await self.hub.publish({"room": code, "kind": "room"})
        if offer["deadline"] == fresh["deadline"]:
            wait = datetime.fromisoformat(offer["deadline"]) - datetime.now(UTC)
            task = asyncio.get_running_loop().create_task(
                self._rematch_timer(code, game_id, wait.total_seconds())
            )
            self._timers.add(task)
            task.add_done_callback(self._timers.discard)
        await self.settle_rematch(code)
        return offer

    async def _rematch_timer(self, code: str, game_id: str, wait: float) -> None:
        await asyncio.sleep(max(0.0, wait) + 0.5)
        try:
            await self.settle_rematch(code)
        except Exception:
            log.exception("rematch settling failed", extra={"room": code, "game": game_id})

    async def settle_rematch(self, code: str) -> None:
        """Start the next game if the offer is due (any process may; one wins). Freeing
        the seats that did not accept is decided in one transaction with the offer read
        under the room's row lock (`Repository.settle_rematch`), so that this process's
        timer, another's sweep and a late accept settling at once free each seat once;
        the start is claimed by `replaces`, which one process wins."""
        room = await self._room(code)
        async with room.lock:
            await self._reload(room)
            record = room.record
            offer, game_id = record.rematch, record.game_id
            if offer is None or game_id is None or offer.get("game") != game_id:
                return
            now = datetime.now(UTC)
            if not table.rematch_due(offer, record, now):
                return
            outcome = await self._db(
                self.repo.settle_rematch,
                code,
                game_id,
                lambda fresh, read: table.rematch_due(fresh, read, now),
                get_engine(record.variant).min_players,
            )
            await self._reload(room)
        if outcome is None:
            return  # settled meanwhile (another process), or no longer due
        if outcome == "reopened":
            # Too few stayed: the room is open again for others to join.
            await self.hub.publish({"room": code, "kind": "room"})
            return
        try:
            await self._start(room, replaces=game_id)
        except RoomError:
            await self.hub.publish({"room": code, "kind": "room"})  # another process did

    async def settle_due_rematches(self) -> int:
        """Settle every "play again" offer past its deadline: the offer's own timer lives
        in the memory of the process that took it, and after a restart, or that
        process's crash, nothing else ended it (the players who accepted waited at
        "0 s left" for ever). Every process calls this now and then (the computer's
        sweep); settling is race-safe, so several doing it at once start one game.
        Returns how many offers were looked at."""
        codes = await self._db(self.repo.due_rematches, datetime.now(UTC))
        for code in codes:
            try:
                await self.settle_rematch(code)
            except Exception:  # one broken room must not keep the others waiting
                log.exception("rematch settling failed", extra={"room": code})
            finally:
                self.forget_idle(code)
        return len(codes)
