"""A room's spectators, sent each state a share at a time when they are many.

One state sent to 5,000 spectators is 5,000 socket writes: some 80-120 ms of the event
loop on the machine `bench/load.py featured` runs on, in one stretch. A player who acts
during it (a move right after the push, once the state carries the legal actions) waited
for all of it before the server even read the action. So a room with more than `INLINE`
spectators has them sent in slices of `SLICE`, one per turn of the loop, which is free
between two slices to read actions, commit them and send the players their next state
first; while one of the room's actions is being committed (its lock held), the slices
wait for it. A smaller room is sent all at once, as before.

The room's own messages (seats, presence: the same text for everyone) go the same way,
in the same queue. The order stays what it was: each state is sent whole, to every
spectator, before the next one starts, so a spectator that is up to date gets every
`seq` (nothing skipped). The text each one is sent is written once, when the state is
announced, since the game may have moved on by the time the last slice goes out. A
spectator that is not exactly one state behind (it arrived, or a game was started
again) is caught up instead with the room's current state and its history, as a `sync`
would, and the later states find it up to date.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.rooms.connection import Connection

INLINE = 256  # at most this many spectators are sent a state at once, as seats are
SLICE = 64  # spectators per turn of the loop in a larger room


@dataclass(frozen=True, slots=True)
class Announced:
    """One state of one game, as every up-to-date spectator is sent it."""

    game_id: str
    seq: int
    text: str


@dataclass(frozen=True, slots=True)
class Told:
    """A message every spectator is sent as it is (the room's seats and presence)."""

    text: str


class Crowd:
    """The spectators' sends of one room, in the order the states were announced."""

    def __init__(
        self,
        spectators: Callable[[], Iterable[Connection]],
        catch_up: Callable[[Connection], None],
        lock: asyncio.Lock | None = None,
    ) -> None:
        self._spectators = spectators  # the room's spectators as they are now
        self._catch_up = catch_up  # sends the room's current state, with its history
        self._lock = lock  # the room's: held while one of its actions is committed
        self._waiting: collections.deque[Announced | Told] = collections.deque()
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """Whether states are still on their way: a later one must queue behind them."""
        return self._task is not None

    def announce(self, item: Announced | Told) -> None:
        self._waiting.append(item)
        if self._task is None:
            self._task = asyncio.create_task(self._send_all())

    def _send(self, item: Announced | Told, conn: Connection) -> None:
        """`item` to one spectator, unless it has that state already."""
        if not conn.welcomed or conn.seat is not None:
            return
        if isinstance(item, Told):
            conn.send(item.text)
            return
        state = item
        if conn.game_id == state.game_id:
            if conn.sent_seq >= state.seq:
                return
            if conn.sent_seq == state.seq - 1:
                conn.send(state.text)
                conn.sent_seq = state.seq
                return
        self._catch_up(conn)

    async def _send_all(self) -> None:
        try:
            while self._waiting:
                item = self._waiting.popleft()
                for i, conn in enumerate(list(self._spectators())):
                    if i and i % SLICE == 0:
                        await self._between_slices()
                    self._send(item, conn)
        finally:
            self._task = None

    async def _between_slices(self) -> None:
        """A turn of the loop, and while the room's lock is held (an action being
        committed), until it is free: the spectators' sends wait for the players' action
        rather than compete with its commit for the loop and the interpreter (a move
        sent during a fan-out to 5,000 took 8-116 ms, and 4-18 ms once waited for)."""
        await asyncio.sleep(0)
        if self._lock is not None and self._lock.locked():
            async with self._lock:
                pass

    def stop(self) -> None:
        """Drop what is still to be sent (the room leaves memory, or the process stops)."""
        self._waiting.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None
