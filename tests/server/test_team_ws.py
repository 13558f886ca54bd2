"""A whole Team Edition game over WebSockets through the real app: 2-4 players and a
spectator, every message each of them receives checked for secrets."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.rules import Game, seed_hash
from app.rules.team import DAEDALUS_CARDS
from tests.server.helpers import (
    act,
    assert_no_team_secret,
    hello,
    legal,
    receive_until,
    start,
    team_pick,
)


def team_room(client: TestClient, names: list[str], **options: Any) -> tuple[str, list[str]]:
    response = client.post("/api/rooms", json={"variant": "team", "options": options})
    assert response.status_code == 201, response.text
    assert response.json()["options"]["mode"] == options.get("mode", "introductory")
    code = response.json()["code"]
    tokens = []
    for name in names:
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"mode": "introductory"}),
        (3, {"mode": "standard", "spell_red": "escape"}),
        (4, {"mode": "expert"}),
    ],
)
def test_a_whole_team_game_with_a_spectator(
    fast_client: TestClient, players: int, options: dict[str, Any]
) -> None:
    client = fast_client
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    code, tokens = team_room(client, names, **options)
    game_id = start(client, code, tokens[0])
    rng = random.Random(players)
    sockets = [client.websocket_connect(f"/ws/{code}") for _ in range(players + 1)]
    entered = [s.__enter__() for s in sockets]
    try:
        seats, spy = entered[:players], entered[players]
        states = [hello(ws, token)[1] for ws, token in zip(seats, tokens, strict=True)]
        spy_state = hello(spy, None)[1]
        assert spy_state["view"]["variant"] == "team"
        # rules version 2: the board face up in front of everyone, the book still shut
        assert spy_state["view"]["options"]["rules_version"] == 2
        assert spy_state["view"]["daedalus"]["card"] is None
        assert not any(t["face_down"] for row in spy_state["view"]["board"]["tiles"] for t in row)
        assert legal(seats[0])["actions"] == [{"type": "daedalus"}]
        seq = 0
        for _ in range(1000):
            if spy_state["view"]["status"] == "finished":
                break
            mover = spy_state["view"]["turn"]["seat"]
            listed = legal(seats[mover])
            assert listed["seq"] == seq
            assert_no_team_secret(listed)
            act(seats[mover], seq, team_pick(spy_state["view"], listed["actions"], rng))
            seq += 1
            states = [receive_until(ws, "state") for ws in seats]
            spy_state = receive_until(spy, "state")
            assert {s["seq"] for s in states} == {seq} and spy_state["seq"] == seq
            if seq == 1:  # the first card, turned in front of everyone
                assert [e["type"] for e in spy_state["last"]["events"]] == ["daedalus"]
                assert spy_state["view"]["daedalus"]["card"] in [dict(c) for c in DAEDALUS_CARDS]
            for state in [*states, spy_state]:
                if state["view"]["status"] == "playing":
                    assert_no_team_secret(state)
            # cooperative: everyone sees the same game
            assert all(s["view"]["board"] == spy_state["view"]["board"] for s in states)
        final = spy_state["view"]
        assert final["status"] == "finished"
        assert final["result"]["reason"] in ("daedalus", "all_collected")
        if final["result"]["reason"] == "daedalus":
            assert final["result"]["winners"] == [] and final["daedalus"]["left"] == 0
        assert legal(seats[0])["actions"] == []
        act(seats[0], seq, {"type": "end"})
        assert receive_until(seats[0], "error")["code"] == "finished"
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)

    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "finished" and game["seq"] == seq
    assert seed_hash(game["seed"]) == game["seed_hash"]
    assert game["result"] == final["result"]
    record = client.get(f"/api/games/{game_id}/record").json()
    replayed = Game.from_record(record)
    assert replayed.view(None) == final
    assert "daedalus_deck_order" in final  # a finished game shows everything


def test_refused_team_actions_keep_the_socket_and_state(fast_client: TestClient) -> None:
    code, tokens = team_room(fast_client, ["Ann", "Bob"], mode="standard")
    start(fast_client, code, tokens[0])
    with fast_client.websocket_connect(f"/ws/{code}") as ws:
        _, state = hello(ws, tokens[0])
        act(ws, 0, {"type": "end"})
        error = receive_until(ws, "error")
        assert error["code"] == "illegal" and "daedalus-first" in error["message"]
        act(ws, 0, {"type": "daedalus"})
        first = receive_until(ws, "state")
        assert first["seq"] == 1 and first["last"]["notation"] == "daedalus"
        act(ws, 1, {"type": "orient", "open": "NS"})
        error = receive_until(ws, "error")
        assert error["code"] == "illegal" and "orient" in error["message"]
        act(ws, 1, {"type": "move", "to": [0, 0]})
        assert receive_until(ws, "error")["code"] == "bad_message"
        act(ws, 1, {"type": "end"})
        after = receive_until(ws, "state")
        assert after["seq"] == 2 and after["last"]["notation"] == "end"
        assert [e["type"] for e in after["last"]["events"]][:3] == ["ended", "turn", "daedalus"]
        assert state["view"]["turn"]["seat"] == 0 and after["view"]["turn"]["seat"] == 1


def test_bad_team_options_are_refused(fast_client: TestClient) -> None:
    response = fast_client.post(
        "/api/rooms", json={"variant": "team", "options": {"mode": "nightmare"}}
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_options"
