"""The worker threads the rooms' database calls run in.

`anyio.to_thread.run_sync` costs each call two turns of the event loop before the thread
is even asked (a checkpoint, and another in its capacity limiter) and two after, and its
bookkeeping was 16 % of the loop's time while a thousand tables were set up
(`docs/performance.md`, fifth pass). Under load a turn takes 10-30 ms, and a join or a
start waits for every one. Here a call goes to a thread pool of the same bound at once,
and its outcome comes back in two turns (`asyncio.wrap_future`).

What anyio gave and is kept: a call that has started runs to its end before its caller's
cancellation goes on (the caller may hold the room's lock, and the next holder must not
write beside it); one that had not started is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class Threads:
    """At most `size` calls at once; the threads are made on first use."""

    def __init__(self, size: int, name: str = "database") -> None:
        self.size = size
        self._name = name
        self._pool: ThreadPoolExecutor | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker thread, awaited from the event loop."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.size, thread_name_prefix=self._name)
        job = self._pool.submit(fn, *args)
        try:
            return await asyncio.wrap_future(job)
        except asyncio.CancelledError:
            if not job.cancelled():  # started: let it finish first, whatever it gives
                with contextlib.suppress(BaseException):
                    await asyncio.wrap_future(job)
            raise

    def close(self) -> None:
        """Let the threads go once idle; calls queued and not started are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
