"""`GET /api/rooms/{code}/view` (extension): the game as a spectator sees it, for the
lobby's live thumbnails; never a secret, and the same view the socket gives a spectator."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.helpers import hello, make_room, start


def test_the_room_view_is_the_spectators_view(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    before = client.get(f"/api/rooms/{code}/view")
    assert before.status_code == 409 and before.json()["error"]["code"] == "illegal"
    start(client, code, tokens[0])
    answer = client.get(f"/api/rooms/{code}/view")
    assert answer.status_code == 200
    body = answer.json()
    assert body["seq"] == 0 and body["view"]["you"] is None
    assert all("target" not in p for p in body["view"]["players"])  # no secret
    with client.websocket_connect(f"/ws/{code}") as ws:
        _, state = hello(ws, None)
    assert state["view"] == body["view"]


def test_an_unknown_room_has_no_view(client: TestClient) -> None:
    answer = client.get("/api/rooms/nosuchroom/view")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
