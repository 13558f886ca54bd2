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


def greedy_record(
    players: int = 2,
    seed: str = "replay-seed",
    min_actions: int = 0,
    max_actions: int = 3000,
    **options: Any,
) -> dict[str, Any]:
    """The record of a whole classic game played by greedy bots, without a server.

    With `min_actions`, two choices in three are random instead, and seeds are tried in
    turn (`seed`, `seed-1`, ...) until a game's length is within [min_actions,
    max_actions]: long games for replay benchmarks, deterministic for a given seed.
    """
    import random

    from app.bots.greedy import choose
    from app.rules import Game

    for attempt in range(200):
        game_seed = seed if attempt == 0 else f"{seed}-{attempt}"
        names = ["Ann", "Bob", "Cy", "Di"][:players]
        game = Game.new("classic", names, game_seed, options)
        rng = random.Random(game_seed)
        while game.result is None and game.seq < 3000:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions(seat)
            wander = min_actions and rng.random() < 0.67
            action = rng.choice(legal) if wander else choose(game.view(seat), legal, rng)
            game.apply(seat, action)
        if game.result is not None and min_actions <= game.seq <= max_actions:
            return game.record()
    raise AssertionError(f"no finished game of {min_actions}-{max_actions} actions in 200 seeds")


def make_variant_room(
    client: TestClient, variant: str, names: list[str], **options: Any
) -> tuple[str, list[str]]:
    """A room of `variant` with these players seated; returns (code, tokens)."""
    response = client.post("/api/rooms", json={"variant": variant, "options": options})
    assert response.status_code == 201, response.text
    code = response.json()["code"]
    tokens = []
    for name in names:
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens
