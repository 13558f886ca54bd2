"""The tables. The action log is the truth; every other column is derived or descriptive.

`actions` has the primary key `(game_id, seq)`: inserting action `seq = N` succeeds for
exactly one writer, which is the whole concurrency story across threads and processes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Room(Base):
    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The room's current game once started (a rematch replaces it with the next one).
    game_id: Mapped[str | None] = mapped_column(String(16), default=None)
    # SHA-256 of the host's token: the creator's key to options, seats and the start.
    host_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    # Since when the host's seat has been seen disconnected before the start (the 60 s
    # after which any seated player may start).
    host_away_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # An "open table", listed in the lobby; rooms are private by link otherwise.
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # A "play again" offer after a finished game: {"game", "accepted", "deadline"}.
    rematch: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # The turn timer chosen for the room's games (`app/rooms/clock.py`); None: no timer.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class Seat(Base):
    __tablename__ = "seats"

    room_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(8), default="human")
    # The seat the host took (the host's presence decides who may start).
    host: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Set while the computer plays this seat: its level and why ("seat" for a computer
    # seat, else what handed a person's seat over: "away" (taken over, or two turns out
    # of time) or "left").
    level: Mapped[str | None] = mapped_column(String(8), default=None)
    reason: Mapped[str | None] = mapped_column(String(16), default=None)
    # SHA-256 of the seat's token: a leaked database does not hand out seats.
    token_hash: Mapped[str] = mapped_column(String(64), index=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A one-time "continue on another device" key (hashed) and when it stops working.
    transfer_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    transfer_expires: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    room_code: Mapped[str | None] = mapped_column(
        String(16), ForeignKey("rooms.code", ondelete="SET NULL"), index=True
    )
    variant: Mapped[str] = mapped_column(String(16), index=True)
    options: Mapped[dict[str, Any]]
    players: Mapped[list[Any]]
    # Secret until the game ends; only its hash is public before that.
    seed: Mapped[str] = mapped_column(String(128))
    # Indexed: an uploaded record is looked up by it (the same game is not stored twice).
    seed_hash: Mapped[str] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(16), default="live", index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    imported: Mapped[bool] = mapped_column(Boolean, default=False)
    # The turn timer's settings, fixed at the start; None: no timer.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # When the current turn times out (derived from the clock and the log's times, written
    # with each action): any process may enforce it, the log's key decides who does.
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), default=None, index=True
    )
    # Seats whose player left the running game for good (the computer finished it).
    left: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    # Last time a seated player was known connected: a game nobody is in is adjourned.
    active_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class Action(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    payload: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Null when the seat's player sent it; "computer:<reason>" when the server wrote it
    # for the seat ("computer:seat", "computer:away", "computer:left", and
    # "computer:timeout" for a move played when a turn's time ran out). Replays do not
    # need it.
    by: Mapped[str | None] = mapped_column(String(32), default=None)


class Replay(Base):
    """A finished game's replay body as `app/replays.py` builds it (gzipped JSON): derived
    from the log, kept so that no process builds it twice. `version` names the code that
    built it; a body of another version is built again when next wanted."""

    __tablename__ = "replays"

    game_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[str] = mapped_column(String(32))
    body: Mapped[bytes] = mapped_column(LargeBinary)
    built_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Analysis(Base):
    """A finished game's analysis as `app/analysis` builds it (gzipped JSON): derived from
    the log like a replay body, kept so that no process computes it twice; `version`
    names the code that built it."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[str] = mapped_column(String(32))
    body: Mapped[bytes] = mapped_column(LargeBinary)
    built_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatLine(Base):
    """A line said in a room: kept, so that a page that reloads or a seat that moves to
    another device finds the conversation where it was. The room's recent lines ride in
    each `welcome` (as far as the viewer may read them: the spectators' channel is theirs)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("rooms.code", ondelete="CASCADE"), index=True
    )
    # The speaker's seat, None for a spectator; the name as the line showed it.
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    name: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    channel: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
