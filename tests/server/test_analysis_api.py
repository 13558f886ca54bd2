"""`GET /api/games/{id}/analysis` (ext): the marks as data, for the page and other tools."""

from __future__ import annotations

import gzip
import json
import random
import time
from typing import Any

from fastapi.testclient import TestClient

from app.analysis import analyse
from app.analysis.cache import VERSION
from app.analysis.turns import JSON
from app.bots import choose
from app.rules import Game
from tests.server.helpers import greedy_record, make_room, receive_until, start


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


def _bots_record(variant: str, seed: str, options: dict[str, Any] | None = None) -> JSON:
    game = Game.new(variant, ["Ann", "Bob", "Cy"], seed=seed, options=options)
    rng = random.Random(seed)
    while game.to_move is not None:
        seat = game.to_move
        game.apply(seat, choose(variant, "easy", game.view(seat), game.legal_actions(seat), rng))
    return game.record()


def _marks(body: JSON, kind: str) -> list[JSON]:
    return [m for t in body["turns"] for m in t["marks"] if m["kind"] == kind]


def test_the_master_choices_left_unused_as_data(client: TestClient) -> None:
    record = _bots_record("master", "unused-0")
    game_id = client.post("/api/games/import", json=record).json()["id"]
    body = client.get(f"/api/games/{game_id}/analysis").json()
    by_seq = {a["seq"]: a for a in record["actions"]}
    coins, doubles = _marks(body, "unused_coin"), _marks(body, "unused_double")
    assert coins and doubles
    for mark in coins:
        assert set(mark) == {"kind", "seq", "card", "points"}
        assert by_seq[mark["seq"]]["action"] == {"type": "no_coin"} and mark["points"] == 5
    for mark in doubles:
        assert set(mark) == {"kind", "seq", "card", "value", "best", "path", "frame"}
        assert by_seq[mark["seq"]]["action"] == {"type": "end_turn"}
        assert 7 <= mark["card"] <= 12 and mark["best"]["type"] == "push" and mark["path"]
    for player in body["players"]:
        own = [t for t in body["turns"] if t["seat"] == player["seat"]]
        # told, not counted against accuracy: accuracy follows the "missed" marks alone
        assert player["accuracy"] == round((len(own) - player["missed"]) / len(own), 3)


def test_the_team_spell_lines_as_data(client: TestClient) -> None:
    record = _bots_record("team", "team-spells", {"mode": "standard", "rules_version": 2})
    game_id = client.post("/api/games/import", json=record).json()["id"]
    body = client.get(f"/api/games/{game_id}/analysis").json()
    marks = _marks(body, "missed")
    assert marks
    keys = {"kind", "goal", "treasure", "spells", "modifier", "best", "move", "to", "path"}
    for mark in marks:
        assert set(mark) - {"frame"} == keys and ("frame" in mark) == bool(mark["spells"])
        assert all(s["type"] in ("push", "rotate", "switch") for s in mark["spells"])
        assert mark["move"] == {"type": "move", "to": mark["to"], "spell": bool(mark["modifier"])}
        assert mark["modifier"] in (None, "traverse", "teleport", "escape")


def test_a_player_who_left_is_not_judged_by_the_computers_play(client: TestClient) -> None:
    """Both players leave at once; the computer plays the game out for them. The analysis
    marks those turns, but counts them as `played_for`, not as the players' own."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    for seat, token in enumerate(tokens):
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": token})
            ws.send_json({"type": "leave"})
            receive_until(ws, "seat_moved")
            # open until the computer has the seat (the leave's last step)
            while client.get(f"/api/rooms/{code}").json()["seats"][seat]["computer"] is None:
                time.sleep(0.01)
    deadline = time.monotonic() + 60
    while client.get(f"/api/games/{game_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the computer did not finish the game"
        time.sleep(0.1)
    body = client.get(f"/api/games/{game_id}/analysis").json()
    for player in body["players"]:  # neither played a turn of their own
        marked = [t for t in body["turns"] if t["seat"] == player["seat"]]
        assert player["played_for"] == len(marked) > 0
        assert player["turns"] == player["missed"] == 0 and player["accuracy"] is None
