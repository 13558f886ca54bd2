"""The promise about stored games, checked end to end: "every finished game can be replayed
move by move, exported as a record, imported, and verified against the seed committed at
its start", and "replays and `app.verify` keep working for every game ever stored".

- Migrations: an upgrade from every earlier revision keeps every row (rooms, their seats,
  games, their logs) and the games it kept export, verify and replay as before; the
  migrated schema is the one the models make; the downgrades go back without losing a
  game and up again.
- Round trips: a whole game of each variant played over WebSockets replays as each viewer
  saw it; its export verifies (`python -m app.verify`), imports as the same game, and a
  record tampered with in any of four ways is refused, saying why.
- A live game publishes no record, replay, seed or verification.
- The table's extras (computer seats, a seat taken over and given back, a timed-out turn,
  a leaver, "play again") leave records that verify and replays that mark those moves.
- The stored old records (`tests/fixtures/records_v1`) import, export unchanged, verify
  and replay with the events they were made with.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient

from app import verify as verify_cli
from app.bots.greedy import choose as greedy_choose
from app.bots.master import choose as master_choose
from app.config import ROOT, Settings
from app.main import create_app
from app.records import replay_data
from app.rooms.clock import TIMEOUT_BY
from app.rules import Game, IllegalAction, get_engine, seed_hash
from app.store import migrate
from app.store.db import make_engine, normalise_url, scratch_database
from app.store.models import Base
from tests.conftest import POSTGRES_URL
from tests.server.helpers import (
    Chooser,
    PlayedGame,
    cards_pick,
    check_patched_replay,
    hello,
    play_whole_game,
    push_deadline_back,
    receive_until,
    stored_actions,
    team_pick,
)

FIXTURES = ROOT / "tests" / "fixtures" / "records_v1"
DIGESTS: dict[str, str] = json.loads((FIXTURES / "events.sha256.json").read_text("utf-8"))
FIXTURE_NAMES = sorted(DIGESTS)


def load_fixture(name: str) -> dict[str, Any]:
    return dict(json.loads((FIXTURES / name).read_text("utf-8")))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- migrations ----------------------------------------------------------------------------


def alembic_config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))
    return config


REVISIONS = [
    script.revision
    for script in reversed(
        list(ScriptDirectory.from_config(alembic_config("sqlite://")).walk_revisions())
    )
]


def move_schema(url: str, revision: str, down: bool = False) -> None:
    """Upgrade or downgrade to `revision` with the app's engine (its SQLite pragmas
    included). An upgrade here only ever starts from an empty database; a downgrade,
    which finds rows, goes through the runner's own connection, as `migrate.upgrade`."""
    config = alembic_config(url)
    engine = make_engine(url)
    try:
        if not down:
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
            return
        with migrate.schema_connection(engine) as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, revision)
    finally:
        engine.dispose()


ROOM = "ROOMV1"
ROOM_GAME = "classic-2p.json"


def game_id_of(name: str) -> str:
    return "g-" + hashlib.sha256(name.encode()).hexdigest()[:12]


def fill_old_schema(url: str) -> None:
    """Rows as any earlier revision holds them (only its columns): a room whose seats play
    its game (the classic fixture), and every stored old record as a finished game."""
    engine = make_engine(url)
    tables = sa.MetaData()
    tables.reflect(engine)
    now = datetime.now(UTC)
    try:
        with engine.begin() as conn:
            conn.execute(
                tables.tables["rooms"].insert(),
                [{"code": ROOM, "variant": "classic", "options": {}, "created_at": now}],
            )
            for name in FIXTURE_NAMES:
                record = load_fixture(name)
                in_room = name == ROOM_GAME
                conn.execute(
                    tables.tables["games"].insert(),
                    [
                        {
                            "id": game_id_of(name),
                            "room_code": ROOM if in_room else None,
                            "variant": record["variant"],
                            "options": record["options"],
                            "players": record["players"],
                            "seed": record["seed"],
                            "seed_hash": seed_hash(record["seed"]),
                            "status": "finished",
                            "seq": len(record["actions"]),
                            "result": record["result"],
                            "started_at": now,
                            "finished_at": now,
                            "imported": not in_room,
                        }
                    ],
                )
                conn.execute(
                    tables.tables["actions"].insert(),
                    [
                        {
                            "game_id": game_id_of(name),
                            "seq": entry["seq"],
                            "seat": entry["seat"],
                            "payload": entry["action"],
                            "created_at": now,
                        }
                        for entry in record["actions"]
                    ],
                )
            conn.execute(
                tables.tables["rooms"].update().where(tables.tables["rooms"].c.code == ROOM),
                {"game_id": game_id_of(ROOM_GAME)},
            )
            conn.execute(
                tables.tables["seats"].insert(),
                [
                    {
                        "room_code": ROOM,
                        "seat": seat,
                        "name": name,
                        "kind": "human",
                        "token_hash": f"{seat}" * 64,
                        "joined_at": now,
                    }
                    for seat, name in enumerate(load_fixture(ROOM_GAME)["players"])
                ],
            )
    finally:
        engine.dispose()


def stored_rows(url: str) -> dict[str, Any]:
    """What must survive a migration: the count of each table's rows, the room's seats and
    the game's link to its room."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            counts = {
                table: conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar()
                for table in ("rooms", "seats", "games", "actions")
            }
            seats = conn.execute(
                sa.text("SELECT seat, name FROM seats WHERE room_code = :c ORDER BY seat"),
                {"c": ROOM},
            ).all()
            link = conn.execute(
                sa.text("SELECT room_code FROM games WHERE id = :g"), {"g": game_id_of(ROOM_GAME)}
            ).scalar()
            return counts | {"seats_of_room": [tuple(s) for s in seats], "room_of_game": link}
    finally:
        engine.dispose()


@pytest.mark.parametrize("revision", REVISIONS[:-1])
def test_an_upgrade_from_every_revision_keeps_every_row(database_url: str, revision: str) -> None:
    """From 0001 and 0002, SQLite lost every room's seats and every game's room: revision
    0003 rebuilds `rooms` (batch mode), and with foreign keys on, the DROP TABLE of the
    rebuild cascaded. The runner now turns them off for the migration."""
    move_schema(database_url, revision)
    fill_old_schema(database_url)
    before = stored_rows(database_url)
    assert before["seats_of_room"] == [(0, "P0"), (1, "P1")]
    migrate.upgrade(database_url)
    assert stored_rows(database_url) == before


def test_the_alembic_command_keeps_every_row_too(database_url: str) -> None:
    """`alembic upgrade head` (the command line: migrations/env.py makes its own
    connection) from the first revision, as an operator would run it."""
    move_schema(database_url, REVISIONS[0])
    fill_old_schema(database_url)
    before = stored_rows(database_url)
    command.upgrade(alembic_config(database_url), "head")
    assert stored_rows(database_url) == before


def test_games_stored_by_the_first_revision_still_export_verify_and_replay(
    database_url: str,
) -> None:
    move_schema(database_url, REVISIONS[0])
    fill_old_schema(database_url)
    app = create_app(Settings(database_url=database_url, replay_processes=0, computer_pause=0))
    with TestClient(app) as client:  # start-up migrates to head
        room = client.get(f"/api/rooms/{ROOM}").json()
        assert [s["name"] for s in room["seats"]] == ["P0", "P1"]
        assert room["game_id"] == game_id_of(ROOM_GAME)
        for name in FIXTURE_NAMES:
            record, game_id = load_fixture(name), game_id_of(name)
            exported = client.get(f"/api/games/{game_id}/record").json()
            assert exported == record | {"id": game_id}, name
            checked = client.post(f"/api/games/{game_id}/verify").json()
            assert checked["ok"] is True, (name, checked)
            replay = client.get(f"/api/games/{game_id}/replay").json()
            offline = replay_data(record)
            assert replay["moves"] == offline["moves"] and replay["frames"] == offline["frames"]
        assert client.get(f"/api/games/{game_id_of(ROOM_GAME)}").json()["room"] == ROOM


@contextlib.contextmanager
def another_database(database_url: str, tmp_path: Path) -> Iterator[str]:
    """An empty database of the same kind as `database_url`."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'create_all.sqlite3'}"
        return
    with scratch_database(POSTGRES_URL) as url:
        yield url


def schema_of(url: str) -> dict[str, Any]:
    """Every table's columns (type, nullability, server default), primary key, foreign keys
    (with their ON DELETE), indexes, unique and check constraints, as the database says."""
    engine = make_engine(url)
    try:
        inspector = sa.inspect(engine)
        schema: dict[str, Any] = {}
        for table in inspector.get_table_names():
            if table == "alembic_version":
                continue
            columns = {
                c["name"]: (
                    str(c["type"]),
                    getattr(c["type"], "timezone", None),
                    c["nullable"],
                    None if c.get("default") is None else str(c["default"]),
                )
                for c in inspector.get_columns(table)
            }
            schema[table] = {
                "columns": columns,
                "primary_key": inspector.get_pk_constraint(table)["constrained_columns"],
                "foreign_keys": sorted(
                    (
                        tuple(fk["constrained_columns"]),
                        fk["referred_table"],
                        tuple(fk["referred_columns"]),
                        (fk.get("options") or {}).get("ondelete"),
                    )
                    for fk in inspector.get_foreign_keys(table)
                ),
                "indexes": sorted(
                    (ix["name"], tuple(ix["column_names"]), bool(ix["unique"]))
                    for ix in inspector.get_indexes(table)
                ),
                "unique": sorted(
                    tuple(u["column_names"]) for u in inspector.get_unique_constraints(table)
                ),
                "checks": sorted(str(c["sqltext"]) for c in inspector.get_check_constraints(table)),
            }
        return schema
    finally:
        engine.dispose()


def test_the_migrated_schema_is_the_one_the_models_make(database_url: str, tmp_path: Path) -> None:
    migrate.upgrade(database_url)
    with another_database(database_url, tmp_path) as fresh:
        engine = make_engine(fresh)
        try:
            Base.metadata.create_all(engine)
        finally:
            engine.dispose()
        assert schema_of(database_url) == schema_of(fresh)


def test_every_downgrade_keeps_the_games_and_the_way_back_up_works(database_url: str) -> None:
    """Down one revision at a time from head with data in: no game, action or seat is lost
    on the way (0005's repair of names has nothing to undo); down to nothing, then up."""
    move_schema(database_url, REVISIONS[0])
    fill_old_schema(database_url)
    kept = stored_rows(database_url)
    migrate.upgrade(database_url)
    for revision in reversed(REVISIONS[:-1]):
        move_schema(database_url, revision, down=True)
        assert stored_rows(database_url) == kept, revision
    move_schema(database_url, "base", down=True)
    engine = make_engine(database_url)
    try:
        assert set(sa.inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()
    migrate.upgrade(database_url)
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    finally:
        engine.dispose()


# -- round trips of games played here -------------------------------------------------------


def classic_pick(
    view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    return greedy_choose(view, actions, rng)


@dataclass(frozen=True)
class Variant:
    """One variant and player count of the round trip."""

    name: str
    variant: str
    players: int
    choose: Chooser
    options: dict[str, Any]


VARIANTS = [
    Variant("classic", "classic", 2, classic_pick, {}),
    Variant("classic-events", "classic", 3, classic_pick, {"events": True}),
    Variant("classic-younger", "classic", 2, classic_pick, {"return_home": False}),
    Variant("master", "master", 2, master_choose, {}),
    Variant("team-introductory", "team", 2, team_pick, {"mode": "introductory"}),
    Variant("team-standard", "team", 3, team_pick, {"mode": "standard"}),
    Variant("team-expert", "team", 4, team_pick, {"mode": "expert"}),
    Variant("cards-2", "cards", 2, cards_pick, {}),
    Variant("cards-6", "cards", 6, cards_pick, {}),
]


def check_replay_is_what_each_viewer_saw(client: TestClient, played: PlayedGame) -> dict[str, Any]:
    """The replay API's frames are, step by step, the record re-played and revealed, and
    every seat's and the spectator's `state` at each step is that re-play viewed by them."""
    record = client.get(f"/api/games/{played.id}/record").json()
    replay = client.get(f"/api/games/{played.id}/replay").json()
    engine = get_engine(record["variant"])
    assert len(record["actions"]) == played.seq == replay["seq"]
    assert len(replay["frames"]) == played.seq + 1
    game = Game.new(record["variant"], record["players"], record["seed"], record["options"])
    for k in range(played.seq + 1):
        if k:
            entry = record["actions"][k - 1]
            game.apply(entry["seat"], entry["action"])
            move = replay["moves"][k - 1]
            assert (move["seq"], move["seat"], move["action"]) == (
                k,
                entry["seat"],
                entry["action"],
            )
        for viewer, states in played.seen.items():
            assert states[k]["seq"] == k
            assert states[k]["view"] == game.view(viewer), (record["variant"], viewer, k)
        assert replay["frames"][k] == engine.reveal(game.state), (record["variant"], k)
    assert replay["result"] == record["result"] == game.result
    check_patched_replay(client, played.id, replay)
    assert client.get(f"/replay/{played.id}").status_code == 200
    return dict(record)


def run_cli(tmp_path: Path, record: Any, *extra: str) -> tuple[int, str]:
    """`python -m app.verify` on `record` written to a file: its exit code and output."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = verify_cli.main([str(path), *extra])
    return code, out.getvalue()


def still_a_game(record: dict[str, Any]) -> bool:
    """Whether `record` re-plays to the end with the result it claims: a record whose
    changed action let every later one stay legal and end the same is a game all the
    same, which no check can refuse."""
    game = Game.new(record["variant"], record["players"], record["seed"], record["options"])
    try:
        for entry in record["actions"]:
            game.apply(entry["seat"], entry["action"])
    except IllegalAction:
        return False
    return game.result is not None and game.result == record["result"]


def action_changed(record: dict[str, Any]) -> dict[str, Any]:
    """The record with one action replaced by another legal one at its turn: the first
    such change (in the log's order, the alternatives last first) that leaves a record
    the rules refuse (a later action illegal, the game unfinished or over early, another
    result). Taking the first change blindly let an event game's other push leave every
    later action legal and the result the same, now and then: a game, imported."""
    game = Game.new(record["variant"], record["players"], record["seed"], record["options"])
    for index, entry in enumerate(record["actions"]):
        others = [a for a in game.legal_actions(entry["seat"]) if a != entry["action"]]
        for other in reversed(others):
            changed = copy.deepcopy(record)
            changed["actions"][index]["action"] = other
            if not still_a_game(changed):
                return changed
        game.apply(entry["seat"], entry["action"])
    raise AssertionError("no change of one action makes this record refused")


def tampered(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The record changed four ways: one action another legal one (`action_changed`),
    its seed, its result, and one more action after the end."""
    changed = action_changed(record)
    reseeded = copy.deepcopy(record) | {"seed": record["seed"] + "x"}
    result = copy.deepcopy(record)
    result["result"] = dict(result["result"]) | {"winners": [len(record["players"]) + 1]}
    appended = copy.deepcopy(record)
    last = appended["actions"][-1]
    appended["actions"].append(
        {"seq": last["seq"] + 1, "seat": last["seat"], "action": last["action"]}
    )
    return {"action": changed, "seed": reseeded, "result": result, "appended": appended}


# What refuses each tampering: the import's `reason`s, and the checks of `app.verify`
# one of which must fail (an action changed is seen where the re-play parts from it).
REFUSED = {
    "action": ({"illegal", "unfinished", "result", "over"}, {"replay", "finished", "result"}),
    "seed": ({"seed_hash"}, {"seed_hash"}),
    "result": ({"result"}, {"result"}),
    "appended": ({"over"}, {"replay"}),
}


def check_export_import_verify(client: TestClient, game_id: str, tmp_path: Path) -> dict[str, Any]:
    """The export verifies with `python -m app.verify`, imports back as the same game, and
    each tampered copy is refused by both, naming what is wrong."""
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["id"] == game_id and record["seed_hash"] == seed_hash(record["seed"])
    code, out = run_cli(tmp_path, record)
    assert code == 0 and out.strip().endswith("verified"), out
    again = client.post("/api/games/import", json=record)
    assert again.status_code == 201, again.text
    assert again.json() == {
        "id": game_id,
        "url": f"/replay/{game_id}",
        "seq": len(record["actions"]),
        "existing": True,
    }
    for how, bad in tampered(record).items():
        reasons, checks = REFUSED[how]
        refused = client.post("/api/games/import", json=bad)
        assert refused.status_code == 422, (how, refused.text)
        error = refused.json()["error"]
        assert error["code"] == "invalid_record" and error["reason"] in reasons, (how, error)
        assert error["message"], how
        code, out = run_cli(tmp_path, bad)
        failed = {
            line.split()[1].rstrip(":") for line in out.splitlines() if line.startswith("FAIL")
        }
        assert code == 1 and failed & checks, (how, out)
        assert out.strip().endswith("NOT verified"), out
    return dict(record)


@pytest.mark.parametrize("case", VARIANTS, ids=[v.name for v in VARIANTS])
def test_every_variant_replays_exports_imports_and_verifies(
    fast_client: TestClient, case: Variant, tmp_path: Path
) -> None:
    played = play_whole_game(
        fast_client,
        case.variant,
        case.players,
        case.choose,
        seed=5,
        max_actions=4000,
        **case.options,
    )
    record = check_replay_is_what_each_viewer_saw(fast_client, played)
    assert record["variant"] == case.variant and len(record["players"]) == case.players
    for key, value in case.options.items():
        assert record["options"][key] == value
    check_export_import_verify(fast_client, played.id, tmp_path)
    checked = fast_client.post(f"/api/games/{played.id}/verify").json()
    assert checked["ok"] is True and checked["imported"] is False, checked


@pytest.mark.parametrize("variant", ["classic", "master", "team", "cards"])
def test_a_live_game_publishes_no_record_replay_seed_or_verification(
    client: TestClient, variant: str
) -> None:
    made = client.post(
        "/api/rooms", json={"variant": variant, "name": "Ann", "computers": ["easy"]}
    ).json()
    code = made["code"]
    game_id = client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"])).json()[
        "game_id"
    ]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, made["token"])
    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "live" and "seed" not in game
    seed = client.app.state.repo.get_game(game_id).seed  # type: ignore[attr-defined]
    for path in ("record", "replay", "analysis"):
        answer = client.get(f"/api/games/{game_id}/{path}")
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_live", path
        assert seed not in answer.text
    answer = client.post(f"/api/games/{game_id}/verify")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_live"
    for path in (
        f"/api/games/{game_id}",
        f"/replay/{game_id}",
        f"/api/rooms/{code}/view",
        f"/api/rooms/{code}",
        "/api/games?status=live",
    ):
        assert seed not in client.get(path).text, path


# -- the table's extras ----------------------------------------------------------------------


def next_state(ws: Any, seq: int) -> dict[str, Any]:
    """The next `state` past `seq` (a state may come again at the same seq: a clock's)."""
    state = receive_until(ws, "state")
    while state["seq"] <= seq:
        state = receive_until(ws, "state")
    return state


def until_turn(ws: Any, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The first `state` from `state` on where it is `seat`'s turn."""
    while state["view"]["turn"]["seat"] != seat:
        state = next_state(ws, state["seq"])
    return state


def play_turns(ws: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    """Play `seat`'s moves on `ws` until the turn passes; the last `state` read."""
    while True:
        ws.send_json({"type": "legal", "id": "l"})
        listed = receive_until(ws, "legal")
        ws.send_json(
            {
                "type": "action",
                "id": "a",
                "seq": listed["seq"],
                "action": rng.choice(listed["actions"]),
            }
        )
        state = next_state(ws, listed["seq"])
        if state["view"]["status"] != "playing" or state["view"]["turn"]["seat"] != seat:
            return state


@pytest.mark.slow  # two whole games with computer seats: about 40 s, in `scripts/test --rest`
def test_a_table_s_extras_leave_records_that_verify(
    client: TestClient, database_url: str, tmp_path: Path
) -> None:
    """Ann, Bob and a computer seat on a turn clock: Ann plays, Bob's turn times out, the
    computer takes Bob's seat over and Bob takes it back, Bob leaves, the computer finishes
    for Ann; then "play again" starts the next game. Both games' replays mark the server's
    moves as the log does, their exports carry no such mark, and both verify and import."""
    app_state = client.app.state  # type: ignore[attr-defined]
    made = client.post(
        "/api/rooms",
        json={
            "variant": "classic",
            "name": "Ann",
            "computers": ["easy"],
            "clock": {"kind": "turn", "seconds": 30},
        },
    ).json()
    code = made["code"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    first = client.post(f"/api/rooms/{code}/start", headers=bearer(made["token"])).json()["game_id"]
    rng = random.Random(3)
    call = client.portal.call  # type: ignore[union-attr]
    with client.websocket_connect(f"/ws/{code}") as ann_ws:
        hello(ann_ws, made["token"])
        state = play_turns(ann_ws, 0, rng)  # Ann; then the computer (seat 1); then Bob
        state = until_turn(ann_ws, state, 2)
        push_deadline_back(database_url, first)
        state = next_state(ann_ws, state["seq"])
        assert state["last"]["by"] == TIMEOUT_BY and state["last"]["seat"] == 2
        state = until_turn(ann_ws, state, 0)
        call(app_state.computer.control, code, 2, "easy", "away")  # Bob is taken over
        state = play_turns(ann_ws, 0, rng)
        state = until_turn(ann_ws, state, 0)
        with client.websocket_connect(f"/ws/{code}") as bob_ws:
            hello(bob_ws, bob["token"])  # his seat is his again
            bob_ws.send_json({"type": "back"})
            bob_ws.send_json({"type": "leave"})
            receive_until(bob_ws, "seat_moved")
    call(app_state.computer.control, code, 0, "easy", "away")
    call(app_state.computer.idle)
    assert client.get(f"/api/games/{first}").json()["status"] == "finished"
    assert client.get(f"/api/games/{first}").json()["left"] == [2]
    offer = client.post(f"/api/rooms/{code}/rematch", headers=bearer(made["token"]))
    assert offer.status_code == 200, offer.text
    second = client.get(f"/api/rooms/{code}").json()["game_id"]
    assert second != first
    call(app_state.computer.control, code, 0, "easy", "away")
    call(app_state.computer.idle)
    assert client.get(f"/api/games/{second}").json()["status"] == "finished"
    kinds: set[str | None] = set()
    for game_id in (first, second):
        logged = stored_actions(database_url, game_id)
        kinds |= {by for _, _, by in logged}
        replay = client.get(f"/api/games/{game_id}/replay").json()
        assert [(m["seq"], m["seat"], m.get("by")) for m in replay["moves"]] == logged
        record = check_export_import_verify(client, game_id, tmp_path)
        assert all(set(entry) == {"seq", "seat", "action"} for entry in record["actions"])
        assert client.post(f"/api/games/{game_id}/verify").json()["ok"] is True
    assert {None, TIMEOUT_BY, "computer:seat", "computer:away", "computer:left"} <= kinds


# -- the stored old records ------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_an_old_record_imports_exports_verifies_and_replays_identically(
    fast_client: TestClient, name: str, tmp_path: Path
) -> None:
    record = load_fixture(name)
    imported = fast_client.post("/api/games/import", json=record)
    assert imported.status_code == 201, imported.text
    game_id = imported.json()["id"]
    assert fast_client.get(f"/api/games/{game_id}/record").json() == record | {"id": game_id}
    checked = fast_client.post(f"/api/games/{game_id}/verify").json()
    assert checked["ok"] is True and checked["imported"] is True, checked
    replay = fast_client.get(f"/api/games/{game_id}/replay").json()
    offline = replay_data(record)
    assert replay["moves"] == offline["moves"] and replay["frames"] == offline["frames"]
    events = [move["events"] for move in replay["moves"]]
    assert hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest() == DIGESTS[name]
    check_export_import_verify(fast_client, game_id, tmp_path)
