"""Small helpers for driving rooms over HTTP and WebSockets in tests."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession


def make_room(client: TestClient, names: list[str], **options: Any) -> tuple[str, list[str]]:
    """A classic room with these players seated; returns (code, tokens)."""
    response = client.post("/api/rooms", json={"variant": "classic", "options": options})
    assert response.status_code == 201, response.text
    code = response.json()["code"]
    tokens = []
    for name in names:
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens


def start(client: TestClient, code: str, token: str) -> str:
    response = client.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()["game_id"]


def receive_until(ws: WebSocketTestSession, kind: str, limit: int = 50) -> dict[str, Any]:
    """The next message of type `kind`, skipping others (room updates, chat)."""
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
        if message["type"] == "error":
            raise AssertionError(f"expected {kind}, got {message}")
    raise AssertionError(f"no {kind} message in {limit}")


def hello(ws: WebSocketTestSession, token: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Send hello; return the welcome and the first state."""
    ws.send_json({"type": "hello", "token": token})
    welcome = receive_until(ws, "welcome")
    return welcome, receive_until(ws, "state")
