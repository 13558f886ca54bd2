"""Two replicas enforcing the same turn deadline: the log holds exactly one timeout."""

from __future__ import annotations

import time
from collections.abc import Callable

from app.rooms.clock import TIMEOUT_BY
from tests.cluster.conftest import Peer
from tests.live_server import ServerProcess, http_json
from tests.server.helpers import stored_actions

Cluster = Callable[[], ServerProcess]


def test_two_processes_racing_for_a_timeout_store_one(
    cluster: Cluster, shared_database: str
) -> None:
    a, b = cluster(), cluster()
    room = http_json(
        "POST",
        a.url + "/api/rooms",
        {"variant": "classic", "clock": {"kind": "turn", "seconds": 30}},
    )
    code = room["code"]
    tokens = [
        http_json("POST", f"{a.url}/api/rooms/{code}/join", {"name": n})["token"]
        for n in ("Ann", "Bob")
    ]
    game_id = http_json("POST", f"{b.url}/api/rooms/{code}/start", {}, token=tokens[0])["game_id"]
    # Bob watches from each process; Ann never comes. Both processes scan for deadlines.
    peers = [Peer(a.ws, code, tokens[1]), Peer(b.ws, code, None)]
    for peer in peers:
        assert peer.until("state")["clock"]["seat"] == 0
    states = [peer.until("state", timeout=60) for peer in peers]
    assert all(s["last"]["by"] == TIMEOUT_BY for s in states)
    while states[0]["view"]["turn"]["seat"] == 0:
        states[0] = peers[0].until("state", timeout=20)
    turn_end = states[0]["seq"]
    time.sleep(2)  # any duplicate enforcement would have landed by now
    rows = stored_actions(shared_database, game_id)
    assert rows == [(n, 0, TIMEOUT_BY) for n in range(1, turn_end + 1)]
    assert states[0]["clock"]["seat"] == 1 and states[0]["clock"]["timeouts"] == [1, 0]
    both = a.log() + b.log()
    assert both.count("turn timed out") >= 1
    for peer in peers:
        peer.close()
