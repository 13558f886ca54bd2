"""The repository: every query the server makes, behind plain methods and plain records.

Methods are synchronous (SQLAlchemy sessions); the async server calls them in a worker
thread. They return frozen dataclasses rather than ORM objects so that nothing lazy-loads
after its session has closed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app.store import models
from app.store.writer import Append, GroupWriter


class StaleWrite(Exception):
    """Another writer stored this `seq` first: reload from the log and re-validate."""


class SeatTaken(Exception):
    """A concurrent join took the seat this one chose; the caller retries."""


class RoomClosed(Exception):
    """The room's game has started (or the room is gone): no seat, no second start."""


class RoomFull(Exception):
    """Every seat of the room is taken."""


class TooFewPlayers(Exception):
    """Start: fewer seats are taken than the variant needs."""


class Unavailable(Exception):
    """The database did not take this write in time (locked, gone): nothing was changed
    by it, and the caller may try again later."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    name: str
    kind: str
    host: bool = False
    # The computer's level while it plays this seat, and why (see models.Seat).
    level: str | None = None
    reason: str | None = None
    # Server-side only (never sent): lets a connection find its seat again after the
    # seats were renumbered.
    token_hash: str = ""


@dataclass(frozen=True, slots=True)
class ChatRecord:
    """A kept chat line; `id` orders a room's lines."""

    id: int
    seat: int | None
    name: str
    text: str
    channel: str
    at: datetime


@dataclass(frozen=True, slots=True)
class RoomRecord:
    code: str
    variant: str
    options: dict[str, Any]
    created_at: datetime
    game_id: str | None
    seats: tuple[SeatRecord, ...]
    host_hash: str | None = None
    host_away_since: datetime | None = None
    listed: bool = False
    rematch: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: str
    room_code: str | None
    variant: str
    options: dict[str, Any]
    players: list[str]
    seed: str
    seed_hash: str
    status: str
    seq: int
    result: dict[str, Any] | None
    started_at: datetime
    finished_at: datetime | None
    imported: bool
    clock: dict[str, Any] | None = None
    deadline: datetime | None = None
    left: list[int] | None = None
    active_at: datetime | None = None

    @classmethod
    def live(
        cls,
        id: str,
        variant: str,
        options: dict[str, Any],
        seed: str,
        seed_hash: str,
        players: list[str] | None = None,
        room_code: str | None = None,
        clock: dict[str, Any] | None = None,
    ) -> GameRecord:
        """A game about to start: seq 0, live, begun now. (A room's game takes its
        players when the room is claimed, in that transaction: `players` is empty then.)"""
        return cls(
            id, room_code, variant, options, players or [], seed, seed_hash, "live", 0, None,
            datetime.now(UTC), None, False, clock,
        )  # fmt: skip

    @classmethod
    def imported_game(
        cls,
        id: str,
        record: dict[str, Any],
        seed_hash: str,
        seq: int,
        result: dict[str, Any] | None,
        status: str = "finished",
    ) -> GameRecord:
        """The row an import of `record` (variant, options, players, seed) stores: begun
        and ended at the import, in no room."""
        now = datetime.now(UTC)
        return cls(
            id, None, record["variant"], record["options"], record["players"], record["seed"],
            seed_hash, status, seq, result, now, now, True,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seq: int
    seat: int
    payload: dict[str, Any]
    by: str | None = None
    at: datetime | None = None  # when it was stored (the turn clock replays from these)


def aware(value: datetime | None) -> datetime | None:
    """SQLite gives back naive datetimes for what was stored in UTC: say so."""
    return value if value is None or value.tzinfo else value.replace(tzinfo=UTC)


def _filtered(query: Any, status: str | None, variant: str | None, since: datetime | None) -> Any:
    """`list_games`'s filters. "live" is every live game (the contract's filter: a game
    whose status is live is never left out of it); of those, "playing" is one a seated
    player was in since `since`, "adjourned" one nobody was."""
    if status is not None:
        stored = "live" if status in ("playing", "adjourned") else status
        query = query.where(models.Game.status == stored)
    if since is not None and status in ("playing", "adjourned"):
        active = func.coalesce(models.Game.active_at, models.Game.started_at)
        query = query.where(active >= since if status == "playing" else active < since)
    if variant is not None:
        query = query.where(models.Game.variant == variant)
    return query


def _game_record(row: models.Game) -> GameRecord:
    return GameRecord(
        id=row.id,
        room_code=row.room_code,
        variant=row.variant,
        options=dict(row.options),
        players=list(row.players),
        seed=row.seed,
        seed_hash=row.seed_hash,
        status=row.status,
        seq=row.seq,
        result=row.result,
        started_at=row.started_at,
        finished_at=row.finished_at,
        imported=row.imported,
        clock=row.clock,
        deadline=aware(row.deadline),
        left=None if row.left is None else list(row.left),
        active_at=aware(row.active_at),
    )


_ROOMS, _SEATS, _GAMES = models.Room.__table__, models.Seat.__table__, models.Game.__table__
_CHAT = models.ChatLine.__table__
_ROOM_BY_CODE = select(_ROOMS).where(_ROOMS.c.code == bindparam("code"))
_SEATS_OF_ROOM = (
    select(_SEATS).where(_SEATS.c.room_code == bindparam("code")).order_by(_SEATS.c.seat)
)
# The statements of setting a table up (create, join, start, hello), built once: building
# them at each call, and working out each new one's cache key, cost more than running them
# (a join's three took 115 us to build).
_INSERT_ROOM = insert(_ROOMS)
_INSERT_SEAT = insert(_SEATS)
_INSERT_GAME = insert(_GAMES)
# A no-op update that only matches while the room has no game: it takes the room's lock.
# (An update's own columns name its bound values, so the room's code is bound as `room`.)
_LOCK_LOBBY = (
    update(_ROOMS)
    .where(_ROOMS.c.code == bindparam("room"), _ROOMS.c.game_id.is_(None))
    .values(variant=_ROOMS.c.variant)
)
_SEAT_NUMBERS = select(_SEATS.c.seat).where(_SEATS.c.room_code == bindparam("code"))
_SEAT_OF_TOKEN = select(_SEATS.c.seat).where(
    _SEATS.c.room_code == bindparam("code"), _SEATS.c.token_hash == bindparam("token_hash")
)
_PLAYER_NAMES = (
    select(_SEATS.c.name).where(_SEATS.c.room_code == bindparam("code")).order_by(_SEATS.c.seat)
)
# A new game: seats a person plays are theirs again (a takeover ends).
_HUMANS_BACK = (
    update(_SEATS)
    .where(_SEATS.c.room_code == bindparam("code"), _SEATS.c.kind == "human")
    .values(level=None, reason=None)
)
# The host's seat is the one bound as `host_seat`, and no other.
_HOST_SEAT = (
    update(_SEATS)
    .where(_SEATS.c.room_code == bindparam("code"))
    .values(host=_SEATS.c.seat == bindparam("host_seat"))
)


def _claim(replaces: bool) -> Any:
    """Make a game the room's, if the room's game is still the one it replaces (a bound
    `replaces`) or none at all; its rematch offer ends."""
    current = _ROOMS.c.game_id == bindparam("replaces") if replaces else _ROOMS.c.game_id.is_(None)
    return (
        update(_ROOMS)
        .where(_ROOMS.c.code == bindparam("room"), current)
        .values(game_id=bindparam("new_game"), rematch=None, host_away_since=None)
    )


_CLAIM_FIRST, _CLAIM_NEXT = _claim(False), _claim(True)
_INSERT_ACTION = insert(models.Action.__table__)


@cache
def _game_update(names: tuple[str, ...]) -> Any:
    """The update of a game's row that an append makes, for the columns `names` (bound as
    `v_<name>`, the row's id as `v_id`): a handful of shapes, each built once."""
    return (
        update(_GAMES)
        .where(_GAMES.c.id == bindparam("v_id"))
        .values({name: bindparam(f"v_{name}") for name in names})
    )


def _room_on(conn: Connection, code: str) -> RoomRecord | None:
    """The room and its seats, read on `conn` (in its transaction, if it is in one)."""
    room = conn.execute(_ROOM_BY_CODE, {"code": code}).first()
    if room is None:
        return None
    seats = conn.execute(_SEATS_OF_ROOM, {"code": code}).all()
    return _room_record(room, seats)


def _take_seat(
    conn: Connection,
    code: str,
    name: str,
    token_hash: str,
    max_players: int,
    kind: str,
    level: str | None,
    host: bool,
) -> int:
    """The write of `Repository.take_seat_and_read`, in the caller's transaction. Core
    statements, not the ORM's unit of work: a join's write took twice the CPU."""
    locked = conn.execute(_LOCK_LOBBY, {"room": code}).rowcount
    if locked != 1:
        raise RoomClosed(code)
    taken = set(conn.scalars(_SEAT_NUMBERS, {"code": code}))
    free = [i for i in range(max_players) if i not in taken]
    if not free:
        raise RoomFull(code)
    conn.execute(
        _INSERT_SEAT,
        {
            "room_code": code,
            "seat": free[0],
            "name": name,
            "token_hash": token_hash,
            "kind": kind,
            "level": level,
            "reason": "seat" if level is not None else None,
            "host": False,
        },
    )
    if host:
        conn.execute(_HOST_SEAT, {"code": code, "host_seat": free[0]})
    return free[0]


def _start_game(
    conn: Connection, game: GameRecord, min_players: int, replaces: str | None
) -> GameRecord:
    """The write of `Repository.start_game_and_read`, in the caller's transaction (Core
    statements, as `_take_seat`)."""
    room = {"code": game.room_code}
    claim = {"room": game.room_code, "new_game": game.id, "replaces": replaces}
    claimed = conn.execute(_CLAIM_FIRST if replaces is None else _CLAIM_NEXT, claim).rowcount
    if claimed != 1:
        raise RoomClosed(str(game.room_code))
    players = list(conn.scalars(_PLAYER_NAMES, room))
    if len(players) < min_players:
        raise TooFewPlayers(str(game.room_code))
    conn.execute(_HUMANS_BACK, room)
    game = replace(game, players=players)
    conn.execute(_INSERT_GAME, _game_values(game))
    return game


def _room_record(room: Any, seats: Any) -> RoomRecord:
    return RoomRecord(
        code=room.code,
        variant=room.variant,
        options=dict(room.options),
        created_at=room.created_at,
        game_id=room.game_id,
        seats=tuple(
            SeatRecord(x.seat, x.name, x.kind, x.host, x.level, x.reason, x.token_hash)
            for x in seats
        ),
        host_hash=room.host_hash,
        host_away_since=_aware(room.host_away_since),
        listed=room.listed,
        rematch=None if room.rematch is None else dict(room.rematch),
        clock=room.clock,
    )


def _aware(when: datetime | None) -> datetime | None:
    """SQLite gives back naive datetimes; every time stored here is UTC."""
    return when if when is None or when.tzinfo else when.replace(tzinfo=UTC)


def _is(column: Any, value: str | None) -> Any:
    return column.is_(None) if value is None else column == value


def _game_values(game: GameRecord) -> dict[str, Any]:
    """A game's columns, as an insert takes them."""
    return {name: getattr(game, name) for name in GameRecord.__slots__}


def _game_row(game: GameRecord, **overrides: Any) -> models.Game:
    return models.Game(**(_game_values(game) | overrides))


def _free_seat(s: Session, room: models.Room, code: str, seat: int, game_id: str | None) -> bool:
    """Delete `seat` of the locked `room` and move the later seats down one (their "play
    again" acceptances with them): `remove_seat`, inside a caller's transaction."""
    row = s.get(models.Seat, (code, seat))
    if row is None:
        return False
    s.delete(row)
    s.flush()
    later = s.scalars(
        select(models.Seat.seat)
        .where(models.Seat.room_code == code, models.Seat.seat > seat)
        .order_by(models.Seat.seat)
    ).all()
    for number in later:
        s.execute(
            update(models.Seat)
            .where(models.Seat.room_code == code, models.Seat.seat == number)
            .values(seat=number - 1)
        )
    # A "play again" offer counts its acceptances by seat: they move down with
    # their seats (a seat freed under an open offer left its acceptances naming
    # the wrong seats, and a computer that had accepted was freed at the deadline).
    offer = room.rematch
    if offer is not None and offer.get("game") == game_id:
        accepted = [n - (n > seat) for n in offer.get("accepted", []) if n != seat]
        room.rematch = offer | {"accepted": accepted}
    return True


class Repository:
    def __init__(self, sessions: sessionmaker[Session], lock_timeout: float = 3.0) -> None:
        self._sessions = sessions
        self._lock_timeout = lock_timeout
        bind: Engine = sessions.kw["bind"]  # `make_sessionmaker(engine)`
        # SQLite has one writer at a time and makes the others sleep and retry, which shows
        # as latency spikes under load; queueing writers on a lock in-process is fairer.
        sqlite = bind.dialect.name == "sqlite"
        self._write_lock: threading.Lock | None = threading.Lock() if sqlite else None
        # The most frequent reads and writes (a table's set-up, the group commit) are Core
        # statements on a connection of the engine's: a `Session` around them took as long
        # again (a room's read: 136 us in a session, 82 us without).
        self._engine = bind
        # Appends from the event loop are committed in groups (`commit_action`).
        self.writer = GroupWriter(self.write_appends)

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with self._writer(), self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def _core_tx(self) -> Iterator[Connection]:
        """A transaction for Core statements: `_tx` without the session."""
        with self._writer(), self._engine.begin() as conn:
            yield conn

    @contextmanager
    def _core_read(self) -> Iterator[Connection]:
        """A connection for Core reads, given back to the pool afterwards."""
        with self._engine.connect() as conn:
            yield conn

    @contextmanager
    def _writer(self) -> Iterator[None]:
        """This process's turn to write (SQLite), waited for no longer than the database's
        own busy timeout: a stuck writer makes the others fail fast, not queue."""
        if self._write_lock is None:
            yield
            return
        if not self._write_lock.acquire(timeout=self._lock_timeout):
            raise Unavailable("the database is busy with another write")
        try:
            yield
        finally:
            self._write_lock.release()

    # Rooms and seats -------------------------------------------------------------

    def create_room(
        self,
        code: str,
        variant: str,
        options: dict[str, Any],
        host_hash: str | None = None,
        listed: bool = False,
        clock: dict[str, Any] | None = None,
    ) -> None:
        with self._core_tx() as conn:
            conn.execute(
                _INSERT_ROOM,
                {
                    "code": code,
                    "variant": variant,
                    "options": options,
                    "host_hash": host_hash,
                    "listed": listed,
                    "clock": clock,
                },
            )

    def get_room(self, code: str) -> RoomRecord | None:
        # Plain rows rather than ORM objects: the most frequent read of the server (each
        # join, start and hello reads its room), at about half the CPU of `Session.get`.
        with self._core_read() as conn:
            return _room_on(conn, code)

    def take_seat_and_read(
        self,
        code: str,
        name: str,
        token_hash: str,
        max_players: int,
        kind: str = "human",
        level: str | None = None,
        host: bool = False,
    ) -> tuple[int, RoomRecord | None]:
        """Seat `name` in the room's first free seat and return its number, with the room
        as it then stands (read in the same transaction: the room service keeps what it
        wrote without a second connection and read; docs/performance.md); with `host`,
        that seat becomes the host's (and no other is), in the same transaction.

        The room row is locked first (a row lock on PostgreSQL, the write lock on SQLite)
        by a no-op update that only matches while the room has no game, so a join and a
        start of the same room, from any process, are decided one after the other: a
        join never lands beside a game that started without it. `RoomClosed` if the game
        has started, `RoomFull` if no seat is free. A computer seat (`kind="computer"`) is
        played by the computer at `level`.
        """
        with self._core_tx() as conn:
            seat = _take_seat(conn, code, name, token_hash, max_players, kind, level, host)
            return seat, _room_on(conn, code)

    def add_seat(
        self,
        code: str,
        seat: int,
        name: str,
        token_hash: str,
        kind: str = "human",
        level: str | None = None,
        host: bool = False,
    ) -> None:
        """Take seat number `seat`; `SeatTaken` if a concurrent join got it first. A
        computer seat (`kind="computer"`) is played by the computer at `level`."""
        reason = "seat" if level is not None else None
        try:
            with self._tx() as s:
                s.add(
                    models.Seat(
                        room_code=code,
                        seat=seat,
                        name=name,
                        token_hash=token_hash,
                        kind=kind,
                        level=level,
                        reason=reason,
                        host=host,
                    )
                )
        except IntegrityError as exc:
            raise SeatTaken(str(exc)) from exc

    def remove_seat(self, code: str, seat: int, game_id: str | None) -> bool:
        """Free `seat` while the room's game is still `game_id` (None: not started), and
        close the gap: the seats after it move down one, so seats stay 0..n-1, which is
        what a game's players list is. False if the room moved on meanwhile."""
        with self._tx() as s:
            room = s.get(models.Room, code, with_for_update=True)
            if room is None or room.game_id != game_id:
                return False
            return _free_seat(s, room, code, seat, game_id)

    def settle_rematch(
        self,
        code: str,
        game_id: str,
        due: Callable[[dict[str, Any], RoomRecord], bool],
        min_players: int,
    ) -> str | None:
        """Settle the room's "play again" offer for `game_id` if `due(offer, room)` says it
        is due: free the seats that did not accept, and, when fewer than `min_players`
        stay, open the room again (no game, no offer). One transaction, the room row
        locked, the offer read in it: two processes settling at once (a timer, a sweep,
        a late accept elsewhere) are ordered, and the second finds nothing left to free
        (seats named by number: freeing by a number read before another process's
        freeing, which renumbers the seats, freed a seat that had accepted).
        "start" (the next game is to start: `start_game_and_read` with `replaces`,
        which one process wins), "reopened", or None (no offer for that game, or not due).
        """
        with self._tx() as s:
            room = s.get(models.Room, code, with_for_update=True)
            if room is None or room.game_id != game_id:
                return None
            offer = room.rematch
            if offer is None or offer.get("game") != game_id:
                return None
            seats = s.scalars(
                select(models.Seat).where(models.Seat.room_code == code).order_by(models.Seat.seat)
            ).all()
            if not due(dict(offer), _room_record(room, seats)):
                return None
            accepted = set(offer.get("accepted", []))
            for seat in sorted((x.seat for x in seats if x.seat not in accepted), reverse=True):
                _free_seat(s, room, code, seat, game_id)  # later seats first: numbers hold
            left = s.scalar(
                select(func.count()).select_from(models.Seat).where(models.Seat.room_code == code)
            )
            if (left or 0) >= min_players:
                return "start"
            room.game_id, room.rematch = None, None
            return "reopened"

    def due_rematches(self, now: datetime, limit: int = 100) -> list[str]:
        """Rooms whose "play again" offer is past its deadline and not settled: after a
        restart, or when the process whose timer settled it died. Offers are few (each
        lasts a minute): they are read whole and their deadlines compared here."""
        deadline = models.Room.rematch["deadline"].as_string()
        with self._sessions() as s:
            rows = s.execute(
                select(models.Room.code, models.Room.rematch)
                .where(models.Room.game_id.is_not(None), deadline.is_not(None))
                .limit(limit * 4)
            ).all()
        due = []
        for code, offer in rows:
            try:
                when = datetime.fromisoformat(offer["deadline"])
            except (TypeError, ValueError, KeyError):
                continue
            if (aware(when) or now) <= now:
                due.append(code)
        return due[:limit]

    def set_computer(self, code: str, seat: int, level: str | None, reason: str | None) -> bool:
        """The computer plays `seat` at `level` from now on (None, None: its person does)."""
        with self._tx() as s:
            changed = s.execute(
                update(models.Seat)
                .where(models.Seat.room_code == code, models.Seat.seat == seat)
                .values(level=level, reason=reason)
            ).rowcount
        return changed == 1

    def set_transfer(self, code: str, seat: int, transfer_hash: str, expires: datetime) -> None:
        """Arm a one-time "continue on another device" key for the seat (one at a time)."""
        with self._tx() as s:
            s.execute(
                update(models.Seat)
                .where(models.Seat.room_code == code, models.Seat.seat == seat)
                .values(transfer_hash=transfer_hash, transfer_expires=expires)
            )

    def claim_transfer(
        self, code: str, transfer_hash: str, token_hash: str, now: datetime, host_hash: str
    ) -> tuple[int, bool] | None:
        """Spend a device key: the seat's token becomes `token_hash` (the older token stops
        working) and the key is gone. The host's seat takes the host's key along: the
        room's becomes `host_hash` (a host who moved to their phone was a player there,
        who could no longer set the options, seat a computer or free a seat). The seat
        and whether it was the host's, or None for an unknown or expired key."""
        with self._tx() as s:
            row = s.scalar(
                select(models.Seat).where(
                    models.Seat.room_code == code, models.Seat.transfer_hash == transfer_hash
                )
            )
            expires = None if row is None else aware(row.transfer_expires)
            if row is None or expires is None or expires < now:
                return None
            row.token_hash, row.transfer_hash, row.transfer_expires = token_hash, None, None
            if row.host:
                s.execute(
                    update(models.Room).where(models.Room.code == code).values(host_hash=host_hash)
                )
            return row.seat, row.host

    def extend_deadline(self, game_id: str, seq: int, now: datetime, until: datetime) -> bool:
        """Move a live game's turn deadline, passed by `now`, to `until`, while the game is
        still at `seq` (a turn given its time again after an outage); False if it moved
        on, or its deadline is no longer past (another process gave the grace first: a
        turn gets one)."""
        with self._tx() as s:
            changed = s.execute(
                update(models.Game)
                .where(
                    models.Game.id == game_id,
                    models.Game.seq == seq,
                    models.Game.status == "live",
                    models.Game.deadline.is_not(None),
                    models.Game.deadline <= now,
                )
                .values(deadline=until)
            ).rowcount
        return changed == 1

    def overdue_games(self, now: datetime, limit: int = 50) -> list[tuple[str, str, int]]:
        """Live games whose turn deadline has passed: `(game_id, room_code, seq)`."""
        with self._sessions() as s:
            rows = s.execute(
                select(models.Game.id, models.Game.room_code, models.Game.seq)
                .where(
                    models.Game.status == "live",
                    models.Game.deadline.is_not(None),
                    models.Game.deadline <= now,
                    models.Game.room_code.is_not(None),
                )
                .order_by(models.Game.deadline)
                .limit(limit)
            ).all()
            return [(r[0], r[1], r[2]) for r in rows]

    def leave_seat(
        self, code: str, seat: int, game_id: str, token_hash: str, level: str, reason: str
    ) -> None:
        """A player leaves a running game for good, in one transaction: the seat's key is
        replaced (coming back is watching), the game notes who left, and the computer
        plays the seat from now on. Never half done: a seat whose key was gone but that
        nobody played would stall the game."""
        with self._tx() as s:
            s.execute(
                update(models.Seat)
                .where(models.Seat.room_code == code, models.Seat.seat == seat)
                .values(
                    token_hash=token_hash,
                    transfer_hash=None,
                    transfer_expires=None,
                    level=level,
                    reason=reason,
                )
            )
            row = s.get(models.Game, game_id, with_for_update=True)
            if row is not None and seat not in (row.left or []):
                row.left = sorted([*(row.left or []), seat])

    def touch_games(self, game_ids: list[str], now: datetime) -> None:
        """A seated player is connected to these games: they are not adjourned."""
        if not game_ids:
            return
        with self._tx() as s:
            s.execute(update(models.Game).where(models.Game.id.in_(game_ids)).values(active_at=now))

    def computer_rooms(self) -> list[str]:
        """Rooms with a live game and a seat the computer plays: where a computer move may
        be due (after a restart, or when the process that owed it died)."""
        with self._sessions() as s:
            query = (
                select(models.Room.code)
                .join(models.Game, models.Game.id == models.Room.game_id)
                .where(
                    models.Game.status == "live",
                    select(models.Seat.seat)
                    .where(
                        models.Seat.room_code == models.Room.code, models.Seat.level.is_not(None)
                    )
                    .exists(),
                )
            )
            return list(s.scalars(query))

    def update_room(self, code: str, game_id: str | None, values: dict[str, Any]) -> bool:
        """Change room columns (`options`, `listed`, `host_away_since`, `rematch`) while
        the room's game is still `game_id`; False if it moved on meanwhile."""
        with self._tx() as s:
            changed = s.execute(
                update(models.Room)
                .where(models.Room.code == code, _is(models.Room.game_id, game_id))
                .values(**values)
            ).rowcount
        return changed == 1

    def accept_rematch(
        self, code: str, game_id: str, seat: int, offer: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Add `seat` to the room's "play again" offer for `game_id`, or store `offer` when
        there is none for that game; read and written under the room row's lock, so two
        accepts at once both count. None if the room's game is no longer `game_id`."""
        with self._tx() as s:
            room = s.get(models.Room, code, with_for_update=True)
            if room is None or room.game_id != game_id:
                return None
            current = room.rematch
            if current is None or current.get("game") != game_id:
                current = offer
            accepted = sorted(set(current["accepted"]) | {seat})
            room.rematch = dict(current) | {"accepted": accepted}
            return dict(room.rematch)

    def open_rooms(self, limit: int) -> list[RoomRecord]:
        """Listed rooms whose game has not started, newest first: the lobby's open tables."""
        with self._sessions() as s:
            rooms = s.scalars(
                select(models.Room)
                .where(models.Room.listed.is_(True), models.Room.game_id.is_(None))
                .order_by(models.Room.created_at.desc(), models.Room.code)
                .limit(limit)
            ).all()
            codes = [room.code for room in rooms]
            seats: dict[str, list[models.Seat]] = {code: [] for code in codes}
            if codes:
                for row in s.scalars(
                    select(models.Seat)
                    .where(models.Seat.room_code.in_(codes))
                    .order_by(models.Seat.seat)
                ):
                    seats[row.room_code].append(row)
            return [_room_record(room, seats[room.code]) for room in rooms]

    def stale_lobbies(self, before: datetime, limit: int) -> list[str]:
        """Rooms created before `before` whose game never started, oldest first."""
        with self._sessions() as s:
            query = (
                select(models.Room.code)
                .where(models.Room.game_id.is_(None), models.Room.created_at < before)
                .order_by(models.Room.created_at)
                .limit(limit)
            )
            return list(s.scalars(query))

    def delete_lobby(self, code: str, before: datetime) -> bool:
        """Delete a room and its seats if it is still unstarted and created before
        `before` (a start or a newer room is never deleted); True if it was."""
        with self._tx() as s:
            gone = s.execute(
                delete(models.Room).where(
                    models.Room.code == code,
                    models.Room.game_id.is_(None),
                    models.Room.created_at < before,
                )
            ).rowcount
            if gone:
                s.execute(delete(models.Seat).where(models.Seat.room_code == code))
                s.execute(delete(models.ChatLine).where(models.ChatLine.room_code == code))
            return bool(gone)

    # Chat ----------------------------------------------------------------------------

    def add_chat(
        self, code: str, seat: int | None, name: str, text: str, channel: str, at: datetime
    ) -> int:
        """Keep a line said in room `code`; returns its id."""
        row = {"room_code": code, "seat": seat, "name": name, "text": text, "channel": channel}
        with self._core_tx() as conn:
            result = conn.execute(insert(_CHAT).values(**row, at=at))
            return int(result.inserted_primary_key[0])

    def recent_chat(self, code: str, limit: int) -> list[ChatRecord]:
        """The last `limit` lines said in room `code`, oldest first."""
        query = select(_CHAT).where(_CHAT.c.room_code == code).order_by(_CHAT.c.id.desc())
        with self._core_read() as conn:
            rows = conn.execute(query.limit(limit)).all()
        return [
            ChatRecord(r.id, r.seat, r.name, r.text, r.channel, aware(r.at) or r.at)
            for r in reversed(rows)
        ]

    def seat_for_token(self, code: str, token_hash: str) -> int | None:
        with self._core_read() as conn:
            return conn.scalar(_SEAT_OF_TOKEN, {"code": code, "token_hash": token_hash})

    # Games -------------------------------------------------------------------------

    def start_game_and_read(
        self, game: GameRecord, min_players: int, replaces: str | None = None
    ) -> tuple[GameRecord, RoomRecord | None]:
        """Make `game` the room's and store it, its players being the seats taken at that
        moment (returned in the stored record). The room is claimed first (a conditional
        update that locks its row), so no join lands between reading the seats and the
        start. `RoomClosed` if the room's game is no longer `replaces` (None: no game yet;
        else the finished game a rematch follows), `TooFewPlayers` if fewer than
        `min_players` seats are taken (nothing is changed then). Starting the room's next
        game also ends its rematch offer. The room comes back as it then stands, read in
        the same transaction (as `take_seat_and_read`)."""
        with self._core_tx() as conn:
            stored = _start_game(conn, game, min_players, replaces)
            return stored, _room_on(conn, str(game.room_code))

    def create_game(self, game: GameRecord, replaces: str | None = None) -> bool:
        """Store a new game and make it the room's; False if the room's game is no longer
        `replaces` (None: the room has no game yet; else the finished game a rematch
        follows). Starting the room's next game also ends its rematch offer."""
        with self._tx() as s:
            if game.room_code is not None:
                claimed = s.execute(
                    update(models.Room)
                    .where(models.Room.code == game.room_code, _is(models.Room.game_id, replaces))
                    .values(game_id=game.id, rematch=None, host_away_since=None)
                ).rowcount
                if claimed != 1:
                    return False
                # A new game: seats a person plays are theirs again (a takeover ends).
                s.execute(
                    update(models.Seat)
                    .where(models.Seat.room_code == game.room_code, models.Seat.kind == "human")
                    .values(level=None, reason=None)
                )
            s.add(_game_row(game))
        return True

    def get_game(self, game_id: str) -> GameRecord | None:
        with self._sessions() as s:
            row = s.get(models.Game, game_id)
            return None if row is None else _game_record(row)

    def list_games(
        self,
        status: str | None,
        variant: str | None,
        limit: int,
        offset: int = 0,
        active_since: datetime | None = None,
    ) -> list[GameRecord]:
        """Games newest first. With `active_since`, `status="playing"` lists only the live
        games a seated player was in since then, `status="adjourned"` the other live ones."""
        with self._sessions() as s:
            query = _filtered(select(models.Game), status, variant, active_since)
            order = models.Game.finished_at if status == "finished" else models.Game.started_at
            query = query.order_by(order.desc(), models.Game.id).limit(limit).offset(offset)
            return [_game_record(row) for row in s.scalars(query)]

    # The action log ----------------------------------------------------------------

    @staticmethod
    def action_append(
        game_id: str,
        seq: int,
        seat: int,
        payload: dict[str, Any],
        result: dict[str, Any] | None,
        now: datetime,
        by: str | None = None,
        deadline: datetime | bool | None = False,
    ) -> Append:
        """Action `seq` as the log stores it. The game row's `seq` (and result when the
        action ends the game) is updated in the same transaction, so listings never
        disagree with the log; so is the turn's `deadline` when the game has a clock
        (`False`: it has none)."""
        row = {
            "game_id": game_id,
            "seq": seq,
            "seat": seat,
            "payload": payload,
            "created_at": now,
            "by": by,
        }
        game: dict[str, Any] = {"seq": seq}
        if deadline is not False:
            game["deadline"] = deadline
        if result is not None:
            game.update(status="finished", result=result, finished_at=now)
        return Append(row, game)

    async def commit_action(
        self,
        game_id: str,
        seq: int,
        seat: int,
        payload: dict[str, Any],
        result: dict[str, Any] | None,
        now: datetime,
        by: str | None = None,
        deadline: datetime | bool | None = False,
    ) -> None:
        """Append action `seq` with whatever else is being appended in this process (group
        commit: `app/store/writer.py`); return once committed. `StaleWrite` if that `seq`
        is already taken. Called on the event loop, not in a worker thread."""
        await self.writer.append(
            self.action_append(game_id, seq, seat, payload, result, now, by, deadline)
        )

    def append_action(
        self,
        game_id: str,
        seq: int,
        seat: int,
        payload: dict[str, Any],
        result: dict[str, Any] | None,
        now: datetime,
        by: str | None = None,
    ) -> None:
        """Append action `seq` in a transaction of its own (from a worker thread);
        `StaleWrite` if that `seq` is already taken."""
        append = self.action_append(game_id, seq, seat, payload, result, now, by)
        outcome = self.write_appends([append])
        if outcome[0] is not None:
            raise outcome[0]

    def write_appends(self, batch: list[Append]) -> list[BaseException | None]:
        """Write a batch in one transaction: the action rows in one multi-row insert, the
        game rows in one update per shape. When anything in it fails (a taken `seq`, a
        deadlock between processes), write each append alone, so that each gets its own
        outcome: None when committed, `StaleWrite` or the error otherwise."""
        if len(batch) > 1:
            try:
                self._write_batch(batch)
                return [None] * len(batch)
            except DBAPIError:
                pass
        outcomes: list[BaseException | None] = []
        for item in batch:
            try:
                self._write_batch([item])
                outcomes.append(None)
            except IntegrityError as exc:
                game_id, seq = item.key
                stale = StaleWrite(f"seq {seq} of game {game_id} is taken")
                stale.__cause__ = exc
                outcomes.append(stale)
            except Exception as exc:
                outcomes.append(exc)
        return outcomes

    def _write_batch(self, batch: list[Append]) -> None:
        # Sorted, so that two processes writing the same games take their locks in the same
        # order (no deadlock on PostgreSQL).
        batch = sorted(batch, key=lambda item: item.key)
        shapes: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for item in batch:
            names = tuple(sorted(item.game))
            params = {f"v_{name}": value for name, value in item.game.items()}
            shapes.setdefault(names, []).append(params | {"v_id": item.row["game_id"]})
        with self._core_tx() as conn:
            conn.execute(_INSERT_ACTION, [item.row for item in batch])
            for names, rows in shapes.items():
                conn.execute(_game_update(names), rows)

    def actions(self, game_id: str, after: int = 0) -> list[ActionRecord]:
        with self._sessions() as s:
            rows = s.scalars(
                select(models.Action)
                .where(models.Action.game_id == game_id, models.Action.seq > after)
                .order_by(models.Action.seq)
            )
            return [
                ActionRecord(r.seq, r.seat, dict(r.payload), r.by, aware(r.created_at))
                for r in rows
            ]

    def action_kinds(self, game_ids: list[str]) -> dict[str, list[tuple[int, str | None]]]:
        """Each game's log as `(seat, action type)` in order: what cutting it into turns
        needs, without reading whole payloads (the lobby asks for a page of games at once)."""
        if not game_ids:
            return {}
        kind = models.Action.payload["type"].as_string()
        query = (
            select(models.Action.game_id, models.Action.seat, kind)
            .where(models.Action.game_id.in_(game_ids))
            .order_by(models.Action.game_id, models.Action.seq)
        )
        out: dict[str, list[tuple[int, str | None]]] = {game_id: [] for game_id in game_ids}
        with self._sessions() as s:
            for game_id, seat, action_type in s.execute(query):
                out[game_id].append((seat, action_type))
        return out

    def count_games(self, status: str | None = None) -> int:
        with self._sessions() as s:
            query = select(func.count()).select_from(models.Game)
            if status is not None:
                query = query.where(models.Game.status == status)
            return int(s.scalar(query) or 0)

    def ping(self) -> bool:
        with self._sessions() as s:
            return s.scalar(select(1)) == 1

    def ping_write(self) -> None:
        """Take the write path and roll back: a row written and undone, so that a database
        that reads but cannot write (locked, read-only, full) fails the health check."""
        with self._writer(), self._sessions() as s, s.begin() as tx:
            s.add(models.Room(code="~healthz", variant="-", options={}))
            s.flush()
            tx.rollback()

    # History and imports (replays) -----------------------------------------------

    def count_matching(
        self, status: str | None, variant: str | None, active_since: datetime | None = None
    ) -> int:
        """How many games `list_games` pages through with the same filters."""
        with self._sessions() as s:
            query = select(func.count()).select_from(models.Game)
            query = _filtered(query, status, variant, active_since)
            return int(s.scalar(query) or 0)

    def stored_replay(self, game_id: str, version: str) -> bytes | None:
        """The replay body built for this game by code of `version`, if there is one."""
        with self._sessions() as s:
            row = s.get(models.Replay, game_id)
            return None if row is None or row.version != version else bytes(row.body)

    def finished_without_replay(self, version: str, limit: int) -> list[str]:
        """The most recently finished games with no replay body built by `version`."""
        built = select(models.Replay.game_id).where(
            models.Replay.game_id == models.Game.id, models.Replay.version == version
        )
        with self._sessions() as s:
            query = (
                select(models.Game.id)
                .where(models.Game.status == "finished", ~built.exists())
                .order_by(models.Game.finished_at.desc(), models.Game.id)
                .limit(limit)
            )
            return list(s.scalars(query))

    def store_replay(self, game_id: str, version: str, body: bytes) -> None:
        """Keep a built replay body, replacing one built by other code. Two processes that
        built it at the same time store the same body: the second write just loses."""
        try:
            with self._tx() as s:
                row = s.get(models.Replay, game_id)
                if row is None:
                    s.add(models.Replay(game_id=game_id, version=version, body=body))
                else:
                    row.version, row.body, row.built_at = version, body, models.utcnow()
        except IntegrityError:
            pass

    def stored_analysis(self, game_id: str, version: str) -> bytes | None:
        """The analysis built for this game by code of `version`, if there is one."""
        with self._sessions() as s:
            row = s.get(models.Analysis, game_id)
            return None if row is None or row.version != version else bytes(row.body)

    def store_analysis(self, game_id: str, version: str, body: bytes) -> None:
        """Keep a built analysis, replacing one built by other code (a race just loses)."""
        try:
            with self._tx() as s:
                row = s.get(models.Analysis, game_id)
                if row is None:
                    s.add(models.Analysis(game_id=game_id, version=version, body=body))
                else:
                    row.version, row.body, row.built_at = version, body, models.utcnow()
        except IntegrityError:
            pass

    def same_finished_game(
        self, game: GameRecord, actions: list[ActionRecord]
    ) -> GameRecord | None:
        """A finished game already stored that is `game` move for move (its seed, players,
        options and log): an uploaded record of it is not stored a second time. Seeds are
        drawn at random, so the seed's hash finds the one candidate, by its index."""
        with self._sessions() as s:
            rows = s.scalars(
                select(models.Game).where(
                    models.Game.seed_hash == game.seed_hash, models.Game.status == "finished"
                )
            ).all()
            wanted = [(a.seq, a.seat, a.payload) for a in actions]
            for row in rows:
                same = (row.variant, row.options, row.players, row.seed, row.seq) == (
                    game.variant,
                    game.options,
                    game.players,
                    game.seed,
                    game.seq,
                )
                if not same:
                    continue
                logged = s.execute(
                    select(models.Action.seq, models.Action.seat, models.Action.payload)
                    .where(models.Action.game_id == row.id)
                    .order_by(models.Action.seq)
                ).all()
                if [tuple(entry) for entry in logged] == wanted:
                    return _game_record(row)
        return None

    def import_game(self, game: GameRecord, actions: list[ActionRecord]) -> None:
        """Store a finished game with no room and its whole log in one transaction, so an
        import is either entirely there or not at all."""
        now = game.finished_at or game.started_at
        with self._tx() as s:
            s.add(_game_row(game, room_code=None))
            s.flush()
            s.add_all(
                models.Action(
                    game_id=game.id, seq=a.seq, seat=a.seat, payload=a.payload, created_at=now
                )
                for a in actions
            )
