"""Presence changes are coalesced: a crowd arriving costs each watcher about one room
message a second, not one per arrival, and the last one has the true count."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fastapi.testclient import TestClient

from app.rooms.coalesce import Coalescer
from tests.server.helpers import hello, make_room, start

ARRIVALS = 30


def test_a_crowd_of_spectators_gets_coalesced_room_messages(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with contextlib.ExitStack() as stack:
        watcher = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
        hello(watcher, None)
        began = time.monotonic()
        for _ in range(ARRIVALS):
            hello(stack.enter_context(client.websocket_connect(f"/ws/{code}")), None)
        arrived = time.monotonic()
        elapsed = arrived - began
        # The last coalesced message is due within a second: read what comes for 1.5 s, a
        # ping at a time, and on until a message has the true count (a fixed 1.5 s was
        # short of it on a loaded machine, whose event loop can lag the coalescer's
        # timer), for 10 s at most.
        rooms: list[dict[str, Any]] = []
        while time.monotonic() < arrived + 10:
            settled = time.monotonic() > arrived + 1.5
            if settled and rooms and rooms[-1]["spectators"] == ARRIVALS + 1:
                break
            time.sleep(0.1)  # the poll's interval, not a wait for anything
            watcher.send_json({"type": "ping"})
            while (message := watcher.receive_json())["type"] != "pong":
                if message["type"] == "room":
                    rooms.append(message["room"])
        assert rooms, "the watcher heard of the arrivals"
        assert rooms[-1]["spectators"] == ARRIVALS + 1, "the last message has the true count"
        assert len(rooms) <= 2 + elapsed, f"{len(rooms)} room messages in {elapsed:.1f} s"


def test_the_coalescer_runs_at_once_then_once_per_interval() -> None:
    calls: list[tuple[str, float]] = []

    async def record(key: str) -> None:
        calls.append((key, asyncio.get_running_loop().time()))

    async def run() -> float:
        news = Coalescer(record, interval=0.2)
        started = asyncio.get_running_loop().time()
        for _ in range(50):
            await news.poke("a")
        await news.poke("b")
        assert [k for k, _ in calls] == ["a", "b"], "a quiet key is told at once"
        await asyncio.sleep(0.3)
        await news.stop()
        return started

    started = asyncio.run(run())
    assert [k for k, _ in calls] == ["a", "b", "a"], "the 49 others: one call, later"
    assert calls[2][1] - started >= 0.2


def test_a_crowd_arriving_reads_the_room_about_once_a_second(client: TestClient) -> None:
    """Each hello used to read the room row and the log under the room's lock (which the
    players' actions wait for); a crowd now costs about one read a second."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    repo: Any = client.app.state.repo  # type: ignore[attr-defined]
    reads: list[str] = []
    real_get_room, real_actions = repo.get_room, repo.actions

    def get_room(*args: Any) -> Any:
        reads.append("room")
        return real_get_room(*args)

    def actions(*args: Any) -> Any:
        reads.append("log")
        return real_actions(*args)

    repo.get_room, repo.actions = get_room, actions
    try:
        with contextlib.ExitStack() as stack:
            player = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
            _, first = hello(player, tokens[0])
            began = time.monotonic()
            states = [
                hello(stack.enter_context(client.websocket_connect(f"/ws/{code}")), None)[1]
                for _ in range(ARRIVALS)
            ]
            elapsed = time.monotonic() - began
    finally:
        repo.get_room, repo.actions = real_get_room, real_actions
    assert {s["seq"] for s in states} == {first["seq"]}
    assert all(s["view"] == states[0]["view"] for s in states), "each got the game as it is"
    assert reads.count("log") <= 2 + elapsed, f"{len(reads)} reads in {elapsed:.1f} s"
    assert reads.count("room") <= 2 + elapsed, f"{len(reads)} reads in {elapsed:.1f} s"
