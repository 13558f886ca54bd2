"""Replicas sharing PostgreSQL and Redis: a whole game across processes, a race for one
`seq`, a crash (kill -9) and a graceful shutdown."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from collections.abc import Callable

import pytest
from websockets.exceptions import ConnectionClosed

from app.bots.greedy import choose
from tests.cluster.conftest import Peer
from tests.live_server import ServerProcess, http_json

Cluster = Callable[[], ServerProcess]


def open_room(server: ServerProcess, players: int = 2, **options: bool) -> tuple[str, list[str]]:
    room = http_json("POST", server.url + "/api/rooms", {"variant": "classic", "options": options})
    tokens = [
        http_json("POST", f"{server.url}/api/rooms/{room['code']}/join", {"name": f"P{i}"})["token"]
        for i in range(players)
    ]
    http_json("POST", f"{server.url}/api/rooms/{room['code']}/start", {}, token=tokens[0])
    return room["code"], tokens


def test_players_on_different_processes_play_a_whole_game(cluster: Cluster) -> None:
    a, b = cluster(), cluster()
    code, tokens = open_room(a, return_home=False)
    players = [Peer(a.ws, code, tokens[0]), Peer(b.ws, code, tokens[1])]
    spectators = [Peer(a.ws, code, None), Peer(b.ws, code, None)]
    views = [p.until("state") for p in players]
    for s in spectators:
        assert s.until("state")["seq"] == 0
    rng = random.Random(3)
    seq = 0
    while views[0]["view"]["status"] == "playing":
        mover = views[0]["view"]["turn"]["seat"]
        listed = players[mover].legal()
        assert listed["seq"] == seq
        action = choose(views[mover]["view"], listed["actions"], rng)
        players[mover].send({"type": "action", "id": str(seq), "seq": seq, "action": action})
        seq += 1
        views = [p.state_at(seq) for p in players]
        seen = [s.state_at(seq) for s in spectators]
        assert {v["seq"] for v in views + seen} == {seq}, "every client sees every move"
        assert seen[0]["view"] == seen[1]["view"]
        assert seq < 2000
    game = http_json("GET", f"{b.url}/api/rooms/{code}")
    assert game["status"] == "finished"
    assert http_json("GET", f"{a.url}/api/games/{game['game_id']}")["seq"] == seq
    room = http_json("GET", f"{a.url}/api/rooms/{code}")
    assert [s["connected"] for s in room["seats"]] == [True, True]
    assert room["spectators"] == 2, "presence is merged across processes"
    for peer in players + spectators:
        peer.close()


def test_a_race_for_one_seq_has_exactly_one_winner(cluster: Cluster) -> None:
    a, b = cluster(), cluster()
    code, tokens = open_room(a)
    left, right = Peer(a.ws, code, tokens[0]), Peer(b.ws, code, tokens[0])
    watchers = [Peer(a.ws, code, None), Peer(b.ws, code, None)]
    for peer in (left, right, *watchers):
        peer.until("state")
    pushes = left.legal()["actions"]
    first, second = pushes[0], pushes[-1]
    assert first != second
    gate = threading.Barrier(2)

    def fire(peer: Peer, action: dict) -> None:
        gate.wait()
        peer.send({"type": "action", "id": "race", "seq": 0, "action": action})

    threads = [
        threading.Thread(target=fire, args=(left, first)),
        threading.Thread(target=fire, args=(right, second)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    answers = [_state_and_errors(peer) for peer in (left, right, *watchers)]
    states = [state for state, _ in answers]
    assert {s["seq"] for s in states} == {1}
    assert len({json.dumps(s["view"], sort_keys=True) for s in states[2:]}) == 1, "converged"
    assert len({json.dumps(s["view"]["board"], sort_keys=True) for s in states}) == 1
    applied = states[2]["last"]["action"]
    assert applied in (first, second)
    loser = 1 if applied == first else 0
    refusals = answers[loser][1] or [(left, right)[loser].until("error")]
    assert [(r["code"], r["ref"]) for r in refusals] == [("stale", "race")]
    assert answers[1 - loser][1] == [], "the winner was not refused"
    game_id = http_json("GET", f"{a.url}/api/rooms/{code}")["game_id"]
    assert http_json("GET", f"{b.url}/api/games/{game_id}")["seq"] == 1


def _state_and_errors(peer: Peer) -> tuple[dict, list[dict]]:
    """The first state at seq 1, and the errors that came before it."""
    errors = []
    while True:
        message = json.loads(peer.ws.recv(timeout=15))
        if message["type"] == "error":
            errors.append(message)
        elif message["type"] == "state" and message["seq"] >= 1:
            return message, errors


def test_a_killed_server_loses_no_accepted_action(cluster: Cluster) -> None:
    server = cluster()
    code, tokens = open_room(server)
    peers = [Peer(server.ws, code, t) for t in tokens]
    views = [p.until("state") for p in peers]
    rng = random.Random(5)
    seq = 0
    for _ in range(6):
        mover = views[0]["view"]["turn"]["seat"]
        action = choose(views[mover]["view"], peers[mover].legal()["actions"], rng)
        peers[mover].send({"type": "action", "id": str(seq), "seq": seq, "action": action})
        seq += 1
        views = [p.state_at(seq) for p in peers]
    server.kill()
    for peer in peers:
        with pytest.raises(ConnectionClosed):
            peer.until("state", timeout=5)
    server.start()
    peers = [Peer(server.ws, code, t) for t in tokens]
    views = [p.until("state") for p in peers]
    assert [v["seq"] for v in views] == [seq, seq], "every acknowledged action survived"
    assert [h["seq"] for h in views[0]["history"]] == list(range(1, seq + 1))
    mover = views[0]["view"]["turn"]["seat"]
    action = choose(views[mover]["view"], peers[mover].legal()["actions"], rng)
    peers[mover].send({"type": "action", "id": "after", "seq": seq, "action": action})
    assert peers[1 - mover].state_at(seq + 1)["seq"] == seq + 1


def test_graceful_shutdown_tells_clients_to_reconnect(cluster: Cluster) -> None:
    server = cluster()
    code, tokens = open_room(server)
    peer = Peer(server.ws, code, tokens[0])
    peer.until("state")
    server.stop()
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            peer.ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012


def test_health_and_metrics(cluster: Cluster) -> None:
    server = cluster()
    code, tokens = open_room(server)
    peer = Peer(server.ws, code, tokens[0])
    peer.until("state")
    action = peer.legal()["actions"][0]
    peer.send({"type": "action", "id": "m", "seq": 0, "action": action})
    peer.state_at(1)
    peer.send({"type": "action", "id": "m2", "seq": 0, "action": action})
    assert peer.until("error")["code"] == "stale"
    time.sleep(0.1)
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as response:
        text = response.read().decode()
    assert "labyrinth_open_connections 1.0" in text
    assert "labyrinth_live_rooms 1.0" in text
    assert "labyrinth_actions_applied_total 1.0" in text
    assert 'labyrinth_errors_total{code="stale"} 1.0' in text
    assert "labyrinth_action_latency_seconds_count 1.0" in text
    assert http_json("GET", server.url + "/healthz") == {
        "ok": True,
        "database": "ok",
        "redis": "ok",
    }
