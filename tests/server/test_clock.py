"""Turn timers: the clock replayed from the log, timeouts played by the computer and
stored in the log, two enforcers racing for one timeout, two timeouts making a seat away."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.records import verify
from app.replays import record_of
from app.rooms.clock import TIMEOUT_BY, Clock, ClockError, ClockSettings, parse_clock
from app.rooms.computer import ComputerPlayers
from app.rooms.hub import LocalHub
from app.rooms.service import RoomService
from app.rooms.timeouts import enforce
from app.store import migrate, models
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import Repository
from tests.server.helpers import hello, push_deadline_back, receive_until, start, stored_actions

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def test_clock_settings_are_checked() -> None:
    assert parse_clock(None) is None
    assert parse_clock({"kind": "none"}) is None
    assert parse_clock({"kind": "turn", "seconds": 60}) == ClockSettings("turn", 60)
    fischer = parse_clock({"kind": "fischer", "seconds": 600, "increment": 10})
    assert fischer == ClockSettings("fischer", 600, 10)
    for bad in (
        {"kind": "turn", "seconds": 45},
        {"kind": "turn", "seconds": True},
        {"kind": "fischer", "seconds": 600},
        {"kind": "fischer", "seconds": 10, "increment": 10},
        {"kind": "fischer", "seconds": 600, "increment": 0},
        {"kind": "sand"},
        {"kind": "turn", "seconds": 60, "extra": 1},
        [],
    ):
        with pytest.raises(ClockError):
            parse_clock(bad)


def test_a_per_turn_limit_restarts_when_the_turn_passes() -> None:
    clock = Clock.start(ClockSettings("turn", 30), 2, T0, 0)
    assert clock.deadline == T0 + timedelta(seconds=30)
    clock.step(T0 + timedelta(seconds=10), None, 0)  # the push: the same turn goes on
    assert clock.deadline == T0 + timedelta(seconds=30)
    clock.step(T0 + timedelta(seconds=20), None, 1)  # the move: seat 1's turn
    assert clock.mover == 1
    assert clock.deadline == T0 + timedelta(seconds=50)
    clock.step(T0 + timedelta(seconds=25), None, None)  # finished
    assert clock.deadline is None


def test_a_fischer_clock_spends_and_adds_time() -> None:
    clock = Clock.start(ClockSettings("fischer", 600, 10), 2, T0, 0)
    clock.step(T0 + timedelta(seconds=100), None, 1)
    assert clock.remaining == [510.0, 600.0]
    assert clock.deadline == T0 + timedelta(seconds=700)
    clock.step(T0 + timedelta(seconds=130), None, 0)
    assert clock.remaining == [510.0, 580.0]
    assert clock.deadline == T0 + timedelta(seconds=640)
    wire = clock.wire()
    assert wire["kind"] == "fischer" and wire["seat"] == 0 and wire["remaining"] == [510, 580]


def test_timed_out_turns_in_a_row_are_counted() -> None:
    clock = Clock.start(ClockSettings("turn", 30), 2, T0, 0)
    clock.step(T0 + timedelta(seconds=31), TIMEOUT_BY, 0)
    clock.step(T0 + timedelta(seconds=31), TIMEOUT_BY, 1)
    assert clock.streak == [1, 0]
    clock.step(T0 + timedelta(seconds=40), None, 0)
    clock.step(T0 + timedelta(seconds=71), TIMEOUT_BY, 1)
    assert clock.streak == [2, 0]
    clock.step(T0 + timedelta(seconds=80), None, 0)
    clock.step(T0 + timedelta(seconds=90), None, 1)
    assert clock.streak == [0, 0]


def clock_room(client: TestClient, clock: dict[str, Any] | None, names: list[str]) -> tuple:
    response = client.post("/api/rooms", json={"variant": "classic", "clock": clock})
    assert response.status_code == 201, response.text
    body = response.json()
    tokens = [
        client.post(f"/api/rooms/{body['code']}/join", json={"name": n}).json()["token"]
        for n in names
    ]
    return body, tokens


def backdate(database_url: str, game_id: str, seconds: float) -> None:
    """Move the game's start (and so its clock) `seconds` into the past."""
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine)() as s, s.begin():
            row = s.get(models.Game, game_id)
            assert row is not None
            row.started_at = datetime.now(UTC) - timedelta(seconds=seconds)
            row.deadline = row.started_at + timedelta(seconds=row.clock["seconds"])
    finally:
        engine.dispose()


def test_bad_clock_is_refused(client: TestClient) -> None:
    response = client.post(
        "/api/rooms", json={"variant": "classic", "clock": {"kind": "turn", "seconds": 7}}
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "bad_clock"


def test_the_clock_is_shown_to_everyone(client: TestClient) -> None:
    body, tokens = clock_room(client, {"kind": "turn", "seconds": 60}, ["Ann", "Bob"])
    assert body["clock"] == {"kind": "turn", "seconds": 60}
    code = body["code"]
    assert client.get(f"/api/rooms/{code}").json()["clock"] == {"kind": "turn", "seconds": 60}
    game_id = start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        welcome, state = hello(ws, None)
        assert isinstance(welcome["now"], int)
        clock = state["clock"]
        assert clock["kind"] == "turn" and clock["seat"] == 0
        started = datetime.fromisoformat(clock["turn_started"])
        assert datetime.fromisoformat(clock["deadline"]) - started == timedelta(seconds=60)
    game = client.get(f"/api/games/{game_id}").json()
    assert game["clock"] == {"kind": "turn", "seconds": 60}


def test_a_timeout_is_a_computer_turn_in_the_log(client: TestClient, database_url: str) -> None:
    body, tokens = clock_room(client, {"kind": "turn", "seconds": 30}, ["Ann", "Bob"])
    code = body["code"]
    game_id = start(client, code, tokens[0])
    client.app.state.service.rooms.pop(code, None)  # reload the game as a restart would
    backdate(database_url, game_id, 31)
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, tokens[1])
        # The enforcer (once a second) plays Ann's push and move for her.
        state = receive_until(ws, "state")
        assert state["last"]["seat"] == 0 and state["last"]["by"] == TIMEOUT_BY
        while state["view"]["turn"]["seat"] == 0:
            state = receive_until(ws, "state")
        assert state["last"]["by"] == TIMEOUT_BY
        assert state["clock"]["seat"] == 1 and state["clock"]["timeouts"] == [1, 0]
        seq = state["seq"]
    assert stored_actions(database_url, game_id) == [(n, 0, TIMEOUT_BY) for n in range(1, seq + 1)]
    # Bob's turn has a fresh deadline: nothing more happens for him.
    game = client.get(f"/api/games/{game_id}").json()
    assert game["seq"] == seq


def test_two_timeouts_in_a_row_make_the_seat_away_until_it_is_back(
    client: TestClient, database_url: str
) -> None:
    body, tokens = clock_room(client, {"kind": "turn", "seconds": 30}, ["Ann", "Bob"])
    code = body["code"]
    game_id = start(client, code, tokens[0])
    for _ in range(4):  # Ann, Bob, Ann, Bob time out
        _time_out_turn(client, database_url, game_id)

    def controls() -> list[str | None]:
        seats = client.get(f"/api/rooms/{code}").json()["seats"]
        return [(s["computer"] or {}).get("reason") for s in seats]

    _wait_until(lambda: controls() == ["away", "away"])
    # The computer plays away seats at once, without waiting for a deadline.
    game = client.app.state.repo.get_game(game_id)
    _wait_until(lambda: client.app.state.repo.get_game(game_id).seq > game.seq)
    assert {c for _, _, c in stored_actions(database_url, game_id)} == {
        TIMEOUT_BY,
        "computer:away",
    }
    # Ann comes back: her seat is hers at once.
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, tokens[0])
        room = receive_until(ws, "room")
        while room["room"]["seats"][0]["computer"] is not None:
            room = receive_until(ws, "room")
    assert client.get(f"/api/rooms/{code}").json()["seats"][0]["computer"] is None


def _time_out_turn(client: TestClient, database_url: str, game_id: str) -> None:
    """Let the current turn's deadline pass; return once the enforcer played the turn."""
    repo: Repository = client.app.state.repo
    before = repo.get_game(game_id)
    assert before is not None
    push_deadline_back(database_url, game_id)

    def turn_over() -> bool:
        game = repo.get_game(game_id)
        assert game is not None
        if game.seq <= before.seq:
            return False
        return game.status == "finished" or (
            game.deadline is not None and game.deadline > datetime.now(UTC)
        )

    _wait_until(turn_over)


def _wait_until(check: Any, timeout: float = 15) -> None:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def test_two_enforcers_racing_store_one_timeout(client: TestClient, database_url: str) -> None:
    """Two services on one database (as two processes are) enforce the same deadline at
    the same moment: the log holds one timed-out turn, each seq once."""
    body, tokens = clock_room(client, {"kind": "turn", "seconds": 30}, ["Ann", "Bob"])
    code = body["code"]
    game_id = start(client, code, tokens[0])
    backdate(database_url, game_id, 31)
    migrate.upgrade(database_url)

    async def race() -> list[int]:
        engines = [make_engine(database_url) for _ in range(2)]
        services = [RoomService(Repository(make_sessionmaker(e)), LocalHub()) for e in engines]
        computers = [ComputerPlayers(service, pause=0, sweep_every=0) for service in services]
        try:
            for service in services:
                await service.start()
            return list(
                await asyncio.gather(
                    *(
                        enforce(service, computer, code, game_id, 0)
                        for service, computer in zip(services, computers, strict=True)
                    )
                )
            )
        finally:
            for computer in computers:
                await computer.stop()
            for service in services:
                await service.stop()
            for engine in engines:
                engine.dispose()

    played = asyncio.run(race())
    actions = stored_actions(database_url, game_id)
    assert sum(played) == len(actions) >= 2, played
    assert all(seat == 0 and by == TIMEOUT_BY for _, seat, by in actions)
    # Exactly one turn: after it, Bob is to move and the deadline is his, in the future.
    game = client.get(f"/api/games/{game_id}").json()
    assert game["seq"] == len(actions)
    repo = client.app.state.repo
    assert repo.overdue_games(datetime.now(UTC)) == []


def test_timeouts_replay_and_verify(client: TestClient, database_url: str) -> None:
    """Every turn times out until the seats are away; the computer then finishes the game
    by itself, and the record verifies."""
    body, tokens = clock_room(client, {"kind": "turn", "seconds": 30}, ["Ann", "Bob"])
    code = body["code"]
    game_id = start(client, code, tokens[0])
    repo: Repository = client.app.state.repo
    for _ in range(4):
        _time_out_turn(client, database_url, game_id)
    _wait_until(lambda: (repo.get_game(game_id) or body).status == "finished", timeout=120)
    game = repo.get_game(game_id)
    assert game is not None and game.status == "finished"
    outcome = verify(record_of(game, repo.actions(game_id)), game.seed_hash, game.seq, game.result)
    assert outcome.ok
    replay = client.get(f"/api/games/{game_id}/replay")
    assert replay.status_code == 200 and len(replay.json()["moves"]) == game.seq
