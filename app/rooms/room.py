"""One room as this process holds it: its row, its game, its connections; and the room
as the pages are shown it (its seats, a name by the text rule)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from app import text as text_rules
from app.rooms import chat as chat_lines
from app.rooms.connection import Connection
from app.rooms.crowd import Crowd
from app.rooms.errors import RoomError
from app.rooms.live import LiveGame
from app.store.repository import RoomRecord, SeatRecord

# A hello reads the room and the log at most this often per room (`RoomLive.read_recently`).
HELLO_READS_EVERY = 1.0


def clean_name(raw: str) -> str:
    """A name by the one text rule (`app/text.py`), or `RoomError("bad_name")`."""
    try:
        return text_rules.clean_name(raw)
    except text_rules.TextError as exc:
        raise RoomError(exc.code, exc.message, 422, {"reason": exc.reason}) from exc


def plays(conn: Connection) -> bool:
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


def epoch_ms() -> int:
    """The server's time for clients to set their clocks by (`welcome.now`)."""
    return int(time.time() * 1000)


@dataclass
class RoomLive:
    """This process's view of one room: its row, its game, its connections."""

    record: RoomRecord
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Held while a hello looks up its token's seat and gives it to the connection, and
    # while news of seats (a seat moved to another device or left, seats renumbered)
    # changes the connections' seats: news told while a hello was between its look-up
    # and its seat passed that connection by, which kept a seat its token had lost.
    seating: asyncio.Lock = field(default_factory=asyncio.Lock)
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
