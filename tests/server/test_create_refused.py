"""A refused `POST /api/rooms` leaves no room behind (the one-call extensions: the
creator's seat, computer seats, `start`). Each step used to commit on its own: a refused
name left an empty open table in the lobby at each of the lobby form's tries, and a
refused level or start a listed table whose host seat nobody held the key to."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.rooms.errors import RoomError
from app.rooms.service import RoomService


def stored_rooms(client: TestClient) -> list[str]:
    """Every unstarted room in the database (listed or not)."""
    service: RoomService = client.app.state.service  # type: ignore[attr-defined]
    return service.repo.stale_lobbies(datetime.now(UTC) + timedelta(days=1), 100)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "\u200bAnn"}, 422, "bad_name"),
        ({"name": "   "}, 422, "bad_name"),
        ({"name": "Ann", "computers": ["easy", "god"]}, 422, "bad_level"),
        ({"name": "Ann", "start": True}, 409, "too_few_players"),
        ({"computers": ["easy"], "start": True}, 422, "bad_request"),
        ({"name": "Ann", "computers": ["easy"] * 4}, 409, "room_full"),
        ({"name": "Ann", "options": {"events": "yes"}}, 422, "bad_options"),
    ],
)
def test_a_refused_creation_leaves_no_room(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    response = client.post("/api/rooms", json={"variant": "classic", "listed": True} | body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    assert stored_rooms(client) == []
    assert client.get("/api/rooms").json()["rooms"] == []


def test_a_step_that_fails_after_the_room_was_made_takes_the_room_away(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    service: RoomService = client.app.state.service  # type: ignore[attr-defined]

    async def refuse(code: str, token: str | None) -> str:
        raise RoomError("unavailable", "the database is busy", 503)

    monkeypatch.setattr(service, "start_game", refuse)
    body = {"variant": "classic", "name": "Ann", "computers": ["easy"], "start": True}
    response = client.post("/api/rooms", json=body | {"listed": True})
    assert response.status_code == 503
    assert stored_rooms(client) == []
    assert client.get("/api/rooms").json()["rooms"] == []
    monkeypatch.undo()
    # and the same call, once it works, makes one room and starts its game
    made = client.post("/api/rooms", json=body).json()
    assert stored_rooms(client) == []  # started: no longer an unstarted room
    assert client.get(f"/api/rooms/{made['code']}").json()["status"] == "playing"


def test_an_accepted_creation_still_seats_everyone(client: TestClient) -> None:
    body = {"variant": "cards", "name": "Ann", "computers": ["easy", "hard"], "listed": True}
    made = client.post("/api/rooms", json=body).json()
    assert stored_rooms(client) == [made["code"]]
    room = client.get(f"/api/rooms/{made['code']}").json()
    assert [s["name"] for s in room["seats"]] == ["Ann", "Computer (easy)", "Computer (hard)"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/rooms", {"variant": "classic", "listed": "yes"}),
        ("post", "/api/rooms", {"variant": "classic", "listed": 1}),
        ("post", "/api/rooms", {"variant": "classic", "name": "Ann", "start": "true"}),
        ("patch", "/api/rooms/{code}", {"listed": "off"}),
        ("post", "/api/rooms/{code}/join", {"name": 7}),
        ("post", "/api/rooms/{code}/computers", {"level": ["easy"]}),
    ],
)
def test_a_body_s_fields_are_of_their_own_type(
    client: TestClient, method: str, path: str, body: dict[str, Any]
) -> None:
    """`"listed": "yes"`, `1` or `"off"` were read as booleans (the variant's options never
    were): a body that does not fit the schema is `bad_request`, as the contract says."""
    made = client.post("/api/rooms", json={"variant": "classic"}).json()
    headers = {"Authorization": f"Bearer {made['host_token']}"}
    url = path.format(code=made["code"])
    response = getattr(client, method)(url, json=body, headers=headers)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "bad_request"
    assert client.get(f"/api/rooms/{made['code']}").json()["listed"] is False
    assert stored_rooms(client) == [made["code"]]
