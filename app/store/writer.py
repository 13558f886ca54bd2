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
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread

log = logging.getLogger(__name__)


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


class GroupWriter:
    """The one writer of a process's event loop (`append` is called from the loop)."""

    def __init__(self, write: WriteBatch) -> None:
        self._write = write
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self.stats = Stats()

    async def append(self, item: Append) -> None:
        """Return once `item` is committed; raise what its write raised (`StaleWrite`)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((item, done))
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._drain())
        # shield: a waiter that goes away does not cancel the batch the others wait for
        await asyncio.shield(done)

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            items = [item for item, _ in batch]
            try:
                outcomes = await to_thread.run_sync(self._write, items)
            except asyncio.CancelledError:  # the loop is closing: nobody is left to answer
                for _, done in batch:
                    done.cancel()
                raise
            except Exception as exc:  # the write itself failed: every waiter hears it
                outcomes = [exc] * len(batch)
            self._count(len(batch))
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():
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
