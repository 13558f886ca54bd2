"""The computer's randomness is not the players': nobody can draw its numbers.

A computer seat (or a person's seat the computer plays after a timeout, a takeover or a
leave) decides from its own view, with some chance in it: an `easy` player wanders at
random part of the time, the others break ties at random. Were its numbers drawn from
public values (the game id, the seq, the seat, the level), any opponent could re-run its
choice for every target or hand the seat might hold and keep the ones that give the move
it made: a chance move told from an aimed one, the seat's secret read off its play (about
one `easy` classic move in five named its target outright). Keyed with the game's seed,
secret until the game ends, the same point of the same game still gives the same decision.
"""

from __future__ import annotations

import dataclasses
import random

from fastapi.testclient import TestClient

from app.rooms.computer import rng_for_turn
from tests.server.helpers import make_room, start
from tests.server.test_computer import call


def draws(rng: random.Random) -> list[float]:
    return [rng.random() for _ in range(8)]


def test_the_computers_numbers_are_not_drawn_from_public_values(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    service = client.app.state.service  # type: ignore[attr-defined]
    turn = call(client, service.seat_turn, code)
    assert turn.game_record is not None
    # What a player can know of this decision: the game id, the seq, the seat, a level.
    public = {"game_id": turn.game_id, "seq": turn.seq, "seat": turn.seat}
    assert client.get(f"/api/games/{turn.game_id}").json()["seq"] == public["seq"]
    mine = draws(rng_for_turn(turn, "easy"))
    # The same decision is the same numbers (any process, any time, decides alike)...
    assert draws(rng_for_turn(call(client, service.seat_turn, code), "easy")) == mine
    # ...but a game alike in every public respect, with another seed, draws others: the
    # numbers follow from the secret, so no player can draw them in the computer's place.
    other = dataclasses.replace(
        turn, game_record={**turn.game_record, "seed": turn.game_record["seed"] + "0"}
    )
    assert (other.game_id, other.seq, other.seat) == tuple(public.values())
    assert draws(rng_for_turn(other, "easy")) != mine
    # in particular, not the numbers of a recipe of public values alone
    for recipe in (
        f"{turn.game_id}:{turn.seq}:{turn.seat}:easy",
        f"{turn.game_id}:{turn.seq}:{turn.seat}",
        f"{turn.game_id}:{turn.seq}",
    ):
        assert draws(random.Random(recipe)) != mine
