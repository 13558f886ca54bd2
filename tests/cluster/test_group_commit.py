"""A `kill -9` in the middle of group commits (many rooms acting at once) loses no action
that any client saw acknowledged: every `state` a client received names a `seq` whose
action is in the log after the crash."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.store.db import make_engine, make_sessionmaker
from app.store.repository import Repository
from tests.cluster.test_cluster import open_room
from tests.live_server import ServerProcess, http_json

ROOMS = 12


def play_until_closed(ws_url: str, token: str, seat: int, seen: list[int], seed: int) -> None:
    """A player acting as fast as it may; `seen` gets the seq of every state received."""
    rng = random.Random(seed)
    try:
        with connect(ws_url, max_size=2**22) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            seq = -1
            while True:
                message = json.loads(ws.recv(timeout=20))
                if message["type"] == "state":
                    seq = message["seq"]
                    seen.append(seq)
                    view = message["view"]
                    if view["status"] == "playing" and view["turn"]["seat"] == seat:
                        ws.send(json.dumps({"type": "legal", "id": str(seq)}))
                elif message["type"] == "legal" and message["actions"] and message["seq"] == seq:
                    action = rng.choice(message["actions"])
                    ws.send(json.dumps({"type": "action", "id": "a", "seq": seq, "action": action}))
    except (ConnectionClosed, OSError, TimeoutError):
        return


def crash_with_rooms_in_flight(server: ServerProcess, database_url: str) -> None:
    rooms = [open_room(server) for _ in range(ROOMS)]
    seen: dict[str, list[int]] = {code: [] for code, _ in rooms}
    game_ids = {
        code: http_json("GET", f"{server.url}/api/rooms/{code}")["game_id"] for code in seen
    }
    threads = [
        threading.Thread(
            target=play_until_closed,
            args=(f"{server.ws}/ws/{code}", tokens[seat], seat, seen[code], n * 2 + seat),
            daemon=True,
        )
        for n, (code, tokens) in enumerate(rooms)
        for seat in (0, 1)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and min(max(s, default=0) for s in seen.values()) < 10:
        time.sleep(0.05)
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
        metrics = response.read().decode()
    server.kill()  # while the players are still acting
    for thread in threads:
        thread.join(timeout=30)
    largest = next(
        float(line.split()[1])
        for line in metrics.splitlines()
        if line.startswith("labyrinth_log_largest_batch ")
    )
    assert largest > 1, "the rooms' actions were committed in groups"

    repo = Repository(make_sessionmaker(make_engine(database_url)))
    for code, _ in rooms:
        acknowledged = max(seen[code])
        assert acknowledged >= 10, "the room was playing"
        logged = [a.seq for a in repo.actions(game_ids[code])]
        assert logged == list(range(1, len(logged) + 1)), "the log has no gap"
        assert len(logged) >= acknowledged, f"room {code}: an acknowledged action was lost"


def test_kill_9_with_many_rooms_in_flight_loses_no_acknowledged_action(
    cluster: Callable[[], ServerProcess], shared_database: str
) -> None:
    crash_with_rooms_in_flight(cluster(), shared_database)


def test_the_same_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    env = {"DATABASE_URL": url, "RATE_BURST": "100000", "RATE_PER_SECOND": "100000"}
    server = ServerProcess(tmp_path, env).start()
    try:
        crash_with_rooms_in_flight(server, url)
    finally:
        server.stop()
