"""Away players and leavers: who may hand a person's seat to the computer, and when.

The computer itself is `app/rooms/computer.py` (`control`, `release`, `play_now`); this
module holds the rules around it:

- a seated player may hand another seat to the computer (`takeover`) only when that
  seat's person has been disconnected for `AWAY_AFTER` seconds; the seat's `reason` is
  then `"away"`, and it is the person's again as soon as their token says hello
  (`RoomService.hello`) or they send `back`;
- a player may `leave` a running game for good: the computer plays the seat to the end
  (`reason` `"left"`, never released), the game records who left, and the seat's token
  stops working, so coming back is watching.

A takeover or a leave changes who chooses a seat's next actions, not the game: the
actions the computer then plays are ordinary actions in the log, with `by` naming why.
"""

from __future__ import annotations

from typing import Any

from app.rooms.computer import ComputerPlayers
from app.rooms.connection import Connection
from app.rooms.errors import RoomError
from app.rooms.keys import hash_token, new_token
from app.rooms.service import RoomService

LEVEL = "easy"  # the computer that stands in for a person plays the easiest level


async def takeover(
    service: RoomService, computer: ComputerPlayers, conn: Connection, seat: Any
) -> None:
    if conn.seat is None:
        raise RoomError("spectator", "only players may hand a seat to the computer")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RoomError("bad_message", "takeover: seat is an integer")
    info = await service.room_info(conn.room)
    if info["status"] != "playing":
        raise RoomError("illegal", "takeover: no game is running in this room")
    target = next((s for s in info["seats"] if s["seat"] == seat), None)
    if seat == conn.seat or target is None or target["kind"] != "human":
        raise RoomError("illegal", "takeover: not another player's seat")
    if target["computer"] is not None:
        raise RoomError("illegal", "takeover: the computer already plays this seat")
    if not await service.is_away(conn.room, seat):
        raise RoomError(
            "not_away", f"takeover: that player has not been away {service.away_after:g} s"
        )
    await computer.control(conn.room, seat, LEVEL, "away")


async def leave(service: RoomService, computer: ComputerPlayers, conn: Connection) -> None:
    if conn.seat is None:
        raise RoomError("spectator", "spectators have no seat to leave")
    info = await service.room_info(conn.room)
    if info["status"] != "playing" or info["game_id"] is None:
        raise RoomError("illegal", "leave: no game is running in this room")
    seat, code = conn.seat, conn.room
    token_hash = hash_token(new_token())
    await service.run_db(
        service.repo.leave_seat, code, seat, info["game_id"], token_hash, LEVEL, "left"
    )
    # Told before the room's news: a room message re-seats connections by token, and
    # this one's token no longer holds the seat. Should this stop here (a crash), the
    # seat is the computer's all the same, and its sweep plays it.
    await service.hub.publish(
        {"room": code, "kind": "seat_moved", "seat": seat, "keep": None, "why": "left"}
    )
    await service.hub.publish({"room": code, "kind": "room"})
    computer.poke(code)
