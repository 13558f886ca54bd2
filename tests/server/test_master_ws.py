"""A whole Master Labyrinth game over WebSockets through the real app: two players driven
by the master bot from their own views and `legal` lists, and a spectator watching."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from app.bots.master import choose
from app.rules import Game, seed_hash
from tests.server.helpers import check_master_secrecy, hello, legal, receive_until, start


def make_master_room(client: TestClient, names: list[str]) -> tuple[str, list[str]]:
    response = client.post("/api/rooms", json={"variant": "master"})
    assert response.status_code == 201, response.text
    assert response.json()["options"] == {"rules_version": 2}  # new rooms: current rules
    code = response.json()["code"]
    tokens = []
    for name in names:
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens


def test_two_players_and_a_spectator_play_a_whole_master_game(
    fast_client: TestClient,
) -> None:
    client = fast_client
    code, tokens = make_master_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    rng = random.Random(3)
    sockets = [client.websocket_connect(f"/ws/{code}") for _ in range(3)]
    entered = [s.__enter__() for s in sockets]
    seen: set[str] = set()
    try:
        seats, spy = entered[:2], entered[2]
        views = [hello(ws, token)[1] for ws, token in zip(seats, tokens, strict=True)]
        spy_state = hello(spy, None)[1]
        assert spy_state["view"]["variant"] == "master"
        seq = 0
        for _ in range(1500):
            view = spy_state["view"]
            if view["status"] == "finished":
                break
            actor = view["turn"]["actor"]
            listed = legal(seats[actor])
            assert listed["seq"] == seq and listed["actions"]
            assert legal(seats[1 - actor])["actions"] == []
            action = choose(views[actor]["view"], listed["actions"], rng)
            seats[actor].send_json({"type": "action", "id": "a", "seq": seq, "action": action})
            seq += 1
            views = [receive_until(ws, "state") for ws in seats]
            spy_state = receive_until(spy, "state")
            assert {v["seq"] for v in views} == {seq} and spy_state["seq"] == seq
            seen |= {e["type"] for e in spy_state["last"]["events"]}
            check_master_secrecy(views, spy_state)
        final = spy_state["view"]
        assert final["status"] == "finished"
        assert final["result"]["reason"] == "dragon" and final["result"]["winners"]
        assert all("hand" in p for p in final["players"])  # finished: everything shown
        assert {"took", "dragon_die", "threat", "final_roll", "final_duel", "won"} <= seen
        assert legal(seats[0])["actions"] == []
        seats[0].send_json({"type": "action", "id": "z", "seq": seq, "action": {"type": "accept"}})
        assert receive_until(seats[0], "error")["code"] == "finished"
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)

    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "finished" and game["seq"] == seq
    assert seed_hash(game["seed"]) == game["seed_hash"]
    assert game["result"] == final["result"]
    record = client.get(f"/api/games/{game_id}/record").json()
    assert Game.from_record(record).view(None) == final
