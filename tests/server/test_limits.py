"""Issue 17, items 5, 6 and 13: what one client address may cost the server.

A socket that never says hello, many sockets from one address, rooms, joins and imports
in a loop, and request bodies larger than any real one are all refused with the
protocol's JSON error and a stable code, and nobody else is held up by them.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.main import create_app
from app.web.bodylimit import BodyLimit
from tests.server.helpers import greedy_record, make_room, receive_until


def limited_client(tmp_path: Path, **limits: Any) -> TestClient:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'limits.sqlite3'}", replay_processes=0, **limits
    )
    return TestClient(create_app(settings))


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    with limited_client(
        tmp_path,
        hello_timeout=0.3,
        max_sockets_per_address=3,
        rooms_per_minute=3,
        joins_per_minute=4,
        imports_per_minute=1,
        max_body_bytes=1024,
        max_import_bytes=256 * 1024,
    ) as client:
        yield client


def test_a_socket_that_never_says_hello_is_closed_with_4408(strict: TestClient) -> None:
    code, _ = make_room(strict, [])
    with strict.websocket_connect(f"/ws/{code}") as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4408
    # One that says hello in time stays open past the deadline.
    with strict.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_until(ws, "welcome")
        time.sleep(0.5)
        ws.send_json({"type": "ping"})
        receive_until(ws, "pong")


def test_one_address_holds_a_bounded_number_of_sockets(strict: TestClient) -> None:
    code, _ = make_room(strict, [])
    sockets = [strict.websocket_connect(f"/ws/{code}") for _ in range(3)]
    opened = [s.__enter__() for s in sockets]
    try:
        for ws in opened:
            ws.send_json({"type": "hello", "token": None})
            receive_until(ws, "welcome")
        with strict.websocket_connect(f"/ws/{code}") as extra:
            refusal = extra.receive_json()
            assert refusal["type"] == "error" and refusal["code"] == "too_many_connections"
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 4429
        # The sockets already open are not disturbed.
        opened[0].send_json({"type": "ping"})
        receive_until(opened[0], "pong")
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)
    # Closing frees the places again.
    with strict.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_until(ws, "welcome")


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


def test_rooms_and_joins_per_minute_from_one_address(strict: TestClient) -> None:
    codes = [strict.post("/api/rooms", json={"variant": "classic"}).json()["code"] for _ in "abc"]
    too_many = strict.post("/api/rooms", json={"variant": "classic"})
    refused(too_many, 429, "rate_limited")
    assert int(too_many.headers["Retry-After"]) > 0
    names = iter(["Ann", "Bob", "Cy", "Di", "Eve"])
    for code in codes[:2]:
        for _ in range(2):
            joined = strict.post(f"/api/rooms/{code}/join", json={"name": next(names)})
            assert joined.status_code == 201, joined.text
    refused(strict.post(f"/api/rooms/{codes[2]}/join", json={"name": "Eve"}), 429, "rate_limited")
    assert [s["name"] for s in strict.get(f"/api/rooms/{codes[2]}").json()["seats"]] == []
    # Another address (as a trusted proxy would report it) is not affected.
    other = strict.app.state.limits
    other.rooms.check("192.0.2.7")


def test_imports_per_minute_from_one_address(strict: TestClient) -> None:
    record = greedy_record()
    assert strict.post("/api/games/import", json=record).status_code == 201
    refused(strict.post("/api/games/import", json=record), 429, "rate_limited")
    assert strict.get("/api/games", params={"status": "finished"}).json()["total"] == 1


def test_a_body_over_the_limit_is_refused_with_413(strict: TestClient) -> None:
    padded = '{"variant": "classic"' + " " * 4096 + "}"
    response = strict.post(
        "/api/rooms", content=padded, headers={"Content-Type": "application/json"}
    )
    refused(response, 413, "too_large")
    refused(strict.post("/api/rooms/abc/join", json={"name": "A" * 2000}), 413, "too_large")
    # Imports have their own, larger limit.
    record = greedy_record()
    assert len(json.dumps(record)) > 1024
    assert strict.post("/api/games/import", json=record).status_code == 201
    big = json.dumps(record | {"players": ["A" + " " * 300_000, "Bob"]})
    refused(
        strict.post("/api/games/import", content=big, headers={"Content-Type": "application/json"}),
        413,
        "too_large",
    )


def test_a_chunked_body_is_counted_as_it_arrives(strict: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"variant": "classic", "options": {'
        for _ in range(100):
            yield b" " * 100

    response = strict.post(
        "/api/rooms", content=chunks(), headers={"Content-Type": "application/json"}
    )
    refused(response, 413, "too_large")


def test_a_declared_length_over_the_limit_is_refused_unread() -> None:
    """300 MiB announced: the answer comes before a single byte of the body is read."""
    reads: list[str] = []
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the application must not see this request")

    async def receive() -> dict[str, Any]:
        reads.append("read")
        return {"type": "http.request", "body": b"x" * 1024, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/games/import",
        "headers": [(b"content-length", str(300 * 1024 * 1024).encode())],
    }
    limited = BodyLimit(app, limit=1024, larger={"/api/games/import": 4096})
    asyncio.run(limited(scope, receive, send))
    assert reads == []
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"]["code"] == "too_large"
