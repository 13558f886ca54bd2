"""Group commit: every action appended while one commit is under way goes into the next.

An action is acknowledged only once its row is committed, so a process that appended each
action in a transaction of its own was bounded by one commit's latency (and a worker
thread and an ORM unit of work per action), not by its CPU. Here one writer per process
takes everything pending, writes it in one transaction with Core statements, then wakes
every waiter with its own outcome; whatever arrived meanwhile is the next batch.

What does not change: a waiter returns only after its row is committed (nothing is sent
before), and the primary key `(game_id, seq)` still decides a race. A batch that breaks
on a key (or anything else) is written again one append per transaction, so each waiter
gets its own answer: `StaleWrite` for the loser, success for the others.

Why callbacks rather than a task and `anyio.to_thread`: under load every turn of the event
loop takes 10-30 ms, and a move waits for as many turns as its commit passes through. A
task awaiting `to_thread.run_sync` behind `asyncio.shield` cost seven (the task's start,
anyio's two checkpoints, its report, the task's wake-up, the shield's two hops); here a
batch costs two: the one in which its first append was made ends before the batch is
handed to the thread (so that appends made in the same turn share it), and the one in
which the thread's outcome wakes the waiters.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Append:
    """One action for the log: its `actions` row, and the values its game's row takes in
    the same transaction (`seq`; status, result and end time when it ends the game)."""

    row: dict[str, Any]
    game: dict[str, Any]

    @property
    def key(self) -> tuple[str, int]:
        return self.row["game_id"], self.row["seq"]


@dataclass
class Stats:
    """What the writer did, for `/metrics`."""

    batches: int = 0
    appends: int = 0
    largest: int = 0
    sizes: list[int] = field(default_factory=list)  # the last few, for a look at a run


# The outcome of each append of a batch, in order: None (committed) or the exception.
WriteBatch = Callable[[list[Append]], list[BaseException | None]]
Waiting = list[tuple[Append, "asyncio.Future[None]"]]

# The thread the batches are written in: one for the process, since one batch at a time
# is in flight per writer and a second thread would only contend for the same lock.
_threads: ThreadPoolExecutor | None = None
_threads_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _threads
    with _threads_lock:
        if _threads is None:
            _threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="group-commit")
        return _threads


class GroupWriter:
    """The one writer of a process's event loop (`append` is called from the loop)."""

    def __init__(self, write: WriteBatch) -> None:
        self._write = write
        self._pending: Waiting = []
        # The loop a batch is being handed to or written for (None: the writer is idle).
        self._busy: asyncio.AbstractEventLoop | None = None
        self.stats = Stats()

    async def append(self, item: Append) -> None:
        """Return once `item` is committed; raise what its write raised (`StaleWrite`).

        A waiter that is cancelled gives up only its own answer: the batch it is in is
        written for the others all the same, and its row may be committed."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((item, done))
        if self._busy is not loop or loop.is_closed():
            # Idle, or left busy by a loop that has gone (a test's `asyncio.run`).
            self._busy = loop
            loop.call_soon(self._start, loop)
        await done

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand everything pending to the thread, as one batch."""
        batch, self._pending = self._pending, []
        if not batch:
            self._busy = None
            return
        items = [item for item, _ in batch]
        try:
            job = _executor().submit(self._write, items)
        except RuntimeError as exc:  # the interpreter is shutting down
            self._answer(batch, [exc] * len(batch))
            self._busy = None
            return
        job.add_done_callback(lambda job: self._written(loop, batch, job))

    def _written(self, loop: asyncio.AbstractEventLoop, batch: Waiting, job: Future[Any]) -> None:
        """In the writer's thread: back to the loop with the outcomes."""
        # RuntimeError: the loop has closed, and nobody is left to answer.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._finish, loop, batch, job)

    def _finish(self, loop: asyncio.AbstractEventLoop, batch: Waiting, job: Future[Any]) -> None:
        exc = job.exception()
        outcomes: list[BaseException | None] = (
            [exc] * len(batch) if exc is not None else job.result()
        )
        self._count(len(batch))
        self._answer(batch, outcomes)
        # Whatever was appended while this batch was written is the next one, handed over
        # at once: its appends have each waited a turn already.
        self._start(loop)

    @staticmethod
    def _answer(batch: Waiting, outcomes: list[BaseException | None]) -> None:
        for (_, done), outcome in zip(batch, outcomes, strict=True):
            if done.done():  # its waiter was cancelled
                continue
            if outcome is None:
                done.set_result(None)
            else:
                done.set_exception(outcome)

    def _count(self, size: int) -> None:
        stats = self.stats
        stats.batches += 1
        stats.appends += size
        stats.largest = max(stats.largest, size)
        stats.sizes = [*stats.sizes[-99:], size]
