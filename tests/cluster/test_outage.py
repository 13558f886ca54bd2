"""Issue 17, items 7 and 8, across two real server processes.

7: Redis stops while two processes serve a room: what commits still answers its result
(a join its token, an action its state), `/healthz` says Redis is down, presence falls
back to this process, and once Redis is back the processes hear each other again. The
Redis here is a server of the test's own, on its own port, never the shared one.

8: joins racing a start from two processes: the game's players are exactly the seats
the room ends with, whoever wins.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.cluster.conftest import Peer
from tests.cluster.test_cluster import Cluster
from tests.live_server import ServerProcess, free_port, http_json


class RedisServer:
    """A redis-server of this test's own (no persistence), stopped and started at will."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                if client.ping():
                    return
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server binary to run a Redis of the test's own")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def health(server: ServerProcess) -> tuple[int, dict[str, Any]]:
    try:
        return 200, http_json("GET", server.url + "/healthz")
    except urllib.error.HTTPError as exc:
        import json

        return exc.code, json.load(exc)


def wait_healthy(server: ServerProcess, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while health(server)[0] != 200:
        assert time.monotonic() < deadline, f"not healthy again:\n{server.log()[-3000:]}"
        time.sleep(0.2)


def mover(peer: Peer) -> int:
    return peer.until("state")["view"]["turn"]["seat"]


def test_what_commits_while_redis_is_down_answers_its_result(
    tmp_path: Path, shared_database: str, own_redis: RedisServer
) -> None:
    env = {
        "DATABASE_URL": shared_database,
        "REDIS_URL": own_redis.url,
        "ROOMS_PER_MINUTE": "0",
        "JOINS_PER_MINUTE": "0",
    }
    a = ServerProcess(tmp_path, env).start()
    b = ServerProcess(tmp_path, env).start()
    try:
        room = http_json("POST", a.url + "/api/rooms", {"variant": "classic"})
        code = room["code"]
        first = http_json("POST", f"{a.url}/api/rooms/{code}/join", {"name": "Ann"})
        own_redis.stop()

        # The join commits and answers its token (not a 500 that loses the seat).
        second = http_json("POST", f"{b.url}/api/rooms/{code}/join", {"name": "Bob"})
        assert second["seat"] == 1 and second["token"]
        info = http_json("GET", f"{a.url}/api/rooms/{code}")
        assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"]
        status, body = health(a)
        assert status == 503 and body["ok"] is False
        assert body["database"] == "ok" and body["redis"] != "ok"

        game_id = http_json(
            "POST", f"{b.url}/api/rooms/{code}/start", {}, token=room["host_token"]
        )["game_id"]
        tokens = [first["token"], second["token"]]
        # hello works (presence is this process's own), and an action answers its state.
        peers = [Peer(a.ws, code, tokens[0]), Peer(a.ws, code, tokens[1])]
        assert [s["connected"] for s in peers[1].welcome["room"]["seats"]] == [True, True]
        seat = mover(peers[0])
        mover(peers[1])
        legal = peers[seat].legal()
        peers[seat].send({"type": "action", "id": "x", "seq": 0, "action": legal["actions"][0]})
        assert peers[seat].state_at(1)["seq"] == 1
        assert peers[1 - seat].state_at(1)["seq"] == 1

        own_redis.start()
        wait_healthy(a)
        wait_healthy(b)
        # The processes hear each other again: an action on b reaches a's sockets.
        watcher = Peer(a.ws, code, None)
        at = watcher.until("state")
        seq, turn = at["seq"], at["view"]["turn"]["seat"]
        actor = Peer(b.ws, code, tokens[turn])
        actor.until("state")
        actor.send({"type": "action", "id": "y", "seq": seq, "action": actor.legal()["actions"][0]})
        assert watcher.state_at(seq + 1)["seq"] == seq + 1
        assert http_json("GET", f"{a.url}/api/games/{game_id}")["seq"] == seq + 1
        for peer in [*peers, watcher, actor]:
            peer.close()
    finally:
        a.stop()
        b.stop()


def race(a: ServerProcess, b: ServerProcess) -> tuple[dict[str, int], list[str], list[str]]:
    """A room with two seats on `a`; at once, its start on `a` and six joins spread over
    both processes. Returns each call's status, the room's seat names and the game's
    players."""
    code = http_json("POST", a.url + "/api/rooms", {"variant": "classic"})["code"]
    tokens = [
        http_json("POST", f"{server.url}/api/rooms/{code}/join", {"name": f"S{i}"})["token"]
        for i, server in enumerate((a, b))
    ]
    gate = threading.Barrier(7)
    outcomes: dict[str, int] = {}

    def call(key: str, url: str, body: dict, token: str | None = None) -> None:
        gate.wait()
        try:
            http_json("POST", url, body, token=token)
            outcomes[key] = 200
        except urllib.error.HTTPError as exc:
            outcomes[key] = exc.code

    threads = [
        threading.Thread(
            target=call, args=("start", f"{a.url}/api/rooms/{code}/start", {}, tokens[0])
        )
    ]
    for i in range(6):
        url = f"{(a, b)[i % 2].url}/api/rooms/{code}/join"
        threads.append(threading.Thread(target=call, args=(f"J{i}", url, {"name": f"J{i}"})))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    # b hears of the start through the hub, a moment after it answered.
    deadline = time.monotonic() + 10
    while (room := http_json("GET", f"{b.url}/api/rooms/{code}"))["game_id"] is None:
        assert time.monotonic() < deadline, str(sorted(outcomes.items()))
        time.sleep(0.05)
    game = http_json("GET", f"{b.url}/api/games/{room['game_id']}")
    return outcomes, [s["name"] for s in room["seats"]], game["players"]


def test_joins_racing_a_start_on_two_processes_never_outnumber_the_game(
    cluster: Cluster,
) -> None:
    a, b = cluster(), cluster()
    for round_ in range(8):
        outcomes, seated, players = race(a, b)
        assert outcomes["start"] == 200, outcomes
        assert seated == players, f"round {round_}: {outcomes}"
        joined = sorted(k for k, v in outcomes.items() if k != "start" and v == 200)
        assert sorted(set(seated) - {"S0", "S1"}) == joined, f"round {round_}: {outcomes}"
        assert all(v in (200, 409) for v in outcomes.values()), outcomes
        assert 2 <= len(seated) <= 4
