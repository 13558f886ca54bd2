"""What every part of the room service shares: this process's rooms in memory, the
database calls in worker threads, and the room as it is read and shown.

The parts (app/rooms/lobby.py, rematch.py, sessions.py, play.py, talk.py, fanout.py,
deadlines.py, upkeep.py) each add one concern to `RoomsCore`; `RoomService`
(app/rooms/service.py) is all of them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from anyio import CapacityLimiter, to_thread
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.metrics import Metrics
from app.replays import iso
from app.rooms import table
from app.rooms.coalesce import Coalescer
from app.rooms.connection import Connection
from app.rooms.errors import RoomError, not_found, unauthorized, unavailable
from app.rooms.hub import Hub, HubMessage
from app.rooms.keys import hash_token
from app.rooms.live import LiveGame
from app.rooms.presence import LocalPresence, Presence
from app.rooms.ratelimit import TokenBucket
from app.rooms.room import RoomLive, seat_info
from app.rules import InvalidOptions, new_options, seat_colors
from app.store.repository import Repository, RoomRecord, Unavailable

T = TypeVar("T")
# What a database that is down, locked or unreachable raises: the retryable `unavailable`.
DATABASE_DOWN = (Unavailable, OperationalError, InterfaceError, PoolTimeout)
log = logging.getLogger("app.rooms")
# Chat lines per speaker (a seat, or a spectator's address): a burst, then one per 2 s.
CHAT_BURST = 5
CHAT_PER_SECOND = 0.5
# Rooms whose players' absence is remembered after the room left memory (`_evict`).
GONE_KEPT = 10_000


class RoomsCore:
    """The state every part works on, and the reads and checks they share."""

    def __init__(
        self,
        repo: Repository,
        hub: Hub,
        presence: Presence | None = None,
        metrics: Metrics | None = None,
        away_after: float = 60.0,
        db_threads: int = 40,
    ) -> None:
        self.repo = repo
        # When this process began serving: a turn that fell due before it, long enough
        # ago that no live process can have been watching, fell due during an outage.
        self.started_at = datetime.now(UTC)
        # Marks this process's own `room` news, which it need not read again.
        self.origin = secrets.token_hex(8)
        # A seated player's hello stamps the game active (for adjournment) at most this
        # often (seconds); 0: every hello. `keep_active` stamps the others.
        self.stamp_every = 0.0
        # Worker threads the room calls to the database may use at once (`_db`).
        self.db_threads = db_threads
        self._db_limiter: CapacityLimiter | None = None
        # A seated player disconnected this long is "away": the others may hand the seat
        # to the computer (`app/rooms/away.py`).
        self.away_after = away_after
        self._tasks: set[asyncio.Task[Any]] = set()
        self.hub = hub
        self.presence = presence or LocalPresence()
        self.metrics = metrics or Metrics()
        self.metrics.track(self.connection_count, lambda: len(self.rooms))
        self.rooms: dict[str, RoomLive] = {}
        # Since when the seats of rooms that left memory were seen without a connection
        # (`_evict`), the oldest dropped past `GONE_KEPT` rooms.
        self.gone_before: dict[str, dict[int, float]] = {}
        # Chat buckets by speaker: ("seat", room, seat) or ("address", room, host), so
        # that twenty connections of one seat share one allowance.
        self._chats: dict[tuple[str, str, Any], TokenBucket] = {}
        self.chat_limits: tuple[int, float] = (CHAT_BURST, CHAT_PER_SECOND)
        # Seconds the host's seat must be disconnected before others may start.
        self.host_grace = 60.0
        # Seconds a "play again" offer waits for the seats that have not accepted.
        self.rematch_seconds = table.REMATCH_SECONDS
        self._timers: set[asyncio.Task[None]] = set()
        # Presence changes reach a room at most once a second (quadratic otherwise).
        self._presence_news = Coalescer(self._broadcast_presence)
        # Called with the game id when a game ends here (the replay starts building).
        self.on_finished: list[Callable[[str], None]] = []
        # Called with the room code after this process committed an action or started a
        # game, or loaded a running game from the log (a computer seat may be due).
        self.on_committed: list[Callable[[str], None]] = []

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn` in a worker thread; a database that does not answer (or not in time)
        becomes the protocol's retryable `unavailable`, never a dropped socket or a 500."""
        try:
            return await to_thread.run_sync(fn, *args, limiter=self._limiter())
        except DATABASE_DOWN as exc:
            log.warning("database unavailable: %s", exc)
            raise unavailable() from exc

    async def run_db(self, fn: Callable[..., T], *args: Any) -> T:
        """A repository call in a worker thread, for the room modules beside this one."""
        return await to_thread.run_sync(fn, *args, limiter=self._limiter())

    def _limiter(self) -> CapacityLimiter:
        """The room calls' own share of worker threads. SQLAlchemy's work is Python that
        holds the GIL: on SQLite, forty threads taking turns at it made each read take
        8 ms instead of 0.5 and each write hold SQLite's lock 4 ms instead of 1.5, which
        set the pace of every join and start (`docs/performance.md`). Made on first use,
        inside the event loop, as anyio wants."""
        if self._db_limiter is None:
            self._db_limiter = CapacityLimiter(self.db_threads)
        return self._db_limiter

    async def start(self) -> None:
        await self.hub.start(self._deliver)

    async def stop(self) -> None:
        for task in list(self._timers):
            task.cancel()
        for room in self.rooms.values():
            if room.crowd is not None:
                room.crowd.stop()
        await self._presence_news.stop()
        await self.hub.stop()

    @staticmethod
    def _options(variant: str, options: dict[str, Any] | None) -> dict[str, Any]:
        try:
            return new_options(variant, options or {})  # stamped: the current rules
        except InvalidOptions as exc:
            raise RoomError("bad_options", str(exc), 422) from exc

    async def _room(self, code: str) -> RoomLive:
        room = self.rooms.get(code)
        if room is None:
            began = time.monotonic()
            record = await self._db(self.repo.get_room, code)
            if record is None:
                raise not_found("room")
            gone = self.gone_before.pop(code, {})
            room = self.rooms.setdefault(code, RoomLive(record, record_at=began, gone_since=gone))
        room.touched = time.monotonic()
        return room

    async def _reload(self, room: RoomLive, unless_within: float = 0.0) -> None:
        """Read the room row again, unless it was read less than `unless_within` s ago."""
        if unless_within and time.monotonic() - room.record_at < unless_within:
            return
        began = time.monotonic()
        self._keep(room, await self._db(self.repo.get_room, room.record.code), began)

    @staticmethod
    def _keep(room: RoomLive, record: RoomRecord | None, as_of: float | None = None) -> None:
        """Keep `record`, read as of `as_of` (default: now, for a write's read-back), unless
        what is kept is newer: a read that began before a join and answered after it
        would take the seat away again, and the next `room` news then told the seat's
        connection that its seat was freed (it let go of its token and watched)."""
        as_of = time.monotonic() if as_of is None else as_of
        if record is not None and as_of >= room.record_at:
            room.record, room.record_at = record, as_of

    def _news(self, code: str) -> HubMessage:
        """The `room` message after this process wrote the room and read it back."""
        return {"room": code, "kind": "room", "read_by": self.origin}

    async def _presence(self, room: RoomLive) -> tuple[set[int], int]:
        """Record this process's connections to `room`; the seats and watchers of all."""
        greeted = [c for c in room.connections if c.greeted]
        return await self.presence.merged(
            room.record.code,
            {c.seat for c in greeted if c.seat is not None},
            sum(1 for c in greeted if c.seat is None and not c.companion),
        )

    async def _status(self, room: RoomLive) -> str:
        record = room.record
        if record.game_id is None:
            return "lobby"
        if room.live is not None and room.live.id == record.game_id:
            return "finished" if room.live.finished else "playing"
        game = await self._db(self.repo.get_game, record.game_id)
        return "finished" if game and game.status == "finished" else "playing"

    async def _info(self, room: RoomLive) -> dict[str, Any]:
        record = room.record
        connected, spectators = await self._presence(room)
        away = self._away_seats(room, connected)
        status = await self._status(room)
        host = table.host_seat(record)
        return {
            "code": record.code,
            "variant": record.variant,
            "options": record.options,
            "status": status,
            "seats": [
                seat_info(s, s.seat in connected) | {"away": s.seat in away} for s in record.seats
            ],
            # the colours its game deals, seat by seat: the waiting room shows them
            "colors": list(seat_colors(record.variant, record.options)),
            "game_id": record.game_id,
            "spectators": spectators,
            "clock": record.clock,
            "listed": record.listed,
            "host": {
                "seat": None if host is None else host.seat,
                "connected": host is not None and host.seat in connected,
                "away_since": iso(record.host_away_since),
                "grace": self.host_grace,
            },
            # with the seats it waits for (`asked`): the page counts "2 of 3 ready" by them
            "rematch": None
            if record.rematch is None
            else record.rematch | {"asked": sorted(table.answering(record))},
        }

    def _away_seats(self, room: RoomLive, connected: set[int]) -> set[int]:
        """Seats of people without a connection for `away_after` seconds, as this process
        saw it. While a seat is gone but not yet away, the room is announced again when it
        will be, so that the others see "away" without anything else happening."""
        now = time.monotonic()
        away, pending = set(), []
        for seat in [s.seat for s in room.record.seats if s.kind != "computer"]:
            if seat in connected:
                room.gone_since.pop(seat, None)
                continue
            gone = now - room.gone_since.setdefault(seat, now)
            if gone >= self.away_after:
                away.add(seat)
            else:
                pending.append(self.away_after - gone)
        if pending and room.connections and room.away_check is None:
            room.away_check = asyncio.get_running_loop().call_later(
                min(pending) + 0.05, self._announce_later, room
            )
        return away

    def _announce_later(self, room: RoomLive) -> None:
        room.away_check = None
        code = room.record.code
        if self.rooms.get(code) is room:
            task = asyncio.get_running_loop().create_task(self._broadcast_presence(code))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def is_away(self, code: str, seat: int) -> bool:
        """Whether `seat`'s person has been disconnected for `away_after` seconds."""
        room = await self._room(code)
        connected, _ = await self._presence(room)
        return seat in self._away_seats(room, connected)

    @staticmethod
    def _is_host(record: RoomRecord, host_token: str | None) -> bool:
        return bool(host_token) and record.host_hash == hash_token(host_token or "")

    def _require_host(self, record: RoomRecord, host_token: str | None) -> None:
        """The host's key, or the contract's answers: 401 for a missing or wrong token
        (none of this room's: never one, or one a device link replaced), 403 for a
        player's own key, which is a key here but not the host's."""
        if not host_token:
            raise unauthorized()
        if not self._is_host(record, host_token):
            hashed = hash_token(host_token)
            if not any(s.token_hash == hashed for s in record.seats):
                raise unauthorized()
            raise RoomError("not_host", "only the room's host may do this", 403)

    async def seat_for(self, code: str, token: str | None) -> int:
        if not token:
            raise unauthorized()
        seat = await self._db(self.repo.seat_for_token, code, hash_token(token))
        if seat is None:
            raise unauthorized()
        return seat

    async def _live(self, room: RoomLive) -> LiveGame | None:
        """The room's game in memory, loading it from the log on first use."""
        game_id = room.record.game_id
        if game_id is None:
            await self._reload(room)
            game_id = room.record.game_id
            if game_id is None:
                return None
        if room.live is None or room.live.id != game_id:
            record = await self._db(self.repo.get_game, game_id)
            if record is None:
                return None
            actions = await self._db(self.repo.actions, game_id, 0)
            # Re-playing a long log takes a while: in a worker thread, so that every other
            # room goes on being served meanwhile (the room's lock is held, so nothing else
            # here uses this room's game until it is ready).
            room.live = await to_thread.run_sync(LiveGame.load, record, actions)
            if not room.live.finished:
                for committed in self.on_committed:
                    committed(room.record.code)
        return room.live

    async def _catch_up(self, live: LiveGame) -> None:
        actions = await self._db(self.repo.actions, live.id, live.seq)
        if actions:
            live.extend(actions)

    def forget_idle(self, code: str) -> None:
        """Drop a room this process loaded for no connection (the log keeps everything)."""
        room = self.rooms.get(code)
        if room is not None and not room.connections and not room.lock.locked():
            self._evict(room)

    def _evict(self, room: RoomLive) -> None:
        """Let a room with no connection here leave memory, but not when its players went:
        a room read again (someone comes back, or comes to watch) counted its players'
        absence from then, and showed a player gone for minutes as "reconnecting…", the
        takeover offered a minute later. The last player to go is gone from now."""
        code = room.record.code
        now = time.monotonic()
        for seat in room.record.seats:
            if seat.kind != "computer":
                room.gone_since.setdefault(seat.seat, now)
        self.gone_before[code] = dict(room.gone_since)
        while len(self.gone_before) > GONE_KEPT:
            del self.gone_before[next(iter(self.gone_before))]
        self.rooms.pop(code, None)

    def connection_count(self) -> int:
        return sum(len(r.connections) for r in self.rooms.values())

    if TYPE_CHECKING:
        # What one part of the service asks of another, for the reader and the type
        # checker only (each part is a module of its own and reads alone): defined by
        # the part named, found through `RoomService`'s order. Nothing here at run time,
        # so that no placeholder can answer in a part's stead.

        async def _deliver(self, message: HubMessage) -> None: ...  # fanout.py

        async def _broadcast_presence(self, code: str) -> None: ...  # fanout.py

        def _send_state(  # sessions.py
            self, conn: Connection, live: LiveGame, with_history: bool = False
        ) -> None: ...

        async def _back(self, room: RoomLive, seat: int) -> None: ...  # sessions.py

        async def _start(self, room: RoomLive, replaces: str | None = None) -> str: ...  # lobby.py

        async def settle_rematch(self, code: str) -> None: ...  # rematch.py

        async def set_computer(  # play.py
            self, code: str, seat: int, level: str | None, reason: str | None
        ) -> bool: ...
