"""History, replays, import and verification through the real app.

The central check: a whole game is played over WebSockets, every `state` each player and
a spectator received is kept, and the replay recomputed from the record must show, at
every step, exactly what each of them saw then.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import time
from typing import Any

from fastapi.testclient import TestClient

from app.bots.greedy import choose
from app.config import Settings
from app.main import create_app
from app.records import replay_data
from app.replays import VERSION
from app.rules import Game, get_engine
from tests.server.helpers import (
    check_patched_replay,
    greedy_record,
    hello,
    make_room,
    play_whole_game,
    start,
)

SECRET_PLAYER_FIELDS = {"target", "pile", "peek"}


def play_recording(client: TestClient, players: int, **options: Any) -> dict[str, Any]:
    """Play a whole game with greedy bots over WebSockets; return the game id and the
    `state` messages each seat and a spectator received, by seq."""
    played = play_whole_game(client, "classic", players, choose, seed=11, **options)
    return {"id": played.id, "seen": played.seen, "seq": played.seq}


def test_replay_equals_what_everyone_saw_at_every_step(fast_client: TestClient) -> None:
    played = play_recording(fast_client, 3, events=True)
    game_id, seen = played["id"], played["seen"]
    record = fast_client.get(f"/api/games/{game_id}/record").json()
    assert len(record["actions"]) == played["seq"]
    engine = get_engine("classic")
    replay = fast_client.get(f"/api/games/{game_id}/replay").json()
    assert len(replay["frames"]) == played["seq"] + 1
    assert [m["seq"] for m in replay["moves"]] == list(range(1, played["seq"] + 1))
    for k in range(played["seq"] + 1):
        game = Game.from_record(record, upto=k)
        assert game.seq == k
        for viewer, states in seen.items():
            assert states[k]["seq"] == k
            assert game.view(viewer) == states[k]["view"], (viewer, k)
        assert replay["frames"][k] == engine.reveal(game.state)
        if k:
            move = replay["moves"][k - 1]
            assert move["action"] == record["actions"][k - 1]["action"]
            assert move["notation"] == engine.notation(move["action"])
            # players saw their own move's notation unredacted in `last`
            assert seen[move["seat"]][k]["last"]["notation"] == move["notation"]
    assert replay["result"] == seen[None][-1]["view"]["result"]
    assert replay["seed_hash"] and replay["seed"] and replay["imported"] is False
    check_patched_replay(fast_client, game_id, replay)


def test_a_spectator_never_receives_a_secret(fast_client: TestClient) -> None:
    played = play_recording(fast_client, 2, events=True)
    revealed: set[str] = set()
    playing = [s for s in played["seen"][None] if s["view"]["status"] == "playing"]
    assert len(playing) == played["seq"]
    for state in playing:
        for player in state["view"]["players"]:
            assert not SECRET_PLAYER_FIELDS & set(player), player
        last = state["last"] or {"action": {}, "events": []}
        assert "treasure" not in last["action"] or last["action"]["type"] != "pick"
        for event in last["events"]:
            assert event["type"] != "target"
            assert event["type"] != "picked" or "treasure" not in event
            if event["type"] == "event":
                revealed.add(event["name"])
        board = state["view"]["board"]
        shown = {t["event"] for row in board["tiles"] for t in row if t["event"]}
        shown |= {board["spare"]["event"]} - {None}
        assert shown <= revealed, (shown, revealed)
    # once finished, the spectator sees everything, as the replay does
    final = played["seen"][None][-1]["view"]
    assert all("pile" in p for p in final["players"])


def test_replay_of_a_live_game_is_refused(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    for path in ("replay",):
        response = client.get(f"/api/games/{game_id}/{path}")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "game_live"
    assert client.post(f"/api/games/{game_id}/verify").json()["error"]["code"] == "game_live"
    assert client.get("/api/games/nope/replay").status_code == 404
    assert client.post("/api/games/nope/verify").status_code == 404
    live = client.get(f"/api/games/{game_id}").json()
    assert live["watching"] == 0 and "seed" not in live
    assert live["at_table"] == 0


def test_a_live_game_says_whether_anyone_is_at_its_table(client: TestClient) -> None:
    """A game whose players all went stays in the live list until it is adjourned: the
    lobby says nobody is at its table (whoever watches it), so a stranger's "Watch" does
    not open a frozen game unawares."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])

    def listed() -> dict[str, Any]:
        games = client.get("/api/games", params={"status": "live"}).json()["games"]
        entry = next(g for g in games if g["id"] == game_id)
        alone = client.get(f"/api/games/{game_id}").json()
        assert (alone["at_table"], alone["watching"]) == (entry["at_table"], entry["watching"])
        return entry

    assert (listed()["at_table"], listed()["watching"]) == (0, 0)
    with (
        client.websocket_connect(f"/ws/{code}") as ann,
        client.websocket_connect(f"/ws/{code}") as spy,
    ):
        hello(ann, tokens[0])
        hello(spy, None)
        assert (listed()["at_table"], listed()["watching"]) == (1, 1)
        with client.websocket_connect(f"/ws/{code}") as bob:
            hello(bob, tokens[1])
            assert listed()["at_table"] == 2
    assert (listed()["at_table"], listed()["watching"]) == (0, 0)


def test_import_a_valid_record_then_it_replays(client: TestClient) -> None:
    record = greedy_record(players=2, seed="import-me", events=True)
    response = client.post("/api/games/import", json=record)
    assert response.status_code == 201, response.text
    imported = response.json()
    assert imported["url"] == f"/replay/{imported['id']}"
    game = client.get(f"/api/games/{imported['id']}").json()
    assert game["imported"] is True and game["room"] is None
    assert game["status"] == "finished" and game["seq"] == len(record["actions"])
    assert game["result"] == Game.from_record(record).result
    exported = client.get(f"/api/games/{imported['id']}/record").json()
    assert exported["actions"] == record["actions"] and exported["seed"] == record["seed"]
    replay = client.get(f"/api/games/{imported['id']}/replay").json()
    assert replay["imported"] is True
    assert replay["frames"] == replay_data(record)["frames"]
    assert client.get(f"/replay/{imported['id']}").status_code == 200
    assert client.get("/replay/unknown-game").status_code == 404
    # the exported file (with its seed_hash and result) is that same game: uploaded again,
    # it is not stored again (each upload was one more line of "Recently finished")
    again = client.post("/api/games/import", json=exported)
    assert again.status_code == 201, again.text
    assert again.json() == imported | {"existing": True}
    assert client.get("/api/games", params={"status": "finished"}).json()["total"] == 1
    # the same seed and moves under other names is another game
    renamed = copy.deepcopy(record) | {"players": ["Zoe", "Yann"]}
    third = client.post("/api/games/import", json=renamed)
    assert third.status_code == 201, third.text
    assert third.json()["id"] != imported["id"] and "existing" not in third.json()


def test_a_game_played_here_and_uploaded_is_that_game(fast_client: TestClient) -> None:
    """The record of a game played to its end at a table here, downloaded and uploaded
    again, is that game (its replay), not a copy."""
    played = play_recording(fast_client, 2)
    exported = fast_client.get(f"/api/games/{played['id']}/record").json()
    again = fast_client.post("/api/games/import", json=exported)
    assert again.status_code == 201, again.text
    assert again.json()["id"] == played["id"] and again.json()["existing"] is True


def test_the_replay_is_served_gzipped(client: TestClient) -> None:
    record = greedy_record(players=2, seed="gzip")
    game_id = client.post("/api/games/import", json=record).json()["id"]
    response = client.get(f"/api/games/{game_id}/replay", headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert len(response.json()["frames"]) == len(record["actions"]) + 1
    patched = client.get(
        f"/api/games/{game_id}/replay?frames=patches", headers={"Accept-Encoding": "gzip"}
    )
    assert patched.headers["content-encoding"] == "gzip"
    assert len(patched.json()["patches"]) == len(record["actions"])
    # without gzip, the same body plain
    plain = client.get(f"/api/games/{game_id}/replay", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == response.json()
    assert client.get(f"/api/games/{game_id}/replay?frames=nope").status_code == 422


def import_error(client: TestClient, record: Any, reason: str = "shape") -> str:
    """The refusal's message; its `reason` (ext) must be `reason`, and an action's refusal
    names the action's `seq` (ext) as its message does."""
    response = client.post("/api/games/import", json=record)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_record"
    assert error["reason"] == reason, error
    if reason in ("illegal", "over"):
        assert f"action seq {error['seq']}" in error["message"], error
    else:
        assert "seq" not in error, error
    return error["message"]


def test_a_changed_action_is_refused_naming_its_seq() -> None:
    record = greedy_record(players=2, seed="tamper")
    assert record["actions"][1]["action"]["type"] == "move"
    record["actions"][1]["action"] = {"type": "push", "side": "N", "index": 1, "rotation": 0}
    from app.records import InvalidRecord, replay

    try:
        replay(record)
    except InvalidRecord as exc:
        assert exc.seq == 2 and "action seq 2" in exc.message and exc.reason == "illegal"
    else:
        raise AssertionError("a push in the move phase was accepted")
    try:
        replay(record | {"options": {"nope": True}})
    except InvalidRecord as exc:
        assert exc.seq is None and exc.reason == "options", exc.message
    else:
        raise AssertionError("an unknown option was accepted")


def test_tampered_records_are_refused_on_import(client: TestClient) -> None:
    record = greedy_record(players=2, seed="tamper")
    changed_action = copy.deepcopy(record)
    changed_action["actions"][1]["action"] = {"type": "move", "to": [3, 3]}
    assert "action seq 2" in import_error(client, changed_action, "illegal")
    changed_seed = copy.deepcopy(record) | {"seed": "another seed"}
    assert "action seq" in import_error(client, changed_seed, "illegal")
    exported_style = copy.deepcopy(record) | {"seed_hash": "0" * 64}
    assert "seed_hash" in import_error(client, exported_style, "seed_hash")
    wrong_result = copy.deepcopy(record) | {"result": {"winners": [9], "reason": "home"}}
    assert "result" in import_error(client, wrong_result, "result")
    unfinished = copy.deepcopy(record)
    unfinished["actions"] = unfinished["actions"][:5]
    assert "not over" in import_error(client, unfinished, "unfinished")
    extra = record["actions"][-1] | {"seq": len(record["actions"]) + 1}
    after_end = record | {"actions": [*record["actions"], extra]}
    assert "already over" in import_error(client, after_end, "over")
    assert "unknown variant" in import_error(client, record | {"variant": "chess"})
    assert "lacks" in import_error(client, {"variant": "classic"})
    assert "object" in import_error(client, [1, 2])
    response = client.post("/api/games/import", content=b"{nope")
    assert response.json()["error"]["code"] == "invalid_record"
    assert response.json()["error"]["reason"] == "not_json"
    assert client.get("/api/games", params={"status": "finished"}).json()["total"] == 0


def test_verify_confirms_a_game_and_catches_a_changed_seed(client: TestClient) -> None:
    record = greedy_record(players=2, seed="verify-me")
    game_id = client.post("/api/games/import", json=record).json()["id"]
    answer = client.post(f"/api/games/{game_id}/verify").json()
    assert answer["ok"] is True
    names = {c["name"]: c["ok"] for c in answer["checks"]}
    assert names == {
        "seed_hash": True,
        "replay": True,
        "finished": True,
        "final_seq": True,
        "result": True,
    }
    # someone changes the stored seed afterwards: the published hash no longer matches
    from sqlalchemy import update

    from app.store import models

    repo = client.app.state.repo  # type: ignore[attr-defined]
    with repo._tx() as session:
        session.execute(update(models.Game).where(models.Game.id == game_id).values(seed="forged"))
    answer = client.post(f"/api/games/{game_id}/verify").json()
    assert answer["ok"] is False
    checks = {c["name"]: c["ok"] for c in answer["checks"]}
    assert checks["seed_hash"] is False and checks["replay"] is False


def test_paging_and_filters_newest_first(client: TestClient) -> None:
    ids = []
    for n in range(5):
        record = greedy_record(players=2, seed=f"page-{n}")
        ids.append(client.post("/api/games/import", json=record).json()["id"])
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = client.get(
            "/api/games", params={"status": "finished", "limit": 2, "offset": offset}
        ).json()
        assert page["total"] == 5 and page["limit"] == 2 and page["offset"] == offset
        assert len(page["games"]) <= 2
        for entry in page["games"]:
            assert entry["result"]["winners"] and entry["imported"] is True
            assert "watching" not in entry
        seen += [g["id"] for g in page["games"]]
        offset = page["next_offset"]
    assert seen == list(reversed(ids))
    classic = client.get("/api/games", params={"variant": "classic", "limit": 100}).json()
    assert classic["total"] == 5 and classic["next_offset"] is None
    other = client.get("/api/games", params={"variant": "master"}).json()
    assert other["games"] == [] and other["total"] == 0
    assert client.get("/api/games", params={"offset": -1}).status_code == 422


def test_every_variant_replays_frame_by_frame() -> None:
    """Whatever the variant, the replay's frame k is `reveal` of the record replayed to k,
    and a record replays through the shared import checks (random legal play)."""
    import json

    from app.records import replay
    from app.rules import ENGINES

    for variant, engine in sorted(ENGINES.items()):
        rng = random.Random(variant)
        players = ["Ann", "Bob", "Cy", "Di"][: max(engine.min_players, min(4, engine.max_players))]
        game = Game.new(variant, players, f"seed-{variant}")
        while game.result is None and game.seq < 40:
            seat = game.to_move
            assert seat is not None, variant
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        record = game.record()
        data = replay_data(record)
        assert len(data["frames"]) == game.seq + 1
        json.dumps(data)
        for k in (0, game.seq // 2, game.seq):
            expected = engine.reveal(Game.from_record(record, upto=k).state)
            assert data["frames"][k] == expected, (variant, k)
        assert replay(record).seq == game.seq


def test_replays_are_built_in_a_separate_process(database_url: str) -> None:
    """What a server does by default (`REPLAY_PROCESSES=1`): the build runs in a spawned
    process and its body comes back whole."""
    record = greedy_record(players=2, seed="process")
    app = create_app(Settings(database_url=database_url, replay_processes=1))
    with TestClient(app) as client:
        assert app.state.replays._executor is not None
        game_id = client.post("/api/games/import", json=record).json()["id"]
        replay = client.get(f"/api/games/{game_id}/replay").json()
        assert replay["frames"] == replay_data(record)["frames"]
        check_patched_replay(client, game_id, replay)
        # stored, for every other process and after a restart
        stored = app.state.repo.stored_replay(game_id, VERSION)
        assert stored is not None and json.loads(gzip.decompress(stored))["id"] == game_id
        assert app.state.repo.stored_replay(game_id, "other-code") is None


def test_a_starting_server_builds_the_latest_replays_it_lacks(database_url: str) -> None:
    """After a deploy that changed the engines, the most recently finished games get their
    replay built again at start-up, newest first, before anyone opens them."""
    settings = Settings(database_url=database_url, replay_processes=0, replay_prebuild=2)
    records = [greedy_record(players=2, seed=f"prebuild-{n}", max_actions=80) for n in range(3)]
    app = create_app(settings)
    with TestClient(app) as client:
        ids = [client.post("/api/games/import", json=r).json()["id"] for r in records]
        repo = app.state.repo
        for game_id in ids:  # each import's build, over and stored
            assert client.get(f"/api/games/{game_id}/replay").status_code == 200
        for game_id in ids:  # as if built by the code before the deploy
            repo.store_replay(game_id, "before-the-deploy", b"old")
        assert repo.finished_without_replay(VERSION, 10) == ids[::-1]
    app = create_app(settings)
    with TestClient(app) as client:
        repo = app.state.repo
        for _ in range(100):
            if repo.finished_without_replay(VERSION, 10) == [ids[0]]:
                break
            time.sleep(0.05)
        # the two newest were built again; the oldest waits until someone opens it
        assert repo.finished_without_replay(VERSION, 10) == [ids[0]]
        for game_id in ids[1:]:
            body = json.loads(gzip.decompress(repo.stored_replay(game_id, VERSION)))
            assert body["id"] == game_id
