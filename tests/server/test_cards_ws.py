"""A whole six-player card game over WebSockets, watched by a spectator."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from app.rooms import lobby
from app.rules import Game, seed_hash
from tests.server.helpers import (
    act,
    check_cards_secrecy,
    hello,
    legal,
    make_variant_room,
    receive_until,
    start,
)

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
# The game's seed, fixed: the moves below are random placements, and about one game in
# 1,000 played so from a room's own random seed never offers a take, which failed the
# check that the game took cards. This seed's game places 44 cards and takes 15 times.
SIX_SEED = "cards-six-players"


def test_six_players_and_a_spectator_play_a_whole_game(
    fast_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = fast_client
    monkeypatch.setattr(lobby, "new_seed", lambda: SIX_SEED)
    code, tokens = make_variant_room(client, "cards", NAMES)
    assert len(client.get(f"/api/rooms/{code}").json()["seats"]) == 6
    full = client.post(f"/api/rooms/{code}/join", json={"name": "Gus"})
    assert full.status_code == 409
    game_id = start(client, code, tokens[0])
    rng = random.Random(11)
    sockets = [client.websocket_connect(f"/ws/{code}") for _ in range(7)]
    entered = [s.__enter__() for s in sockets]
    kinds: set[str] = set()
    try:
        seats, spy = entered[:6], entered[6]
        states = [hello(ws, token)[1] for ws, token in zip(seats, tokens, strict=True)]
        spy_state = hello(spy, None)[1]
        assert spy_state["view"]["variant"] == "cards" and spy_state["view"]["pile"] == 32
        check_cards_secrecy(states, spy_state)
        seq = 0
        for _ in range(200):
            view = spy_state["view"]
            if view["status"] == "finished":
                break
            mover = view["turn"]["seat"]
            listed = legal(seats[mover])
            assert listed["seq"] == seq and listed["actions"]
            assert legal(spy)["actions"] == []
            other = (mover + 1) % 6
            assert legal(seats[other])["actions"] == []
            # the largest take (listed first) or a random placement
            actions = listed["actions"]
            action = actions[0] if actions[0]["type"] == "take" else rng.choice(actions)
            kinds.add(action["type"])
            act(seats[mover], seq, action)
            seq += 1
            states = [receive_until(ws, "state") for ws in seats]
            spy_state = receive_until(spy, "state")
            assert {s["seq"] for s in states} == {seq} and spy_state["seq"] == seq
            assert spy_state["last"]["action"] == action
            check_cards_secrecy(states, spy_state)
        final = spy_state["view"]
        assert final["status"] == "finished"
        assert final["pile"] == 0 and all(p["hand"] == [] for p in final["players"])
        scores = [len(p["taken"]) for p in final["players"]]
        assert final["result"]["scores"] == scores
        assert final["result"]["winners"] == [s for s, n in enumerate(scores) if n == max(scores)]
        assert legal(seats[0])["actions"] == []
        act(seats[0], seq, {"type": "discard", "card": 0})
        assert receive_until(seats[0], "error")["code"] == "finished"
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)
    assert {"place", "take"} <= kinds
    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "finished" and game["seq"] == seq
    assert game["seed"] == SIX_SEED and seed_hash(game["seed"]) == game["seed_hash"]
    assert game["result"] == final["result"]
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["variant"] == "cards" and len(record["players"]) == 6
    assert Game.from_record(record).view(None) == final


def test_an_illegal_placement_is_refused_over_the_socket(fast_client: TestClient) -> None:
    code, tokens = make_variant_room(fast_client, "cards", NAMES[:2])
    start(fast_client, code, tokens[0])
    with fast_client.websocket_connect(f"/ws/{code}") as ws:
        _, state = hello(ws, tokens[0])
        taken = state["view"]["layout"][0]["pos"]
        act(ws, 0, {"type": "place", "card": 0, "pos": taken, "rotation": 0})
        error = receive_until(ws, "error")
        assert error["code"] == "illegal" and error["message"].startswith("empty-cell")
        act(ws, 0, {"type": "place", "card": 0, "pos": [9, 9], "rotation": 0, "x": 0})
        assert receive_until(ws, "error")["code"] == "bad_message"
