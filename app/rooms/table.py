"""The table's rules before and after a game: who hosts, who may start, which names may sit
together, computer seats' names, and the "play again" offer. Pure decisions over room
records; `RoomService` reads and writes the rows and tells the processes.

The host is whoever holds the host token the create call returned; the host's seat is the
seat taken with that token. The host starts the game; when the host's seat has been
disconnected for `grace` seconds, any seated player may. A room whose host has no seat (a
client of the public protocol, which knows no host token, or a host who left the seat)
keeps the contract's rule: any seated player starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app import text
from app.bots import LEVELS
from app.rooms.errors import RoomError
from app.store.repository import RoomRecord, SeatRecord

REMATCH_SECONDS = 60.0


def check_name_free(room: RoomRecord, name: str) -> None:
    """`name_taken` when a seat's name is the same name by the text rule
    (`app.text.same_name`: case, compatibility forms and lookalikes: `Ann`, `ANN`, `Ａnn`,
    Cyrillic `Аnn`; `Helen` and Greek `Ηelen`)."""
    if any(text.same_name(name, s.name) for s in room.seats):
        raise RoomError("name_taken", f"someone in this room is already called {name!r}", 409)


def check_level(level: str) -> None:
    """`bad_level` unless `level` is one the computer plays at."""
    if level not in LEVELS:
        raise RoomError("bad_level", f"a computer level is one of {', '.join(LEVELS)}", 422)


def computer_name(room: RoomRecord, level: str) -> str:
    """`Computer (hard)`, then `Computer 2 (hard)`, ...: unique in the room."""
    check_level(level)
    taken = set().union(*(text.name_keys(s.name) for s in room.seats))
    for n in range(1, 10):
        name = f"Computer ({level})" if n == 1 else f"Computer {n} ({level})"
        if text.name_keys(name).isdisjoint(taken):
            return name
    raise RoomError("room_full", "every seat is taken", 409)


def host_seat(room: RoomRecord) -> SeatRecord | None:
    """The seat whose presence counts as the host's (see the module docstring)."""
    return next((s for s in room.seats if s.host), None)


@dataclass(frozen=True, slots=True)
class StartCheck:
    """Whether a seated player other than the host may start, and from when."""

    allowed: bool
    host_away_since: datetime | None
    wait_seconds: float


def others_may_start(
    room: RoomRecord, host_connected: bool, now: datetime, grace: float
) -> StartCheck:
    host = host_seat(room)
    if host is None:
        return StartCheck(True, None, 0.0)
    if host_connected:
        return StartCheck(False, None, grace)
    since = room.host_away_since or now
    left = grace - (now - since).total_seconds()
    return StartCheck(left <= 0, since, max(0.0, left))


def rematch_offer(
    game_id: str,
    room: RoomRecord,
    seat: int,
    now: datetime,
    seconds: float = REMATCH_SECONDS,
) -> dict[str, Any]:
    """A new "play again" offer: the asker and every computer seat accept at once."""
    accepted = sorted({seat} | {s.seat for s in room.seats if s.kind == "computer"})
    deadline = now + timedelta(seconds=seconds)
    return {"game": game_id, "accepted": accepted, "deadline": deadline.isoformat()}


def rematch_accept(offer: dict[str, Any], seat: int) -> dict[str, Any]:
    return offer | {"accepted": sorted(set(offer["accepted"]) | {seat})}


def answering(room: RoomRecord) -> set[int]:
    """The seats a "play again" waits for: not those whose person left the game, whose
    key no longer works (they are freed when the next game starts)."""
    return {s.seat for s in room.seats if not (s.kind != "computer" and s.reason == "left")}


def rematch_due(offer: dict[str, Any], room: RoomRecord, now: datetime) -> bool:
    """Everyone who can answer accepted, or the time is up: the offer is settled now."""
    everyone = answering(room) <= set(offer["accepted"])
    return everyone or now >= datetime.fromisoformat(offer["deadline"])
