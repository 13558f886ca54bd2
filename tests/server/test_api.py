"""The HTTP half of the protocol through the real app: rooms, seats, start, games."""

from __future__ import annotations

import hashlib
import json
import logging

import pytest
from fastapi.testclient import TestClient

from app.logs import JsonFormatter
from tests.server.helpers import make_room, start


def error_code(response) -> str:  # type: ignore[no-untyped-def]
    return response.json()["error"]["code"]


def test_create_room_fills_in_default_options(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"variant": "classic"})
    assert response.status_code == 201
    body = response.json()
    assert body["variant"] == "classic"
    assert body["options"] == {"events": False, "return_home": True, "rules_version": 2}
    assert body["url"] == f"/r/{body['code']}"
    room = client.get(f"/api/rooms/{body['code']}").json()
    assert room["status"] == "lobby"
    assert room["seats"] == []
    assert room["game_id"] is None


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "chess"}, "bad_request"),
        ({"variant": "classic", "options": {"events": "yes"}}, "bad_options"),
        ({"variant": "classic", "options": {"dragons": True}}, "bad_options"),
        ({"variant": "classic", "colour": "red"}, "bad_request"),
        ({}, "bad_request"),
    ],
)
def test_create_room_refuses_bad_bodies(client: TestClient, body: dict, code: str) -> None:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 422
    assert error_code(response) == code


def test_malformed_json_body_is_422(client: TestClient) -> None:
    response = client.post(
        "/api/rooms", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert error_code(response) == "bad_request"


def test_unknown_room_and_game_are_not_found(client: TestClient) -> None:
    for path in ["/api/rooms/nope", "/api/games/nope", "/api/games/nope/record"]:
        response = client.get(path)
        assert response.status_code == 404
        assert error_code(response) == "not_found"
    response = client.post("/api/rooms/nope/join", json={"name": "Ann"})
    assert response.status_code == 404


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "a\x00b", "tab\there", "rtl\u202eoverride"])
def test_bad_names_are_refused(client: TestClient, name: str) -> None:
    code, _ = make_room(client, [])
    response = client.post(f"/api/rooms/{code}/join", json={"name": name})
    assert response.status_code == 422
    assert error_code(response) == "bad_name"
    assert client.get(f"/api/rooms/{code}").json()["seats"] == []


def test_names_are_trimmed_and_kept_verbatim(client: TestClient) -> None:
    code, _ = make_room(client, ["  <b>x</b>  ", "x" * 32, "Zoë 🙂"])
    seats = client.get(f"/api/rooms/{code}").json()["seats"]
    assert [s["name"] for s in seats] == ["<b>x</b>", "x" * 32, "Zoë 🙂"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert all(s["kind"] == "human" and s["connected"] is False for s in seats)


def test_join_until_full(client: TestClient) -> None:
    code, tokens = make_room(client, ["A", "B", "C", "D"])
    assert len(set(tokens)) == 4
    response = client.post(f"/api/rooms/{code}/join", json={"name": "E"})
    assert response.status_code == 409
    assert error_code(response) == "room_full"


def test_join_refuses_unknown_fields(client: TestClient) -> None:
    code, _ = make_room(client, [])
    response = client.post(f"/api/rooms/{code}/join", json={"name": "A", "seat": 3})
    assert response.status_code == 422


def test_start_needs_a_seated_players_token(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    for headers in [{}, {"Authorization": "Bearer wrong"}, {"Authorization": tokens[0]}]:
        response = client.post(f"/api/rooms/{code}/start", headers=headers)
        assert response.status_code == 401
        assert error_code(response) == "unauthorized"
    other, other_tokens = make_room(client, ["Cy"])
    response = client.post(
        f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {other_tokens[0]}"}
    )
    assert response.status_code == 401
    assert client.get(f"/api/rooms/{code}").json()["status"] == "lobby"
    assert other


def test_start_needs_two_players(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann"])
    response = client.post(
        f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert response.status_code == 409
    assert error_code(response) == "too_few_players"


def test_start_then_the_room_is_closed_to_joins_and_restarts(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    room = client.get(f"/api/rooms/{code}").json()
    assert room["status"] == "playing"
    assert room["game_id"] == game_id
    again = client.post(
        f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert again.status_code == 409
    assert error_code(again) == "already_started"
    late = client.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert late.status_code == 409
    assert error_code(late) == "already_started"


def test_live_game_listing_hides_the_seed(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    games = client.get("/api/games", params={"status": "live"}).json()["games"]
    assert [g["id"] for g in games] == [game_id]
    assert games[0]["players"] == ["Ann", "Bob"]
    assert games[0]["room"] == code
    assert games[0]["seq"] == 0
    assert client.get("/api/games", params={"status": "finished"}).json()["games"] == []
    assert client.get("/api/games", params={"variant": "master"}).json()["games"] == []
    game = client.get(f"/api/games/{game_id}").json()
    assert "seed" not in game
    assert len(game["seed_hash"]) == 64
    assert game["status"] == "live"
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 409
    assert error_code(record) == "game_live"
    assert hashlib.sha256(b"").hexdigest() != game["seed_hash"]


def test_games_query_is_validated(client: TestClient) -> None:
    assert client.get("/api/games", params={"status": "paused"}).status_code == 422
    assert client.get("/api/games", params={"limit": 0}).status_code == 422
    assert client.get("/api/games", params={"limit": 1000}).status_code == 422


def test_healthz_and_pages(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"ok": True, "database": "ok"}
    code, _ = make_room(client, [])
    assert client.get("/").status_code == 200
    page = client.get(f"/r/{code}")
    assert page.status_code == 200
    assert code in page.text
    assert client.get("/r/unknown").status_code == 404
    assert client.get("/rules/classic").status_code == 200
    assert client.get("/rules/chess").status_code == 404
    first = client.get("/rules", follow_redirects=False)
    assert first.status_code == 307 and first.headers["location"] == "/rules/classic"


def test_logs_are_json_lines_with_ids() -> None:
    record = logging.LogRecord("app.rooms", logging.INFO, __file__, 1, "game started", (), None)
    record.room, record.game = "abc", "g1"
    entry = json.loads(JsonFormatter().format(record))
    assert entry["msg"] == "game started"
    assert (entry["room"], entry["game"], entry["level"]) == ("abc", "g1", "info")


def test_metrics_are_exposed(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    # from loopback, the default METRICS_NETWORKS (the test client has no address of its own)
    local = TestClient(client.app, client=("127.0.0.1", 40000))
    text = local.get("/metrics").text
    assert "labyrinth_open_connections" in text
    assert "labyrinth_action_latency_seconds_bucket" in text


@pytest.mark.parametrize("path", ["/", "/rules/classic"])
def test_pages_are_rendered_in_the_chosen_language(client: TestClient, path: str) -> None:
    """The header's choice lives in the `lang` cookie; pages carry it so the client starts
    in that language without reading any storage. Anything else in the cookie is ignored."""
    assert '<html lang="en">' in client.get(path).text
    client.cookies.set("lang", "de")
    assert '<html lang="de" data-lang="de">' in client.get(path).text
    client.cookies.set("lang", '"><script>')
    assert '<html lang="en">' in client.get(path).text
    client.cookies.clear()
