"""Audit 1's findings on one process: a "play again" offer outlives a restart, and a
turn that fell due while no server ran is not charged to its player."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.rooms.clock import OUTAGE_SLACK, TIMEOUT_BY, Clock, ClockSettings
from app.rooms.timeouts import enforce_once
from tests.server.helpers import hello
from tests.server.test_clock import backdate
from tests.server.test_table import bearer, call, create, join, room


def _app(database_url: str) -> TestClient:
    return TestClient(
        create_app(Settings(database_url=database_url, replay_processes=0, computer_pause=0))
    )


def _finished_room(client: TestClient) -> tuple[str, dict[str, Any], str]:
    """Ann (host), Bob and an easy computer, played to the end by the computer; Ann's
    credentials and the finished game's id."""
    made = create(client, name="Ann")
    code = made["code"]
    join(client, code, "Bob")
    added = client.post(
        f"/api/rooms/{code}/computers", json={"level": "easy"}, headers=bearer(made["host_token"])
    )
    assert added.status_code in (200, 201), added.text
    game_id = client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"])).json()[
        "game_id"
    ]
    computer = client.app.state.computer  # type: ignore[attr-defined]
    for seat in (0, 1):
        call(client, computer.control, code, seat, "medium", "takeover")
    call(client, computer.idle)
    assert room(client, code)["status"] == "finished"
    return code, made, game_id


def test_a_play_again_offer_pending_over_a_restart_is_settled_at_its_deadline(
    database_url: str,
) -> None:
    """Ann asks to play again and Bob never answers. The process stops before the
    offer's deadline (its timer goes with it); the next process, over the same database,
    starts the next game with Ann and the computer once the deadline is past: its sweep
    settles the offer, as the timer would have."""
    with _app(database_url) as first:
        code, ann, finished = _finished_room(first)
        offer = first.post(f"/api/rooms/{code}/rematch", headers=bearer(ann["token"]))
        assert offer.status_code == 200, offer.text
        assert offer.json()["rematch"]["accepted"] == [0, 2]
    with _app(database_url) as second:
        assert room(second, code)["status"] == "finished", "not due yet: still waiting"
        # The deadline passes while nobody's timer runs.
        repo = second.app.state.repo  # type: ignore[attr-defined]
        pending = repo.get_room(code).rematch
        past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
        assert repo.update_room(code, finished, {"rematch": pending | {"deadline": past}})
        call(second, second.app.state.computer.sweep)  # type: ignore[attr-defined]
        info = room(second, code)
        assert info["status"] == "playing" and info["game_id"] != finished
        assert [s["name"] for s in info["seats"]] == ["Ann", "Computer (easy)"]
        assert info["rematch"] is None


def test_settling_an_offer_twice_frees_each_seat_once(client: TestClient) -> None:
    """Two settlings of one due offer (a process's timer and another's sweep) free the
    seats that did not accept once: the second finds nothing left to free, and the
    seats that accepted all stay."""
    code, ann, finished = _finished_room(client)
    client.post(f"/api/rooms/{code}/rematch", headers=bearer(ann["token"]))
    repo = client.app.state.repo  # type: ignore[attr-defined]

    def due(offer: dict[str, Any], read: Any) -> bool:
        return True

    assert repo.settle_rematch(code, finished, due, 2) == "start"
    assert [s.name for s in repo.get_room(code).seats] == ["Ann", "Computer (easy)"]
    assert repo.settle_rematch(code, finished, due, 2) == "start"
    assert [s.name for s in repo.get_room(code).seats] == ["Ann", "Computer (easy)"]


def test_a_turn_that_fell_due_while_no_server_ran_gets_its_time_again(
    database_url: str,
) -> None:
    """Ann's 30 s turn falls due while the server is down (a minute's outage). The next
    process does not time her turn out at its first look (her time and, after two such
    turns, her seat went to the computer): the turn runs its 30 s again from the
    restart, on the game row, and every page is told the new deadline."""
    with _app(database_url) as first:
        made = first.post(
            "/api/rooms",
            json={"variant": "classic", "name": "Ann", "clock": {"kind": "turn", "seconds": 30}},
        ).json()
        code = made["code"]
        bob = join(first, code, "Bob")
        game_id = first.post(f"/api/rooms/{code}/start", headers=bearer(made["token"])).json()[
            "game_id"
        ]
    backdate(database_url, game_id, 90)  # the server was down while the turn ran out
    with _app(database_url) as second:
        service = second.app.state.service  # type: ignore[attr-defined]
        computer = second.app.state.computer  # type: ignore[attr-defined]
        assert call(second, enforce_once, service, computer) == 0
        game = second.app.state.repo.get_game(game_id)  # type: ignore[attr-defined]
        assert game.seq == 0, "the turn was not timed out"
        assert game.deadline > datetime.now(UTC), "it runs again from the restart"
        with second.websocket_connect(f"/ws/{code}") as ws:
            _, state = hello(ws, bob["token"])
            assert state["seq"] == 0
            assert datetime.fromisoformat(state["clock"]["deadline"]) == game.deadline
        assert all(s["computer"] is None for s in room(second, code)["seats"])


def test_a_fischer_turn_that_outlived_an_outage_does_not_empty_the_bank() -> None:
    """A turn stored more than `OUTAGE_SLACK` past its deadline outlived an outage (a live
    process times turns out at their deadline): its player's bank is charged nothing
    for it, where it went to the increment alone and the next turns timed out one after
    the other. A turn timed out on time is charged as before. From the log's times
    alone, so every process replaying the log agrees."""
    t0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    clock = Clock.start(ClockSettings("fischer", 60, 2), 2, t0, 0)
    clock.step(t0 + timedelta(seconds=60 + OUTAGE_SLACK + 30), None, 1)
    assert clock.remaining == [62.0, 60.0]
    late = clock.turn_started + timedelta(seconds=61)
    clock.step(late, TIMEOUT_BY, 0)  # seat 1 timed out a second late: charged
    assert clock.remaining == [62.0, 2.0]
