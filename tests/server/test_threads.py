"""The rooms' worker threads (`app/rooms/threads.py`): a call is handed over in its
caller's own turn, at most `size` run at once, and a cancelled caller never leaves a
started call running behind it."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from app.rooms.threads import Threads


def test_a_call_runs_in_a_worker_thread_and_gives_back_its_outcome() -> None:
    threads = Threads(2)

    def fail() -> None:
        raise LookupError("no such row")

    async def run() -> str:
        with pytest.raises(LookupError):
            await threads.run(fail)
        return await threads.run(lambda: threading.current_thread().name)

    try:
        assert asyncio.run(run()).startswith("database")
    finally:
        threads.close()


def test_a_call_is_handed_over_in_its_callers_turn() -> None:
    """anyio's `to_thread` took two turns of the loop before asking a thread; under load
    each turn is 10-30 ms that a join or a start waits for."""
    threads = Threads(1)
    started = threading.Event()

    async def run() -> bool:
        job = asyncio.create_task(threads.run(started.set))
        await asyncio.sleep(0)  # the task's first step: it hands the call over
        handed_over = started.wait(2)  # blocks the loop: nothing else can run meanwhile
        await job
        return handed_over

    try:
        assert asyncio.run(run())
    finally:
        threads.close()


def test_no_more_than_size_calls_run_at_once() -> None:
    threads = Threads(2)
    running = peak = 0
    lock = threading.Lock()

    def work() -> None:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.02)
        with lock:
            running -= 1

    async def run() -> None:
        await asyncio.gather(*(threads.run(work) for _ in range(8)))

    try:
        asyncio.run(run())
    finally:
        threads.close()
    assert peak == 2


def test_a_cancelled_caller_waits_for_its_started_call_and_drops_a_queued_one() -> None:
    threads = Threads(1)
    release = threading.Event()
    done: list[str] = []

    def slow() -> None:
        release.wait(5)
        done.append("slow")

    async def run() -> None:
        first = asyncio.create_task(threads.run(slow))
        second = asyncio.create_task(threads.run(lambda: done.append("queued")))
        await asyncio.sleep(0.05)  # the first runs; the second waits for the one thread
        first.cancel()
        second.cancel()
        await asyncio.sleep(0.05)
        assert not first.done(), "the started call is waited for"
        assert second.cancelled()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await first
        assert done == ["slow"]

    try:
        asyncio.run(run())
    finally:
        threads.close()
    assert done == ["slow"], "the queued call never ran"
