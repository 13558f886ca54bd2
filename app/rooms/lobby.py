"""Rooms made, seats taken and freed, games started: what the lobby and the waiting
room ask of a room.

A part of `RoomService` (app/rooms/service.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from app.replays import iso
from app.rooms import table
from app.rooms.clock import ClockError, parse_clock
from app.rooms.core import RoomsCore
from app.rooms.errors import RoomError, not_found, unauthorized
from app.rooms.keys import hash_token, new_game_id, new_room_code, new_seed, new_token
from app.rooms.live import LiveGame
from app.rooms.room import RoomLive, clean_name
from app.rules import ENGINES, get_engine, seed_hash
from app.store.repository import GameRecord, RoomClosed, RoomFull, RoomRecord, TooFewPlayers

log = logging.getLogger("app.rooms")
# A room row read this recently (seconds) is not read again before a write in the same
# request: the write's own transaction checks what must hold (seats free, not started).
FRESH_READ = 0.05


class Lobby(RoomsCore):
    """Making rooms, seating people and computers, starting games."""

    async def create_room(
        self,
        variant: str,
        options: dict[str, Any] | None,
        listed: bool = False,
        clock: Any = None,
    ) -> tuple[RoomRecord, str]:
        """A new room and its host token (the key to its options, seats and start)."""
        if variant not in ENGINES:
            raise RoomError("bad_request", f"unknown variant {variant!r}", 422)
        normalised = self._options(variant, options)
        try:
            settings = parse_clock(clock)
        except ClockError as exc:
            raise RoomError("bad_clock", str(exc), 422) from exc
        timer = None if settings is None else settings.to_json()
        code = new_room_code()
        host_token = new_token()
        await self._db(
            self.repo.create_room,
            code,
            variant,
            normalised,
            hash_token(host_token),
            listed,
            timer,
        )
        log.info("room created", extra={"room": code})
        record = RoomRecord(
            code, variant, normalised, datetime.now(UTC), None, (), listed=listed, clock=timer
        )
        return record, host_token

    async def create_table(
        self,
        variant: str,
        options: dict[str, Any] | None,
        listed: bool = False,
        clock: Any = None,
        name: str | None = None,
        computers: tuple[str, ...] = (),
        start: bool = False,
    ) -> dict[str, Any]:
        """A room with, in one call, the creator's seat, computer seats and the start
        (`POST /api/rooms`'s extensions). A call that is refused leaves no room behind:
        what can be checked before is (the name, the levels, enough players to start, and
        seats enough for them), and a room whose later step fails anyway is deleted. A
        refused name left an empty open table in the lobby at each try, and a refused
        start a table whose host seat nobody held the key to."""
        if start and name is None:
            raise RoomError("bad_request", "start: a room started at once needs your name", 422)
        if name is not None:
            name = clean_name(name)
        for level in computers:
            table.check_level(level)
        if variant in ENGINES:
            engine = get_engine(variant)
            seats = (name is not None) + len(computers)
            if seats > engine.max_players:
                raise RoomError("room_full", "every seat is taken", 409)
            if start and seats < engine.min_players:
                raise RoomError(
                    "too_few_players", f"at least {engine.min_players} players are needed", 409
                )
        room, host_token = await self.create_room(variant, options, listed, clock)
        answer: dict[str, Any] = {
            "code": room.code,
            "variant": room.variant,
            "options": room.options,
            "clock": room.clock,
            "host_token": host_token,
        }
        try:
            if name is not None:
                answer["seat"], answer["token"] = await self.join(room.code, name, host_token)
            for level in computers:
                await self.add_computer(room.code, host_token, level)
            if start:
                answer["game_id"] = await self.start_game(room.code, host_token)
        except BaseException:
            await asyncio.shield(self._discard_room(room.code))
            raise
        return answer

    async def _discard_room(self, code: str) -> None:
        """Delete a room that was never handed to anyone (its creation was refused)."""
        try:
            await self._db(self.repo.delete_lobby, code, datetime.now(UTC) + timedelta(days=1))
        except Exception:
            # The sweep deletes it after LOBBY_TTL_HOURS: no seat of it is ever connected.
            log.exception("a refused room was not deleted", extra={"room": code})
        self.rooms.pop(code, None)

    async def room_info(self, code: str) -> dict[str, Any]:
        room = self.rooms.get(code)
        if room is not None and not self.hub.connected:
            await self._reload(room)  # no news from other processes meanwhile: read it
        if room is None:
            record = await self._db(self.repo.get_room, code)
            if record is None:
                raise not_found("room")
            return await self._info(RoomLive(record))
        return await self._info(room)

    async def spectator_view(self, code: str) -> dict[str, Any]:
        """The running game's view for a viewer without a seat, exactly what any spectator
        is sent (so no secret): the lobby's live thumbnails. From memory when the room is
        here, else re-played from the log without keeping it."""
        room = self.rooms.get(code)
        live = room.live if room is not None else None
        if live is None:
            record = await self._db(self.repo.get_room, code)
            if record is None:
                raise not_found("room")
            game = (
                None
                if record.game_id is None
                else await self._db(self.repo.get_game, record.game_id)
            )
            if game is None:
                raise RoomError("illegal", "no game is running in this room", 409)
            live = LiveGame.load(game, await self._db(self.repo.actions, game.id, 0))
        return {"seq": live.seq, "view": live.game.view(None)}

    async def presence_counts(self, code: str) -> tuple[int, int]:
        """The seated players connected to a room and its spectators, over every process:
        the lobby's "watching", and whether anyone is at the table (a game whose players
        all went is frozen until one comes back, however many watch it)."""
        room = self.rooms.get(code)
        if room is None:
            seats, spectators = await self.presence.merged(code, set(), 0)
        else:
            seats, spectators = await self._presence(room)
        return len(seats), spectators

    async def join(
        self, code: str, raw_name: str, host_token: str | None = None
    ) -> tuple[int, str]:
        """Seat a person; with the room's host token the seat is the host's."""
        name = clean_name(raw_name)
        room = await self._room(code)
        token = new_token()
        is_host = host_token is not None and self._is_host(room.record, host_token)
        seat = await self._add_seat(room, name, hash_token(token), host=is_host)
        log.info("seat taken", extra={"room": code, "seat": seat})
        return seat, token

    async def add_computer(self, code: str, host_token: str | None, level: str) -> tuple[int, str]:
        """The host adds a computer seat of `level` before the start."""
        room = await self._room(code)
        self._require_host(room.record, host_token)
        name = table.computer_name(room.record, level)
        seat = await self._add_seat(room, name, hash_token(new_token()), level=level)
        log.info("computer seat added", extra={"room": code, "seat": seat})
        return seat, name

    async def _add_seat(
        self,
        room: RoomLive,
        name: str,
        token_hash: str,
        host: bool = False,
        level: str | None = None,
    ) -> int:
        code = room.record.code
        engine = get_engine(room.record.variant)
        kind = "human" if level is None else "computer"
        async with room.lock:
            await self._reload(room, unless_within=FRESH_READ)
            if room.record.game_id is not None:
                raise RoomError("already_started", "the game has started", 409)
            table.check_name_free(room.record, name)
            # The seat is chosen in the database, in one transaction with the room row
            # locked: across processes, a join and a start never both win.
            try:
                # The room comes back as the seat left it, read in the same transaction.
                seat, record = await self._db(
                    self.repo.take_seat_and_read,
                    code,
                    name,
                    token_hash,
                    engine.max_players,
                    kind,
                    level,
                    host,
                )
            except RoomClosed as exc:
                raise RoomError("already_started", "the game has started", 409) from exc
            except RoomFull as exc:
                raise RoomError("room_full", "every seat is taken", 409) from exc
            self._keep(room, record)
        await self.hub.publish(self._news(code))
        return seat

    async def update_room(
        self,
        code: str,
        host_token: str | None,
        options: dict[str, Any] | None = None,
        listed: bool | None = None,
    ) -> dict[str, Any]:
        """The host changes the options or the open-table listing until the start."""
        room = await self._room(code)
        self._require_host(room.record, host_token)
        values: dict[str, Any] = {}
        if options is not None:
            values["options"] = self._options(room.record.variant, options)
        if listed is not None:
            values["listed"] = listed
        async with room.lock:
            await self._reload(room)
            if room.record.game_id is not None:
                raise RoomError("already_started", "the game has started", 409)
            if values and not await self._db(self.repo.update_room, code, None, values):
                raise RoomError("already_started", "the game has started", 409)
            await self._reload(room)
        await self.hub.publish({"room": code, "kind": "room"})
        return await self._info(room)

    async def remove_seat(self, code: str, seat: int, token: str | None) -> None:
        """A seated player leaves their seat, or the host frees any seat, before the start
        (or while a finished game's "play again" is open). Later seats move down one."""
        room = await self._room(code)
        if not token:
            raise unauthorized()
        hashed = hash_token(token)
        async with room.lock:
            await self._reload(room)
            record = room.record
            own = next((s for s in record.seats if s.token_hash == hashed), None)
            host = self._is_host(record, token)
            if not host and own is None:
                raise unauthorized()  # no key of this room's: 401, as the contract says
            if not host and own is not None and own.seat != seat:
                raise RoomError("not_host", "only the host may free another's seat", 403)
            if not any(s.seat == seat for s in record.seats):
                raise not_found("seat")
            game_id = record.game_id
            if game_id is not None and await self._status(room) != "finished":
                raise RoomError("already_started", "the game has started", 409)
            offered = record.rematch is not None and record.rematch.get("game") == game_id
            if game_id is not None and not offered:
                # Freed with no offer open, the seats went and the room stayed "finished"
                # with nobody in it: no join, no start, no "play again", for good.
                raise RoomError(
                    "no_rematch",
                    "after a game, a seat is freed by saying no to its “play again”; none is open",
                    409,
                )
            if not await self._db(self.repo.remove_seat, code, seat, game_id):
                raise RoomError("already_started", "the game has started", 409)
            await self._reload(room)
        await self.hub.publish({"room": code, "kind": "room"})
        log.info("seat freed", extra={"room": code, "seat": seat})
        if game_id is not None:
            # "No thanks" to playing again: the others may all have accepted already.
            await self.settle_rematch(code)

    async def open_tables(self, limit: int = 20) -> list[dict[str, Any]]:
        """Open tables for the lobby: listed rooms not started, with seats free."""
        rooms = await self._db(self.repo.open_rooms, limit)
        tables = []
        for record in rooms:
            engine = get_engine(record.variant)
            free = engine.max_players - len(record.seats)
            if free > 0:
                tables.append(
                    {
                        "code": record.code,
                        "url": f"/r/{record.code}",
                        "variant": record.variant,
                        "options": record.options,
                        "players": [s.name for s in record.seats],
                        "seats_free": free,
                        "min_players": engine.min_players,
                        "max_players": engine.max_players,
                        "created_at": iso(record.created_at),
                    }
                )
        return tables

    async def device_link(self, code: str, token: str | None, ttl: float) -> tuple[int, str]:
        """A one-time key that moves the seat of `token` to another device (`claim_device`).
        The caller puts it in a URL fragment, which browsers never send to a server."""
        seat = await self.seat_for(code, token)
        transfer = new_token()
        expires = datetime.now(UTC) + timedelta(seconds=ttl)
        await self._db(self.repo.set_transfer, code, seat, hash_token(transfer), expires)
        return seat, transfer

    async def claim_device(self, code: str, transfer: str) -> tuple[int, str, str | None]:
        """Spend a device key: a new seat token for this device; the older one stops
        working and its connections are told the seat moved (they become spectators). The
        host's seat brings a new host key too (the older one stops working): the third
        value, None for any other seat."""
        room = await self._room(code)
        token, host = new_token(), new_token()
        claimed = await self._db(
            self.repo.claim_transfer,
            code,
            hash_token(transfer),
            hash_token(token),
            datetime.now(UTC),
            hash_token(host),
        )
        if claimed is None:
            raise RoomError("bad_transfer", "this device link is unknown, used or expired", 404)
        seat, was_host = claimed
        if was_host:
            await self._reload(room)  # the host's key here at once, not at the hub's news
        await self.hub.publish(
            {"room": code, "kind": "seat_moved", "seat": seat, "keep": hash_token(token)}
        )
        log.info("seat moved to another device", extra={"room": code, "seat": seat})
        return seat, token, host if was_host else None

    async def start_game(self, code: str, token: str | None) -> str:
        """Only the host starts (with the host token or from the host's seat); when the
        host's seat has been disconnected for `host_grace` seconds, any seated player."""
        room = await self._room(code)
        if not token:
            raise unauthorized()
        await self._reload(room, unless_within=FRESH_READ)
        if room.record.game_id is not None:
            raise RoomError("already_started", "the game has already started", 409)
        if not self._is_host(room.record, token):
            seat = await self.seat_for(code, token)
            host = table.host_seat(room.record)
            if host is None or host.seat != seat:
                await self._check_host_gone(room)
        return await self._start(room)

    async def _check_host_gone(self, room: RoomLive) -> None:
        connected, _ = await self._presence(room)
        host = table.host_seat(room.record)
        now = datetime.now(UTC)
        check = table.others_may_start(
            room.record, host is not None and host.seat in connected, now, self.host_grace
        )
        if check.allowed:
            return
        if check.host_away_since is not None and room.record.host_away_since is None:
            # Nobody saw the host leave (their process died): count from now.
            await self._db(self.repo.update_room, room.record.code, None, {"host_away_since": now})
            await self.hub.publish({"room": room.record.code, "kind": "room"})
        if check.host_away_since is None:
            raise RoomError("not_host", "only the host starts while the host is here", 403)
        raise RoomError(
            "host_away",
            f"the host is away; any seated player may start in {check.wait_seconds:.0f} s",
            409,
        )

    async def _start(self, room: RoomLive, replaces: str | None = None) -> str:
        code = room.record.code
        engine = get_engine(room.record.variant)
        async with room.lock:
            await self._reload(room, unless_within=FRESH_READ)
            if room.record.game_id != replaces:
                raise RoomError("already_started", "the game has already started", 409)
            seed = new_seed()
            # no players yet: the seats taken are read when the room is claimed, in that transaction
            proposed = GameRecord.live(
                new_game_id(),
                room.record.variant,
                room.record.options,
                seed,
                seed_hash(seed),
                room_code=code,
                clock=room.record.clock,
            )
            # Every seat's first turn has the clock's whole budget (turn limit or bank).
            timer = parse_clock(room.record.clock)
            started = proposed.started_at
            deadline = None if timer is None else started + timedelta(seconds=timer.seconds)
            proposed = dataclasses.replace(proposed, deadline=deadline, active_at=started)
            try:
                record, read_back = await self._db(
                    self.repo.start_game_and_read,
                    proposed,
                    engine.min_players,
                    replaces,
                )
            except RoomClosed as exc:
                raise RoomError("already_started", "the game has already started", 409) from exc
            except TooFewPlayers as exc:
                raise RoomError(
                    "too_few_players", f"at least {engine.min_players} players are needed", 409
                ) from exc
            room.live = LiveGame.load(record, [])  # a deal, no log to replay: here
            self._keep(room, read_back)
            room.stamped_at = time.monotonic()  # the start stamped it
        await self.hub.publish(self._news(code))
        # Naming the game: a process still holding the game this one replaces must not
        # take seq 0 for an old state of that game (`_send_states`).
        await self.hub.publish({"room": code, "kind": "seq", "seq": 0, "game": record.id})
        log.info("game started", extra={"room": code, "game": record.id})
        for committed in self.on_committed:
            committed(code)
        return record.id
