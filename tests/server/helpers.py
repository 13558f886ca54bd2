"""Small helpers for driving rooms over HTTP and WebSockets in tests."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.testclient import WebSocketTestSession

from app.patches import apply as apply_patch
from app.rules import seed_hash
from app.store import models
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import GameRecord


def imported_row(record: dict[str, Any], game_id: str, status: str = "finished") -> GameRecord:
    """The games row an import of `record` would store (no result: nothing reads it here)."""
    return GameRecord.imported_game(
        game_id, record, seed_hash(record["seed"]), len(record["actions"]), None, status
    )


def check_patched_replay(client: TestClient, game_id: str, full: dict[str, Any]) -> None:
    """`?frames=patches` (the replay page's encoding) rebuilds exactly the whole frames,
    compared as JSON (where `true` is not `1`), with every other field the same."""
    patched = client.get(f"/api/games/{game_id}/replay", params={"frames": "patches"}).json()
    frames = [patched.pop("start")]
    for ops in patched.pop("patches"):
        frames.append(apply_patch(frames[-1], ops))
    assert json.dumps(frames, sort_keys=True) == json.dumps(full["frames"], sort_keys=True)
    assert patched == {key: value for key, value in full.items() if key != "frames"}


def make_room(client: TestClient, names: list[str], **options: Any) -> tuple[str, list[str]]:
    """A classic room with these players seated; returns (code, tokens)."""
    response = client.post("/api/rooms", json={"variant": "classic", "options": options})
    assert response.status_code == 201, response.text
    code = response.json()["code"]
    tokens = []
    for name in names:
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens


def start(client: TestClient, code: str, token: str) -> str:
    response = client.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()["game_id"]


def receive_until(
    ws: WebSocketTestSession, kind: str, limit: int = 50, log: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The next message of type `kind`, skipping others (room updates, chat); every message
    read, skipped or not, is appended to `log` when given (to check all a client got)."""
    for _ in range(limit):
        message = ws.receive_json()
        if log is not None:
            log.append(message)
        if message["type"] == kind:
            return message
        if message["type"] == "error":
            raise AssertionError(f"expected {kind}, got {message}")
    raise AssertionError(f"no {kind} message in {limit}")


def hello(ws: WebSocketTestSession, token: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Send hello; return the welcome and the first state."""
    ws.send_json({"type": "hello", "token": token})
    welcome = receive_until(ws, "welcome")
    return welcome, receive_until(ws, "state")


def greedy_record(
    players: int = 2,
    seed: str = "replay-seed",
    min_actions: int = 0,
    max_actions: int = 3000,
    **options: Any,
) -> dict[str, Any]:
    """The record of a whole classic game played by greedy bots, without a server.

    With `min_actions`, two choices in three are random instead, and seeds are tried in
    turn (`seed`, `seed-1`, ...) until a game's length is within [min_actions,
    max_actions]: long games for replay benchmarks, deterministic for a given seed.
    """
    import random

    from app.bots.greedy import choose
    from app.rules import Game

    for attempt in range(200):
        game_seed = seed if attempt == 0 else f"{seed}-{attempt}"
        names = ["Ann", "Bob", "Cy", "Di"][:players]
        game = Game.new("classic", names, game_seed, options)
        rng = random.Random(game_seed)
        while game.result is None and game.seq < 3000:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions(seat)
            wander = min_actions and rng.random() < 0.67
            action = rng.choice(legal) if wander else choose(game.view(seat), legal, rng)
            game.apply(seat, action)
        if game.result is not None and min_actions <= game.seq <= max_actions:
            return game.record()
    raise AssertionError(f"no finished game of {min_actions}-{max_actions} actions in 200 seeds")


def make_variant_room(
    client: TestClient, variant: str, names: list[str], **options: Any
) -> tuple[str, list[str]]:
    """A room of `variant` with these players seated; returns (code, tokens)."""
    response = client.post("/api/rooms", json={"variant": variant, "options": options})
    assert response.status_code == 201, response.text
    code = response.json()["code"]
    tokens = []
    for name in names:
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens


# -- driving a whole game over WebSockets, shared by the per-variant and replay tests -----

Chooser = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]


def legal(ws: WebSocketTestSession, ref: str = "q") -> dict[str, Any]:
    """Ask for the legal actions; returns the `legal` answer."""
    ws.send_json({"type": "legal", "id": ref})
    return receive_until(ws, "legal")


def act(ws: WebSocketTestSession, seq: int, action: dict[str, Any], ref: str = "a") -> None:
    """Send an action for the current `seq` (the answer is read by the caller)."""
    ws.send_json({"type": "action", "id": ref, "seq": seq, "action": action})


def team_pick(
    view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """Team Edition play: mostly busy (push, rotate, move ...), sometimes ending the turn at
    once, so that whole games reach both Daedalus's end and collected treasures."""
    busy = [a for a in actions if a["type"] != "end"]
    return rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(actions)


def cards_pick(
    view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """Card-game play: the largest take (listed first) or a random placement, so that
    takes happen and a game ends in a few dozen actions."""
    return actions[0] if actions[0]["type"] == "take" else rng.choice(actions)


def actor_of(view: dict[str, Any]) -> int:
    """The seat to act in a running game's view: master's `turn.actor` (a duellist may
    decide on another's turn), else the turn's seat."""
    turn = view["turn"]
    return turn.get("actor", turn["seat"])


@dataclass
class PlayedGame:
    """A whole game played over WebSockets: every `state` each viewer received, by seq
    (`seen[None]` is the spectator's), and every message the spectator received."""

    id: str
    seq: int
    seen: dict[int | None, list[dict[str, Any]]]
    spectator_log: list[dict[str, Any]] = field(default_factory=list)


def play_whole_game(
    client: TestClient,
    variant: str,
    players: int,
    choose: Chooser,
    seed: int = 11,
    max_actions: int = 2000,
    **options: Any,
) -> PlayedGame:
    """Play a room of `variant` to its end: each mover picks with `choose` from its own
    view and its `legal` list, every seat and one spectator record every `state`."""
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"][:players]
    code, tokens = make_variant_room(client, variant, names, **options)
    game_id = start(client, code, tokens[0])
    rng = random.Random(seed)
    sockets = [client.websocket_connect(f"/ws/{code}") for _ in range(players + 1)]
    entered = [s.__enter__() for s in sockets]
    seen: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat in range(players)}
    seen[None] = []
    spectator_log: list[dict[str, Any]] = []
    try:
        seats, spy = entered[:players], entered[players]
        for seat, (ws, token) in enumerate(zip(seats, tokens, strict=True)):
            seen[seat].append(hello(ws, token)[1])
        spy.send_json({"type": "hello", "token": None})
        receive_until(spy, "welcome", log=spectator_log)
        seen[None].append(receive_until(spy, "state", log=spectator_log))
        assert client.get(f"/api/games/{game_id}").json()["watching"] == 1
        seq = 0
        while seen[None][-1]["view"]["status"] == "playing":
            mover = actor_of(seen[None][-1]["view"])
            listed = legal(seats[mover])
            assert listed["seq"] == seq and listed["actions"], listed
            act(seats[mover], seq, choose(seen[mover][-1]["view"], listed["actions"], rng))
            seq += 1
            for seat, ws in enumerate(seats):
                seen[seat].append(receive_until(ws, "state"))
            seen[None].append(receive_until(spy, "state", log=spectator_log))
            assert seq < max_actions, f"{variant}: no end in {max_actions} actions"
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)
    return PlayedGame(game_id, seq, seen, spectator_log)


# -- what each viewer may see while a game runs, per variant ------------------------------


def check_master_secrecy(views: list[dict[str, Any]], spy: dict[str, Any]) -> None:
    """Master: while playing, a seat's view has its own hand only; the spectator's none."""
    for seat, state in enumerate(views):
        view = state["view"]
        if view["status"] == "playing":
            assert [("hand" in p) for p in view["players"]] == [
                p["seat"] == seat for p in view["players"]
            ]
    if spy["view"]["status"] == "playing":
        assert all("hand" not in p for p in spy["view"]["players"])


def assert_no_team_secret(message: dict[str, Any]) -> None:
    """Team: a running game's message shows face-down tiles as backs only and no deck order."""
    text = json.dumps(message)
    assert "deck_order" not in text

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if value.get("face_down") is True:
                assert value == {"face_down": True, "fixed": False}
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(message)


def check_cards_secrecy(states: list[dict[str, Any]], spy: dict[str, Any]) -> None:
    """Cards: each seat sees its own hand only; the spectator none; everyone the counts."""
    if spy["view"]["status"] != "playing":
        return
    assert all("hand" not in p for p in spy["view"]["players"])
    for seat, state in enumerate(states):
        for player in state["view"]["players"]:
            assert ("hand" in player) == (player["seat"] == seat)
            assert player["hand_count"] == len(
                states[player["seat"]]["view"]["players"][player["seat"]]["hand"]
            )
        drew = [e for e in (state["last"] or {}).get("events", []) if e["type"] == "drew"]
        assert all(("cards" in e) == (e["seat"] == seat) for e in drew)


def stored_actions(database_url: str, game_id: str) -> list[tuple[int, int, str | None]]:
    """(seq, seat, by) of each action stored for `game_id`, read from the database itself."""
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine)() as s:
            rows = s.execute(
                select(models.Action.seq, models.Action.seat, models.Action.by)
                .where(models.Action.game_id == game_id)
                .order_by(models.Action.seq)
            ).all()
            return [(r[0], r[1], r[2]) for r in rows]
    finally:
        engine.dispose()


def push_deadline_back(database_url: str, game_id: str) -> None:
    """The current turn's deadline, as if it had passed: the game's start and every stored
    action a minute earlier (the clock is replayed from these times)."""
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine)() as s, s.begin():
            for action in s.scalars(select(models.Action).where(models.Action.game_id == game_id)):
                action.created_at = action.created_at - timedelta(seconds=61)
            row = s.get(models.Game, game_id)
            assert row is not None
            row.started_at = row.started_at - timedelta(seconds=61)
            row.deadline = datetime.now(UTC) - timedelta(seconds=1)
    finally:
        engine.dispose()
