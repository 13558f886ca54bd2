"""The fan-out: what each of this process's connections is sent when the hub says a
room changed.

A part of `RoomService` (app/rooms/service.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from app.rooms import chat as chat_lines
from app.rooms.connection import Connection
from app.rooms.core import RoomsCore
from app.rooms.crowd import INLINE, Announced, Crowd, Told
from app.rooms.hub import HubMessage
from app.rooms.live import dumps
from app.rooms.room import RoomLive, plays
from app.store.repository import ActionRecord


class Fanout(RoomsCore):
    """Hub news delivered to this process's connections, each as its viewer may see."""

    async def _deliver(self, message: HubMessage) -> None:
        if message.get("kind") == "resync":
            for code in list(self.rooms):
                await self._deliver({"room": code, "kind": "room"})
                room = self.rooms.get(code)
                if room is not None and room.connections:
                    await self._send_states(room)
            return
        room = self.rooms.get(message.get("room", ""))
        if room is None:
            return
        kind = message.get("kind")
        # This process's own news: it read the room back right after its write, and a
        # change from elsewhere meanwhile comes with news of its own.
        read_here = message.get("read_by") == self.origin
        if kind == "chat":
            room.chat.hear(message["chat"])  # kept for later welcomes, told or not
        if not room.connections:
            # Held here for HTTP use only, with nobody to tell: its row is still read
            # again, so that a join answered by one process is seen by a read from another.
            if kind == "room" and not read_here:
                await self._reload(room)
            return
        if kind == "chat":
            chat = message["chat"]
            text = dumps(chat)
            for conn in list(room.connections):
                if conn.welcomed and chat_lines.readable_by(chat, plays(conn)):
                    conn.send(text)
        elif kind == "room":
            # After any hello that is looking its token up, and before the next one: the
            # row read again and the seats found again by their tokens in one turn of the
            # lock, so that a hello queued behind it welcomes the seat as renumbered.
            async with room.seating:
                if not read_here:
                    await self._reload(room)
                moved = self._reseat(room)
            await self._broadcast_room(room, moved)
        elif kind == "presence":
            await self._presence_news.poke(room.record.code)
        elif kind == "seq":
            await self._send_states(room, message)
        elif kind == "seat_moved":
            await self._seat_moved(room, message)

    async def _seat_moved(self, room: RoomLive, message: HubMessage) -> None:
        """Connections holding the seat's older token lose it: told, then spectators."""
        seat, keep = message.get("seat"), message.get("keep")
        why = message.get("why", "device")
        async with room.seating:  # after any hello that is looking its token up
            moved = [c for c in room.connections if c.seat == seat and c.token_hash != keep]
            for conn in moved:
                conn.seat, conn.token_hash = None, None
        for conn in moved:
            if conn.welcomed:
                conn.send(dumps({"type": "seat_moved", "seat": seat, "why": why}))
                live = room.live
                if live is not None and live.id == conn.game_id:
                    conn.sent_seq = -1  # the spectator's view, with its history
                    self._send_state(conn, live, with_history=True)
        await self._reload(room)
        await self._broadcast_room(room)

    async def _send_states(self, room: RoomLive, message: HubMessage | None = None) -> None:
        """Bring the live game up to the announced `seq` (or the log's end when no
        message says), then send every connection the state it has not had yet."""
        async with room.lock:
            announced = None if message is None else message.get("game")
            if announced is not None and announced != room.record.game_id:
                # A game this process has not heard of yet (a rematch started elsewhere):
                # its seq is no news about the game in memory, whatever the numbers say.
                await self._reload(room)
            live = await self._live(room)
            if live is None:
                return
            seq = None if message is None else int(message.get("seq", 0))
            if seq is None:
                await self._catch_up(live)
            elif live.seq < seq:
                carried = message.get("action") if message is not None else None
                if carried and message.get("game") == live.id and live.seq == seq - 1:
                    by, at = carried.get("by"), carried.get("at")
                    stored = None if at is None else datetime.fromisoformat(at)
                    live.extend(
                        [ActionRecord(seq, carried["seat"], carried["payload"], by, stored)]
                    )
                else:
                    await self._catch_up(live)
            grace = None if message is None else message.get("grace")
            if grace and announced == live.id and seq == live.seq:
                # A turn given its time again after an outage (`grace`): its new
                # deadline, and the state again for the pages that had it.
                live.grace(datetime.fromisoformat(grace))
                for conn in room.connections:
                    if conn.game_id == live.id:
                        conn.sent_seq = min(conn.sent_seq, live.seq - 1)
        # Seats first: their writers then run first, so a player's round trip does not
        # wait behind thousands of spectators' sends.
        everyone = list(room.connections)
        spectators = [c for c in everyone if c.seat is None]
        for conn in (c for c in everyone if c.seat is not None):
            if conn.welcomed and (conn.game_id != live.id or conn.sent_seq < live.seq):
                self._send_state(conn, live)
        crowd = self._crowd(room, len(spectators))
        if crowd is not None:
            crowd.announce(Announced(live.id, live.seq, live.state_message(None)))
            return
        for conn in spectators:
            if conn.welcomed and (conn.game_id != live.id or conn.sent_seq < live.seq):
                self._send_state(conn, live)

    def _crowd(self, room: RoomLive, spectators: int) -> Crowd | None:
        """The room's crowd when its spectators are to be sent a slice at a time: when
        they are many, or while what was announced before is still on its way (so that
        nothing overtakes it). None: send them at once."""
        if room.crowd is None and spectators > INLINE:
            room.crowd = Crowd(
                lambda: [c for c in room.connections if c.seat is None],
                lambda conn: self._catch_up_spectator(room, conn),
                room.lock,
            )
        if room.crowd is not None and (room.crowd.busy or spectators > INLINE):
            return room.crowd
        return None

    def _catch_up_spectator(self, room: RoomLive, conn: Connection) -> None:
        """A spectator the crowd found behind by more than one state: the room's current
        one, with its history (what `sync` sends)."""
        live = room.live
        if live is not None and (conn.game_id != live.id or conn.sent_seq < live.seq):
            self._send_state(conn, live)

    def _reseat(self, room: RoomLive) -> list[Connection]:
        """Seats were renumbered or freed: each seated connection finds its seat again by
        its token; the connections whose seat changed (`seat` None: freed), to be sent a
        new `welcome`. Done before the room's presence is read, which goes by the
        connections' seats: read first, a player moved from seat 2 to 1 showed as gone."""
        by_hash = {s.token_hash: s.seat for s in room.record.seats}
        moved = []
        for conn in list(room.connections):
            if conn.token_hash is None or conn.seat is None:
                continue
            seat = by_hash.get(conn.token_hash)
            if seat != conn.seat:
                conn.seat = seat
                conn.sent_seq = -1
                if seat is None:
                    conn.token_hash = None
                # A connection whose hello is still under way is re-seated all the
                # same (its welcome, to come, says the seat as it is then).
                if conn.welcomed:
                    moved.append(conn)
        return moved

    async def _broadcast_presence(self, code: str) -> None:
        """The room message after presence changes, coalesced (`app/rooms/coalesce.py`)."""
        room = self.rooms.get(code)
        if room is not None and room.connections:
            await self._broadcast_room(room)

    async def _broadcast_room(self, room: RoomLive, moved: Sequence[Connection] = ()) -> None:
        """The room to everyone; first a new `welcome` to the connections `moved` to
        another seat (`_reseat`)."""
        info = await self._info(room)
        for conn in moved:
            conn.send(dumps({"type": "welcome", "seat": conn.seat, "room": info}))
        text = dumps({"type": "room", "room": info})
        everyone = list(room.connections)
        spectators = [c for c in everyone if c.seat is None]
        crowd = self._crowd(room, len(spectators))
        for conn in everyone if crowd is None else (c for c in everyone if c.seat is not None):
            if conn.welcomed:
                conn.send(text)
        if crowd is not None:
            crowd.announce(Told(text))
