"""The computer at the table (app/rooms/computer.py): seats handed to it are played through
the same path as a person's, from the seat's own view, once per turn."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.bots.memory import replay
from app.rooms import computer as computer_module
from app.rooms.computer import ComputerPlayers
from app.rules import Game
from tests.server.helpers import act, hello, legal, make_room, receive_until, start


def driver(client: TestClient) -> ComputerPlayers:
    return client.app.state.computer  # type: ignore[attr-defined,no-any-return]


def call(client: TestClient, fn: Any, *args: Any) -> Any:
    """Run a coroutine function on the app's event loop (the TestClient's portal)."""
    assert client.portal is not None
    return client.portal.call(fn, *args)


def log_of(client: TestClient, game_id: str) -> list[Any]:
    return client.app.state.repo.actions(game_id, 0)  # type: ignore[attr-defined,no-any-return]


def test_a_seat_handed_to_the_computer_plays_its_turns_through_the_log(
    client: TestClient,
) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    computer = driver(client)
    assert call(client, computer.control, code, 1, "easy", "takeover")
    with client.websocket_connect(f"/ws/{code}") as ws:
        welcome, state = hello(ws, tokens[0])
        bob = welcome["room"]["seats"][1]
        assert bob["computer"] == {"level": "easy", "reason": "takeover"}
        seq = state["seq"]
        for _ in range(2):  # Ann's push and move, then Bob's turn is the computer's
            listed = legal(ws)
            act(ws, seq, random.Random(seq).choice(listed["actions"]))
            state = receive_until(ws, "state")
            seq = state["seq"]
        while state["view"]["turn"]["seat"] == 1:
            state = receive_until(ws, "state")
        assert state["last"]["seat"] == 1 and state["last"]["by"] == "computer:takeover"
    call(client, computer.idle)
    entries = log_of(client, game_id)
    assert [e.seat for e in entries] == [0, 0, 1, 1]
    assert [e.by for e in entries] == [None, None, "computer:takeover", "computer:takeover"]


def test_released_seats_wait_for_their_person(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    computer = driver(client)
    call(client, computer.control, code, 0, "medium", "takeover")
    call(client, computer.idle)
    assert [e.seat for e in log_of(client, game_id)] == [0, 0]
    # Ann's seat released before Bob's is taken over: the other order races (Bob's turn can
    # be played, and Ann's begun, before the release lands).
    call(client, computer.release, code, 0)
    call(client, computer.control, code, 1, "medium", "takeover")
    call(client, computer.idle)
    # Bob's turn played by the computer; Ann's seat is hers again, so it stops there.
    assert [e.seat for e in log_of(client, game_id)] == [0, 0, 1, 1]
    room = client.get(f"/api/rooms/{code}").json()
    assert room["seats"][0]["computer"] is None
    assert call(client, computer.play_now, code, 1, "timeout") is False  # not Bob's turn


def test_play_now_plays_one_move_once_per_seq(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    computer = driver(client)
    assert call(client, computer.play_now, code, 0, "timeout", "easy", 0)
    # A repeated call for the same turn (another clock, a late timer) does nothing.
    assert not call(client, computer.play_now, code, 0, "timeout", "easy", 0)
    entries = log_of(client, game_id)
    assert [(e.seq, e.seat, e.by) for e in entries] == [(1, 0, "computer:timeout")]
    # Ann's person still has her seat: nothing else was played for her.
    call(client, computer.idle)
    assert len(log_of(client, game_id)) == 1


def test_unknown_levels_and_seats_are_refused(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    computer = driver(client)
    assert not call(client, computer.control, code, 3, "easy", "takeover")
    with pytest.raises(Exception) as refused:
        call(client, computer.control, code, 1, "grandmaster", "takeover")
    assert getattr(refused.value, "code", None) == "bad_level"


def test_the_computer_sees_only_its_seats_view(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `choose` is given is exactly the seat's view and legal list, nothing more."""
    seen: list[tuple[dict[str, Any], list[Any]]] = []
    real = computer_module.choose

    def spy(
        variant: str, level: Any, view: Any, legal: Any, rng: random.Random, *more: Any, **kw: Any
    ) -> Any:
        seen.append((view, legal))
        return real(variant, level, view, legal, rng, *more, **kw)

    monkeypatch.setattr(computer_module, "choose", spy)
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    computer = driver(client)
    call(client, computer.control, code, 0, "hard", "takeover")
    call(client, computer.idle)
    record = client.app.state.repo.get_game(game_id)  # type: ignore[attr-defined]
    game = Game.new("classic", record.players, record.seed, record.options)
    for (view, listed), entry in zip(seen, log_of(client, game_id), strict=True):
        assert view == game.view(0) and listed == game.legal_actions(0)
        assert "target" not in view["players"][1] and "seed" not in str(view)
        game.apply(entry.seat, entry.payload)
    assert len(seen) == 2


def test_a_game_of_computer_seats_only_plays_to_its_end(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    computer = driver(client)
    for seat, level in enumerate(["hard", "easy"]):
        call(client, computer.control, code, seat, level, "takeover")
    call(client, computer.idle)
    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "finished", game
    verified = client.post(f"/api/games/{game_id}/verify").json()
    assert verified["ok"], verified


def test_a_team_hard_seat_decides_with_a_memory_of_its_own_views_only(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver hands Team's hard player its memory, kept across decisions; at every
    decision it equals the memory rebuilt from the log's views of that seat alone (what a
    restarted process would rebuild), and the other seats' players get none."""
    seen: list[tuple[int, int, dict[int, str] | None]] = []
    real = computer_module.choose

    def spy(
        variant: str, level: Any, view: Any, legal: Any, rng: Any, memory: Any = None, **kw: Any
    ) -> Any:
        faces = dict(memory.faces) if memory is not None else None
        seen.append((view["you"], view["seq"], faces))
        return real(variant, level, view, legal, rng, memory, **kw)

    monkeypatch.setattr(computer_module, "choose", spy)
    response = client.post(
        "/api/rooms", json={"variant": "team", "options": {"mode": "introductory"}}
    )
    code = response.json()["code"]
    tokens = [
        client.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
        for n in ("Ann", "Bob")
    ]
    game_id = start(client, code, tokens[0])
    computer = driver(client)
    call(client, computer.control, code, 0, "hard", "takeover")
    call(client, computer.control, code, 1, "medium", "takeover")
    call(client, computer.idle)
    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "finished", game
    record = client.app.state.repo.get_game(game_id)  # type: ignore[attr-defined]
    entries = log_of(client, game_id)
    full = {
        "variant": "team",
        "players": record.players,
        "seed": record.seed,
        "options": record.options,
        "actions": [{"seq": e.seq, "seat": e.seat, "action": e.payload} for e in entries],
    }
    hard = [(seq, faces) for seat, seq, faces in seen if seat == 0]
    assert all(faces is None for seat, _, faces in seen if seat == 1)
    assert len(hard) > 20
    for seq, faces in hard[::10]:
        upto = {**full, "actions": full["actions"][:seq]}
        rebuilt = replay(upto, 0, "hard")
        assert rebuilt is not None and rebuilt.faces == faces  # type: ignore[attr-defined]


def test_a_stand_in_keeps_the_person_s_cards_a_leaver_s_computer_does_not(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of time or away, the computer keeps what the person holds for their return
    (`keep`: no Master card spent for them); a seat whose person left is its own."""
    asked: list[tuple[str, bool]] = []
    real = computer_module.choose

    def spy(
        variant: str,
        level: Any,
        view: Any,
        legal: Any,
        rng: Any,
        memory: Any = None,
        *,
        keep: bool = False,
    ) -> Any:
        asked.append((level, keep))
        return real(variant, level, view, legal, rng, memory, keep=keep)

    monkeypatch.setattr(computer_module, "choose", spy)
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    computer = driver(client)
    assert call(client, computer.play_now, code, 0, "timeout", "easy", 0)
    assert asked == [("easy", True)]
    call(client, computer.control, code, 0, "easy", "away")
    call(client, computer.idle)
    assert asked[1:] and all(keep for _, keep in asked[1:])
    call(client, computer.release, code, 0)
    seen = len(asked)
    call(client, computer.control, code, 1, "easy", "left")
    call(client, computer.control, code, 0, "easy", "left")
    call(client, computer.idle)
    assert asked[seen:] and not any(keep for _, keep in asked[seen:])


def test_the_next_computer_lingers_after_dice_and_duels(client: TestClient) -> None:
    """Master's dice and duels were replaced by the next computer's move within the usual
    pause (0.8 s): after such a move it waits three pauses, after any other one."""
    pause_after = computer_module.pause_after
    assert pause_after(("dragon_die", "threat", "duel_roll", "duel_won"), 0.8) == pytest.approx(2.4)
    assert pause_after(("final_roll", "final_duel"), 0.8) == pytest.approx(2.4)
    assert pause_after(("pushed", "moved"), 0.8) == pytest.approx(0.8)
    assert pause_after((), 0.8) == pytest.approx(0.8)
    # the turn a computer decides from names the kinds of the last move's events
    code, tokens = make_room(client, ["Ann", "Bob"])
    start(client, code, tokens[0])
    service = client.app.state.service  # type: ignore[attr-defined]
    assert call(client, service.seat_turn, code).last_events == ()
    with client.websocket_connect(f"/ws/{code}") as ws:
        _, state = hello(ws, tokens[0])
        act(ws, state["seq"], legal(ws)["actions"][0])
        pushed = receive_until(ws, "state")
    turn = call(client, service.seat_turn, code)
    assert turn.last_events == tuple(e["type"] for e in pushed["last"]["events"])
    assert turn.last_events and "pushed" in turn.last_events
