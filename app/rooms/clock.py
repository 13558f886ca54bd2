"""Turn timers: a per-turn limit, or a Fischer clock per player.

A clock is not a timer running in some process: it is a function of the game's log. The
game's start time, the time each action was stored, who was to move after it and why the
server played it (`by`) give, at any seq, whose turn it is, since when, what each
player has left and when the turn times out. So any process, after any restart, computes
the same deadline; the service writes it on the game row with each action so that every
process can find overdue games with one indexed query, and the log's `(game_id, seq)` key
lets exactly one of them play the timeout.

One thing is not in the log: time while no server process ran. A turn that fell due
then is not timed out at once when a process comes back (the player could not move
meanwhile): it is given its time again from then (`Clock.grace`, the later deadline
kept on the game row; `app/rooms/timeouts.py`). When that turn ends, its action stored
more than `OUTAGE_SLACK` past the log's deadline says so in the log itself: a Fischer
bank is charged nothing for it (the log cannot tell the player's share of it), which
any process replaying the log computes alike.

A *turn* is the time one seat is to move: it starts when `to_move` changes to that seat
and lasts over all of its actions (a push and a move are one turn).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

TURN_LIMITS = (30, 60, 120, 300)
FISCHER_BANK = (60, 3600)  # seconds, inclusive bounds of the starting time
FISCHER_INCREMENT = (1, 60)  # seconds added after each turn
TIMEOUTS_BEFORE_AWAY = 2
# Seconds past its deadline a turn can only be when no process was looking (an outage):
# each process looks for overdue turns every `CLOCK_SCAN_EVERY` (1 s).
OUTAGE_SLACK = 10.0
# The `by` of an action the server played because its seat's turn timed out.
TIMEOUT_BY = "computer:timeout"


class ClockError(ValueError):
    """A clock setting the server does not offer (answered as `bad_clock`)."""


@dataclass(frozen=True, slots=True)
class ClockSettings:
    kind: Literal["turn", "fischer"]
    seconds: int  # turn: the limit of each turn; fischer: each player's starting time
    increment: int = 0  # fischer: seconds added to a player's time after each turn

    def to_json(self) -> dict[str, Any]:
        if self.kind == "turn":
            return {"kind": "turn", "seconds": self.seconds}
        return {"kind": "fischer", "seconds": self.seconds, "increment": self.increment}


def _int(raw: dict[str, Any], key: str) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ClockError(f"clock: {key} is a whole number of seconds")
    return value


def parse_clock(raw: Any) -> ClockSettings | None:
    """`None` or `{"kind": "none"}`: no timer; `{"kind": "turn", "seconds": 30|60|120|300}`;
    `{"kind": "fischer", "seconds": 60-3600, "increment": 1-60}`."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ClockError("clock is an object")
    kind = raw.get("kind")
    allowed = {"none": {"kind"}, "turn": {"kind", "seconds"}}
    allowed["fischer"] = {"kind", "seconds", "increment"}
    if kind not in allowed:
        raise ClockError("clock: kind is none, turn or fischer")
    if extra := set(raw) - allowed[kind]:
        raise ClockError(f"clock: unknown field {', '.join(sorted(extra))}")
    if kind == "none":
        return None
    seconds = _int(raw, "seconds")
    if kind == "turn":
        if seconds not in TURN_LIMITS:
            raise ClockError(f"clock: a turn limit is one of {', '.join(map(str, TURN_LIMITS))} s")
        return ClockSettings("turn", seconds)
    increment = _int(raw, "increment")
    if not FISCHER_BANK[0] <= seconds <= FISCHER_BANK[1]:
        low, high = FISCHER_BANK
        raise ClockError(f"clock: a Fischer clock starts with {low}-{high} s")
    if not FISCHER_INCREMENT[0] <= increment <= FISCHER_INCREMENT[1]:
        raise ClockError(
            f"clock: a Fischer increment is {FISCHER_INCREMENT[0]}-{FISCHER_INCREMENT[1]} s"
        )
    return ClockSettings("fischer", seconds, increment)


@dataclass
class Clock:
    """One game's clock, stepped through its log (see the module's docstring)."""

    settings: ClockSettings
    mover: int | None
    turn_started: datetime
    remaining: list[float]  # fischer: each seat's time at the start of its next turn
    streak: list[int]  # consecutive timed-out turns per seat
    timed_out: bool = False  # the current turn was (partly) played by a timeout
    last_timeout: int | None = field(default=None)  # the seat of the last finished timeout
    # A later deadline for the current turn than the log gives: the grace of a turn that
    # fell due while no server process ran (`grace`). Not in the log: it lives on the
    # game row's `deadline`, which every process reads (`LiveGame.load`,
    # `RoomService.overdue`); it ends with the turn.
    extended: datetime | None = None

    @classmethod
    def start(cls, settings: ClockSettings, seats: int, at: datetime, mover: int | None) -> Clock:
        bank = float(settings.seconds) if settings.kind == "fischer" else 0.0
        return cls(settings, mover, at, [bank] * seats, [0] * seats)

    def clone(self) -> Clock:
        return Clock(
            self.settings,
            self.mover,
            self.turn_started,
            list(self.remaining),
            list(self.streak),
            self.timed_out,
            self.last_timeout,
            self.extended,
        )

    def step(self, at: datetime, by: str | None, mover_after: int | None) -> None:
        """Account for one action stored at `at` (`by`: who the server played it as, see
        `app/rooms/computer.py`); `mover_after` is None once finished."""
        if by == TIMEOUT_BY:
            self.timed_out = True
        if mover_after == self.mover:
            return
        ended = self.mover
        if ended is not None:
            if self.settings.kind == "fischer":
                used = max(0.0, (at - self.turn_started).total_seconds())
                if used > self.remaining[ended] + OUTAGE_SLACK:
                    # Past its deadline by more than a live process ever lets a turn
                    # run: it outlived an outage (and was given its time again). The
                    # log cannot say how much of it was the player's: none is charged,
                    # rather than the outage emptying their bank.
                    used = 0.0
                left = max(0.0, self.remaining[ended] - used)
                self.remaining[ended] = left + self.settings.increment
            self.streak[ended] = self.streak[ended] + 1 if self.timed_out else 0
            self.last_timeout = ended if self.timed_out else None
        self.mover, self.turn_started, self.timed_out = mover_after, at, False
        self.extended = None

    @property
    def budget(self) -> float:
        """The current turn's time as it began: the turn limit, or the mover's bank."""
        if self.mover is None:
            return 0.0
        if self.settings.kind == "turn":
            return float(self.settings.seconds)
        return self.remaining[self.mover]

    @property
    def deadline(self) -> datetime | None:
        if self.mover is None:
            return None
        due = self.turn_started + timedelta(seconds=self.budget)
        return due if self.extended is None else max(due, self.extended)

    def grace(self, until: datetime) -> None:
        """Let the current turn run until `until` (a later deadline the game row holds)."""
        if self.mover is not None:
            self.extended = until

    def wire(self) -> dict[str, Any]:
        """What every viewer is sent (the `clock` of `state`, ext): the settings, whose turn
        runs since when, its deadline, and (Fischer) each seat's time at its turn start."""
        deadline = self.deadline
        wire = self.settings.to_json() | {
            "seat": self.mover,
            "turn_started": self.turn_started.isoformat(),
            "deadline": None if deadline is None else deadline.isoformat(),
            "timeouts": list(self.streak),
        }
        if self.settings.kind == "fischer":
            wire["remaining"] = [round(r, 3) for r in self.remaining]
        return wire
