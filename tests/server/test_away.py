"""Seats during a game: moved to another device by link, away seats taken over by the
computer and reclaimed, leaving for good, adjourned games."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.config import Settings
from app.main import create_app
from app.store import models
from app.store.db import make_engine, make_sessionmaker
from tests.server.helpers import act, hello, legal, make_room, receive_until, start


@pytest.fixture
def quick_client(database_url: str) -> Any:
    """Away after 0.3 s, so that a test need not wait a minute."""
    app = create_app(Settings(database_url=database_url, replay_processes=0, away_after=0.3))
    with TestClient(app) as test_client:
        yield test_client


def until_room(ws: Any, check: Any, limit: int = 40) -> dict[str, Any]:
    for _ in range(limit):
        message = receive_until(ws, "room")["room"]
        if check(message):
            return message
    raise AssertionError("no room message matched")


# -- seat on any device --------------------------------------------------------------------


def test_a_device_link_moves_the_seat_and_tells_the_old_tab(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as old:
        welcome, _ = hello(old, tokens[0])
        assert welcome["seat"] == 0
        link = client.post(
            f"/api/rooms/{code}/device-link", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert link.status_code == 200
        assert link.headers["cache-control"] == "no-store"
        body = link.json()
        assert body["seat"] == 0
        path, _, fragment = body["url"].partition("#")
        assert path.endswith(f"/r/{code}") and fragment.startswith("transfer=")
        transfer = fragment.removeprefix("transfer=")
        assert transfer not in path
        assert body["qr_svg"].startswith("<svg") and "<path" in body["qr_svg"]
        claimed = client.post(f"/api/rooms/{code}/claim", json={"transfer": transfer})
        assert claimed.status_code == 201
        new_token = claimed.json()["token"]
        assert claimed.json()["seat"] == 0 and new_token != tokens[0]
        moved = receive_until(old, "seat_moved")
        assert moved == {"type": "seat_moved", "seat": 0, "why": "device"}
        spectator_state = receive_until(old, "state")
        assert spectator_state["view"]["you"] is None
        old.send_json({"type": "legal", "id": "x"})
        assert receive_until(old, "legal")["actions"] == []
    # The link works once; the older token no longer opens the seat; the new one does.
    again = client.post(f"/api/rooms/{code}/claim", json={"transfer": transfer})
    assert again.status_code == 404 and again.json()["error"]["code"] == "bad_transfer"
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert receive_until(ws, "error", limit=5)["code"] == "unauthorized"
    with client.websocket_connect(f"/ws/{code}") as ws:
        welcome, state = hello(ws, new_token)
        assert welcome["seat"] == 0 and state["view"]["you"] == 0


def test_the_host_s_seat_takes_the_host_s_key_to_the_other_device(client: TestClient) -> None:
    """A host who went on on their phone was only a player there: the host's key stayed on
    the laptop, so the phone could not set the options, seat a computer or free a seat,
    and the laptop, now a spectator's, still could. The claim of the host's seat gives
    the phone a new host key, and the laptop's stops working; a guest's claim gives none."""
    made = client.post("/api/rooms", json={"variant": "classic", "name": "Ann"}).json()
    code, host_key = made["code"], made["host_token"]
    guest = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()["token"]

    def claim(token: str) -> dict[str, Any]:
        auth = {"Authorization": f"Bearer {token}"}
        link = client.post(f"/api/rooms/{code}/device-link", headers=auth).json()
        transfer = link["url"].partition("#transfer=")[2]
        claimed = client.post(f"/api/rooms/{code}/claim", json={"transfer": transfer})
        assert claimed.status_code == 201, claimed.text
        return dict(claimed.json())

    def options(key: str) -> int:
        body = {"options": {"events": True}}
        auth = {"Authorization": f"Bearer {key}"}
        return client.patch(f"/api/rooms/{code}", json=body, headers=auth).status_code

    assert "host_token" not in claim(guest)
    assert options(host_key) == 200
    moved = claim(made["token"])
    assert moved["seat"] == 0 and moved["host_token"] not in (host_key, moved["token"])
    assert options(host_key) == 401  # the laptop's key stopped working
    assert options(moved["host_token"]) == 200
    computer = client.post(
        f"/api/rooms/{code}/computers",
        json={"level": "easy"},
        headers={"Authorization": f"Bearer {moved['host_token']}"},
    )
    assert computer.status_code == 201, computer.text
    # the phone's seat is still the host's: its token starts the game
    start(client, code, moved["token"])


def test_a_device_link_needs_the_seat_token(client: TestClient) -> None:
    code, _tokens = make_room(client, ["Ann", "Bob"])
    missing = client.post(f"/api/rooms/{code}/device-link")
    assert missing.status_code == 401
    wrong = client.post(f"/api/rooms/{code}/device-link", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    bad = client.post(f"/api/rooms/{code}/claim", json={"transfer": "guess"})
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "bad_transfer"


def test_an_expired_device_link_does_not_work(client: TestClient, database_url: str) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    link = client.post(
        f"/api/rooms/{code}/device-link", headers={"Authorization": f"Bearer {tokens[1]}"}
    ).json()
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine)() as s, s.begin():
            s.execute(
                update(models.Seat)
                .where(models.Seat.room_code == code)
                .values(transfer_expires=datetime.now(UTC) - timedelta(seconds=1))
            )
    finally:
        engine.dispose()
    transfer = link["url"].partition("#transfer=")[2]
    claimed = client.post(f"/api/rooms/{code}/claim", json={"transfer": transfer})
    assert claimed.status_code == 404


# -- away seats, takeover, reclaim ------------------------------------------------------------


def test_an_away_seat_is_taken_over_and_reclaimed(quick_client: TestClient) -> None:
    client = quick_client
    code, tokens = make_room(client, ["Ann", "Chloé"])
    game_id = start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ann:
        hello(ann, tokens[0])
        # Chloé never connects: after `away_after` she shows as away.
        room = until_room(ann, lambda r: r["seats"][1]["away"])
        assert room["seats"][1]["connected"] is False and room["seats"][1]["computer"] is None
        # Ann plays her turn; then it is Chloé's.
        seq = 0
        while True:
            ann.send_json({"type": "legal", "id": "l"})
            actions = receive_until(ann, "legal")["actions"]
            ann.send_json({"type": "action", "id": "a", "seq": seq, "action": actions[0]})
            state = receive_until(ann, "state")
            seq = state["seq"]
            if state["view"]["turn"]["seat"] == 1:
                break
        # A spectator may not take over; Ann may not take over herself.
        ann.send_json({"type": "takeover", "seat": 0})
        assert receive_until(ann, "error")["code"] == "illegal"
        ann.send_json({"type": "takeover", "seat": 1})
        state = receive_until(ann, "state")
        assert state["last"]["seat"] == 1 and state["last"]["by"] == "computer:away"
        while state["view"]["turn"]["seat"] == 1:
            state = receive_until(ann, "state")
        seats = client.get(f"/api/rooms/{code}").json()["seats"]
        assert seats[1]["computer"] == {"level": "easy", "reason": "away"}
        # Chloé comes back: the seat is hers at once, and she plays her next turn.
        with client.websocket_connect(f"/ws/{code}") as chloe:
            welcome, _ = hello(chloe, tokens[1])
            assert welcome["seat"] == 1
            # given back before she is greeted: her welcome shows the seat hers (it showed
            # the computer there, and a computer move could land after her state)
            assert welcome["room"]["seats"][1]["computer"] is None
            until_room(ann, lambda r: r["seats"][1]["computer"] is None)
    history = client.get(f"/api/games/{game_id}").json()
    assert history["left"] == []


def test_a_player_who_plays_is_back_from_the_computer(client: TestClient) -> None:
    """A person whose seat the computer plays after timed-out turns, and who makes a move
    on their turn (their page still offers it), has their seat back: the move is theirs,
    and the computer does not finish the turn they began."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{code}") as ann:
        hello(ann, tokens[0])
        assert client.portal is not None
        client.portal.call(service.set_computer, code, 0, "easy", "away")
        until_room(ann, lambda r: r["seats"][0]["computer"] is not None)
        push = legal(ann)["actions"][0]
        act(ann, 0, push)
        state = receive_until(ann, "state")
        assert state["seq"] == 1 and state["last"]["by"] is None
        # given back before the move was stored (its room news came before this state)
        assert client.get(f"/api/rooms/{code}").json()["seats"][0]["computer"] is None
        move = legal(ann)["actions"][0]
        act(ann, 1, move)
        assert receive_until(ann, "state")["last"]["by"] is None  # her own move, not the computer's
    assert client.get(f"/api/rooms/{code}").json()["seats"][0]["computer"] is None


def test_takeover_needs_an_away_player(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ann:
        hello(ann, tokens[0])
        ann.send_json({"type": "takeover", "seat": 1})
        assert receive_until(ann, "error")["code"] == "not_away"
        ann.send_json({"type": "takeover", "seat": "1"})
        assert receive_until(ann, "error")["code"] == "bad_message"
    with client.websocket_connect(f"/ws/{code}") as spy:
        hello(spy, None)
        spy.send_json({"type": "takeover", "seat": 1})
        assert receive_until(spy, "error")["code"] == "spectator"


# -- leaving for good ----------------------------------------------------------------------------


def test_a_player_who_leaves_is_replaced_by_the_computer_for_good(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    with (
        client.websocket_connect(f"/ws/{code}") as bob,
        client.websocket_connect(f"/ws/{code}") as ann,
    ):
        hello(bob, tokens[1])
        hello(ann, tokens[0])
        ann.send_json({"type": "leave"})
        assert receive_until(ann, "seat_moved") == {"type": "seat_moved", "seat": 0, "why": "left"}
        # It was Ann's turn: the computer plays it, marked as hers left.
        state = receive_until(bob, "state")
        assert state["last"]["seat"] == 0 and state["last"]["by"] == "computer:left"
        while state["view"]["turn"]["seat"] == 0:
            state = receive_until(bob, "state")
        room = client.get(f"/api/rooms/{code}").json()
        assert room["seats"][0]["computer"] == {"level": "easy", "reason": "left"}
    # Her token is gone; leaving cannot be undone by coming back.
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert receive_until(ws, "error", limit=5)["code"] == "unauthorized"
    assert client.get(f"/api/games/{game_id}").json()["left"] == [0]


def test_leaving_needs_a_running_game(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ann:
        hello_message = {"type": "hello", "token": tokens[0]}
        ann.send_json(hello_message)
        receive_until(ann, "welcome")
        ann.send_json({"type": "leave"})
        assert receive_until(ann, "error")["code"] == "illegal"


# -- adjourned games -------------------------------------------------------------------------------


def test_a_game_nobody_is_in_is_adjourned(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'adjourn.sqlite3'}"
    app = create_app(Settings(database_url=url, replay_processes=0, adjourn_after=1.0))
    with TestClient(app) as client:
        code, tokens = make_room(client, ["Ann", "Bob"])
        game_id = start(client, code, tokens[0])
        live = client.get("/api/games", params={"status": "live"}).json()
        assert [g["id"] for g in live["games"]] == [game_id]
        assert live["games"][0]["adjourned"] is False
        time.sleep(1.2)
        assert client.get("/api/games", params={"status": "playing"}).json()["games"] == []
        # the contract's `live` lists every game whose status is live, adjourned or not
        live = client.get("/api/games", params={"status": "live"}).json()
        assert [(g["id"], g["status"], g["adjourned"]) for g in live["games"]] == [
            (game_id, "live", True)
        ]
        adjourned = client.get("/api/games", params={"status": "adjourned"}).json()
        assert [g["id"] for g in adjourned["games"]] == [game_id] and adjourned["total"] == 1
        assert adjourned["games"][0]["adjourned"] is True
        assert client.get(f"/api/games/{game_id}").json()["adjourned"] is True
        # Resumable from its link: a player comes back, and it is live again. The stamp is
        # written after the hello's answer (it never delays a state), so it is waited for.
        with client.websocket_connect(f"/ws/{code}") as ws:
            hello(ws, tokens[0])
            deadline = time.monotonic() + 5.0
            while True:
                live = client.get("/api/games", params={"status": "playing"}).json()
                if live["games"] or time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            assert [g["id"] for g in live["games"]] == [game_id]


def test_in_the_team_edition_a_leaver_hands_the_seat_to_the_computer(client: TestClient) -> None:
    """The cooperative game goes on for the others: the seat is played by the computer, and
    the game records who left, as in the competitive games."""
    response = client.post("/api/rooms", json={"variant": "team", "options": {}})
    assert response.status_code == 201, response.text
    code = response.json()["code"]
    tokens = [
        client.post(f"/api/rooms/{code}/join", json={"name": name}).json()["token"]
        for name in ("Ann", "Bob")
    ]
    game_id = start(client, code, tokens[0])
    with (
        client.websocket_connect(f"/ws/{code}") as bob,
        client.websocket_connect(f"/ws/{code}") as ann,
    ):
        _, first = hello(bob, tokens[1])
        assert first["view"]["turn"]["seat"] == 0
        hello(ann, tokens[0])
        ann.send_json({"type": "leave"})
        assert receive_until(ann, "seat_moved")["why"] == "left"
        state = receive_until(bob, "state")
        assert state["last"]["seat"] == 0 and state["last"]["by"] == "computer:left"
        # The computer plays Ann's whole turn, then Bob is to move.
        while state["view"]["turn"]["seat"] == 0 and state["view"]["status"] == "playing":
            state = receive_until(bob, "state")
            if state["last"]["seat"] == 0:
                assert state["last"]["by"] == "computer:left"
        assert state["view"]["turn"]["seat"] == 1
        room = client.get(f"/api/rooms/{code}").json()
        assert room["seats"][0]["computer"] == {"level": "easy", "reason": "left"}
    assert client.get(f"/api/games/{game_id}").json()["left"] == [0]


def test_a_leave_is_whole_or_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's key, the game's leavers and the computer's hand on the seat change in
    one write: a process that dies as soon as the leave is written (here: its first
    news fails) leaves no seat whose key is gone but that nobody plays."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    service = client.app.state.service  # type: ignore[attr-defined]
    publish = service.hub.publish

    async def dies_at_the_news(message: dict[str, Any]) -> None:
        if message.get("kind") == "seat_moved":
            raise RuntimeError("the process died here")
        await publish(message)

    with client.websocket_connect(f"/ws/{code}") as ann:
        hello(ann, tokens[0])
        monkeypatch.setattr(service.hub, "publish", dies_at_the_news)
        ann.send_json({"type": "leave"})
        assert receive_until(ann, "error")["code"] == "internal"
    monkeypatch.setattr(service.hub, "publish", publish)
    repo = client.app.state.repo  # type: ignore[attr-defined]
    seat = repo.get_room(code).seats[0]
    assert (seat.level, seat.reason) == ("easy", "left")  # the computer's: its sweep plays it
    assert repo.get_game(game_id).left == [0]


def test_a_player_gone_while_the_room_was_empty_is_away_at_once(quick_client: TestClient) -> None:
    """Both players closed their pages (the room left the server's memory); one comes
    back after `away_after`: the other is away at once, not "reconnecting" for another
    `away_after`, and the takeover is offered at once."""
    client = quick_client
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ann:
        hello(ann, tokens[0])
        with client.websocket_connect(f"/ws/{code}") as bob:
            hello(bob, tokens[1])
    time.sleep(0.5)  # longer than away_after, with nobody connected
    # the room as a look from outside finds it (no connection: read, not kept warm)
    seats = client.get(f"/api/rooms/{code}").json()["seats"]
    assert [s["connected"] for s in seats] == [False, False]
    with client.websocket_connect(f"/ws/{code}") as ann:
        welcome, _ = hello(ann, tokens[0])
        assert welcome["room"]["seats"][1]["away"] is True, welcome["room"]["seats"]
        assert welcome["room"]["seats"][0]["away"] is False
