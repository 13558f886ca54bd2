"""The replay build processes beside a server process: started with it, gone with it.

A `ProcessPoolExecutor` worker waits on its call queue for good; when its server is
killed (`kill -9`, the OOM killer) nobody closes that queue, so the worker, and the
resource tracker that shares its pipes, would run on as orphans. Each worker therefore
watches its parent and exits as soon as it is no longer the process that started it.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from app.replays import ready

# How often a build process looks at its parent: an orphan is gone within this.
WATCH_INTERVAL = 0.5


def exit_with_parent(parent: int, interval: float = WATCH_INTERVAL) -> None:
    """Start, in this build process, a daemon thread that ends it once `parent` is gone
    (its parent process id changes when the parent dies: it is re-parented). Polling, not
    `PR_SET_PDEATHSIG`: that signal follows the parent *thread* that spawned the worker,
    which for a pool is whichever thread happened to submit."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)  # no clean-up to wait for: nothing of a build outlives its process

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def replay_builders(processes: int) -> ProcessPoolExecutor | None:
    """The processes that build replays (`REPLAY_PROCESSES`, 0 for worker threads).
    Started now, so that the first replay does not wait for a process to boot."""
    if processes <= 0:
        return None
    pool = ProcessPoolExecutor(
        processes,
        mp_context=get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )
    for _ in range(processes):
        pool.submit(ready)
    return pool
