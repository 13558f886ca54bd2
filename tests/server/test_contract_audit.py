"""Findings of the third protocol audit, a third-party client reading only
shared/spec/protocol.md: each test fails on the code before its fix. A Team player's public
cards are under the contract's name, Master's players say what is left to take, and every
time in an HTTP answer says it is UTC (a browser read SQLite's bare times as local time,
so the lobby's "started at" was off by the visitor's time zone)."""

from __future__ import annotations

import random
import re
from typing import Any

from fastapi.testclient import TestClient

from app.rules import Game
from tests.server.helpers import greedy_record, make_room, start

WITH_OFFSET = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d")


def play_some(game: Game, moves: int, seed: int) -> None:
    """A few legal actions by whoever is to act, chosen at random (the views must hold
    mid-game, not only at the deal)."""
    rng = random.Random(seed)
    for _ in range(moves):
        seat = game.to_move
        if seat is None or not (actions := game.legal_actions(seat)):
            return
        game.apply(seat, rng.choice(actions))


def test_a_team_player_s_cards_are_under_the_contract_s_name() -> None:
    """Contract: `team`: "per player "cards": [treasures] (public)". The view said `board`
    only, so a client of the contract found no cards."""
    game = Game.new("team", ["Ann", "Bob", "Cy"], "contract", {"mode": "standard"})
    play_some(game, 40, seed=1)
    for viewer in (None, 0, 1, 2):
        for player in game.view(viewer)["players"]:
            assert player["cards"] == player["board"] and len(player["cards"]) <= 2, player


def test_a_master_player_says_how_many_tokens_are_left() -> None:
    """Master's view is "the sliding-game view, plus ...", whose players carry `remaining`;
    every player hunts the same tokens, so it is the count on the board."""
    game = Game.new("master", ["Ann", "Bob"], "contract", {})
    play_some(game, 60, seed=2)
    for viewer in (None, 0, 1):
        view = game.view(viewer)
        assert {p["remaining"] for p in view["players"]} == {len(view["tokens"])}, view


def test_every_time_in_an_http_answer_carries_its_utc_offset(client: TestClient) -> None:
    record = greedy_record(players=2, seed="offsets", max_actions=60)
    imported = client.post("/api/games/import", json=record)
    assert imported.status_code in (200, 201), imported.text
    game_id = imported.json()["id"]
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    listed = client.post("/api/rooms", json={"variant": "cards", "name": "Bea", "listed": True})
    assert listed.status_code == 201, listed.text

    times: list[tuple[str, Any]] = []
    for game in client.get("/api/games").json()["games"]:
        times += [("started_at", game["started_at"]), ("finished_at", game["finished_at"])]
    one = client.get(f"/api/games/{game_id}").json()
    times += [("started_at", one["started_at"]), ("finished_at", one["finished_at"])]
    for room in client.get("/api/rooms").json()["rooms"]:
        times.append(("created_at", room["created_at"]))
    shown = [(name, value) for name, value in times if value is not None]
    assert {name for name, _ in shown} == {"started_at", "finished_at", "created_at"}, times
    for name, value in shown:
        assert WITH_OFFSET.fullmatch(value), (name, value)


def test_a_wrong_method_is_405_and_says_which_methods_the_address_takes(
    client: TestClient,
) -> None:
    code, _tokens = make_room(client, ["Ann"])
    response = client.delete(f"/api/rooms/{code}")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    assert "GET" in response.headers["allow"]
