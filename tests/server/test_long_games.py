"""Issue 17, item 10: a long game neither blocks the server when it is rebuilt nor grows
without bound.

Rebuilding a game from its log (after its room left memory) happens in a worker thread,
never on the event loop that serves every room; and each variant has a bound on a game's
length (`app.rules.max_actions`) that live play and imports share.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.rooms import live as live_module
from app.rules import ENGINES, max_actions
from tests.server.helpers import greedy_record, hello, make_room, receive_until, start


def test_every_variant_has_a_bound_far_above_real_games() -> None:
    for variant in ENGINES:
        assert max_actions(variant) >= 1000
    # Random play (no one trying to win) ends classic games in a few thousand actions.
    assert max_actions("classic") >= 20_000


def test_a_game_is_rebuilt_from_its_log_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        _, state = hello(ws, tokens[0])
        ws.send_json({"type": "legal", "id": "l"})
        action = receive_until(ws, "legal")["actions"][0]
        ws.send_json({"type": "action", "id": "a", "seq": 0, "action": action})
        receive_until(ws, "state")
    assert code not in client.app.state.service.rooms  # the last socket left
    loads: list[bool] = []
    original = live_module.LiveGame.load.__func__  # type: ignore[attr-defined]

    def load(cls: Any, record: Any, actions: Any) -> Any:
        try:
            asyncio.get_running_loop()
            loads.append(True)  # on the event loop
        except RuntimeError:
            loads.append(False)
        return original(cls, record, actions)

    monkeypatch.setattr(live_module.LiveGame, "load", classmethod(load))
    with client.websocket_connect(f"/ws/{code}") as ws:
        _, state = hello(ws, tokens[1])
        assert state["seq"] == 1
    assert loads == [False], "rebuilt once, in a worker thread"


def test_a_live_game_stops_at_its_variants_bound(
    fast_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ENGINES["classic"], "max_actions", 3)
    code, tokens = make_room(fast_client, ["Ann", "Bob"])
    start(fast_client, code, tokens[0])
    sockets = [fast_client.websocket_connect(f"/ws/{code}") for _ in tokens]
    players = [s.__enter__() for s in sockets]
    try:
        states = [hello(ws, token)[1] for ws, token in zip(players, tokens, strict=True)]
        seq = 0
        while True:
            seat = states[0]["view"]["turn"]["seat"]
            players[seat].send_json({"type": "legal", "id": "l"})
            action = receive_until(players[seat], "legal")["actions"][0]
            players[seat].send_json({"type": "action", "id": "a", "seq": seq, "action": action})
            if seq == 3:
                refusal = receive_until(players[seat], "error")
                assert refusal["code"] == "too_long", refusal
                break
            seq += 1
            states = [receive_until(ws, "state") for ws in players]
            assert states[0]["seq"] == seq
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)
    assert fast_client.get(f"/api/rooms/{code}").json()["status"] == "playing"


def test_an_import_longer_than_the_bound_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = greedy_record()
    monkeypatch.setattr(ENGINES["classic"], "max_actions", len(record["actions"]) - 1)
    refused = client.post("/api/games/import", json=record)
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "invalid_record"
    assert "at most" in refused.json()["error"]["message"]
    monkeypatch.undo()
    assert client.post("/api/games/import", json=record).status_code == 201
