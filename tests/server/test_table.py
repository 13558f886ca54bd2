"""Before and after a game (app/rooms/table.py): the host, options, seats that leave or are
freed, unique names, who starts, open tables, computer seats, "play again"."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import act, hello, legal, receive_until


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def code_of(response: Any) -> str:
    return str(response.json()["error"]["code"])


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json={"variant": "classic"} | body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def join(client: TestClient, code: str, name: str, token: str | None = None) -> dict[str, Any]:
    headers = bearer(token) if token else {}
    response = client.post(f"/api/rooms/{code}/join", json={"name": name}, headers=headers)
    assert response.status_code == 201, response.text
    return dict(response.json())


def room(client: TestClient, code: str) -> dict[str, Any]:
    return dict(client.get(f"/api/rooms/{code}").json())


def call(client: TestClient, fn: Any, *args: Any) -> Any:
    assert client.portal is not None
    return client.portal.call(fn, *args)


def computer_finishes(client: TestClient, code: str, seats: tuple[int, ...]) -> None:
    """The computer plays `seats` (the people's too) until the game is over: quickly."""
    computer = client.app.state.computer  # type: ignore[attr-defined]
    for seat in seats:
        call(client, computer.control, code, seat, "medium", "takeover")
    call(client, computer.idle)
    assert room(client, code)["status"] == "finished"


def test_the_creator_is_the_host_and_sits_with_a_name(client: TestClient) -> None:
    made = create(client, name="Ann")
    assert made["seat"] == 0 and made["token"] and made["host_token"]
    assert made["host_token"] != made["token"]
    info = room(client, made["code"])
    assert info["seats"][0]["host"] is True
    assert info["host"]["seat"] == 0
    assert info["listed"] is False
    # Without a name (the public protocol's create), the host token comes back alone.
    bare = create(client)
    assert "token" not in bare and bare["host_token"]


def test_the_host_changes_options_until_the_start(client: TestClient) -> None:
    made = create(client, name="Ann")
    code, host = made["code"], made["host_token"]
    bob = join(client, code, "Bob")
    url = f"/api/rooms/{code}"
    changed = client.patch(url, json={"options": {"events": True}}, headers=bearer(host))
    assert changed.status_code == 200, changed.text
    options = changed.json()["options"]
    assert options["events"] is True and options["return_home"] is True
    assert room(client, code)["options"]["events"] is True
    refused = client.patch(url, json={"options": {"events": False}}, headers=bearer(bob["token"]))
    assert refused.status_code == 403 and code_of(refused) == "not_host"
    assert client.patch(url, json={"listed": True}).status_code == 401
    bad = client.patch(url, json={"options": {"events": "yes"}}, headers=bearer(host))
    assert bad.status_code == 422 and code_of(bad) == "bad_options"
    started = client.post(f"{url}/start", headers=bearer(made["token"]))
    assert started.status_code == 200, started.text
    late = client.patch(url, json={"options": {"events": False}}, headers=bearer(host))
    assert late.status_code == 409 and code_of(late) == "already_started"
    game = client.get(f"/api/games/{started.json()['game_id']}").json()
    assert game["options"]["events"] is True


def test_names_are_unique_in_a_room_whatever_their_case(client: TestClient) -> None:
    made = create(client, name="Ann")
    for name in ["ann", "ANN", " Ann "]:
        again = client.post(f"/api/rooms/{made['code']}/join", json={"name": name})
        assert again.status_code == 409 and code_of(again) == "name_taken", name
    assert len(room(client, made["code"])["seats"]) == 1


def test_a_player_leaves_and_later_seats_move_down(client: TestClient) -> None:
    made = create(client, name="Ann")
    code = made["code"]
    bob, cy = join(client, code, "Bob"), join(client, code, "Cy")
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": cy["token"]})
        assert receive_until(ws, "welcome")["seat"] == 2
        # Bob may not free Cy's seat; he may leave his own.
        other = client.delete(f"/api/rooms/{code}/seats/2", headers=bearer(bob["token"]))
        assert other.status_code == 403 and code_of(other) == "not_host"
        left = client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(bob["token"]))
        assert left.status_code == 200, left.text
        moved = receive_until(ws, "welcome")
        assert moved["seat"] == 1 and [s["name"] for s in moved["room"]["seats"]] == ["Ann", "Cy"]
        # The host frees Cy's seat: Cy's tab is told it has none.
        freed = client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(made["host_token"]))
        assert freed.status_code == 200, freed.text
        assert receive_until(ws, "welcome")["seat"] is None
    assert [s["name"] for s in room(client, code)["seats"]] == ["Ann"]
    gone = client.post(f"/api/rooms/{code}/start", headers=bearer(cy["token"]))
    assert gone.status_code == 401


def test_only_the_host_starts_until_away_for_the_grace(client: TestClient) -> None:
    made = create(client, name="Ann")
    code = made["code"]
    bob = join(client, code, "Bob")
    service = client.app.state.service  # type: ignore[attr-defined]
    # A grace no busy machine outlasts while Bob is refused (0.5 s did not: the two
    # requests after the tab closed took longer on a loaded PostgreSQL run), then a short
    # one to wait out.
    service.host_grace = 60.0
    start = f"/api/rooms/{code}/start"
    with client.websocket_connect(f"/ws/{code}") as ann:
        ann.send_json({"type": "hello", "token": made["token"]})
        receive_until(ann, "welcome")
        refused = client.post(start, headers=bearer(bob["token"]))
        assert refused.status_code == 403 and code_of(refused) == "not_host"
        assert room(client, code)["host"]["connected"] is True
    # Ann closed her tab: Bob waits for the grace, then may start. (The test client may
    # cut the server's close handling short; then Bob's first try starts the count.)
    assert room(client, code)["host"]["connected"] is False
    early = client.post(start, headers=bearer(bob["token"]))
    assert early.status_code == 409 and code_of(early) == "host_away"
    assert room(client, code)["host"]["away_since"]
    service.host_grace = 0.5
    time.sleep(0.6)
    assert client.post(start, headers=bearer(bob["token"])).status_code == 200


def test_open_tables_are_listed_until_they_start(client: TestClient) -> None:
    private = create(client, name="Ann")
    listed = create(client, name="Bea", listed=True, variant="cards")
    tables = client.get("/api/rooms").json()["rooms"]
    codes = [t["code"] for t in tables]
    assert listed["code"] in codes and private["code"] not in codes
    entry = next(t for t in tables if t["code"] == listed["code"])
    assert entry["variant"] == "cards" and entry["seats_free"] == 5 and entry["players"] == ["Bea"]
    join(client, listed["code"], "Cy")
    client.post(f"/api/rooms/{listed['code']}/start", headers=bearer(listed["host_token"]))
    assert listed["code"] not in [t["code"] for t in client.get("/api/rooms").json()["rooms"]]


def test_the_host_adds_and_removes_computer_seats(client: TestClient) -> None:
    made = create(client, name="Ann")
    code, host = made["code"], made["host_token"]
    url = f"/api/rooms/{code}/computers"
    added = [client.post(url, json={"level": lv}, headers=bearer(host)) for lv in ["hard", "hard"]]
    assert [a.json()["name"] for a in added] == ["Computer (hard)", "Computer 2 (hard)"]
    seats = room(client, code)["seats"]
    assert seats[1]["kind"] == "bot" and seats[1]["connected"] is True
    assert seats[1]["computer"] == {"level": "hard", "reason": "seat"}
    bob = join(client, code, "Bob")
    refused = client.post(url, json={"level": "easy"}, headers=bearer(bob["token"]))
    assert refused.status_code == 403 and code_of(refused) == "not_host"
    bad = client.post(url, json={"level": "genius"}, headers=bearer(host))
    assert bad.status_code == 422 and code_of(bad) == "bad_level"
    removed = client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(host))
    assert removed.status_code == 200
    names = [s["name"] for s in room(client, code)["seats"]]
    assert names == ["Ann", "Computer 2 (hard)", "Bob"]


def test_a_player_moved_down_a_seat_is_still_shown_here(client: TestClient) -> None:
    """Ann hosts, a computer sits in seat 1 and Bob, connected, in seat 2; the host removes
    the computer. The room message said Bob's new seat 1 was "not here" (to Bob himself
    too): presence was read from the connections' old seat numbers, before they moved."""
    made = create(client, name="Ann")
    code, host = made["code"], made["host_token"]
    client.post(f"/api/rooms/{code}/computers", json={"level": "easy"}, headers=bearer(host))
    bob = join(client, code, "Bob")
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": bob["token"]})
        assert receive_until(ws, "welcome")["seat"] == 2
        removed = client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(host))
        assert removed.status_code == 200
        welcome = receive_until(ws, "welcome")
        assert welcome["seat"] == 1
        assert welcome["room"]["seats"][1]["connected"] is True, welcome["room"]["seats"]
        after = receive_until(ws, "room")["room"]["seats"]
        assert [(s["name"], s["connected"]) for s in after][1] == ("Bob", True), after


def test_play_against_the_computer_in_one_call(client: TestClient) -> None:
    made = create(client, name="Ann", computers=["medium"], start=True)
    code, game_id = made["code"], made["game_id"]
    assert room(client, code)["status"] == "playing"
    with client.websocket_connect(f"/ws/{code}") as ws:
        _, state = hello(ws, made["token"])
        seq = state["seq"]
        for _ in range(2):  # Ann pushes and moves; the computer answers both
            act(ws, seq, random.Random(seq).choice(legal(ws)["actions"]))
            seq = receive_until(ws, "state")["seq"]
        while True:
            state = receive_until(ws, "state")
            if state["view"]["turn"]["seat"] == 0:
                break
        assert state["last"]["by"] == "computer:seat"
    entries = client.app.state.repo.actions(game_id, 0)  # type: ignore[attr-defined]
    assert [e.seat for e in entries] == [0, 0, 1, 1]


@pytest.mark.parametrize("variant", ["classic", "cards"])
def test_a_game_of_computer_players_only(client: TestClient, variant: str) -> None:
    made = create(client, variant=variant, computers=["hard", "easy"])
    started = client.post(f"/api/rooms/{made['code']}/start", headers=bearer(made["host_token"]))
    assert started.status_code == 200, started.text
    call(client, client.app.state.computer.idle)  # type: ignore[attr-defined]
    game_id = started.json()["game_id"]
    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "finished" and game["players"] == [
        "Computer (hard)",
        "Computer (easy)",
    ]
    assert client.post(f"/api/games/{game_id}/verify").json()["ok"]


def test_play_again_frees_the_seat_that_does_not_accept(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client.app.state.service, "rematch_seconds", 0.3)  # type: ignore[attr-defined]
    made = create(client, name="Ann", computers=["easy"])
    code = made["code"]
    bob = join(client, code, "Bob")
    first = client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"])).json()
    computer_finishes(client, code, (0, 2))  # Ann and Bob too
    with client.websocket_connect(f"/ws/{code}") as spectator:
        hello(spectator, None)
        again = client.post(f"/api/rooms/{code}/rematch", headers=bearer(made["token"]))
        assert again.status_code == 200, again.text
        offer = again.json()["rematch"]
        assert offer["game"] == first["game_id"] and offer["accepted"] == [0, 1]
        refused = client.post(f"/api/rooms/{code}/rematch", headers=bearer("nobody"))
        assert refused.status_code == 401
        # Bob never accepts: after the time, his seat is freed and the next game starts.
        state = receive_until(spectator, "state", limit=200)
        while state["seq"] != 0:
            state = receive_until(spectator, "state", limit=200)
        assert [p["name"] for p in state["view"]["players"]] == ["Ann", "Computer (easy)"]
    info = room(client, code)
    assert info["status"] == "playing" and info["game_id"] != first["game_id"]
    assert info["rematch"] is None and info["seats"][0]["computer"] is None
    old = client.get(f"/api/games/{first['game_id']}").json()
    new = client.get(f"/api/games/{info['game_id']}").json()
    assert new["seed_hash"] != old["seed_hash"]
    freed = client.post(f"/api/rooms/{code}/rematch", headers=bearer(bob["token"]))
    assert freed.status_code == 401, "Bob's seat was freed"


def test_play_again_starts_at_once_when_everyone_accepts(client: TestClient) -> None:
    made = create(client, name="Ann")
    code = made["code"]
    bob = join(client, code, "Bob")
    first = client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"])).json()
    early = client.post(f"/api/rooms/{code}/rematch", headers=bearer(bob["token"]))
    assert early.status_code == 409 and code_of(early) == "not_finished"
    computer_finishes(client, code, (0, 1))
    client.post(f"/api/rooms/{code}/rematch", headers=bearer(bob["token"]))
    assert room(client, code)["rematch"]["accepted"] == [1]
    client.post(f"/api/rooms/{code}/rematch", headers=bearer(made["token"]))
    info = room(client, code)
    assert info["status"] == "playing" and info["game_id"] != first["game_id"]
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"]


def test_a_player_who_left_does_not_hold_up_play_again(client: TestClient) -> None:
    """Whoever left the game for good cannot answer "play again" (their key is spent):
    once everyone else has accepted, the next game starts at once without their seat."""
    made = create(client, name="Ann")
    code = made["code"]
    bob, cy = join(client, code, "Bob"), join(client, code, "Cy")
    first = client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"])).json()
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, cy["token"])
        ws.send_json({"type": "leave"})
        receive_until(ws, "seat_moved")
    computer_finishes(client, code, (0, 1))
    for token in (made["token"], bob["token"]):
        again = client.post(f"/api/rooms/{code}/rematch", headers=bearer(token))
        assert again.status_code == 200, again.text
        if token == made["token"]:  # the offer waits for Ann and Bob, not for Cy
            assert room(client, code)["rematch"]["asked"] == [0, 1]
    info = room(client, code)
    assert info["status"] == "playing" and info["game_id"] != first["game_id"]
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"]


def test_a_room_opened_again_shows_no_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too few accepted "play again": the room is a lobby again, and a page that says
    hello there is sent no state of the game that was before."""
    monkeypatch.setattr(client.app.state.service, "rematch_seconds", 0.3)  # type: ignore[attr-defined]
    made = create(client, name="Ann")
    code = made["code"]
    join(client, code, "Bob")
    client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"]))
    computer_finishes(client, code, (0, 1))
    with client.websocket_connect(f"/ws/{code}") as spectator:
        hello(spectator, None)
        client.post(f"/api/rooms/{code}/rematch", headers=bearer(made["token"]))
        for _ in range(20):
            if receive_until(spectator, "room")["room"]["status"] == "lobby":
                break
        else:
            raise AssertionError("the room did not open again")
        # (the spectator stays: the room, and what it held of the game, stay in memory)
        with client.websocket_connect(f"/ws/{code}") as ann:
            ann.send_json({"type": "hello", "token": made["token"]})
            welcome = receive_until(ann, "welcome")
            assert welcome["seat"] == 0 and welcome["room"]["status"] == "lobby"
            ann.send_json({"type": "ping"})
            kinds: list[str] = []
            while not kinds or kinds[-1] != "pong":
                kinds.append(ann.receive_json()["type"])
            assert "state" not in kinds, kinds


def test_after_a_game_a_seat_is_freed_only_by_saying_no_to_play_again(
    client: TestClient,
) -> None:
    """With no offer open, freeing the seats of a finished game emptied the room for good:
    still "finished", nobody could join, start or ask to play again."""
    made = create(client, name="Ann")
    code = made["code"]
    bob = join(client, code, "Bob")
    client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"]))
    computer_finishes(client, code, (0, 1))
    for token, seat in ((bob["token"], 1), (made["host_token"], 0)):
        refused = client.delete(f"/api/rooms/{code}/seats/{seat}", headers=bearer(token))
        assert refused.status_code == 409 and code_of(refused) == "no_rematch", refused.text
    assert [s["name"] for s in room(client, code)["seats"]] == ["Ann", "Bob"]
    # With the offer open, "No thanks" frees the seat; the last one out opens the room.
    client.post(f"/api/rooms/{code}/rematch", headers=bearer(made["token"]))
    for token, seat in ((bob["token"], 1), (made["token"], 0)):
        freed = client.delete(f"/api/rooms/{code}/seats/{seat}", headers=bearer(token))
        assert freed.status_code == 200, freed.text
    info = room(client, code)
    assert info["status"] == "lobby" and info["seats"] == []
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Cy"}).status_code == 201


def test_an_offer_settled_at_once_is_not_shown_as_waiting(client: TestClient) -> None:
    """Bob left the game: Ann's "play again" is settled as she asks (nobody else can
    answer). The room went out first with the offer ("1 of 1 ready, 60 s left"), then
    opened again; now only the settled room goes out."""
    made = create(client, name="Ann")
    code = made["code"]
    bob = join(client, code, "Bob")
    client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"]))
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, bob["token"])
        ws.send_json({"type": "leave"})
        receive_until(ws, "seat_moved")
    computer_finishes(client, code, (0,))
    with client.websocket_connect(f"/ws/{code}") as spectator:
        hello(spectator, None)
        # The spectator's arrival is told in a room message, up to a second later (the
        # presence news is coalesced): taken first, or it could go out while the offer
        # was being settled and show it (a loaded PostgreSQL run).
        assert receive_until(spectator, "room")["room"]["rematch"] is None
        again = client.post(f"/api/rooms/{code}/rematch", headers=bearer(made["token"]))
        assert again.status_code == 200, again.text
        rooms = [receive_until(spectator, "room")["room"]]
        while rooms[-1]["status"] != "lobby":
            rooms.append(receive_until(spectator, "room")["room"])
    assert [r["rematch"] for r in rooms] == [None] * len(rooms), rooms
    assert [s["name"] for s in room(client, code)["seats"]] == ["Ann"]


def test_without_a_seated_host_any_seated_player_starts(client: TestClient) -> None:
    """A room made by a client of the public protocol (no host token used to sit) keeps
    the contract's rule: any seated player may start."""
    made = create(client)
    ann, bob = join(client, made["code"], "Ann"), join(client, made["code"], "Bob")
    assert room(client, made["code"])["host"]["seat"] is None
    started = client.post(f"/api/rooms/{made['code']}/start", headers=bearer(bob["token"]))
    assert started.status_code == 200, started.text
    assert ann["seat"] == 0


def test_a_room_says_the_colours_its_game_deals(client: TestClient) -> None:
    """A waiting room shows each seat in the colour the game will give it: the server
    says, by the rules version it stamps (clockwise round the board since version 2)."""
    code = client.post("/api/rooms", json={"variant": "classic"}).json()["code"]
    assert client.get(f"/api/rooms/{code}").json()["colors"] == ["red", "yellow", "blue", "green"]
    old = {"variant": "master", "options": {"rules_version": 1}}
    code = client.post("/api/rooms", json=old).json()["code"]
    assert client.get(f"/api/rooms/{code}").json()["colors"] == ["red", "yellow", "green", "blue"]
    code = client.post("/api/rooms", json={"variant": "cards"}).json()["code"]
    colors = client.get(f"/api/rooms/{code}").json()["colors"]
    assert colors == ["red", "yellow", "green", "blue", "purple", "orange"]
    # and the game, once dealt, gives the seats those colours
    body = {"variant": "team", "name": "Ann", "computers": ["easy"], "start": True}
    room = client.post("/api/rooms", json=body)
    made = room.json()
    info = client.get(f"/api/rooms/{made['code']}").json()
    view = client.get(f"/api/rooms/{made['code']}/view").json()["view"]
    assert [p["color"] for p in view["players"]] == info["colors"][: len(view["players"])]
