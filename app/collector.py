"""The cyclic garbage collector, run on a clock for a server that answers in milliseconds.

CPython's collector stops the whole process while it walks every tracked object of the
generation it collects, and its own triggers fit this server badly:

- A server process holds about 125,000 tracked objects from its imports alone (FastAPI,
  SQLAlchemy, pydantic, the rules' tables), none of which will ever be garbage; every
  connection adds about 200 more (its ASGI stack of suspended coroutines), all
  long-lived. With 1,000 tables the collector tracked 600,000 objects besides the
  frozen ones, and a full collection paused every player for 200-370 ms.
- The young generation is collected when allocations *less deallocations* pass a
  threshold, and a deallocation counts whichever generation the object was in. Every
  move builds a new game state and frees the previous one, so the count hardly moved
  while the young list grew: 60,000-80,000 young objects and a 30-50 ms pause every
  two seconds at 1,000 tables (`bench/load.py human`, docs/performance.md).

So once the server has started, `settle` collects once and moves what is left out of
the collector's sight (`gc.freeze`), and `Pacer` collects on a clock:

- every 50 ms, the two younger generations: a millisecond's work, since they hold only
  what the last 50 ms left alive. What survives goes to the oldest generation, and is
  not walked again at every collection, as it was at each middle one (60-130 ms);
- every five minutes, everything: unfreeze, collect, freeze again, so that a cycle of
  garbage among long-lived objects, such as a closed connection's, is freed within that
  time. This is the one long pause left: 200-370 ms at 1,000 tables.

The allocation triggers stay as a safety net for a burst between two ticks, with the
oldest generation left to the pacer. `restore` undoes it all when the application
stops, so that a process that starts many applications (the test suite) does not keep
them frozen.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

# Allocations (less deallocations) between two automatic collections of the youngest
# generation, and young collections between two of the middle one: a safety net for a
# burst the pacer's clock did not see coming. The oldest generation is the pacer's alone.
YOUNG = 10_000
MIDDLE = 20
OLDEST = 1_000_000

EVERY = 0.05  # seconds between two collections of the younger generations
FULL_EVERY = 300.0  # seconds between two collections of everything


def settle(young: int = YOUNG, middle: int = MIDDLE, oldest: int = OLDEST) -> tuple[int, int, int]:
    """Freeze what start-up built and set the automatic triggers; returns the thresholds
    in force before, for `restore`."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, middle, oldest)
    return before


def restore(before: tuple[int, int, int]) -> None:
    """The collector as it was before `settle`: thresholds back, nothing frozen."""
    gc.unfreeze()
    gc.set_threshold(*before)


class Pacer:
    """Collects on a clock: the younger generations often, everything rarely."""

    def __init__(
        self,
        every: float = EVERY,
        full_every: float = FULL_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.every = every
        self.full_every = full_every
        self.clock = clock
        self.last_full = clock()

    def step(self) -> int:
        """One collection, of the oldest generation that is due: 1 (the two younger
        ones) or 2 (everything, frozen or not)."""
        now = self.clock()
        if now - self.last_full < self.full_every:
            gc.collect(1)
            return 1
        self.last_full = now
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        return 2

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.step()
