"""Issue 17, item 9: a database that fails or is locked answers the protocol's JSON error
`unavailable` (retryable), over HTTP and WebSocket, and the socket stays open."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from app.config import Settings
from app.main import create_app
from tests.server.helpers import hello, make_room, receive_until, start


def broken(*_args: Any, **_kwargs: Any) -> Any:
    raise OperationalError("SELECT 1", {}, ConnectionError("the database went away"))


def unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"]["code"] == "unavailable"
    assert int(response.headers["Retry-After"]) > 0


def test_a_failing_database_answers_unavailable_over_http(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _ = make_room(client, ["Ann", "Bob"])
    repo = client.app.state.repo
    monkeypatch.setattr(repo, "list_games", broken)
    monkeypatch.setattr(repo, "get_room", broken)
    monkeypatch.setattr(repo, "take_seat_and_read", broken)
    monkeypatch.setattr(repo, "create_room", broken)
    unavailable(client.get("/api/games"))
    unavailable(client.post("/api/rooms", json={"variant": "classic"}))
    unavailable(client.post(f"/api/rooms/{code}/join", json={"name": "Cy"}))
    monkeypatch.undo()
    assert [s["name"] for s in client.get(f"/api/rooms/{code}").json()["seats"]] == ["Ann", "Bob"]


def test_a_failing_database_answers_unavailable_over_the_socket(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, tokens[0])
        ws.send_json({"type": "legal", "id": "l"})
        action = receive_until(ws, "legal")["actions"][0]
        monkeypatch.setattr(client.app.state.repo, "_write_batch", broken)
        ws.send_json({"type": "action", "id": "a1", "seq": 0, "action": action})
        refusal = receive_until(ws, "error")
        assert (refusal["code"], refusal["ref"]) == ("unavailable", "a1")
        ws.send_json({"type": "ping"})
        receive_until(ws, "pong")
        monkeypatch.undo()
        # The same action, retried, is accepted: nothing was half-applied.
        ws.send_json({"type": "action", "id": "a2", "seq": 0, "action": action})
        assert receive_until(ws, "state")["seq"] == 1


@pytest.fixture
def sqlite_client(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    path = tmp_path / "locked.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{path}", replay_processes=0, sqlite_busy_timeout=0.3
    )
    with TestClient(create_app(settings)) as client:
        yield client, path


def test_a_locked_sqlite_database_fails_writes_fast_with_unavailable(
    sqlite_client: tuple[TestClient, Path],
) -> None:
    client, path = sqlite_client
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    assert client.get("/healthz").json() == {"ok": True, "database": "ok"}
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, tokens[0])
        ws.send_json({"type": "legal", "id": "l"})
        action = receive_until(ws, "legal")["actions"][0]
        # Another process holds the write lock (a long migration, a stuck tool).
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            unavailable(client.post("/api/rooms", json={"variant": "classic"}))
            health = client.get("/healthz")
            assert health.status_code == 503
            assert health.json()["ok"] is False and health.json()["database"] != "ok"
            # Reads still work beside the writer (WAL).
            assert client.get(f"/api/rooms/{code}").status_code == 200
            ws.send_json({"type": "action", "id": "a1", "seq": 0, "action": action})
            refusal = receive_until(ws, "error")
            assert (refusal["code"], refusal["ref"]) == ("unavailable", "a1")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        ws.send_json({"type": "action", "id": "a2", "seq": 0, "action": action})
        assert receive_until(ws, "state")["seq"] == 1
    assert client.get("/healthz").status_code == 200
