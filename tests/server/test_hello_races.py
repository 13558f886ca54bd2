"""A hello whose token changes hands while it is being looked up.

A hello reads which seat its token holds from the database, then gives the connection
that seat. A change of seats committed in between (a device link claimed, a seat freed
and the later seats renumbered) is told to the room's connections at once; told before
this connection held its seat, it passed it by, and the socket kept a seat its token no
longer held: an old device went on acting for a seat moved away from it, and a player
renumbered by a freed seat held the number of whoever joined next, reading that seat's
secrets (its target) and playing its moves. These tests land the change exactly in that
gap: the hello's look-up has answered, its connection has no seat yet.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.rooms.service import RoomService
from tests.server.helpers import make_room, receive_until, start


def land_during_lookup(
    monkeypatch: pytest.MonkeyPatch,
    service: RoomService,
    token: str,
    change: Callable[[], Awaitable[Any]],
    news: str,
) -> None:
    """The next hello with `token`: its look-up answers, then `change` runs (in a task of
    its own, as another request does) and is told to the room (hub news of `news` kind)
    before the hello goes on."""
    look_up = service.seat_for
    publish = service.hub.publish

    async def racing_seat_for(code: str, given: str | None) -> int:
        seat = await look_up(code, given)
        if given != token:
            return seat
        told = asyncio.Event()

        async def telling(message: dict[str, Any]) -> None:
            if message.get("kind") == news:
                told.set()
            await publish(message)

        monkeypatch.setattr(service.hub, "publish", telling)
        task = asyncio.ensure_future(change())
        await told.wait()  # committed and told to the room; its delivery runs as far as it can
        await asyncio.sleep(0)
        monkeypatch.setattr(service.hub, "publish", publish)
        service._timers.add(task)  # kept alive until it ends (a fan-out may wait on us)
        task.add_done_callback(service._timers.discard)
        return seat

    monkeypatch.setattr(service, "seat_for", racing_seat_for)


def test_a_seat_moved_to_another_device_during_a_hello_is_not_held_by_the_old_token(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    link = client.post(
        f"/api/rooms/{code}/device-link", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    transfer = link.json()["url"].partition("#transfer=")[2]
    service: RoomService = client.app.state.service  # type: ignore[attr-defined]
    land_during_lookup(
        monkeypatch, service, tokens[0], lambda: service.claim_device(code, transfer), "seat_moved"
    )
    with client.websocket_connect(f"/ws/{code}") as old:
        old.send_json({"type": "hello", "token": tokens[0], "legal": True})
        welcome = receive_until(old, "welcome")
        state = receive_until(old, "state")
        # The old device is a spectator now: it holds no seat, sees no target, may not act.
        assert welcome["seat"] is None
        assert state["view"]["you"] is None
        assert "legal" not in state
        assert all("target" not in p for p in state["view"]["players"])
        push = {"type": "push", "side": "N", "index": 1, "rotation": 0}
        old.send_json({"type": "action", "id": "a", "seq": state["seq"], "action": push})
        refused = receive_until(old, "error")
        assert refused["code"] == "spectator"
    assert client.get(f"/api/games/{game_id}").json()["seq"] == 0  # nothing was played


def test_a_seat_renumbered_during_a_hello_follows_its_token_not_its_old_number(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = client.post("/api/rooms", json={"variant": "classic"}).json()
    code, host = made["code"], made["host_token"]
    tokens = []
    for name in ("Ann", "Bob", "Cleo"):
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        tokens.append(joined.json()["token"])
    service: RoomService = client.app.state.service  # type: ignore[attr-defined]
    # Cleo (seat 2) says hello while the host frees Ann's seat 0: Cleo is seat 1 now.
    land_during_lookup(
        monkeypatch, service, tokens[2], lambda: service.remove_seat(code, 0, host), "room"
    )
    with client.websocket_connect(f"/ws/{code}") as cleo:
        cleo.send_json({"type": "hello", "token": tokens[2]})
        welcome = receive_until(cleo, "welcome")
        assert welcome["seat"] == 1
        # Dan joins and takes seat 2, the number Cleo had; the game starts.
        dan = client.post(f"/api/rooms/{code}/join", json={"name": "Dan"}).json()
        assert dan["seat"] == 2
        start(client, code, host)
        state = receive_until(cleo, "state")
        # Cleo's socket is Cleo's seat: her target, not Dan's; it acts as seat 1.
        assert state["view"]["you"] == 1
        targets = {p["seat"]: p.get("target") for p in state["view"]["players"]}
        assert targets[1] is not None and targets[2] is None
        cleo.send_json({"type": "legal", "id": "l"})
        assert receive_until(cleo, "legal")["actions"] == []  # seat 0 (Bob) is to move
