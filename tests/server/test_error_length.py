"""A refusal names what it refused without sending it back whole: every error message is
at most `MAX_MESSAGE` characters. The rules' own refusals quote the bad value (`got
'NNNN…'`), as did an unknown variant's and a bad option's over HTTP: a client's 50 KB
string came back in the error whole."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.rooms.errors import MAX_MESSAGE
from tests.server.helpers import act, hello, legal, make_variant_room

LONG = "N" * 50_000


@pytest.mark.parametrize(
    "body",
    [
        {"variant": LONG},
        {"variant": "classic", "options": {"events": LONG}},
        {"variant": "classic", "options": {LONG: True}},
        {"variant": "classic", "clock": {"turn": LONG}},
    ],
)
def test_an_http_refusal_does_not_echo_a_long_value(
    client: TestClient, body: dict[str, Any]
) -> None:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] in ("bad_request", "bad_options", "bad_clock")
    assert 0 < len(error["message"]) <= MAX_MESSAGE


@pytest.mark.parametrize("variant", ["classic", "master", "team", "cards"])
def test_an_action_s_refusal_does_not_echo_a_long_value(client: TestClient, variant: str) -> None:
    code, tokens = make_variant_room(client, variant, ["Ann", "Bob"])
    client.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
    for token in tokens:
        with client.websocket_connect(f"/ws/{code}") as ws:
            _, state = hello(ws, token)
            actions = legal(ws)["actions"]
            if not actions:
                continue  # not this seat's turn: the other one moves
            seq = state["seq"]
            sample = actions[0]
            tried = [{"type": LONG}] + [sample | {key: LONG} for key in sample if key != "type"]
            for n, action in enumerate(tried):
                act(ws, seq, action, ref=f"r{n}")
                answer = ws.receive_json()
                while answer["type"] != "error":
                    assert answer["type"] not in ("state", "ack"), answer
                    answer = ws.receive_json()
                assert answer["code"] in ("bad_message", "illegal"), answer["code"]
                assert 0 < len(answer["message"]) <= MAX_MESSAGE, (action.keys(), answer["code"])
            # nothing was played: the seat still has its turn at the same seq
            _, again = hello(ws, token)
            assert again["seq"] == seq
            break
    else:
        raise AssertionError("no seat had a legal action")
