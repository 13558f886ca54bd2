"""`GET /api/games/{id}/analysis` (ext): the marks as data, for the page and other tools."""

from __future__ import annotations

import gzip
import json

from fastapi.testclient import TestClient

from app.analysis import analyse
from app.analysis.cache import VERSION
from tests.server.helpers import greedy_record, make_room, start


def test_the_analysis_of_an_imported_game(client: TestClient) -> None:
    record = greedy_record(players=2, seed="analyse-me", events=False)
    game_id = client.post("/api/games/import", json=record).json()["id"]
    response = client.get(f"/api/games/{game_id}/analysis")
    assert response.status_code == 200
    body = response.json()
    assert body["version"] == VERSION
    assert body | {"version": None} == analyse(record) | {"version": None}
    assert body["variant"] == "classic"
    seats = [p["seat"] for p in body["players"]]
    assert seats == [0, 1]
    for player in body["players"]:
        own = [t for t in body["turns"] if t["seat"] == player["seat"]]
        assert player["turns"] == len(own) > 0
        assert 0 <= player["accuracy"] <= 1
    # gzip as stored for clients that take it
    raw = client.get(f"/api/games/{game_id}/analysis", headers={"Accept-Encoding": "gzip"}).headers
    assert raw["content-type"] == "application/json"
    again = client.app.state.repo.stored_analysis(game_id, VERSION)  # type: ignore[attr-defined]
    assert json.loads(gzip.decompress(again)) == body


def test_no_analysis_for_a_live_or_unknown_game(client: TestClient) -> None:
    room, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, room, tokens[0])
    live = client.get(f"/api/games/{game_id}/analysis")
    assert live.status_code == 409 and live.json()["error"]["code"] == "game_live"
    missing = client.get("/api/games/nosuchgame/analysis")
    assert missing.status_code == 404
