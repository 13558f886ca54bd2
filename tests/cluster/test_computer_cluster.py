"""A computer seat across replicas: every process looks for the computer's turn (their sweeps
race on purpose), yet it acts exactly once per turn; a process that dies during its pause
leaves the move to another."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from tests.cluster.conftest import REDIS_PREFIX, REDIS_URL, Peer
from tests.live_server import ServerProcess, http_json


def replica(tmp_path: Path, database: str) -> ServerProcess:
    env = {
        "DATABASE_URL": database,
        "REDIS_URL": REDIS_URL,
        "REDIS_PREFIX": REDIS_PREFIX,
        "RATE_BURST": "100000",
        "RATE_PER_SECOND": "100000",
        # Both processes look every 0.1 s, within the computer's pause: they race.
        "COMPUTER_PAUSE": "0.3",
        "COMPUTER_SWEEP_SECONDS": "0.1",
        "REPLAY_PROCESSES": "0",
    }
    return ServerProcess(tmp_path, env).start()


def human_turn(peer: Peer, seq: int, rng: random.Random) -> int:
    """The human's push and move; returns the seq after them."""
    for _ in range(2):
        action = rng.choice(peer.legal()["actions"])
        peer.send({"type": "action", "id": str(seq), "seq": seq, "action": action})
        seq = peer.state_at(seq + 1)["seq"]
    return seq


def until_my_turn(peer: Peer) -> dict:
    while True:
        state = peer.until("state", timeout=20)
        if state["view"]["status"] != "playing" or state["view"]["turn"]["seat"] == 0:
            return state


def test_a_computer_seat_acts_once_per_turn_across_processes(
    tmp_path: Path, shared_database: str
) -> None:
    a, b = replica(tmp_path, shared_database), replica(tmp_path, shared_database)
    try:
        made = http_json(
            "POST",
            a.url + "/api/rooms",
            {"variant": "classic", "name": "Ann", "computers": ["medium"], "start": True},
        )
        code = made["code"]
        ann, watcher = Peer(a.ws, code, made["token"]), Peer(b.ws, code, None)
        seq = ann.until("state")["seq"]
        rng = random.Random(4)
        for _ in range(4):
            seq = human_turn(ann, seq, rng)
            state = until_my_turn(ann)
            assert state["last"]["by"] == "computer:seat"
            seq = state["seq"]
        # Ann's process dies during the computer's pause: the other one plays its turn.
        seq = human_turn(ann, seq, rng)
        a.kill()
        ann.close()
        ann = Peer(b.ws, code, made["token"])
        state = ann.until("state")
        if state["view"]["turn"]["seat"] != 0:
            state = until_my_turn(ann)
        assert state["seq"] == seq + 2
        ann.send({"type": "sync"})
        history = ann.until("state")["history"]
        seats = [entry["seat"] for entry in history]
        assert seats == [0, 0, 1, 1] * 5, seats
        assert watcher.state_at(seq + 2)["seq"] == seq + 2
        # Exactly once per turn: no seq twice, none missing (the log's key held).
        assert Counter(entry["seq"] for entry in history) == Counter(range(1, seq + 3))
        game = http_json("GET", f"{b.url}/api/games/{made['game_id']}")
        assert game["seq"] == seq + 2
        watcher.close()
        ann.close()
    finally:
        for server in (a, b):
            server.stop()
