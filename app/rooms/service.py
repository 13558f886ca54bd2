"""The room service: what HTTP handlers and WebSocket connections ask of rooms.

It owns this process's in-memory side of rooms (live games, connections) and talks to
the database only through the repository, in worker threads so the event loop never
waits on SQL. Actions in one room are serialised by that room's lock; across processes,
the action log's primary key decides, and a loser catches up and answers `stale`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from anyio import CapacityLimiter, to_thread
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app import text as text_rules
from app.metrics import Metrics
from app.replays import iso
from app.rooms import chat as chat_lines
from app.rooms import table
from app.rooms.clock import ClockError, parse_clock
from app.rooms.coalesce import Coalescer
from app.rooms.connection import Connection
from app.rooms.crowd import INLINE, Announced, Crowd, Told
from app.rooms.errors import RoomError, not_found, unauthorized, unavailable
from app.rooms.hub import Hub, HubMessage
from app.rooms.keys import hash_token, new_game_id, new_room_code, new_seed, new_token
from app.rooms.live import LiveGame, dumps
from app.rooms.presence import LocalPresence, Presence
from app.rooms.ratelimit import TokenBucket
from app.rules import (
    ENGINES,
    IllegalAction,
    InvalidOptions,
    get_engine,
    new_options,
    seat_colors,
    seed_hash,
)
from app.store.repository import (
    ActionRecord,
    ChatRecord,
    GameRecord,
    Repository,
    RoomClosed,
    RoomFull,
    RoomRecord,
    SeatRecord,
    StaleWrite,
    TooFewPlayers,
    Unavailable,
)

T = TypeVar("T")
# What a database that is down, locked or unreachable raises: the retryable `unavailable`.
DATABASE_DOWN = (Unavailable, OperationalError, InterfaceError, PoolTimeout)
# Abandoned lobbies deleted per sweep at most (the next sweep takes the rest).
SWEEP_BATCH = 200
log = logging.getLogger("app.rooms")
MAX_NAME = text_rules.MAX_NAME
MAX_CHAT = text_rules.MAX_CHAT
# Chat lines per speaker (a seat, or a spectator's address): a burst, then one per 2 s.
CHAT_BURST = 5
CHAT_PER_SECOND = 0.5
MAX_SPEAKERS = 10_000
# Rooms whose players' absence is remembered after the room left memory (`_evict`).
GONE_KEPT = 10_000
# A hello reads the room and the log at most this often per room (`RoomLive.read_recently`).
HELLO_READS_EVERY = 1.0
# A room row read this recently (seconds) is not read again before a write in the same
# request: the write's own transaction checks what must hold (seats free, not started).
FRESH_READ = 0.05


def clean_name(raw: str) -> str:
    """A name by the one text rule (`app/text.py`), or `RoomError("bad_name")`."""
    try:
        return text_rules.clean_name(raw)
    except text_rules.TextError as exc:
        raise RoomError(exc.code, exc.message, 422, {"reason": exc.reason}) from exc


def _plays(conn: Connection) -> bool:
    """Whether a connection speaks for a player: a seat's, or a device's that holds one
    (pass-and-play watching a computer's turn), which the spectators' chat is not for."""
    return conn.seat is not None or conn.companion


def seat_info(seat: SeatRecord, connected: bool) -> dict[str, Any]:
    """A seat as the room shows it; a computer-controlled seat counts as connected. The
    contract knows two kinds, `human` and `bot`: a computer seat is the server's own bot,
    its `computer` (ext) saying so (a third-party client switching on `kind` met an
    unknown `"computer"`)."""
    computer = None if seat.level is None else {"level": seat.level, "reason": seat.reason}
    return {
        "seat": seat.seat,
        "name": seat.name,
        "kind": "bot" if seat.kind == "computer" else seat.kind,
        "connected": connected or seat.kind == "computer",
        "host": seat.host,
        "computer": computer,
    }


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


@dataclass
class RoomLive:
    """This process's view of one room: its row, its game, its connections."""

    record: RoomRecord
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    live: LiveGame | None = None
    connections: set[Connection] = field(default_factory=set)
    # seat -> when this process first saw it without any connection (for "away").
    gone_since: dict[int, float] = field(default_factory=dict)
    away_check: asyncio.TimerHandle | None = None
    # Its spectators' sends a slice at a time, once they are many (app/rooms/crowd.py).
    crowd: Crowd | None = None
    # Its last chat lines, for the welcomes (app/rooms/chat.py).
    chat: chat_lines.ChatHistory = field(default_factory=chat_lines.ChatHistory)

    # When this process last used the room (monotonic): idle rooms leave memory.
    touched: float = field(default_factory=time.monotonic)
    # When a hello last read the room row and the log (time.monotonic()).
    read_at: float = float("-inf")
    # Up to when `record` is known to hold every write of this process (time.monotonic()):
    # when the read that gave it began, or when the write that read it back returned. An
    # answer from before that never replaces it (`RoomService._keep`).
    record_at: float = field(default_factory=time.monotonic)
    # When this process last stamped the room's game as active (time.monotonic()).
    stamped_at: float = float("-inf")

    def read_recently(self) -> bool:
        """Whether a hello read the room and the log less than `HELLO_READS_EVERY` ago.
        Then the next hello trusts memory: this process gets every change of a room it
        holds connections to through the hub, so memory is at most that much behind, and
        anything newer reaches the connection through the hub as well. A crowd arriving
        (a featured game) costs a read a second, not two per arrival under the room lock
        the players' actions wait for."""
        return time.monotonic() - self.read_at < HELLO_READS_EVERY


def _epoch_ms() -> int:
    """The server's time for clients to set their clocks by (`welcome.now`)."""
    return int(time.time() * 1000)


class RoomService:
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

    # Rooms -----------------------------------------------------------------------

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

    async def _presence(self, room: RoomLive) -> tuple[set[int], int]:
        """Record this process's connections to `room`; the seats and watchers of all."""
        greeted = [c for c in room.connections if c.greeted]
        return await self.presence.merged(
            room.record.code,
            {c.seat for c in greeted if c.seat is not None},
            sum(1 for c in greeted if c.seat is None and not c.companion),
        )

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

    async def seat_for(self, code: str, token: str | None) -> int:
        if not token:
            raise unauthorized()
        seat = await self._db(self.repo.seat_for_token, code, hash_token(token))
        if seat is None:
            raise unauthorized()
        return seat

    # Seats on any device (`app/rooms/devices.py`) ----------------------------------

    async def device_link(self, code: str, token: str | None, ttl: float) -> tuple[int, str]:
        """A one-time key that moves the seat of `token` to another device (`claim_device`).
        The caller puts it in a URL fragment, which browsers never send to a server."""
        seat = await self.seat_for(code, token)
        transfer = new_token()
        expires = datetime.now(UTC) + timedelta(seconds=ttl)
        await self._db(self.repo.set_transfer, code, seat, hash_token(transfer), expires)
        return seat, transfer

    async def claim_device(self, code: str, transfer: str) -> tuple[int, str]:
        """Spend a device key: a new seat token for this device; the older one stops
        working and its connections are told the seat moved (they become spectators)."""
        await self._room(code)
        token = new_token()
        seat = await self._db(
            self.repo.claim_transfer,
            code,
            hash_token(transfer),
            hash_token(token),
            datetime.now(UTC),
        )
        if seat is None:
            raise RoomError("bad_transfer", "this device link is unknown, used or expired", 404)
        await self.hub.publish(
            {"room": code, "kind": "seat_moved", "seat": seat, "keep": hash_token(token)}
        )
        log.info("seat moved to another device", extra={"room": code, "seat": seat})
        return seat, token

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
            proposed = GameRecord(
                id=new_game_id(),
                room_code=code,
                variant=room.record.variant,
                options=room.record.options,
                players=[],  # the seats taken when the room is claimed, read in that transaction
                seed=seed,
                seed_hash=seed_hash(seed),
                status="live",
                seq=0,
                result=None,
                started_at=datetime.now(UTC),
                finished_at=None,
                imported=False,
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

    # Connections -----------------------------------------------------------------

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
        seat = None if token is None else await self.seat_for(conn.room, token)
        conn.companion = False
        if seat is None and seated:
            held = await self._db(self.repo.seat_for_token, conn.room, hash_token(seated))
            conn.companion = held is not None
        conn.seat = seat
        conn.token_hash = None if token is None else hash_token(token)
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
        await self._host_seen(room, seat, present=True)
        info = await self._info(room)
        welcome = {
            "type": "welcome",
            "seat": seat,
            "room": info,
            "now": _epoch_ms(),
            "chat": room.chat.readable(_plays(conn)),
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
        if seat is not None:
            await self._back(room, seat)
            if live is not None and not live.finished and self._stamp_due(room):
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

    # Playing ---------------------------------------------------------------------

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

    async def legal(self, conn: Connection) -> tuple[int, list[dict[str, Any]]]:
        room = await self._room(conn.room)
        async with room.lock:
            live = await self._live(room)
        if live is None:
            return 0, []
        if conn.seat is None:
            return live.seq, []
        return live.seq, live.game.legal_actions(conn.seat)

    async def chat(self, conn: Connection, text: str, name: str | None = None) -> None:
        """Players talk to the whole room; spectators talk among themselves, so that
        watchers can discuss the game without disturbing (or advising) the players.

        A spectator may give the name it goes by (`name`), so that a crowd's lines are
        told apart (they were all "spectator"); not a seated player's, lookalikes
        included, so that no watcher passes for one. A seat's line carries its seat's
        name, whatever it sends."""
        try:
            text = text_rules.clean_chat(text)
        except text_rules.TextError as exc:
            raise RoomError(exc.code, exc.message, extra={"reason": exc.reason}) from exc
        if conn.seat is None and name:
            name = clean_name(name)
        if not self._chat_bucket(conn).take():
            raise RoomError("rate_limited", "too many chat lines; wait a moment")
        room = await self._room(conn.room)
        if conn.seat is not None:
            name = next((s.name for s in room.record.seats if s.seat == conn.seat), "?")
        elif name:
            table.check_name_free(room.record, name)
        else:
            name = "spectator"
        channel = "room" if conn.seat is not None else "spectators"
        at = datetime.now(UTC)
        # Kept before it is said: a welcome read after this carries it (or the hub does).
        async with room.chat.speaking:
            kept = (conn.room, conn.seat, name, text, channel, at)
            line_id = await self._db(self.repo.add_chat, *kept)
            message = chat_lines.line_message(ChatRecord(line_id, *kept[1:]))
            await self.hub.publish({"room": conn.room, "kind": "chat", "chat": message})

    def _chat_bucket(self, conn: Connection) -> TokenBucket:
        """The allowance of whoever speaks: the seat, or a spectator's address (a
        connection of its own when the address is unknown)."""
        if conn.seat is not None:
            speaker: tuple[str, str, Any] = ("seat", conn.room, conn.seat)
        elif conn.address:
            speaker = ("address", conn.room, conn.address)
        else:
            return conn.chats
        bucket = self._chats.get(speaker)
        if bucket is None:
            if len(self._chats) >= MAX_SPEAKERS:
                self._chats.clear()  # a full bucket is the worst a reset can give
            bucket = self._chats[speaker] = TokenBucket(*self.chat_limits)
        return bucket

    # Fan-out ---------------------------------------------------------------------

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
                if conn.welcomed and chat_lines.readable_by(chat, _plays(conn)):
                    conn.send(text)
        elif kind == "room":
            if not read_here:
                await self._reload(room)
            await self._broadcast_room(room, reseat=True)
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
        moved = [c for c in room.connections if c.seat == seat and c.token_hash != keep]
        for conn in moved:
            conn.seat, conn.token_hash = None, None
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
            if conn.token_hash is None or conn.seat is None or not conn.welcomed:
                continue
            seat = by_hash.get(conn.token_hash)
            if seat != conn.seat:
                conn.seat = seat
                conn.sent_seq = -1
                if seat is None:
                    conn.token_hash = None
                moved.append(conn)
        return moved

    async def _broadcast_presence(self, code: str) -> None:
        """The room message after presence changes, coalesced (`app/rooms/coalesce.py`)."""
        room = self.rooms.get(code)
        if room is not None and room.connections:
            await self._broadcast_room(room)

    async def _broadcast_room(self, room: RoomLive, reseat: bool = False) -> None:
        moved = self._reseat(room) if reseat else []
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

    def games_with_players(self) -> list[str]:
        """Live games with a seated player connected to this process."""
        return [
            room.live.id
            for room in self.rooms.values()
            if room.live is not None
            and not room.live.finished
            and any(c.greeted and c.seat is not None for c in room.connections)
        ]

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

    def connection_count(self) -> int:
        return sum(len(r.connections) for r in self.rooms.values())

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
