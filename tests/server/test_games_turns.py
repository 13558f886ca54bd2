"""The games list counts turns (issue 14, item 11): `seq` counts actions, so a 33-turn
classic game was listed as "66 moves"; `turns` (ext) counts one player's whole turn."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.analysis import count_turns
from app.analysis.turns import played_turns
from app.bots import choose
from app.rules import Game
from app.rules.base import RULES_VERSION, VERSION_KEY
from tests.server.helpers import (
    act,
    greedy_record,
    hello,
    legal,
    make_room,
    receive_until,
    start,
)

OPTIONS: dict[str, dict[str, Any]] = {
    "classic": {"events": True},
    "master": {},
    "team": {"mode": "standard"},
    "cards": {},
}


def bot_record(variant: str, seed: str) -> dict[str, Any]:
    """A whole game of `variant` played by the medium computer players, as a record, by
    the rules a new room plays (its options stamped with their version)."""
    options = OPTIONS[variant] | {VERSION_KEY: RULES_VERSION}
    game = Game.new(variant, ["Ann", "Bob", "Cy"], seed, options)
    rng = random.Random(seed)
    while game.result is None:
        assert game.seq < 3000, "the game did not end"
        seat = game.to_move
        assert seat is not None
        game.apply(seat, choose(variant, "medium", game.view(seat), game.legal_actions(seat), rng))
    return game.record()


def listed(client: TestClient, game_id: str, status: str = "finished") -> dict[str, Any]:
    games = client.get(f"/api/games?status={status}&limit=100").json()["games"]
    return next(g for g in games if g["id"] == game_id)


def test_a_plain_classic_game_lists_half_its_actions_as_turns(client: TestClient) -> None:
    record = greedy_record(players=2, seed="turns-plain", events=False)
    game_id = client.post("/api/games/import", json=record).json()["id"]
    entry = listed(client, game_id)
    # every classic turn is one push and one move, and the game ends on a move
    assert entry["seq"] == len(record["actions"]) > 0
    assert entry["turns"] * 2 == entry["seq"]
    assert client.get(f"/api/games/{game_id}").json()["turns"] == entry["turns"]


@pytest.mark.parametrize("variant", list(OPTIONS))
def test_turns_are_cut_as_the_analysis_cuts_them(client: TestClient, variant: str) -> None:
    from app.analysis import TURN_STARTS

    record = bot_record(variant, f"turns-{variant}")
    game_id = client.post("/api/games/import", json=record).json()["id"]
    entry = listed(client, game_id)
    starts, by_seat = TURN_STARTS[variant]
    turns, _ = played_turns(record, starts, by_seat)
    # the Team Edition's first Daedalus card is turned by an action, in no one's turn
    decisions = [t for t in turns if [a["type"] for a in t.actions] != ["daedalus"]]
    assert len(decisions) == len(turns) - (variant == "team")
    assert entry["turns"] == len(decisions) > 0
    assert entry["turns"] < entry["seq"] == len(record["actions"])
    # the list and the analysis count the same turns
    analysis = client.get(f"/api/games/{game_id}/analysis").json()
    assert entry["turns"] == sum(p["turns"] for p in analysis["players"])


def test_count_turns_on_hand_made_logs() -> None:
    # classic: a push after a push (the events' extra push) stays in the same turn
    log = [(0, "push"), (0, "move"), (1, "push"), (1, "push"), (1, "move"), (0, "push")]
    assert count_turns("classic", log) == 3
    # master: a double turn is two turns of the same seat
    assert count_turns("master", [(0, "push"), (0, "move"), (0, "push"), (0, "move")]) == 2
    # cards: a placement or a discard, whatever takes follow
    assert count_turns("cards", [(0, "place"), (0, "take"), (1, "discard"), (0, "place")]) == 3
    # team: after `end`, or when the seat changes without one
    assert count_turns("team", [(0, "push"), (0, "end"), (1, "move"), (2, "push")]) == 3
    assert count_turns("team", [(0, "daedalus"), (0, "push"), (0, "end"), (1, "move")]) == 2
    assert count_turns("nosuchgame", [(0, "push")]) is None
    assert count_turns("classic", []) == 0


def test_a_live_game_counts_its_turns_as_they_are_played(client: TestClient) -> None:
    room, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, room, tokens[0])
    assert listed(client, game_id, "live")["turns"] == 0
    with client.websocket_connect(f"/ws/{room}") as ws:
        _, state = hello(ws, tokens[0])
        seq = state["view"]["seq"]
        for step in range(2):  # Ann's push, then her move: one turn
            act(ws, seq + step, legal(ws)["actions"][0])
            assert receive_until(ws, "state")["view"]["seq"] == seq + step + 1
    entry = listed(client, game_id, "live")
    assert (entry["seq"], entry["turns"]) == (2, 1)
