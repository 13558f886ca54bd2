"""The one path by which a game changes: an action validated, logged, then fanned out.

A part of `RoomService` (app/rooms/service.py).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.rooms.connection import Connection
from app.rooms.core import DATABASE_DOWN, RoomsCore
from app.rooms.errors import RoomError, unavailable
from app.rooms.live import LiveGame
from app.rules import IllegalAction
from app.store.repository import SeatRecord, StaleWrite

log = logging.getLogger("app.rooms")


@dataclass(frozen=True, slots=True)
class SeatTurn:
    """Whose move it is in a running game, with exactly what that seat may see and do."""

    code: str
    game_id: str
    variant: str
    seq: int
    seat: int
    record: SeatRecord | None
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    # The game's record so far (seed included: server-side only). A computer seat whose
    # player keeps a memory rebuilds that seat's views from it (`app.bots.memory`); the
    # player itself is never handed the record.
    game_record: dict[str, Any] | None = None
    # The kinds of the events of the move before this turn (a dice roll, a duel...): what
    # the others are still reading when the computer is about to move (`computer.pause_after`).
    last_events: tuple[str, ...] = ()


def _refuse_unparsed(live: LiveGame, seat: int, action: dict[str, Any]) -> None:
    """`bad_message` for an action that does not parse, even one sent at a stale seq or
    after the game ended: docs/protocol.md puts it before `stale` and `finished`. The
    engine parses before any other check, so a throw-away apply tells."""
    try:
        live.tentative(seat, action)
    except IllegalAction as exc:
        if exc.code == "bad_message":
            raise RoomError(exc.code, exc.message) from exc


class Play(RoomsCore):
    """Actions of people and the computer, and what a seat may do next."""

    async def act(self, conn: Connection, seq: Any, action: dict[str, Any]) -> None:
        if conn.seat is None:
            raise RoomError("spectator", "spectators cannot act; take a seat to play")
        room = self.rooms.get(conn.room)
        if room is not None:
            # A person who plays is back: the computer stood in for them after timeouts,
            # and would otherwise finish the turn they have just begun.
            await self._back(room, conn.seat)
        await self.submit(conn.room, conn.seat, seq, action)

    async def submit(
        self, code: str, seat: int, seq: Any, action: dict[str, Any], by: str | None = None
    ) -> int:
        """Validate `action` for `seat` at `seq`, append it to the log and fan it out: the
        one path by which a game changes, whether a person or the computer (`by`, e.g.
        `"computer:timeout"`, stored beside the action) sent it. Returns the new seq;
        `RoomError` (`stale` when another writer took this seq) with nothing changed."""
        arrived = time.perf_counter()
        room = await self._room(code)
        async with room.lock:
            live = await self._live(room)
            if live is None:
                raise RoomError("illegal", "no game is running in this room")
            if live.finished or seq != live.seq:
                _refuse_unparsed(live, seat, action)  # bad_message, then stale, then the rest
            if seq != live.seq:
                raise RoomError("stale", f"the game is at seq {live.seq}, not {seq}")
            if live.finished:
                raise RoomError("finished", "the game is over")
            bound = live.game.engine.max_actions
            if live.seq >= bound:
                raise RoomError("too_long", f"a game has at most {bound} actions; this one is over")
            try:
                game, events = live.tentative(seat, action)
            except IllegalAction as exc:
                raise RoomError(exc.code, exc.message) from exc
            now = datetime.now(UTC)
            clock = live.clock_after(game, now, by)
            try:
                await self.repo.commit_action(
                    live.id,
                    game.seq,
                    seat,
                    action,
                    game.result,
                    now,
                    by,
                    False if clock is None else clock.deadline,
                )
            except StaleWrite as exc:
                log.info("lost a race for a seq", extra={"room": code, "game": live.id})
                await self._catch_up(live)
                raise RoomError("stale", "another action was accepted first") from exc
            except DATABASE_DOWN as exc:
                log.warning("database unavailable: %s", exc, extra={"room": code})
                raise unavailable() from exc
            live.commit(game, seat, action, events, by, clock)
            new_seq = live.seq
        # The committed action rides along, so other processes apply it without reading
        # the log; one that is further behind still catches up from the log.
        await self.hub.publish(
            {
                "room": code,
                "kind": "seq",
                "seq": new_seq,
                "game": live.id,
                "action": {"seat": seat, "payload": action, "by": by, "at": now.isoformat()},
            }
        )
        if live.finished:
            await self.hub.publish({"room": code, "kind": "room"})
            log.info("game finished", extra={"room": code, "game": live.id})
            for hook in self.on_finished:
                hook(live.id)
        for committed in self.on_committed:
            committed(code)
        self.metrics.actions.inc()
        self.metrics.latency.observe(time.perf_counter() - arrived)
        return new_seq

    async def seat_turn(self, code: str) -> SeatTurn | None:
        """The room's running game as its next actor sees it, read fresh (room row and
        log): None when no game runs or it is over. What a computer seat decides from."""
        room = await self._room(code)
        async with room.lock:
            await self._reload(room)
            live = await self._live(room)
            if live is None:
                return None
            await self._catch_up(live)
            seat = live.game.to_move
            if live.finished or seat is None:
                return None
            record = next((s for s in room.record.seats if s.seat == seat), None)
            return SeatTurn(
                code=code,
                game_id=live.id,
                variant=live.record.variant,
                seq=live.seq,
                seat=seat,
                record=record,
                view=live.game.view(seat),
                legal=live.game.legal_actions(seat),
                game_record=live.game.record(),
                last_events=tuple(
                    str(event.get("type")) for event in (live.last.events if live.last else ())
                ),
            )

    async def set_computer(
        self, code: str, seat: int, level: str | None, reason: str | None
    ) -> bool:
        """Hand `seat` to the computer at `level` (None: back to its person) and tell
        every process; False if the room has no such seat."""
        await self._room(code)
        changed = await self._db(self.repo.set_computer, code, seat, level, reason)
        if changed:
            await self.hub.publish({"room": code, "kind": "room"})
            log.info(
                "seat controller", extra={"room": code, "seat": seat, "level": level or "human"}
            )
        return changed

    def computer_seated(self, code: str) -> bool:
        """Whether a seat of `code` is played by the computer, as this process's record of
        the room says (True for a room not in memory: only a read can tell)."""
        room = self.rooms.get(code)
        return room is None or any(s.level is not None for s in room.record.seats)

    async def computer_rooms(self) -> list[str]:
        return await self._db(self.repo.computer_rooms)

    async def legal(self, conn: Connection) -> tuple[int, list[dict[str, Any]]]:
        room = await self._room(conn.room)
        async with room.lock:
            live = await self._live(room)
        if live is None:
            return 0, []
        if conn.seat is None:
            return live.seq, []
        return live.seq, live.game.legal_actions(conn.seat)
