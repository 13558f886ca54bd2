"""The WebSocket half of the protocol through the real app."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.bots.greedy import choose
from app.rules import Game, seed_hash
from tests.server.helpers import hello, make_room, receive_until, start


def legal(ws: Any, ref: str = "q") -> dict[str, Any]:
    ws.send_json({"type": "legal", "id": ref})
    return receive_until(ws, "legal")


def act(ws: Any, seq: int, action: dict[str, Any], ref: str = "a") -> None:
    ws.send_json({"type": "action", "id": ref, "seq": seq, "action": action})


def test_spectator_sees_no_target(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        welcome, state = hello(ws, None)
        assert welcome["seat"] is None
        assert welcome["room"]["code"] == code
        assert state["seq"] == 0
        assert state["last"] is None
        assert state["history"] == []
        assert state["view"]["you"] is None
        assert all("target" not in p for p in state["view"]["players"])
        assert legal(ws)["actions"] == []


def test_players_see_only_their_own_target(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
    ):
        _, s0 = hello(ws0, tokens[0])
        _, s1 = hello(ws1, tokens[1])
        p0, p1 = s0["view"]["players"], s1["view"]["players"]
        assert isinstance(p0[0]["target"], str) and "target" not in p0[1]
        assert isinstance(p1[1]["target"], str) and "target" not in p1[0]


def test_invalid_token_is_refused_and_closed(client: TestClient) -> None:
    code, _ = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        message = ws.receive_json()
        assert message["type"] == "error"
        assert message["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


def test_unknown_room_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/nowhere") as ws:
        assert ws.receive_json()["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_lobby_connections_see_seats_arrive(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        welcome = receive_until(ws, "welcome")
        assert welcome["seat"] == 0
        assert welcome["room"]["seats"][0]["connected"] is True
        client.post(f"/api/rooms/{code}/join", json={"name": "<b>x</b>"})
        room = receive_until(ws, "room")["room"]
        while len(room["seats"]) < 2:  # presence updates may come first
            room = receive_until(ws, "room")["room"]
        assert [s["name"] for s in room["seats"]] == ["Ann", "<b>x</b>"]
        game_id = start(client, code, tokens[0])
        state = receive_until(ws, "state")
        assert state["seq"] == 0
        assert state["view"]["turn"]["seat"] == 0
        assert client.get(f"/api/rooms/{code}").json()["game_id"] == game_id


def snapshot(client: TestClient, code: str, ws: Any) -> tuple[int, str]:
    """The seq and full view as a player sees it (via sync), to prove nothing changed."""
    ws.send_json({"type": "sync"})
    state = receive_until(ws, "state")
    return state["seq"], json.dumps(state["view"], sort_keys=True)


def test_every_error_code_leaves_the_state_unchanged(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
        client.websocket_connect(f"/ws/{code}") as spy,
    ):
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        hello(spy, None)
        before = snapshot(client, code, ws0)
        push = legal(ws0)["actions"][0]

        def refused(ws: Any, payload: Any, expected: str, raw: bool = False) -> None:
            if raw:
                ws.send_text(payload)
            else:
                ws.send_json(payload)
            message = receive_until(ws, "error")
            assert message["code"] == expected, message
            assert message["message"]
            assert snapshot(client, code, ws0) == before

        refused(ws0, "{not json", "bad_message", raw=True)
        refused(ws0, "[1, 2]", "bad_message", raw=True)
        refused(ws0, {"type": "dance"}, "bad_message")
        refused(ws0, {"type": "action", "seq": 0}, "bad_message")
        refused(ws0, {"type": "action", "seq": 0, "action": push, "extra": 1}, "bad_message")
        refused(ws0, {"type": "action", "seq": "0", "action": push}, "bad_message")
        refused(ws0, {"type": "action", "seq": 0, "action": "Nb"}, "bad_message")
        refused(ws0, {"type": "action", "seq": 0, "action": {"type": "fly"}}, "bad_message")
        refused(ws0, {"type": "action", "seq": 0, "action": {**push, "index": 2}}, "bad_message")
        refused(ws0, {"type": "chat", "text": "x" * 501}, "bad_message")
        refused(ws0, {"type": "chat", "text": "   "}, "bad_message")
        refused(spy, {"type": "action", "id": "s", "seq": 0, "action": push}, "spectator")
        refused(ws1, {"type": "action", "seq": 0, "action": push}, "not_your_turn")
        refused(
            ws0, {"type": "action", "seq": 0, "action": {"type": "move", "to": [0, 0]}}, "illegal"
        )
        refused(ws0, {"type": "action", "seq": 3, "action": push}, "stale")
        refused(ws0, {"type": "action", "seq": 3, "action": {"type": "fly"}}, "bad_message")
        refused(ws0, json.dumps({"type": "chat", "text": "x" * (65 * 1024)}), "too_large", raw=True)

        # The refused messages lost nothing: the listed push is still accepted.
        act(ws0, 0, push, "ok")
        assert receive_until(ws1, "state")["seq"] == 1
        assert receive_until(ws0, "state")["seq"] == 1


def test_hello_must_come_first(client: TestClient) -> None:
    code, _ = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "legal", "id": "x"})
        message = receive_until(ws, "error")
        assert message["code"] == "bad_message"
        assert message["ref"] == "x"
        ws.send_json({"type": "ping"})
        assert receive_until(ws, "pong") == {"type": "pong"}


def test_acting_in_the_lobby_is_illegal(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        receive_until(ws, "welcome")
        act(ws, 0, {"type": "push", "side": "N", "index": 1, "rotation": 0})
        assert receive_until(ws, "error")["code"] == "illegal"


def test_flooding_is_rate_limited(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello_sent = {"type": "hello", "token": tokens[0]}
        ws.send_json(hello_sent)
        receive_until(ws, "welcome")
        for _ in range(60):
            ws.send_json({"type": "ping"})
        codes = []
        for _ in range(60):
            message = ws.receive_json()
            codes.append(message.get("code", message["type"]))
        assert "rate_limited" in codes
        assert codes.count("pong") >= 30


@contextmanager
def player_and_two_spectators(client: TestClient, code: str, token: str) -> Iterator[Any]:
    """Seat 0's socket and two spectators', each welcomed."""
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as spy,
        client.websocket_connect(f"/ws/{code}") as spy2,
    ):
        ws0.send_json({"type": "hello", "token": token})
        receive_until(ws0, "welcome")
        for ws in (spy, spy2):
            ws.send_json({"type": "hello", "token": None})
            receive_until(ws, "welcome")
        yield ws0, spy, spy2


def test_chat_channels(client: TestClient) -> None:
    """Players' lines reach everyone; spectators' lines reach spectators only."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    with player_and_two_spectators(client, code, tokens[0]) as (ws0, spy, spy2):
        ws0.send_json({"type": "chat", "text": "<b>hi</b>"})
        for ws in (ws0, spy, spy2):
            chat = receive_until(ws, "chat")
            assert chat["text"] == "<b>hi</b>"
            assert chat["from"] == {"seat": 0, "name": "Ann"}
            assert chat["channel"] == "room"
            assert chat["at"]
        spy.send_json({"type": "chat", "text": "what a push"})
        for ws in (spy, spy2):
            chat = receive_until(ws, "chat")
            assert chat["from"] == {"seat": None, "name": "spectator"}
            assert chat["channel"] == "spectators"
        ws0.send_json({"type": "chat", "text": "next"})
        assert receive_until(ws0, "chat")["text"] == "next"  # the spectators' line never came


def test_a_spectator_chats_under_the_name_it_gives(client: TestClient) -> None:
    """A spectator's line carries the name it gives (a crowd's lines were all
    "spectator"), never a seated player's, lookalikes included; a seat's line carries the
    seat's name whatever it sends; a bad name is refused and nothing is said."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    with player_and_two_spectators(client, code, tokens[0]) as (ws0, spy, spy2):
        spy.send_json({"type": "chat", "text": "hello all", "name": "  Zoé "})
        for ws in (spy, spy2):
            chat = receive_until(ws, "chat")
            assert chat["from"] == {"seat": None, "name": "Zoé"}
            assert chat["channel"] == "spectators"
        refused = {"ANN": "name_taken", "\u0410nn": "name_taken", "a\u202eb": "bad_name"}
        for name, expected in refused.items():
            spy2.send_json({"type": "chat", "text": "I am Ann", "name": name})
            error = receive_until(spy2, "error")
            assert error["code"] == expected, (name, error)
        spy2.send_json({"type": "chat", "text": "no name", "name": 7})
        assert receive_until(spy2, "error")["code"] == "bad_message"
        ws0.send_json({"type": "chat", "text": "it is me", "name": "Bob"})
        for ws in (spy, spy2):
            assert receive_until(ws, "chat")["from"] == {"seat": 0, "name": "Ann"}
        spy2.send_json({"type": "chat", "text": "anonymous"})
        chat = receive_until(spy, "chat")
        assert (chat["text"], chat["from"]["name"]) == ("anonymous", "spectator")
    # the refused lines were never said: the room's kept lines are the three said
    with client.websocket_connect(f"/ws/{code}") as late:
        late.send_json({"type": "hello", "token": None})
        said = receive_until(late, "welcome")["chat"]
        assert [(m["from"]["name"], m["text"]) for m in said] == [
            ("Zoé", "hello all"),
            ("Ann", "it is me"),
            ("spectator", "anonymous"),
        ]


def test_reconnect_with_the_token_restores_the_seat(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, tokens[0])
        push = legal(ws)["actions"][0]
        act(ws, 0, push)
        assert receive_until(ws, "state")["seq"] == 1
    assert client.get(f"/api/rooms/{code}").json()["seats"][0]["connected"] is False
    with client.websocket_connect(f"/ws/{code}") as ws:
        welcome, state = hello(ws, tokens[0])
        assert welcome["seat"] == 0
        assert welcome["room"]["seats"][0]["connected"] is True
        assert state["seq"] == 1
        assert state["view"]["turn"] == {**state["view"]["turn"], "seat": 0, "phase": "move"}
        assert [h["seq"] for h in state["history"]] == [1]
        assert state["last"]["notation"] == state["history"][0]["notation"]
        moves = legal(ws)["actions"]
        assert moves and all(m["type"] in {"move", "swap", "pick", "push"} for m in moves)
        act(ws, 1, moves[0])
        assert receive_until(ws, "state")["seq"] == 2


def check_refusal_order_after_the_end(ws: Any, seq: int) -> None:
    """After the end, as docs/protocol.md orders them: `bad_message` (the message or the
    action does not parse), then `stale`, then `finished`."""
    move = {"type": "move", "to": [0, 0]}
    for payload, code in [
        ({"type": "action", "seq": seq - 1, "action": {"type": "fly"}}, "bad_message"),
        ({"type": "action", "seq": seq, "action": {**move, "extra": 1}}, "bad_message"),
        ({"type": "action", "seq": "x", "action": move}, "bad_message"),
        ({"type": "action", "seq": seq - 1, "action": move}, "stale"),
        ({"type": "action", "seq": seq + 5, "action": move}, "stale"),
        ({"type": "action", "seq": seq, "action": move}, "finished"),
    ]:
        ws.send_json(payload)
        assert receive_until(ws, "error")["code"] == code, payload


def play_to_the_end(client: TestClient, options: dict[str, Any], players: int = 2) -> None:
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    code, tokens = make_room(client, names, **options)
    game_id = start(client, code, tokens[0])
    rng = random.Random(7)
    sockets = [client.websocket_connect(f"/ws/{code}") for _ in range(players + 1)]
    entered = [s.__enter__() for s in sockets]
    try:
        seats, spy = entered[:players], entered[players]
        views = [hello(ws, token)[1] for ws, token in zip(seats, tokens, strict=True)]
        spy_state = hello(spy, None)[1]
        seq = 0
        for _ in range(3000):
            view = views[0]["view"]
            if view["status"] == "finished":
                break
            mover = view["turn"]["seat"]
            listed = legal(seats[mover])
            assert listed["seq"] == seq
            action = choose(views[mover]["view"], listed["actions"], rng)
            act(seats[mover], seq, action)
            seq += 1
            views = [receive_until(ws, "state") for ws in seats]
            spy_state = receive_until(spy, "state")
            assert {v["seq"] for v in views} == {seq} and spy_state["seq"] == seq
            for seat, state in enumerate(views):
                others = [p for p in state["view"]["players"] if p["seat"] != seat]
                if state["view"]["status"] == "playing":
                    assert all("target" not in p for p in others)
            if spy_state["view"]["status"] == "playing":
                assert all("target" not in p for p in spy_state["view"]["players"])
        final = spy_state["view"]
        assert final["status"] == "finished"
        assert final["result"]["winners"]
        assert legal(seats[0])["actions"] == []
        check_refusal_order_after_the_end(seats[0], seq)
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)

    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "finished"
    assert game["seq"] == seq
    assert seed_hash(game["seed"]) == game["seed_hash"]
    assert game["result"] == final["result"]
    assert client.get(f"/api/rooms/{code}").json()["status"] == "finished"
    record = client.get(f"/api/games/{game_id}/record").json()
    assert [a["seq"] for a in record["actions"]] == list(range(1, seq + 1))
    replayed = Game.from_record(record)
    assert replayed.view(None) == final
    finished = client.get("/api/games", params={"status": "finished"}).json()["games"]
    assert [g["id"] for g in finished] == [game_id]


def test_two_players_and_a_spectator_play_a_whole_game(fast_client: TestClient) -> None:
    play_to_the_end(fast_client, {"return_home": False})


def test_a_whole_event_game_with_return_home(fast_client: TestClient) -> None:
    play_to_the_end(fast_client, {"events": True, "return_home": True}, players=3)


def test_welcome_comes_first_then_one_state(client: TestClient) -> None:
    """Nothing overtakes the welcome, and the state it brings is not sent twice."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[1]})
        assert ws.receive_json()["type"] == "welcome"
        state = ws.receive_json()
        assert state["type"] == "state" and "history" in state
        ws.send_json({"type": "ping"})
        between = []
        while (message := ws.receive_json())["type"] != "pong":
            between.append(message["type"])
        assert "state" not in between and "welcome" not in between


def test_a_welcome_names_the_hello_it_answers(client: TestClient) -> None:
    """A page says hello without a token, joins, and says hello again with the token
    before the first answer came: each answer carries its hello's `id` as `ref`, so the
    first one's `seat: null` is not read as the seat being freed. A welcome the server
    sends unasked (the seat was freed) has no `ref`; a hello without an `id` is answered
    as before."""
    code, _ = make_room(client, ["Ann"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None, "legal": True, "id": "h1"})
        bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
        ws.send_json({"type": "hello", "token": bob["token"], "legal": True, "id": "h2"})
        first = receive_until(ws, "welcome")
        second = receive_until(ws, "welcome")
        assert (first["ref"], first["seat"]) == ("h1", None)
        assert (second["ref"], second["seat"]) == ("h2", 1)
        ws.send_json({"type": "hello", "token": bob["token"], "id": 7})
        assert receive_until(ws, "welcome")["ref"] == 7
        ws.send_json({"type": "hello", "token": bob["token"]})
        assert "ref" not in receive_until(ws, "welcome")
        left = client.delete(
            f"/api/rooms/{code}/seats/1", headers={"Authorization": f"Bearer {bob['token']}"}
        )
        assert left.status_code == 200, left.text
        freed = receive_until(ws, "welcome")
        assert freed["seat"] is None and "ref" not in freed
        for bad in (True, [1], {"a": 1}, 1.5):
            ws.send_json({"type": "hello", "token": None, "id": bad})
            refused = receive_until(ws, "error")
            assert refused["code"] == "bad_message", (bad, refused)


def test_a_devices_own_spectator_socket_is_no_spectator(client: TestClient) -> None:
    """A pass-and-play page watches a computer's turn from a socket without a token; its
    hello names a seat the device holds (`seated`), and the room counts no spectator for
    it. A `seated` token that holds no seat there counts like any spectator."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ann:
        ann.send_json({"type": "hello", "token": tokens[0]})
        assert receive_until(ann, "welcome")["room"]["spectators"] == 0
        with client.websocket_connect(f"/ws/{code}") as own:
            own.send_json({"type": "hello", "token": None, "seated": tokens[0]})
            welcome = receive_until(own, "welcome")
            assert welcome["seat"] is None and welcome["room"]["spectators"] == 0
            with client.websocket_connect(f"/ws/{code}") as other:
                other.send_json({"type": "hello", "token": None, "seated": "no-seat-token"})
                assert receive_until(other, "welcome")["room"]["spectators"] == 1
                assert client.get(f"/api/rooms/{code}").json()["spectators"] == 1
                other.send_json({"type": "hello", "token": None, "seated": 5})
                assert receive_until(other, "error")["code"] == "bad_message"
