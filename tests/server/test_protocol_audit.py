"""Findings of the second protocol audit: each test reproduces one (it fails on the code
before its fix) and checks what docs/protocol.md now says. Bad input of any kind gets an
error with a stable code, the socket stays open where the protocol says so, and the game
is untouched."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.rooms.ratelimit import PerMinute
from app.rules.cards import COORD_LIMIT
from app.text import TextError, clean_chat, clean_name
from tests.server.helpers import greedy_record, hello, make_room, receive_until, start

RECORD = greedy_record(players=2, seed="hostile", max_actions=80)
MAX_SAFE = 2**53 - 1


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_of(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def next_error(ws: Any) -> dict[str, Any]:
    """The next `error` frame; room updates are skipped, any other answer fails (a
    refusal that did not come must not leave the test waiting for ever)."""
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return message
        assert message["type"] == "room", f"expected an error, got {message}"


def still_open(ws: Any) -> None:
    ws.send_json({"type": "ping"})
    while (message := ws.receive_json())["type"] != "pong":
        assert message["type"] != "error", message


# -- item 1: an `id` is a string or a JS-safe integer; nothing else reaches `dumps` -------


@pytest.mark.parametrize("ref", [2**64, -(2**63) - 1, MAX_SAFE + 1, -MAX_SAFE - 1, 2**63 - 1])
@pytest.mark.parametrize("kind", ["legal", "hello", "action", "chat"])
def test_an_id_beyond_safe_integers_is_bad_message_and_the_socket_stays(
    client: TestClient, kind: str, ref: int
) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    frames = {
        "legal": {"type": "legal", "id": ref},
        "hello": {"type": "hello", "token": tokens[0], "id": ref},
        "action": {"type": "action", "id": ref, "seq": 0, "action": {"type": "fly"}},
        "chat": {"type": "chat", "text": "hi", "id": ref},
    }
    with client.websocket_connect(f"/ws/{code}") as ws:
        if kind != "hello":
            hello(ws, tokens[0])
        ws.send_text(json.dumps(frames[kind]))
        refused = next_error(ws)
        assert (refused["code"], refused["ref"]) == ("bad_message", None), refused
        assert "id is a string" in refused["message"]
        still_open(ws)
        if kind == "hello":
            hello(ws, tokens[0])
        # the largest safe integers are echoed as they came
        for safe in (MAX_SAFE, -MAX_SAFE):
            ws.send_json({"type": "legal", "id": safe})
            assert receive_until(ws, "legal")["ref"] == safe


def test_an_overlong_string_id_is_bad_message(client: TestClient) -> None:
    code, _ = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_until(ws, "welcome")
        ws.send_json({"type": "legal", "id": "x" * 257})
        refused = next_error(ws)
        assert (refused["code"], refused["ref"]) == ("bad_message", None)
        ws.send_json({"type": "legal", "id": "x" * 256})
        assert receive_until(ws, "legal")["ref"] == "x" * 256


def test_an_error_frame_always_serialises() -> None:
    """Whatever a refusal carries, its frame goes out (a ref or an extra field the
    encoder cannot write is dropped rather than failing the reply and the socket)."""
    from app.web.ws import error

    frame = json.loads(error("bad_message", "m", 2**70, {"reason": 2**70}))
    assert frame == {"type": "error", "code": "bad_message", "message": "m", "ref": None}
    frame = json.loads(error("bad_message", "lone \ud800", "r"))
    assert frame["code"] == "bad_message" and frame["ref"] == "r"


# -- item 2: a wrong token is 401 `unauthorized`; a valid non-host seat's is 403 ----------


def test_a_wrong_token_on_a_hosts_call_is_401_not_403(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"variant": "classic", "name": "Host"}).json()
    code = made["code"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()["token"]
    calls = {
        "delete": lambda token: client.delete(f"/api/rooms/{code}/seats/0", headers=bearer(token)),
        "patch": lambda token: client.patch(
            f"/api/rooms/{code}", json={"listed": True}, headers=bearer(token)
        ),
        "computers": lambda token: client.post(
            f"/api/rooms/{code}/computers", json={"level": "easy"}, headers=bearer(token)
        ),
    }
    for name, call in calls.items():
        assert error_of(call("garbage")) == (401, "unauthorized"), name
        assert error_of(call(bob)) == (403, "not_host"), name
    # a seat token replaced by a device-link claim is a wrong token now
    link = client.post(f"/api/rooms/{code}/device-link", headers=bearer(bob)).json()
    transfer = link["url"].split("#transfer=")[1]
    assert client.post(f"/api/rooms/{code}/claim", json={"transfer": transfer}).status_code == 201
    for name, call in calls.items():
        assert error_of(call(bob)) == (401, "unauthorized"), name
    assert len(client.get(f"/api/rooms/{code}").json()["seats"]) == 2  # nothing changed


# -- item 3: a frame over 1 MiB closes the socket with 1009, whatever the launcher --------


def test_a_frame_over_one_mib_is_too_large_then_closed_1009(client: TestClient) -> None:
    code, _ = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_until(ws, "welcome")
        ws.send_text(json.dumps({"type": "chat", "text": "a" * 2_000_000}))
        assert next_error(ws)["code"] == "too_large"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009
    # one between 64 KiB and 1 MiB is refused and the socket stays open
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_until(ws, "welcome")
        ws.send_text(json.dumps({"type": "chat", "text": "a" * 100_000}))
        assert next_error(ws)["code"] == "too_large"
        still_open(ws)


# -- item 4: the frame's own fields are checked before the seat (docs say so now) --------


def test_a_spectators_malformed_action_frame_is_bad_message_a_wellformed_one_spectator(
    client: TestClient,
) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    push = {"type": "push", "side": "N", "index": 1, "rotation": 0}
    with client.websocket_connect(f"/ws/{code}") as spy:
        hello(spy, None)
        for frame, expected in [
            ({"type": "action", "id": "r", "seq": "x", "action": push}, "bad_message"),
            ({"type": "action", "id": "r", "action": push}, "bad_message"),
            ({"type": "action", "id": "r", "seq": 0, "action": "push"}, "bad_message"),
            ({"type": "action", "id": "r", "seq": 0, "action": push}, "spectator"),
            # the action's own content is read after the seat check
            ({"type": "action", "id": "r", "seq": 0, "action": {"type": "fly"}}, "spectator"),
        ]:
            spy.send_json(frame)
            assert next_error(spy)["code"] == expected, frame


# -- item 5: Retry-After says the real wait, as the message does --------------------------


def test_retry_after_is_the_real_wait_and_the_message_says_the_same(
    client: TestClient,
) -> None:
    limits = client.app.state.limits  # type: ignore[attr-defined]
    limits.rooms = PerMinute("rooms", 2)  # 2 a minute: a token back every 30 s
    for _ in range(2):
        assert client.post("/api/rooms", json={"variant": "classic"}).status_code == 201
    refused = client.post("/api/rooms", json={"variant": "classic"})
    assert error_of(refused) == (429, "rate_limited")
    wait = int(refused.headers["Retry-After"])
    assert 25 <= wait <= 30
    assert f"try again in {wait} s" in refused.json()["error"]["message"]


def test_a_nearly_due_wait_is_at_least_one_second(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from app.rooms import ratelimit
    from app.rooms.ratelimit import RateLimited

    # The clock stands still: 6,001 checks took more than the 10 ms that refill a token
    # on a busy machine, and the last one was let through.
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(monotonic=lambda: 1000.0))
    limit = PerMinute("rooms", 6000)  # 100 a second: the next in 10 ms
    with pytest.raises(RateLimited) as refused:
        for _ in range(6001):
            limit.check("a")
    assert refused.value.retry_after == 1
    assert "try again in 1 s" in refused.value.message


# -- item 6: error messages a person can read ----------------------------------------------


@pytest.mark.parametrize("ref", [1.5, True, [], {}])
def test_a_wrong_id_says_a_string_or_an_integer(client: TestClient, ref: Any) -> None:
    code, _ = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_until(ws, "welcome")
        ws.send_json({"type": "legal", "id": ref})
        refused = next_error(ws)
        assert refused["code"] == "bad_message"
        assert refused["message"] == "id is a string or an integer"


def test_a_number_with_thousands_of_digits_is_told_plainly(client: TestClient) -> None:
    code, _ = make_room(client, ["Ann", "Bob"])
    digits = "9" * 5000
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text('{"type":"action","id":"h","seq":' + digits + ',"action":{}}')
        refused = next_error(ws)
        assert refused["code"] == "bad_message"
        assert "sys." not in refused["message"] and "digits" in refused["message"]
        still_open(ws)
    body = '{"variant":"classic","options":{"rules_version":' + digits + "}}"
    response = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert error_of(response) == (422, "bad_request")
    assert "sys." not in response.json()["error"]["message"]
    record = json.dumps(RECORD).replace('"seed":', '"extra_digits":' + digits + ',"seed":', 1)
    response = client.post(
        "/api/games/import", content=record, headers={"content-type": "application/json"}
    )
    assert error_of(response) == (422, "invalid_record")
    assert response.json()["error"]["reason"] == "not_json"
    assert "sys." not in response.json()["error"]["message"]


def test_a_coordinate_out_of_range_names_the_range_not_every_integer(
    client: TestClient,
) -> None:
    from app.rules import Game

    game = Game.new("cards", ["Ann", "Bob"], "audit-cards", {})
    mover = game.to_move
    assert mover is not None
    place = next(a for a in game.legal_actions(mover) if a["type"] == "place")
    record = game.record() | {"actions": [{"seq": 1, "seat": mover, "action": place}]}
    far = copy.deepcopy(record)
    far["actions"][0]["action"]["pos"] = [2**64, 0]
    response = client.post("/api/games/import", json=far)
    assert error_of(response) == (422, "invalid_record")
    message = response.json()["error"]["message"]
    assert len(message) < 200, message
    assert f"from {-COORD_LIMIT} to {COORD_LIMIT}" in message
    # on the socket too, and a long wrong value is not echoed whole
    code = client.post("/api/rooms", json={"variant": "cards"}).json()["code"]
    tokens = [
        client.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
        for n in ("Ann", "Bob")
    ]
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, tokens[0])
        bad = place | {"pos": ["x" * 20_000, 0]}
        ws.send_json({"type": "action", "id": "p", "seq": 0, "action": bad})
        refused = next_error(ws)
        assert refused["code"] == "bad_message" and len(refused["message"]) < 200, refused


# -- item 7: a socket to an unknown room ----------------------------------------------------


def test_a_socket_to_an_unknown_room_gets_not_found_then_4404(client: TestClient) -> None:
    with client.websocket_connect("/ws/nosuchroom") as ws:
        assert ws.receive_json()["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


# -- item 8: import: the id is not trusted; names follow a room's uniqueness rule ---------


def test_an_imported_records_id_is_not_taken_from_the_file(client: TestClient) -> None:
    response = client.post("/api/games/import", json=RECORD | {"id": "zzzzzzzzzzzz"})
    assert response.status_code == 201
    assert response.json()["id"] != "zzzzzzzzzzzz"


@pytest.mark.parametrize("players", [["Ann", "ann"], ["Ann", "\u0410nn"], ["Ann", "A\u200cnn"]])
def test_an_import_refuses_two_players_of_one_name(client: TestClient, players: list[str]) -> None:
    response = client.post("/api/games/import", json=RECORD | {"players": players})
    assert error_of(response) == (422, "invalid_record")
    error = response.json()["error"]
    assert error["reason"] == "shape"
    assert error["message"].startswith("players[1]:") and "players[0]" in error["message"]


def test_an_oversized_import_is_413_too_large(database_url: str) -> None:
    from app.config import Settings
    from app.main import create_app

    app = create_app(Settings(database_url=database_url, replay_processes=0, max_import_bytes=1000))
    with TestClient(app) as small:
        response = small.post("/api/games/import", json=RECORD)
        assert error_of(response) == (413, "too_large")


# -- item 9: small things -------------------------------------------------------------------


def test_play_again_answers_the_offer_in_the_rooms_shape(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"variant": "classic", "name": "Ann"}).json()
    code = made["code"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()["token"]
    start(client, code, made["token"])
    computer = client.app.state.computer  # type: ignore[attr-defined]
    assert client.portal is not None
    for seat in (0, 1):
        client.portal.call(computer.control, code, seat, "medium", "takeover")
    client.portal.call(computer.idle)
    first = client.post(f"/api/rooms/{code}/rematch", headers=bearer(made["token"])).json()
    assert first["rematch"] == first["room"]["rematch"]
    assert first["rematch"]["asked"] == [0, 1]
    # the answer that settles it (everyone accepted) keeps the shape
    last = client.post(f"/api/rooms/{code}/rematch", headers=bearer(bob)).json()
    assert set(last["rematch"]) == set(first["rematch"])
    assert last["rematch"]["asked"] == [0, 1] and last["room"]["status"] == "playing"


def test_a_binary_frame_is_read_as_text_and_bytes_not_utf8_are_bad_message(
    client: TestClient,
) -> None:
    """The contract does not say which frames a client sends: UTF-8 JSON in a binary
    frame is read as in a text one (some libraries send bytes); other bytes are refused,
    the socket open."""
    code, _ = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_until(ws, "welcome")
        ws.send_bytes(b'{"type": "legal", "id": "b"}')
        assert receive_until(ws, "legal")["ref"] == "b"
        ws.send_bytes(b"\xff\xfe{")
        refused = next_error(ws)
        assert (refused["code"], refused["ref"]) == ("bad_message", None)
        assert "UTF-8" in refused["message"]
        still_open(ws)


@pytest.mark.parametrize("text", ["\u0301", " \u0301 ", "\u0301\u0302", "\u20dd"])
def test_a_name_of_marks_alone_shows_nothing(text: str) -> None:
    with pytest.raises(TextError) as refused:
        clean_name(text)
    assert refused.value.reason == "nothing_shown"
    with pytest.raises(TextError) as refused:
        clean_chat(text)
    assert refused.value.reason == "nothing_shown"
    # a mark with no character before it, in a name that shows, is still `marks`
    with pytest.raises(TextError) as refused:
        clean_name(text.strip() + "Ann")
    assert refused.value.reason == "marks"


def test_a_missing_static_file_answers_the_json_error_shape(client: TestClient) -> None:
    response = client.get("/static/js/no-such-file.js")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]["code"] == "not_found"
    assert re.search("static", response.json()["error"]["message"])
