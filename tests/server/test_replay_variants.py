"""Whole games of master, team and cards over WebSockets, then their record and replay.

`test_replay.py` holds this check for classic; the other variants were only replayed from
short random games against `engine.reveal`. Here each is played to its end through the
real app by the bots the per-variant tests use, with a spectator, and every `state` each
seat and the spectator received must be what the record, replayed to that step, shows
that viewer. The replay's frames must be the all-revealed state at each step, the
verification must pass, and no message to the spectator may carry a secret while the
game runs (the replay shows them all, so a leak would go unnoticed in the browser).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.bots.master import choose as master_choose
from app.rules import Game, get_engine
from tests.server.helpers import (
    Chooser,
    PlayedGame,
    assert_no_team_secret,
    cards_pick,
    check_cards_secrecy,
    check_master_secrecy,
    check_patched_replay,
    play_whole_game,
    team_pick,
)

# Keys that hold a secret in some variant's running view: peeks, targets, deck orders and
# the cards' face-down pile; hands and piles when they are lists of cards. A spectator must
# never receive any of them while the game runs.
SECRET_KEYS = {"pile_cards", "peek", "target", "treasure_deck_order", "daedalus_deck_order"}
# Secret as lists only: the card game's `pile` is the public count of cards left, and its
# `placed`/`discarded` events name the `hand` index that was played.
SECRET_LISTS = {"hand", "pile"}


def secret_keys_in(value: Any) -> set[str]:
    """Every secret key anywhere in a message (`hand` and `pile` only as lists)."""
    found: set[str] = set()
    if isinstance(value, dict):
        found |= SECRET_KEYS & set(value)
        found |= {key for key in SECRET_LISTS if isinstance(value.get(key), list)}
        for item in value.values():
            found |= secret_keys_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= secret_keys_in(item)
    return found


def no_check(states: list[dict[str, Any]], spy: dict[str, Any]) -> None:
    """Team is cooperative: a seat has no secret of its own, only the board does."""


@dataclass(frozen=True)
class Case:
    """One variant's whole game: who plays, how moves are chosen, what is secret."""

    variant: str
    players: int
    choose: Chooser
    seed: int
    options: dict[str, Any]
    # the per-variant secrecy check of the seats' and the spectator's states at one step
    per_step: Callable[[list[dict[str, Any]], dict[str, Any]], None]
    # keys the finished view shows that the running spectator view must not
    revealed_at_end: str


CASES = [
    Case("master", 3, master_choose, 3, {}, check_master_secrecy, "hand"),
    Case("team", 3, team_pick, 3, {"mode": "standard"}, no_check, "daedalus_deck_order"),
    Case("cards", 3, cards_pick, 11, {}, check_cards_secrecy, "hand"),
]


@pytest.fixture(params=CASES, ids=[c.variant for c in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    return request.param


def check_views_and_frames(client: TestClient, played: PlayedGame) -> dict[str, Any]:
    """Every viewer's state at every seq is the record replayed to that seq, viewed by
    them; every replay frame is that state revealed; every move is the record's."""
    record = client.get(f"/api/games/{played.id}/record").json()
    assert len(record["actions"]) == played.seq
    replay = client.get(f"/api/games/{played.id}/replay").json()
    engine = get_engine(record["variant"])
    assert replay["variant"] == record["variant"]
    assert len(replay["frames"]) == played.seq + 1
    assert [m["seq"] for m in replay["moves"]] == list(range(1, played.seq + 1))
    for k in range(played.seq + 1):
        game = Game.from_record(record, upto=k)
        assert game.seq == k
        for viewer, states in played.seen.items():
            assert states[k]["seq"] == k, (viewer, k)
            assert game.view(viewer) == states[k]["view"], (record["variant"], viewer, k)
        assert replay["frames"][k] == engine.reveal(game.state), (record["variant"], k)
        if k == 0:
            assert all(states[0]["last"] is None for states in played.seen.values())
            continue
        move = replay["moves"][k - 1]
        entry = record["actions"][k - 1]
        assert (move["seat"], move["action"]) == (entry["seat"], entry["action"])
        assert move["notation"] == engine.notation(move["action"])
        # the mover saw its own move's notation unredacted in `last`
        assert played.seen[move["seat"]][k]["last"]["notation"] == move["notation"]
        for states in played.seen.values():
            assert (states[k]["last"]["seq"], states[k]["last"]["seat"]) == (k, move["seat"])
    final = played.seen[None][-1]["view"]
    assert final["status"] == "finished" and final["result"] is not None
    assert replay["result"] == record["result"] == final["result"]
    assert replay["frames"][-1]["result"] == final["result"]
    check_patched_replay(client, played.id, replay)
    return record


def check_spectator_secrecy(case: Case, played: PlayedGame) -> None:
    """While the game runs, no message to the spectator (states, room updates, anything)
    holds a secret; the variant's own per-step checks pass for every seat as well."""
    seats = [played.seen[seat] for seat in range(case.players)]
    for k, spy in enumerate(played.seen[None]):
        case.per_step([states[k] for states in seats], spy)
    running = []
    for message in played.spectator_log:
        if message["type"] == "state" and message["view"]["status"] == "finished":
            break
        running.append(message)
    assert len([m for m in running if m["type"] == "state"]) == played.seq
    for message in running:
        assert secret_keys_in(message) == set(), message
        assert_no_team_secret(message)  # face-down faces and deck orders, in any variant
        for event in (message.get("last") or {}).get("events", []):
            assert not (event["type"] == "drew" and "cards" in event), event
    # the same check finds the secrets once the game is over: it could fail
    final = played.seen[None][-1]
    assert case.revealed_at_end in secret_keys_in(final)
    assert case.revealed_at_end in json.dumps(final)


def test_a_whole_game_replays_as_every_viewer_saw_it(fast_client: TestClient, case: Case) -> None:
    played = play_whole_game(
        fast_client, case.variant, case.players, case.choose, seed=case.seed, **case.options
    )
    assert played.seq > 20, "a whole game, not a stub"
    assert set(played.seen) == {*range(case.players), None}
    record = check_views_and_frames(fast_client, played)
    assert record["variant"] == case.variant and len(record["players"]) == case.players
    check_spectator_secrecy(case, played)
    answer = fast_client.post(f"/api/games/{played.id}/verify").json()
    assert answer["ok"] is True, answer
    assert {c["name"] for c in answer["checks"] if c["ok"]} == {
        "seed_hash",
        "replay",
        "finished",
        "final_seq",
        "result",
    }
