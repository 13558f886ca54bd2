"""A crowd of spectators is sent each state a slice at a time, in order (app/rooms/crowd.py)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.rooms import crowd as crowd_module
from app.rooms.crowd import SLICE, Announced, Crowd, Told
from tests.server.helpers import act, hello, legal, make_room, receive_until, start


@dataclass(eq=False)
class Watcher:
    """What the crowd reads and writes of a connection."""

    seat: int | None = None
    welcomed: bool = True
    game_id: str | None = "g"
    sent_seq: int = 0
    got: list[str] = field(default_factory=list)

    def send(self, text: str) -> None:
        self.got.append(text)


def crowd_of(watchers: list[Watcher], caught: list[Watcher]) -> Crowd:
    def catch_up(conn: Any) -> None:
        caught.append(conn)
        conn.sent_seq = 99  # the room's current state, as the service would send it

    return Crowd(lambda: list(watchers), catch_up)


def test_every_message_in_order_a_slice_per_turn() -> None:
    async def run() -> tuple[list[Watcher], int, list[Watcher]]:
        watchers = [Watcher() for _ in range(5 * SLICE)]
        caught: list[Watcher] = []
        crowd = crowd_of(watchers, caught)
        turns = 0

        async def count_turns() -> None:
            nonlocal turns
            while True:
                await asyncio.sleep(0)
                turns += 1

        counter = asyncio.create_task(count_turns())
        crowd.announce(Announced("g", 1, "s1"))
        await asyncio.sleep(0)
        crowd.announce(Told("room"))  # while the first is on its way
        crowd.announce(Announced("g", 2, "s2"))
        assert crowd.busy
        while crowd.busy:
            await asyncio.sleep(0)
        counter.cancel()
        return watchers, turns, caught

    watchers, turns, caught = asyncio.run(run())
    assert all(w.got == ["s1", "room", "s2"] and w.sent_seq == 2 for w in watchers)
    assert caught == []
    # three messages of five slices each: the loop ran other work between two slices of
    # one message (four times each; the next message starts in the same turn)
    assert turns >= 3 * (5 - 1) - 1


def test_only_spectators_one_state_behind_get_the_text() -> None:
    async def run() -> tuple[list[Watcher], list[Watcher]]:
        ahead = Watcher(sent_seq=3)
        behind = Watcher(sent_seq=1)  # missed a state: caught up with history instead
        other_game = Watcher(game_id="old", sent_seq=2)
        seated = Watcher(seat=0, sent_seq=2)
        arriving = Watcher(welcomed=False, sent_seq=-1)
        current = Watcher(sent_seq=2)
        watchers = [ahead, behind, other_game, seated, arriving, current]
        caught: list[Watcher] = []
        crowd = crowd_of(watchers, caught)
        crowd.announce(Announced("g", 3, "s3"))
        while crowd.busy:
            await asyncio.sleep(0)
        return watchers, caught

    (ahead, behind, other_game, seated, arriving, current), caught = asyncio.run(run())
    assert current.got == ["s3"] and current.sent_seq == 3
    assert ahead.got == seated.got == arriving.got == behind.got == other_game.got == []
    assert caught == [behind, other_game]


def test_stop_drops_what_is_waiting() -> None:
    async def run() -> list[Watcher]:
        watchers = [Watcher() for _ in range(3 * SLICE)]
        crowd = crowd_of(watchers, [])
        crowd.announce(Announced("g", 1, "s1"))
        crowd.announce(Announced("g", 2, "s2"))
        await asyncio.sleep(0)  # the first slice of the first state
        crowd.stop()
        await asyncio.sleep(0)
        assert not crowd.busy
        return watchers

    watchers = asyncio.run(run())
    assert sum(1 for w in watchers if w.got) == SLICE
    assert all(w.got in ([], ["s1"]) for w in watchers)


def test_a_crowded_room_sends_every_state_to_every_spectator(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the real app, with the crowd's threshold lowered to two spectators: the
    players play, four spectators see every seq once and in order, with the same view."""
    monkeypatch.setattr(crowd_module, "SLICE", 1)
    monkeypatch.setattr("app.rooms.fanout.INLINE", 2)
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
    ):
        seats = [ws0, ws1]
        first = [hello(ws, token)[1] for ws, token in zip(seats, tokens, strict=True)]
        watchers = [client.websocket_connect(f"/ws/{code}") for _ in range(4)]
        opened = [w.__enter__() for w in watchers]
        try:
            seen: list[list[dict[str, Any]]] = [[hello(ws, None)[1]] for ws in opened]
            seq = 0
            mover = first[0]["view"]["turn"]["seat"]
            for _ in range(6):
                act(seats[mover], seq, legal(seats[mover])["actions"][0])
                seq += 1
                states = [receive_until(ws, "state") for ws in seats]
                assert all(s["seq"] == seq for s in states)
                mover = states[0]["view"]["turn"]["seat"]
                for mine, ws in zip(seen, opened, strict=True):
                    mine.append(receive_until(ws, "state"))
            for mine in seen:
                assert [s["seq"] for s in mine] == list(range(seq + 1))
                assert all("history" not in s for s in mine[1:])
                assert [s["view"] for s in mine] == [s["view"] for s in seen[0]]
        finally:
            for w in reversed(watchers):
                w.__exit__(None, None, None)


def test_the_sends_wait_while_an_action_is_committed() -> None:
    """Between two slices the crowd waits for the room's lock (held while an action is
    committed), so a player's action does not compete with thousands of sends."""

    async def run() -> tuple[int, int]:
        lock = asyncio.Lock()
        watchers = [Watcher() for _ in range(3 * SLICE)]
        crowd = Crowd(lambda: list(watchers), lambda conn: None, lock)
        await lock.acquire()  # an action is being committed
        crowd.announce(Announced("g", 1, "s1"))
        for _ in range(20):
            await asyncio.sleep(0)
        while_locked = sum(1 for w in watchers if w.got)
        lock.release()
        while crowd.busy:
            await asyncio.sleep(0)
        return while_locked, sum(1 for w in watchers if w.got)

    while_locked, after = asyncio.run(run())
    assert while_locked == SLICE  # the first slice only
    assert after == 3 * SLICE
