"""Rules versions through the HTTP API: an old record (no `rules_version`, made by the code
of before version 2) and a new one (version 2, every variant) import, export with the
same options, re-play and verify through the server, as they do offline."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.bots import choose
from app.rules import Game, new_options, seed_hash

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records_v1"


def v2_record(variant: str, players: int) -> dict[str, Any]:
    seed = f"api-v2-{variant}"
    game = Game.new(variant, [f"P{i}" for i in range(players)], seed, new_options(variant, {}))
    rng = random.Random(seed)
    while game.result is None:
        assert game.seq < 5000
        seat = game.to_move
        assert seat is not None
        game.apply(seat, choose(variant, "easy", game.view(seat), game.legal_actions(seat), rng))
    return game.record() | {"seed_hash": seed_hash(seed), "result": game.result}


def round_trip(client: TestClient, record: dict[str, Any]) -> None:
    response = client.post("/api/games/import", json=record)
    assert response.status_code == 201, response.text
    game_id = response.json()["id"]
    exported = client.get(f"/api/games/{game_id}/record").json()
    assert exported["options"] == record["options"]
    assert exported["actions"] == record["actions"]
    verified = client.post(f"/api/games/{game_id}/verify").json()
    assert verified["ok"] is True, verified
    assert client.get(f"/api/games/{game_id}").json()["result"] == record["result"]


@pytest.mark.parametrize(
    "name", ["classic-events-4p.json", "team-standard-3p.json", "cards-6p.json"]
)
def test_an_old_record_imports_exports_and_verifies(fast_client: TestClient, name: str) -> None:
    record = json.loads((FIXTURES / name).read_text("utf-8"))
    assert "rules_version" not in record["options"]
    round_trip(fast_client, record)


@pytest.mark.parametrize(
    ("variant", "players"), [("classic", 4), ("master", 3), ("team", 2), ("cards", 3)]
)
def test_a_version_2_record_imports_exports_and_verifies(
    fast_client: TestClient, variant: str, players: int
) -> None:
    record = v2_record(variant, players)
    assert record["options"]["rules_version"] == 2
    round_trip(fast_client, record)
