"""The room service: what HTTP handlers and WebSocket connections ask of rooms.

It owns this process's in-memory side of rooms (live games, connections) and talks to
the database only through the repository, in worker threads so the event loop never
waits on SQL. Actions in one room are serialised by that room's lock; across processes,
the action log's primary key decides, and a loser catches up and answers `stale`.

One service, one concern per module: each part below adds its methods to the state and
reads that `RoomsCore` (app/rooms/core.py) shares, so that the lobby, the play, the
fan-out and the rest can each be read alone.
"""

from __future__ import annotations

from app.rooms.deadlines import Deadlines
from app.rooms.fanout import Fanout
from app.rooms.lobby import Lobby
from app.rooms.play import Play, SeatTurn
from app.rooms.rematch import Rematches
from app.rooms.sessions import Sessions
from app.rooms.talk import Talk
from app.rooms.upkeep import Upkeep

__all__ = ["RoomService", "SeatTurn"]


class RoomService(Lobby, Rematches, Sessions, Play, Talk, Fanout, Deadlines, Upkeep):
    """Rooms for this process: made and seated (`Lobby`), played again (`Rematches`),
    connected to (`Sessions`), played (`Play`), talked in (`Talk`), told of every change
    (`Fanout`), timed (`Deadlines`) and kept tidy (`Upkeep`)."""
