"""Saying no to "play again": a player frees their own seat while the offer is open."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.test_computer import call
from tests.server.test_table import bearer, create, join, room


def test_a_seat_freed_under_an_open_offer_keeps_the_others_acceptances(
    client: TestClient,
) -> None:
    """Bob (seat 1) says no while Ann and the computer (seat 2) have accepted. The seats
    after his move down one, and so do their acceptances: everyone left has accepted,
    so the next game starts at once. (The acceptances kept their old numbers: nothing
    started, and at the deadline the computer, now seat 1, was freed as not ready.)"""
    made = create(client, name="Ann")
    code = made["code"]
    bob = join(client, code, "Bob")
    added = client.post(
        f"/api/rooms/{code}/computers", json={"level": "easy"}, headers=bearer(made["host_token"])
    )
    assert added.status_code in (200, 201), added.text
    first = client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"])).json()
    computer = client.app.state.computer  # type: ignore[attr-defined]
    for seat in (0, 1):  # the computer plays Ann and Bob too, to the end
        call(client, computer.control, code, seat, "medium", "takeover")
    call(client, computer.idle)
    assert room(client, code)["status"] == "finished"
    offer = client.post(f"/api/rooms/{code}/rematch", headers=bearer(made["token"]))
    assert offer.json()["rematch"]["accepted"] == [0, 2]
    no = client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(bob["token"]))
    assert no.status_code == 200, no.text
    info = room(client, code)
    assert info["status"] == "playing" and info["game_id"] != first["game_id"]
    assert [s["name"] for s in info["seats"]] == ["Ann", "Computer (easy)"]
