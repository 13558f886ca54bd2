"""The computer at the table: it plays every seat the computer controls.

A seat is computer-controlled while its row carries a `level` (see `models.Seat`): a
computer seat the host added (reason `"seat"`), or a person's seat handed over (a
takeover, a player who left, ...). Whenever the seat to move is one of those, a task here
waits a short human-like pause, asks `app.bots.choose` in a worker thread with that seat's
own view and `legal` list ONLY (never the seed, another hand or a face-down tile), and
submits the action through `RoomService.submit`, the same path as a person's: validation,
the log, the fan-out. The `(game_id, seq)` key decides every race, so a restart, a second
process or a person acting at the same moment never makes the computer act twice for one
turn: the loser's append fails as `stale` and it simply looks again.

When does it look? After every action or start this process commits, when a process
loads a running game from the log, when a seat is handed to the computer, and in a sweep
every `COMPUTER_SWEEP_SECONDS` over the rooms with a computer-controlled seat and a live
game (which covers a process that died during its pause, and every process's restart).
The same sweep settles "play again" offers past their deadline, whose in-memory timer
may have died with a process (`RoomService.settle_due_rematches`).

A player that keeps a memory between decisions (Team Edition's hard player remembers
the faces of tiles turned down since; `app.bots.memory`) gets it here, one per (game,
seat, level), built only from that seat's views and events: the driver re-plays the
game's log beside it and shows the seat each step, catching up on every decision, so a
restart or a turn played by another process just means replaying from the log.

The contract for other room modules (turn clocks, takeovers, leaving; keep it stable):

- `await computer.control(code, seat, level, reason)`: from now on the computer plays
  `seat` of room `code` at `level` (`easy`/`medium`/`hard`), for `reason` (a short word
  shown to players and stored with each of its actions as `by = "computer:<reason>"`:
  `"away"`, `"left"`). Published to every process (a `room` message); if it is
  that seat's turn, the computer moves after the pause. Returns False for no such seat.
- `await computer.release(code, seat)`: the seat is its person's again at once (no
  computer move for it starts after this returns; one already submitted may still land,
  as if the person had been a moment slower). Computer seats (`kind == "computer"`) are
  not released: remove them instead.
- `await computer.play_now(code, seat, cause, level="easy", seq=None)`: one computer move
  for `seat` now, without the pause, whoever controls it (a turn timer's timeout). With
  `seq`, only if the game is still at that seq, so a late or repeated call cannot play a
  later turn. Returns True when this call's action was committed; False when it was not
  that seat's turn, the game moved on, or another writer won the seq. Stored with
  `by = "computer:<cause>"`.
- `computer.poke(code)`: look at the room soon (cheap; any number of times).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
from collections.abc import Awaitable, Callable
from typing import cast

from anyio import to_thread

from app.bots import LEVELS, Action, Level, choose, keeping
from app.bots.memory import Keeper, Memory, new_memory
from app.rooms.errors import RoomError
from app.rooms.service import RoomService, SeatTurn

log = logging.getLogger("app.rooms.computer")
# Why the computer plays a seat when it only stands in for a person who may come back (out
# of time, away): it keeps what the person holds for them (`app.bots.keeping`), while
# someone at the table plays as they like (`_stands_in`). A seat its person left, or a
# computer's own, plays as it likes.
STANDS_IN = frozenset({"timeout", "away"})
MEMORIES_KEPT = 512  # (game, seat) memories held; the least recently used is dropped
# Events the players are still reading when the next computer is about to move: Master's
# dice and duels (who was threatened, who won, which treasure was lost) were replaced by
# the next computer's move within the usual pause, and on a phone only the move list, far
# down the page, kept them. The next computer waits `LINGER` pauses after such a move.
LINGERING = frozenset(
    {"dragon_die", "threat", "duel_roll", "duel_won", "final_roll", "final_duel", "lost"}
)
LINGER = 3.0


def pause_after(last_events: tuple[str, ...], pause: float) -> float:
    """How long a computer waits before its move, after a move that had `last_events`."""
    return pause * LINGER if LINGERING.intersection(last_events) else pause


def rng_for_turn(turn: SeatTurn, level: str) -> random.Random:
    """The computer's own randomness for one decision: the same at the same point of the
    same game (any process decides alike), and keyed with the game's seed, which stays on
    the server until the game ends. The player is handed this rng, never the seed; and
    nobody can draw its numbers before the end. Drawn from the game id and seq alone,
    public both, the numbers were anyone's: an opponent re-ran the computer's choice for
    each target or hand the seat might hold and kept those that gave the move it made,
    telling its chance moves from its aimed ones (an `easy` seat's move named its classic
    target outright about one time in five), the secret of a computer seat, and of a
    person's seat played for a timeout or while they were away."""
    secret = (turn.game_record or {}).get("seed") or ""
    return random.Random(f"{secret}:{turn.game_id}:{turn.seq}:{turn.seat}:{level}")


class ComputerPlayers:
    def __init__(self, service: RoomService, pause: float = 0.8, sweep_every: float = 10.0) -> None:
        self.service = service
        self.pause = pause
        self.sweep_every = sweep_every
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._keepers: dict[tuple[str, int, str], Keeper] = {}
        self._keepers_lock = threading.Lock()
        self.moves = 0  # computer actions this process committed
        self.lost = 0  # computer actions another writer beat to their seq
        service.on_committed.append(self._committed)

    # The contract ------------------------------------------------------------------

    async def control(self, code: str, seat: int, level: str, reason: str) -> bool:
        if level not in LEVELS:
            raise RoomError("bad_level", f"a computer level is one of {', '.join(LEVELS)}", 422)
        changed = await self.service.set_computer(code, seat, level, reason[:16])
        if changed:
            self.poke(code)
        return changed

    async def release(self, code: str, seat: int) -> bool:
        return await self.service.set_computer(code, seat, None, None)

    async def play_now(
        self, code: str, seat: int, cause: str, level: str = "easy", seq: int | None = None
    ) -> bool:
        turn = await self.service.seat_turn(code)
        if turn is None or turn.seat != seat or (seq is not None and turn.seq != seq):
            return False
        return await self._play(turn, level, f"computer:{cause}"[:32], controlled=False)

    def _committed(self, code: str) -> None:
        """After an action: look only where a seat is the computer's as this process knows
        the room (its record follows every change through the hub; the sweep covers the
        rest). Looking costs reads of the room and the log: not for every human move."""
        if self.service.computer_seated(code):
            self.poke(code)

    def poke(self, code: str) -> None:
        task = self._tasks.get(code)
        if task is not None and not task.done():
            self._again.add(code)  # the running task looks once more before it ends
            return
        self._tasks[code] = asyncio.get_running_loop().create_task(self._run(code))

    # Running -----------------------------------------------------------------------

    def start(self) -> None:
        if self.sweep_every > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        tasks = [t for t in (self._sweeper, *self._tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    async def idle(self) -> None:
        """Wait until no computer move is pending here (tests and benchmarks)."""
        while pending := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def sweep(self) -> None:
        """Look at every room where a computer move may be due, and settle the "play
        again" offers past their deadline: both are work a process owed when it died
        (or that waited through a restart), which whichever process is alive picks up."""
        for code in await self.service.computer_rooms():
            self.poke(code)
        try:
            await self.service.settle_due_rematches()
        except asyncio.CancelledError:
            raise
        except Exception:  # the computer's moves above are not to wait on this
            log.exception("rematch sweep failed")

    async def _sweep_forever(self) -> None:
        await self._safely(self.sweep)
        while True:
            await asyncio.sleep(self.sweep_every)
            await self._safely(self.sweep)

    async def _safely(self, step: Callable[[], Awaitable[None]]) -> None:
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer sweep failed")

    async def _run(self, code: str) -> None:
        """Play the room's computer seats' turns, one after the other, each after its pause."""
        try:
            while True:
                self._again.discard(code)
                turn = await self.service.seat_turn(code)
                if turn is None or turn.record is None or turn.record.level is None:
                    if code in self._again:
                        continue
                    return
                if self.pause > 0:
                    await asyncio.sleep(pause_after(turn.last_events, self.pause))
                    # The seat may have been released, or the turn played, meanwhile.
                    fresh = await self.service.seat_turn(code)
                    if fresh is None or (fresh.seq, fresh.seat) != (turn.seq, turn.seat):
                        continue
                    turn = fresh
                    if turn.record is None or turn.record.level is None:
                        continue
                reason = turn.record.reason or "seat"
                if not await self._play(turn, turn.record.level, f"computer:{reason}"[:32]):
                    # Lost the seq to another writer: look again. Refused for any other
                    # reason: do not try the same turn forever (the sweep will look).
                    after = await self.service.seat_turn(code)
                    if after is not None and after.seq == turn.seq:
                        return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer seat failed", extra={"room": code})
        finally:
            if self._tasks.get(code) is asyncio.current_task():
                del self._tasks[code]
            self.service.forget_idle(code)

    def _decide(self, turn: SeatTurn, level: str, keep: bool = False) -> Action:
        """The seat's action (in a worker thread): for a player that keeps a memory, the
        memory is first brought up to this seq from the log (see `app.bots.memory`).

        Always one of `turn.legal`: a player that raises, or answers an action the rules
        would refuse, is logged and the seat plays one of its legal actions instead. The
        refusal alone stopped the room's task, and every later look (the sweep) asked the
        same player the same question: the table waited on that seat for ever."""
        action: Action | None = None
        memory = None
        try:
            memory = self._memory(turn, level)
        except Exception:  # the player still plays, from the view alone
            log.exception("computer memory failed", extra=_where(turn))
        try:
            chosen = cast(Level, level)
            rng = rng_for_turn(turn, level)
            action = choose(turn.variant, chosen, turn.view, turn.legal, rng, memory, keep=keep)
        except Exception:
            log.exception("computer player failed", extra=_where(turn))
        if action in turn.legal:
            return cast(Action, action)
        if action is not None:
            log.error("computer player chose an illegal action", extra=_where(turn))
        kept = keeping(turn.variant, turn.legal) if keep else turn.legal
        return rng_for_turn(turn, level).choice(kept)

    def _memory(self, turn: SeatTurn, level: str) -> Memory | None:
        """The memory of (game, seat) at `level`, kept across decisions in this process
        and rebuilt from the log when missing (a restart, another process's turns)."""
        if turn.game_record is None or new_memory(turn.variant, level) is None:
            return None
        key = (turn.game_id, turn.seat, level)
        with self._keepers_lock:  # decisions of several rooms run in worker threads
            keeper = self._keepers.pop(key, None)
            if keeper is None:
                fresh = new_memory(turn.variant, level)
                assert fresh is not None
                keeper = Keeper(turn.game_record, turn.seat, fresh)
            self._keepers[key] = keeper  # most recently used last
            while len(self._keepers) > MEMORIES_KEPT:
                del self._keepers[next(iter(self._keepers))]
        return keeper.catch_up(turn.game_record)  # one task per room: never concurrent

    async def _stands_in(self, turn: SeatTurn, by: str) -> bool:
        """Whether this move keeps what the seat's person holds (`app.bots.keeping`): it
        stands in for someone out of time or away, and someone at the table plays as they
        like (a person, a computer seat, a leaver's computer). A table of stand-ins only
        never ended a Master game (its only end is a duel a stand-in declines): it played
        to the action limit and then stood still. Nobody plays there to keep for, and
        whoever comes back finds the game played as any computer plays it."""
        if by.removeprefix("computer:") not in STANDS_IN:
            return False
        seats = (await self.service.room_info(turn.code))["seats"]
        return any(
            seat["computer"] is None or seat["computer"]["reason"] not in STANDS_IN
            for seat in seats  # this seat too: a person out of time still holds it
        )

    async def _controls(self, turn: SeatTurn) -> bool:
        """Whether the computer still plays `turn.seat` as this process knows the room."""
        seats = (await self.service.room_info(turn.code))["seats"]
        return any(s["seat"] == turn.seat and s["computer"] is not None for s in seats)

    async def _play(self, turn: SeatTurn, level: str, by: str, controlled: bool = True) -> bool:
        """Decide and submit one action for `turn`; False if it was not taken. A seat the
        computer `controlled` (not a timeout's one move) is looked at again once the
        decision is made: a person back meanwhile (their hello, `back`) has the turn."""
        keep = await self._stands_in(turn, by)
        action = await to_thread.run_sync(self._decide, turn, level, keep)
        if controlled and not await self._controls(turn):
            return False
        try:
            await self.service.submit(turn.code, turn.seat, turn.seq, action, by)
        except RoomError as exc:
            # `stale`: another writer (a person, another process) took this seq first.
            self.lost += 1
            log.info(
                "computer move not taken",
                extra={"room": turn.code, "game": turn.game_id, "code": exc.code},
            )
            return False
        self.moves += 1
        return True


def _where(turn: SeatTurn) -> dict[str, object]:
    """The log fields that find a decision again: the room, game, seq and seat."""
    return {"room": turn.code, "game": turn.game_id, "seq": turn.seq, "seat": turn.seat}
