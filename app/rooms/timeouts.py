"""Enforcing turn deadlines, from any process.

Deadlines are data on the game rows (`app/rooms/clock.py`), so every process looks for
overdue games itself: once a second, one indexed query. The timed-out seat's whole turn
is played by the computer at the easiest level (`ComputerPlayers.play_now`, each action
with `by = "computer:timeout"`). Two processes finding the same game both try; the log's
`(game_id, seq)` key stores exactly one action per seq, and `play_now(seq=...)` never
plays a later turn, so the turn is played once. A process that restarts finds what fell
due while no process ran on its first look, and gives those turns their time again from
then rather than timing them out (`fell_due_unwatched`, `RoomService.grace`): an outage
is not the player's. After `TIMEOUTS_BEFORE_AWAY` timed-out turns in
a row the seat is handed to the computer (`reason` "away") until its person is back.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from anyio import to_thread

from app.rooms.away import LEVEL
from app.rooms.clock import OUTAGE_SLACK, TIMEOUTS_BEFORE_AWAY
from app.rooms.computer import ComputerPlayers
from app.rooms.service import RoomService

log = logging.getLogger("app.rooms.timeouts")
MAX_TURN_ACTIONS = 64  # a turn is a few actions; a bound against a stuck engine


async def enforce(
    service: RoomService, computer: ComputerPlayers, code: str, game_id: str, seq: int
) -> int:
    """Play the overdue turn of `game_id` at `seq` if it still is; the actions stored."""
    seat = await service.overdue(code, game_id, seq)
    played = 0
    try:
        while seat is not None and played < MAX_TURN_ACTIONS:
            if not await computer.play_now(code, seat, "timeout", LEVEL, seq=seq + played):
                break
            played += 1
            turn = await service.seat_turn(code)
            if turn is None or turn.seat != seat:
                break
        if played:
            log.info("turn timed out", extra={"room": code, "game": game_id, "seat": seat})
            clock = service.clock_of(code)
            away = clock is not None and clock.streak[seat] >= TIMEOUTS_BEFORE_AWAY
            if seat is not None and away:
                await computer.control(code, seat, LEVEL, "away")
    finally:
        service.forget_idle(code)
    return played


async def enforce_once(service: RoomService, computer: ComputerPlayers) -> int:
    """Play every overdue turn once; returns how many actions this process stored. A
    turn that fell due while no process ran is given its time again instead (`grace`)."""
    now = datetime.now(UTC)
    overdue = await to_thread.run_sync(service.repo.overdue_games, now)
    played = 0
    for game_id, code, seq in overdue:
        try:
            if await fell_due_unwatched(service, game_id, seq, now):
                try:
                    await service.grace(code, game_id, seq)
                finally:
                    service.forget_idle(code)
                continue
            played += await enforce(service, computer, code, game_id, seq)
        except Exception:  # one broken game must not stop the others' clocks
            log.exception("timeout failed", extra={"room": code, "game": game_id})
    return played


async def fell_due_unwatched(service: RoomService, game_id: str, seq: int, now: datetime) -> bool:
    """Whether the turn of `game_id` at `seq` fell due while no server process ran: before
    this process started, and more than `OUTAGE_SLACK` ago, which a live process (each
    looks every `CLOCK_SCAN_EVERY`) never lets happen. Its player could not move then:
    timing the turn out at once charged them the outage, and two such turns in a row
    handed their seat to the computer as if they had left. Read from the game row's
    deadline (the log's, or a grace already given: then it is not before the start)."""
    row = await to_thread.run_sync(service.repo.get_game, game_id)
    deadline = None if row is None else row.deadline
    if row is None or deadline is None or row.seq != seq or row.status != "live":
        return False
    return deadline < service.started_at and (now - deadline).total_seconds() > OUTAGE_SLACK


async def enforce_forever(service: RoomService, computer: ComputerPlayers, every: float) -> None:
    while True:
        try:
            await enforce_once(service, computer)
        except Exception:
            log.exception("deadline scan failed")
        await asyncio.sleep(every)


async def keep_active(service: RoomService, every: float) -> None:
    """Stamp the live games that have a seated player connected here, so that a game
    nobody is in shows as adjourned after `ADJOURN_AFTER` (`Repository.touch_games`)."""
    while True:
        await asyncio.sleep(every)
        try:
            games = service.games_with_players()
            if games:
                await to_thread.run_sync(service.repo.touch_games, games, datetime.now(UTC))
        except Exception:
            log.exception("activity stamp failed")
