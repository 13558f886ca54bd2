"""Issue 17, item 11: rooms used only over HTTP leave memory, and abandoned lobbies go.

A room this process holds with no socket is evicted once idle (the log keeps everything);
an unstarted room older than a day with no seat connected is deleted; rooms with a game,
finished or not, are kept.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from tests.server.helpers import hello, make_room, start


def sweep(client: TestClient, now: datetime, idle: float) -> None:
    service = client.app.state.service
    client.portal.call(service.sweep, now, idle)


def test_idle_rooms_leave_memory_but_not_the_database(client: TestClient) -> None:
    service = client.app.state.service
    code, tokens = make_room(client, ["Ann", "Bob", "Cy", "Di"])
    # A refused join loads the room here, and no change comes to drop it again.
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Eve"}).status_code == 409
    watched, _ = make_room(client, ["Fay"])
    with client.websocket_connect(f"/ws/{watched}") as ws:
        ws.send_json({"type": "hello", "token": None})
        ws.receive_json()
        assert {code, watched} <= set(service.rooms)
        sweep(client, datetime.now(UTC), idle=0.0)
        assert code not in service.rooms, "idle and without sockets: evicted"
        assert watched in service.rooms, "a room with a socket stays"
    # Evicted is not lost: the room and its seats come back from the database.
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        welcome, state = hello(ws, tokens[1])
        assert welcome["seat"] == 1 and state["seq"] == 0
        assert [s["name"] for s in welcome["room"]["seats"]] == ["Ann", "Bob", "Cy", "Di"]


def test_recently_used_rooms_stay_in_memory(client: TestClient) -> None:
    service = client.app.state.service
    code, _ = make_room(client, ["Ann", "Bob", "Cy", "Di"])
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Eve"}).status_code == 409
    sweep(client, datetime.now(UTC), idle=300.0)
    assert code in service.rooms


def test_abandoned_lobbies_are_deleted_after_a_day(client: TestClient) -> None:
    empty, _ = make_room(client, [])
    waiting, _ = make_room(client, ["Ann"])
    seated, seated_tokens = make_room(client, ["Bob"])
    playing, playing_tokens = make_room(client, ["Cy", "Di"])
    start(client, playing, playing_tokens[0])
    with client.websocket_connect(f"/ws/{seated}") as ws:
        hello_message = {"type": "hello", "token": seated_tokens[0]}
        ws.send_json(hello_message)
        assert ws.receive_json()["type"] == "welcome"
        # Younger than a day: all kept.
        sweep(client, datetime.now(UTC) + timedelta(hours=23), idle=0.0)
        for code in (empty, waiting, seated, playing):
            assert client.get(f"/api/rooms/{code}").status_code == 200
        sweep(client, datetime.now(UTC) + timedelta(days=2), idle=0.0)
        gone = client.get(f"/api/rooms/{empty}")
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"
        assert client.get(f"/api/rooms/{waiting}").status_code == 404
        assert client.get(f"/api/rooms/{seated}").status_code == 200, "a seat is connected"
        assert client.get(f"/api/rooms/{playing}").status_code == 200, "it has a game"
    # A deleted room's seat token opens nothing.
    refused = client.post(f"/api/rooms/{waiting}/join", json={"name": "Eve"})
    assert refused.status_code == 404
