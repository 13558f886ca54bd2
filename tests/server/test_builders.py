"""Replay build processes live and die with their server process."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.live_server import ServerProcess


def children(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is `pid`, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if fields[0] != "Z" and int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def watching(pid: int) -> bool:
    """Whether a build process has started its parent watcher (a second thread), i.e. has
    finished booting; the resource tracker needs none (it ends with its last client)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    if b"resource_tracker" in cmdline:
        return True
    threads = next(line for line in status.splitlines() if line.startswith("Threads:"))
    return int(threads.split()[1]) >= 2


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def test_build_processes_exit_when_their_server_is_killed(tmp_path: Path) -> None:
    """`kill -9` of a server leaves nobody to close its pool: its build process (and the
    resource tracker beside it) must notice and exit by themselves, within seconds."""
    url = f"sqlite:///{tmp_path / 'builders.sqlite3'}"
    server = ServerProcess(tmp_path, {"DATABASE_URL": url, "REPLAY_PROCESSES": "2"}).start()
    assert server.proc is not None
    deadline = time.monotonic() + 60  # a busy machine boots a spawned process slowly
    spawned: set[int] = set()
    while time.monotonic() < deadline:  # 2 builders and the resource tracker, booted
        spawned = children(server.proc.pid)
        if len(spawned) >= 3 and all(watching(pid) for pid in spawned):
            break
        time.sleep(0.1)
    assert len(spawned) >= 3, f"build processes not started: {spawned}\n{server.log()}"
    assert all(watching(pid) for pid in spawned), "build processes never finished booting"
    server.kill()
    deadline = time.monotonic() + 10  # WATCH_INTERVAL is 0.5 s; slack for a busy machine
    while time.monotonic() < deadline and any(alive(pid) for pid in spawned):
        time.sleep(0.1)
    orphans = [pid for pid in spawned if alive(pid)]
    for pid in orphans:  # a failing run does not leave them behind either
        os.kill(pid, signal.SIGKILL)
    assert not orphans, "orphaned build processes"
