"""`hello` with `"legal": true`: every `state` a seat is sent carries what a `legal` request
would answer at that seq, so a client need not ask at each turn (docs/protocol.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import (
    act,
    actor_of,
    hello,
    legal,
    make_room,
    make_variant_room,
    receive_until,
    start,
)


def hello_with_legal(ws: Any, token: str | None) -> dict[str, Any]:
    """Say hello asking for the legal actions in each state; returns the first state."""
    ws.send_json({"type": "hello", "token": token, "legal": True})
    receive_until(ws, "welcome")
    return receive_until(ws, "state")


@pytest.mark.parametrize("variant", ["classic", "master", "team", "cards"])
def test_each_state_carries_what_legal_answers(client: TestClient, variant: str) -> None:
    code, tokens = make_variant_room(client, variant, ["Ann", "Bob"])
    start(client, code, tokens[0])
    rng = random.Random(5)
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
        client.websocket_connect(f"/ws/{code}") as spy,
    ):
        seats = [ws0, ws1]
        states = [hello_with_legal(ws, token) for ws, token in zip(seats, tokens, strict=True)]
        watched = hello_with_legal(spy, None)
        for step in range(16):  # within the rate limit: a `legal` per seat per step
            assert "legal" not in watched  # a spectator may send nothing
            for seat, ws in enumerate(seats):
                asked = legal(ws, f"q{step}")
                assert states[seat]["seq"] == asked["seq"] == step
                assert states[seat]["legal"] == asked["actions"]
            if watched["view"]["status"] != "playing":
                assert states[0]["legal"] == states[1]["legal"] == []
                break
            mover = actor_of(watched["view"])
            carried = states[mover]["legal"]
            assert carried, f"{variant}: the actor has nothing to send at {step}"
            assert all(not states[s]["legal"] for s in (0, 1) if s != mover)
            act(seats[mover], step, rng.choice(carried))
            states = [receive_until(ws, "state") for ws in seats]
            watched = receive_until(spy, "state")


def test_states_carry_no_legal_unless_asked(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
    ):
        _, first = hello(ws0, tokens[0])
        with_legal = hello_with_legal(ws1, tokens[1])
        assert "legal" not in first
        mover = first["view"]["turn"]["seat"]
        assert with_legal["legal"] == ([] if mover == 0 else legal(ws1)["actions"])
        action = legal([ws0, ws1][mover])["actions"][0]
        act([ws0, ws1][mover], 0, action)
        # the same seq, seen by a connection that asked and one that did not
        assert "legal" not in receive_until(ws0, "state")
        assert isinstance(receive_until(ws1, "state")["legal"], list)


def test_a_hello_with_legal_not_a_boolean_is_refused(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0], "legal": "yes"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "bad_message"
        assert "legal" in refused["message"]
        # still open, and a proper hello is answered
        assert "legal" in hello_with_legal(ws, tokens[0])
