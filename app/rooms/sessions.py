"""A room's connections: the hello and its welcome, a player back at the table, a
resync.

A part of `RoomService` (app/rooms/service.py).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from app.rooms import chat as chat_lines
from app.rooms import table
from app.rooms.connection import Connection
from app.rooms.core import RoomsCore
from app.rooms.errors import RoomError
from app.rooms.keys import hash_token
from app.rooms.live import LiveGame, dumps
from app.rooms.room import RoomLive, epoch_ms, plays


class Sessions(RoomsCore):
    """What a connection's arrival, return and departure change in its room."""

    async def connect(self, code: str, conn: Connection) -> None:
        room = await self._room(code)
        room.connections.add(conn)

    async def disconnect(self, conn: Connection) -> None:
        room = self.rooms.get(conn.room)
        if room is None:
            return
        room.connections.discard(conn)
        if conn.greeted:
            connected, _ = await self._presence(room)
            if conn.seat is not None and conn.seat not in connected:
                await self._host_seen(room, conn.seat, present=False)
            await self.hub.publish({"room": conn.room, "kind": "presence"})
        if not room.connections:
            # Nothing here to keep warm; the log has everything.
            self._evict(room)

    async def hello(
        self,
        conn: Connection,
        token: str | None,
        ref: str | int | None = None,
        seated: str | None = None,
    ) -> None:
        """Welcome `conn` (its seat, the room) and send it the game's state. The welcome
        carries `ref`, the hello's `id`, when it had one: a page that says hello again
        with the token it has just been given (after a join) may hear the answer to its
        first, tokenless hello after sending the second, and that `seat: null` is no news
        that its seat was freed, as a welcome the server sends unasked is. A spectator's
        hello `seated` with a seat's token of the room comes from a device that holds that
        seat (a pass-and-play page watching a computer's turn): it is counted among no
        one's spectators. A token that holds no seat there makes it a spectator like any."""
        room = await self._room(conn.room)
        async with room.seating:
            # News of seats waits for this: a seat moved, left or renumbered while the
            # token was looked up then finds the connection holding it, and takes it
            # along (`Fanout._seat_moved`, `Fanout._reseat`).
            seat = None if token is None else await self.seat_for(conn.room, token)
            conn.companion = False
            if seat is None and seated:
                held = await self._db(self.repo.seat_for_token, conn.room, hash_token(seated))
                conn.companion = held is not None
            conn.seat = seat
            conn.token_hash = None if token is None else hash_token(token)
        # News of seats that came during the look-up waits on `seating` behind it, woken
        # by its release but run only at the loop's next turn, and the rest of this hello
        # may not give the loop one before its welcome: it lands now, ahead of a second
        # taking of the lock, and the welcome says the seat as it left it.
        async with room.seating:
            pass
        # Counted as present from now on, but sent nothing by the fan-out until it has its
        # welcome and state, so that no update overtakes the welcome or repeats its state.
        conn.greeted, conn.welcomed = True, False
        async with room.lock:
            if room.read_recently() and room.live is not None:
                live = await self._live(room)
            else:
                await self._reload(room)
                live = await self._live(room)
                if live is not None:
                    await self._catch_up(live)
                room.read_at = time.monotonic()
            stored = (self.repo.recent_chat, conn.room, chat_lines.KEPT)
            await room.chat.read(lambda: self._db(*stored))
        if conn.seat is not None:
            # The seat is the person's again before they are told anything: given back
            # after the welcome and the state, a computer move could land between them,
            # and the welcome showed the computer in the seat of the person it greeted.
            await self._back(room, conn.seat)
        await self._host_seen(room, conn.seat, present=True)
        info = await self._info(room)
        # The seat as it is now: news of seats since the look-up has moved it (or taken
        # it: a spectator's welcome), and told a connection not yet welcomed nothing.
        seat = conn.seat
        welcome = {
            "type": "welcome",
            "seat": seat,
            "room": info,
            "now": epoch_ms(),
            "chat": room.chat.readable(plays(conn)),
        }
        if ref is not None:
            welcome["ref"] = ref
        conn.send(dumps(welcome))
        if live is None and room.live is not None and room.live.id == room.record.game_id:
            live = room.live  # a game may have started while the welcome was built
            # (not the game before a room that reopened: that one is over and gone)
        if live is not None:
            self._send_state(conn, live, with_history=True)
        conn.welcomed = True
        await self.hub.publish({"room": conn.room, "kind": "presence"})
        if seat is not None and live is not None and not live.finished and self._stamp_due(room):
            await self._db(self.repo.touch_games, [live.id], datetime.now(UTC))
            room.stamped_at = time.monotonic()

    def _stamp_due(self, room: RoomLive) -> bool:
        """Whether a seated hello should stamp the game active: a game stamped here less
        than `stamp_every` ago cannot be adjourned (that takes `ADJOURN_AFTER`, three
        times as long), and a crowd of hellos at a start wrote a row each for nothing."""
        return time.monotonic() - room.stamped_at >= self.stamp_every

    async def _back(self, room: RoomLive, seat: int) -> None:
        """A person whose seat the computer plays while they were away is back: the seat
        is theirs again at once. A seat whose player left stays the computer's."""
        record = next((s for s in room.record.seats if s.seat == seat), None)
        if record is not None and record.kind != "computer" and record.reason == "away":
            await self.set_computer(room.record.code, seat, None, None)
            await self._reload(room)

    async def back(self, conn: Connection) -> None:
        """`back`: the sender takes their seat back from the computer (after timeouts)."""
        if conn.seat is None:
            raise RoomError("spectator", "spectators have no seat to take back")
        room = await self._room(conn.room)
        await self._reload(room)
        await self._back(room, conn.seat)
        if room.record.rematch is not None:
            await self.settle_rematch(conn.room)  # its timer may have died with a process

    async def _host_seen(self, room: RoomLive, seat: int | None, present: bool) -> None:
        """Before the start, note when the host's seat goes away or comes back: the
        `host_grace` seconds after which others may start count from then."""
        record = room.record
        host = table.host_seat(record)
        if record.game_id is not None or host is None or host.seat != seat:
            return
        if present == (record.host_away_since is None):
            return
        since = None if present else datetime.now(UTC)
        if await self._db(self.repo.update_room, record.code, None, {"host_away_since": since}):
            await self._reload(room)
            await self.hub.publish({"room": record.code, "kind": "room"})

    async def sync(self, conn: Connection) -> None:
        room = await self._room(conn.room)
        async with room.lock:
            live = await self._live(room)
            if live is None:
                raise RoomError("illegal", "no game is running in this room")
            await self._catch_up(live)
        self._send_state(conn, live, with_history=True)

    def _send_state(self, conn: Connection, live: LiveGame, with_history: bool = False) -> None:
        if conn.game_id != live.id:
            conn.game_id, conn.sent_seq = live.id, -1
        # A connection that missed intermediate states gets the move list again, so its
        # log stays whole without a round trip.
        missed = conn.sent_seq >= 0 and live.seq > conn.sent_seq + 1
        history = with_history or missed or conn.sent_seq < 0
        legal = conn.with_legal and conn.seat is not None
        conn.send(live.state_message(conn.viewer, history, legal))
        conn.sent_seq = live.seq
