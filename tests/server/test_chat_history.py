"""The room's chat survives a reload, a restart and a late arrival: each welcome carries
the last lines its connection may read (players never the spectators' channel)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.config import Settings
from app.main import create_app
from app.rooms.chat import KEPT, ChatHistory
from app.store.repository import ChatRecord
from tests.server.helpers import make_room, receive_until


def say(ws: WebSocketTestSession, text: str) -> dict[str, Any]:
    """Send a chat line; return it as it came back to its speaker."""
    ws.send_json({"type": "chat", "text": text})
    while (line := receive_until(ws, "chat"))["text"] != text:
        pass  # an earlier line of someone else's
    return line


def welcome_of(client: TestClient, code: str, **hello: Any) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None} | hello)
        return receive_until(ws, "welcome")


def texts(welcome: dict[str, Any]) -> list[str]:
    return [line["text"] for line in welcome["chat"]]


def test_a_welcome_carries_the_lines_its_connection_may_read(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    assert welcome_of(client, code)["chat"] == []
    with (
        client.websocket_connect(f"/ws/{code}") as ann,
        client.websocket_connect(f"/ws/{code}") as watcher,
    ):
        ann.send_json({"type": "hello", "token": tokens[0]})
        receive_until(ann, "welcome")
        watcher.send_json({"type": "hello", "token": None})
        receive_until(watcher, "welcome")
        first = say(ann, "hello all")
        aside = say(watcher, "Ann is winning")
        last = say(ann, "good luck")
    assert first["id"] < aside["id"] < last["id"]
    assert first["from"] == {"seat": 0, "name": "Ann"} and first["channel"] == "room"

    # Bob arrives (or Ann reloads): the players' lines, not the spectators'
    bob = welcome_of(client, code, token=tokens[1])
    assert texts(bob) == ["hello all", "good luck"]
    assert bob["chat"][0] == first  # each line as it was said
    # a spectator reads both channels, in the order they were said
    assert texts(welcome_of(client, code)) == ["hello all", "Ann is winning", "good luck"]
    # a pass-and-play page's own spectator socket is at a player's device: no aside
    assert texts(welcome_of(client, code, seated=tokens[0])) == ["hello all", "good luck"]


def test_a_companion_socket_hears_no_spectators_line(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    with (
        client.websocket_connect(f"/ws/{code}") as own,
        client.websocket_connect(f"/ws/{code}") as watcher,
    ):
        own.send_json({"type": "hello", "token": None, "seated": tokens[0]})
        receive_until(own, "welcome")
        watcher.send_json({"type": "hello", "token": None})
        receive_until(watcher, "welcome")
        say(watcher, "psst")
        own.send_json({"type": "ping"})
        # the ping's answer comes first: the aside never reached this socket
        assert receive_until(own, "pong")["type"] == "pong"


def test_the_lines_outlive_the_process(database_url: str) -> None:
    settings = Settings(
        database_url=database_url,
        replay_processes=0,
        computer_pause=0,
        chat_burst=KEPT + 3,
        rate_burst=KEPT + 10,
    )
    with TestClient(create_app(settings)) as client:
        code, tokens = make_room(client, ["Ann", "Bob"])
        with client.websocket_connect(f"/ws/{code}") as ann:
            ann.send_json({"type": "hello", "token": tokens[0]})
            receive_until(ann, "welcome")
            for k in range(KEPT + 3):
                say(ann, f"line {k}")
    with TestClient(create_app(settings)) as restarted:
        kept = texts(welcome_of(restarted, code, token=tokens[1]))
    assert kept == [f"line {k}" for k in range(3, KEPT + 3)]  # the last KEPT, in order


def _line(k: int, channel: str = "room") -> ChatRecord:
    return ChatRecord(k, 0, "Ann", f"line {k}", channel, datetime(2026, 11, 27, tzinfo=UTC))


def test_a_line_heard_while_the_lines_are_read_is_kept_once() -> None:
    """The hub may deliver a line while the database is read: the read may have it or
    not; either way it is kept once, in its place."""
    history = ChatHistory()
    history.hear({"id": 0, "text": "before any read: the read has it"})  # not kept yet
    history.hear({"text": "an older process's line, without an id"})  # told, not kept

    async def stored() -> list[ChatRecord]:
        history.hear({"id": 2, "text": "line 2"})  # in the read too
        history.hear({"id": 3, "text": "line 3"})  # said after the read
        return [_line(1), _line(2)]

    asyncio.run(history.read(stored))
    assert [m["id"] for m in history.readable(player=True)] == [1, 2, 3]
    history.hear({"id": 4, "text": "line 4", "channel": "spectators"})
    assert [m["id"] for m in history.readable(player=True)] == [1, 2, 3]
    assert [m["id"] for m in history.readable(player=False)] == [1, 2, 3, 4]
    for k in range(5, 5 + KEPT):
        history.hear({"id": k, "channel": "room"})
    assert [m["id"] for m in history.readable(player=False)] == list(range(5, 5 + KEPT))
