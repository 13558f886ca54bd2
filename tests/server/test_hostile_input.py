"""Issue 17 (part A): one anonymous client sending hostile input must not freeze a room,
exhaust memory or break the lobby. Each test reproduces a finding of the adversarial pass
(it fails on the code before the fix) and checks the fix."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text as sql

from app import boundedjson
from app.config import Settings
from app.main import create_app
from app.replays import Replays
from app.rooms.connection import CLOSE_SEND_FAILED, Connection
from app.store import migrate
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import ActionRecord, Repository
from app.text import TextError, clean_chat, clean_name, name_key
from app.web.assets import Assets
from app.web.games import CHUNK, gunzipped
from tests.server.helpers import greedy_record, imported_row, make_room, receive_until

RECORD = greedy_record(players=2, seed="hostile", max_actions=80)
JSON = {"content-type": "application/json"}


def error_of(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def post_raw(client: TestClient, url: str, body: str) -> Any:
    """A body sent as written: `\\ud800` escapes reach the server unchanged."""
    return client.post(url, content=body.encode(), headers=JSON)


def next_of(ws: Any, kinds: set[str]) -> dict[str, Any]:
    """The next message whose type is in `kinds` (room updates and the like skipped)."""
    while True:
        message = ws.receive_json()
        if message["type"] in kinds:
            return message


def store_game(client: TestClient, game_id: str, players: list[str]) -> None:
    """A finished game as older code let imports store it (no name rule)."""
    record = RECORD | {"players": players}
    actions = [ActionRecord(a["seq"], a["seat"], a["action"]) for a in record["actions"]]
    client.app.state.repo.import_game(imported_row(record, game_id), actions)


# -- item 1: one name rule; no response costs more than a small multiple of its record ---


def test_a_name_padded_with_spaces_is_refused_by_import_and_join(client: TestClient) -> None:
    padded = "A" + " " * 100_000
    record = RECORD | {"players": [padded, "Bob"]}
    response = client.post("/api/games/import", json=record)
    assert error_of(response) == (422, "invalid_record")
    assert "players[0]" in response.json()["error"]["message"]
    code, _ = make_room(client, [])
    assert error_of(client.post(f"/api/rooms/{code}/join", json={"name": padded})) in {
        (422, "bad_name"),
        (422, "bad_request"),
        (413, "too_large"),  # the body is over MAX_BODY_BYTES before the name is read
    }
    # a record whose names are not trimmed is not what a table stores
    response = client.post("/api/games/import", json=RECORD | {"players": [" Ann", "Bob"]})
    assert error_of(response) == (422, "invalid_record")


def test_a_replay_without_gzip_is_streamed_not_decompressed_whole(client: TestClient) -> None:
    game_id = client.post("/api/games/import", json=RECORD).json()["id"]
    packed = client.get(f"/api/games/{game_id}/replay", headers={"Accept-Encoding": "gzip"})
    plain = client.get(f"/api/games/{game_id}/replay", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and plain.json() == packed.json()
    # streamed: no length known up front, the body never held whole
    assert "content-length" not in plain.headers
    assert plain.headers["content-type"] == "application/json"


def test_gunzipped_yields_bounded_pieces() -> None:
    raw = json.dumps({"x": ["a" * 1000] * 2000}).encode()  # 2 MB that packs small
    packed = gzip.compress(raw)

    async def pieces() -> list[bytes]:
        return [piece async for piece in gunzipped(packed)]

    out = asyncio.run(pieces())
    assert b"".join(out) == raw
    assert len(out) > 1 and max(len(p) for p in out) <= CHUNK


def test_the_lobby_list_shows_stored_names_bounded(client: TestClient) -> None:
    store_game(client, "padded1", ["A" + " " * 50_000, "B" * 5000])
    response = client.get("/api/games", params={"status": "finished"})
    assert response.status_code == 200
    assert len(response.content) < 5_000
    assert response.json()["games"][0]["players"] == ["A", "B" * 32]


# -- item 2: lone surrogates over the socket; a writer that fails closes the socket ------


def test_a_lone_surrogate_is_refused_and_the_room_keeps_talking(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    with (
        client.websocket_connect(f"/ws/{code}") as ann,
        client.websocket_connect(f"/ws/{code}") as bob,
    ):
        for ws, token in ((ann, tokens[0]), (bob, tokens[1])):
            ws.send_json({"type": "hello", "token": token})
            receive_until(ws, "welcome")
        for frame in (
            '{"type":"chat","text":"\\ud800"}',
            '{"type":"ping","id":"\\udfff"}',
            '{"type":"chat","text":"ok","\\ud800":1}',
        ):
            ann.send_text(frame)
            error = next_of(ann, {"error"})
            assert error["code"] == "bad_message" and error["ref"] is None
        ann.send_json({"type": "chat", "text": "still here"})
        for ws in (ann, bob):
            assert receive_until(ws, "chat")["text"] == "still here"
        ann.send_json({"type": "ping"})
        assert receive_until(ann, "pong")["type"] == "pong"


class BrokenSocket:
    """A WebSocket whose sends fail (a message it cannot encode, a dead transport)."""

    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        text.encode("utf-8")  # what the server's transport does
        raise AssertionError("unreachable for the message of this test")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = code


def test_a_connection_whose_writer_fails_is_closed() -> None:
    socket = BrokenSocket()

    async def scenario() -> None:
        conn = Connection(socket, "room")  # type: ignore[arg-type]
        conn.start()
        conn.send('{"type":"chat","text":"\ud800"}')
        await asyncio.sleep(0.05)
        assert conn.closed
        conn.send("more")  # dropped, not queued for a writer that is gone
        await conn.finish()

    asyncio.run(scenario())
    assert socket.closed_with == CLOSE_SEND_FAILED


# -- item 3: a row that cannot be rendered; the migration that repairs stored ones -------


def test_a_surrogate_name_is_refused_by_import_and_join(client: TestClient) -> None:
    record = json.dumps(RECORD | {"players": ["@@", "Bob"]}).replace("@@", "\\ud800")
    assert error_of(post_raw(client, "/api/games/import", record)) == (422, "invalid_record")
    code, _ = make_room(client, [])
    joined = post_raw(client, f"/api/rooms/{code}/join", '{"name":"\\ud800x"}')
    assert error_of(joined) == (422, "bad_request")
    assert client.get(f"/api/rooms/{code}").json()["seats"] == []


def test_a_stored_row_with_a_lone_surrogate_never_takes_the_lobby_down(
    client: TestClient,
) -> None:
    store_game(client, "goodgame", ["Ann", "Bob"])
    store_game(client, "badgame1", ["\ud800", "Bob"])
    listed = client.get("/api/games")
    assert listed.status_code == 200
    assert {g["id"] for g in listed.json()["games"]} == {"goodgame", "badgame1"}
    assert client.get("/api/games", params={"status": "finished"}).status_code == 200
    for path in ("", "/record", "/replay"):
        response = client.get(f"/api/games/badgame1{path}")
        assert response.status_code == 200, path
        assert response.json()["players"][0] == "\ufffd" * 3


def test_the_migration_repairs_names_already_stored(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from app.config import ROOT

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url)
    command.upgrade(config, "0002")
    engine = make_engine(url)
    players = '["\\ud800", "A' + " " * 3000 + '", "ok\\u202e", "Bob"]'
    with engine.begin() as conn:
        conn.execute(
            sql(
                "INSERT INTO games (id, variant, options, players, seed, seed_hash, status,"
                " seq, started_at, imported) VALUES ('g1', 'classic', '{}', :players, 's',"
                " 'h', 'finished', 0, '2026-01-01 00:00:00', 1)"
            ),
            {"players": players},
        )
    migrate.upgrade(url)
    repo = Repository(make_sessionmaker(engine))
    game = repo.get_game("g1")
    engine.dispose()
    assert game is not None
    assert game.players == ["\ufffd" * 3, "A", "ok", "Bob"]


# -- item 4: static-file aliases ---------------------------------------------------------


def test_aliases_of_a_static_file_add_nothing(client: TestClient) -> None:
    assets: Assets = client.app.state.assets
    before = assets.import_map()
    page = len(client.get("/").content)
    for n in range(50):
        for alias in (f"js/{n}/../i18n.js", f"js//{n}/../i18n.js", "js/./i18n.js", "./js/i18n.js"):
            assert assets.get(alias) is None
    assert assets.import_map() == before
    assert len(client.get("/").content) == page
    # the real file is served as ever
    assert assets.get("js/i18n.js") is not None


# -- item 14: deep nesting ---------------------------------------------------------------

DEEP = '{"a":' * 30_000 + "1" + "}" * 30_000


def test_a_deeply_nested_frame_is_a_bad_message(client: TestClient) -> None:
    code, _ = make_room(client, ["Ann"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text('{"type":"ping","x":' + "[" * 20_000 + "]" * 20_000 + "}")
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "bad_message"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_deeply_nested_bodies_answer_422(client: TestClient) -> None:
    assert error_of(post_raw(client, "/api/games/import", DEEP)) == (422, "invalid_record")
    # 180 KB: over MAX_BODY_BYTES (64 KiB), so the body limit refuses it before parsing.
    refused = {(422, "bad_request"), (413, "too_large")}
    body = '{"variant":"classic","options":' + DEEP + "}"
    assert error_of(post_raw(client, "/api/rooms", body)) in refused
    code, _ = make_room(client, [])
    joined = post_raw(client, f"/api/rooms/{code}/join", '{"name":' + DEEP + "}")
    assert error_of(joined) in refused


def test_depth_is_measured_outside_strings() -> None:
    assert boundedjson.depth('[1, "[[[[", {"a": []}]') == 3
    assert boundedjson.depth('"\\"[[["') == 0
    assert boundedjson.loads('{"a": "[[[[[[["}', max_depth=1) == {"a": "[[[[[[["}
    with pytest.raises(ValueError):
        boundedjson.loads("[[[]]]", max_depth=2)
    with pytest.raises(ValueError):
        boundedjson.loads('["\\udc00"]')


# -- items 15 and 16: chat and names -----------------------------------------------------


@pytest.mark.parametrize(
    "line",
    ["bidi \u202e override", "zero\u200bwidth", "nul\x00", "esc\x1b[31m", "z" + "\u0301" * 300],
)
def test_chat_refuses_hidden_and_piled_characters(client: TestClient, line: str) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        receive_until(ws, "welcome")
        ws.send_json({"type": "chat", "text": line})
        error = next_of(ws, {"error", "chat"})
        assert error["code"] == "bad_message"


def test_chat_is_limited_per_seat_not_per_connection(client: TestClient) -> None:
    """Five lines at once per seat (CHAT_BURST), however many connections it opens."""
    code, tokens = make_room(client, ["Ann", "Bob"])
    with (
        client.websocket_connect(f"/ws/{code}") as one,
        client.websocket_connect(f"/ws/{code}") as two,
        client.websocket_connect(f"/ws/{code}") as three,
        client.websocket_connect(f"/ws/{code}") as bob,
    ):
        opened = [one, two, three]
        for ws, token in ((one, tokens[0]), (two, tokens[0]), (three, tokens[0]), (bob, tokens[1])):
            ws.send_json({"type": "hello", "token": token})
            receive_until(ws, "welcome")
        outcomes = []
        for k in range(9):  # three lines on each connection of one seat
            ws = opened[k % 3]
            ws.send_json({"type": "chat", "text": f"line {k}"})
            answer = next_of(ws, {"error"}) if k >= 5 else None
            outcomes.append(answer["code"] if answer else "sent")
        assert outcomes[5:] == ["rate_limited"] * 4
        lines = [next_of(bob, {"chat"})["text"] for _ in range(5)]
        assert lines == [f"line {k}" for k in range(5)]


def test_names_that_show_nothing_are_refused(client: TestClient) -> None:
    code, _ = make_room(client, [])
    for name in ("\u00a0", "\u3164", "\u3000", "\u2800", "a" + "\u0301" * 31, "\u0301" * 31):
        response = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert error_of(response) == (422, "bad_name"), repr(name)
    assert client.get(f"/api/rooms/{code}").json()["seats"] == []


def test_a_name_like_another_seats_is_taken(client: TestClient) -> None:
    code, _ = make_room(client, ["Ann"])
    for twin in ("ann", "ANN", "\u0410nn", "Ann "):  # Cyrillic A in the third
        response = client.post(f"/api/rooms/{code}/join", json={"name": twin})
        assert error_of(response) == (409, "name_taken"), twin
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Anne"}).status_code == 201


def test_the_name_rule() -> None:
    assert clean_name("  Zoë 🙂 ") == "Zoë 🙂"
    assert clean_name("Nguyễn") == "Nguyễn"
    assert name_key("paypal") == name_key("𝔭𝒶ỿ𝕡𝕒ℓ")
    assert name_key("am") == name_key("arn")
    assert name_key("Bob") != name_key("Rob")
    for bad in ("\ud800", "a\u200bb", "x" * 33, "tab\tin", "a\u2028b"):
        with pytest.raises(TextError):
            clean_name(bad)
    assert clean_chat("  hello\u00a0world ") == "hello\u00a0world"


HEART = "\u2764\ufe0f"  # the heart a phone keyboard inserts: a presentation selector
SCOTLAND = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000e007f"


@pytest.mark.parametrize(
    "name",
    [
        f"I {HEART} Labyrinth",
        "\U0001f469\u200d\U0001f4bb Dev",  # woman technologist: a joiner sequence
        "\U0001f3c3\u200d\u2640\ufe0f",  # woman running
        "\u0646\u0631\u06af\u0633\u200c\u0645\u062d\u0645\u062f\u06cc",  # Persian
        "\u0915\u094d\u200d\u0937",  # Devanagari half form
        f"{SCOTLAND} Scot",
        "1\ufe0f\u20e3 one",  # keycap
    ],
)
def test_the_invisible_characters_spelling_needs_are_allowed(name: str) -> None:
    """Joiners between characters that show, a presentation selector after one, a flag's
    tags after the black flag: refused before, so "I ❤️ Labyrinth" or a Persian name
    could not be typed at all."""
    assert clean_name(name) == name
    assert clean_chat(f"gg {name}") == f"gg {name}"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("\u200dAnn", "invisible"),  # a joiner with nothing before it
        ("Ann\u200c", "invisible"),  # nor after it
        ("A\u200d nn", "invisible"),  # a space is nothing to join
        ("A\u200d\u200dnn", "invisible"),
        ("\ufe0fAnn", "invisible"),  # a selector on nothing
        ("\U0001f3f4\U000e0067\U000e0062 x", "invisible"),  # tags never closed
        ("x\U000e0067\U000e007f", "invisible"),  # tags not after the black flag
        ("zero\u200bwidth", "invisible"),
        ("tab\tin", "invisible"),  # a control character
        ("em\u2003space", "whitespace"),
        ("a" + "\u0301" * 4, "marks"),
        ("\u0903", "nothing_shown"),  # a spacing mark alone
        ("x" * 33, "length"),
        ("\ud800", "unicode"),
    ],
)
def test_each_refusal_says_which_rule_it_broke(name: str, reason: str) -> None:
    with pytest.raises(TextError) as refused:
        clean_name(name)
    assert refused.value.reason == reason


def test_a_joiner_or_selector_makes_no_new_name(client: TestClient) -> None:
    code, _ = make_room(client, ["Ann", "\u2764 fan"])
    for twin in ("A\u200cnn", f"{HEART} fan"):
        response = client.post(f"/api/rooms/{code}/join", json={"name": twin})
        assert error_of(response) == (409, "name_taken"), twin


def test_a_refused_name_or_chat_line_says_why(client: TestClient) -> None:
    """The answer carries the broken rule's `reason` (ext), over HTTP and over the socket
    (with the refused line's `id`), so a page says it in its language: a name of 14
    characters was told "Names are 1 to 32 characters"."""
    code, tokens = make_room(client, ["Ann"])
    response = client.post(f"/api/rooms/{code}/join", json={"name": "zero\u200bwidth"})
    assert response.status_code == 422
    assert response.json()["error"]["reason"] == "invisible"
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        receive_until(ws, "welcome")
        ws.send_json({"type": "chat", "text": "a" + "\u0301" * 5, "id": "c1"})
        refused = next_of(ws, {"error", "chat"})
        said = (refused["code"], refused["reason"], refused["ref"])
        assert said == ("bad_message", "marks", "c1")
        ws.send_json({"type": "chat", "text": f"gg {HEART}", "id": "c2"})
        assert next_of(ws, {"error", "chat"})["text"] == f"gg {HEART}"


# -- item 17: security headers; /metrics from the configured networks only ---------------


def test_pages_carry_security_headers_and_nonced_scripts(client: TestClient) -> None:
    store_game(client, "headers1", ["Ann", "Bob"])
    for path in ("/", "/rules/classic", "/replay/headers1", "/r/nope"):
        page = client.get(path)
        policy = page.headers["content-security-policy"]
        nonce = re.search(r"'nonce-([^']+)'", policy)
        assert nonce is not None, path
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
        assert page.headers["x-frame-options"] == "DENY"
        assert page.headers["referrer-policy"] == "same-origin"
        assert page.headers["x-content-type-options"] == "nosniff"
        inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", page.text)
        assert inline, path
        assert all(f'nonce="{nonce.group(1)}"' in attrs for attrs in inline), path
    again = client.get("/").headers["content-security-policy"]
    assert again != client.get("/").headers["content-security-policy"]  # fresh per page
    api = client.get("/api/games")
    assert api.headers["x-content-type-options"] == "nosniff"


def test_metrics_answer_only_the_configured_networks(database_url: str) -> None:
    app = create_app(
        Settings(database_url=database_url, replay_processes=0, metrics_networks="10.1.0.0/16")
    )
    with TestClient(app, client=("10.1.2.3", 5000)) as inside:
        assert "labyrinth_open_connections" in inside.get("/metrics").text
    with TestClient(app, client=("10.2.0.1", 5000)) as outside:
        assert outside.get("/metrics").status_code == 404
    with TestClient(app) as local:  # "testclient": no address at all
        assert local.get("/metrics").status_code == 404


# -- items 12 and 13: whole frames and imports' re-plays run where builds run ------------


class RecordingExecutor:
    """An executor that runs each job at once, recording which function it was."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def submit(self, fn: Any, *args: Any) -> Any:
        from concurrent.futures import Future

        self.ran.append(fn.__name__)
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except Exception as exc:
            future.set_exception(exc)
        return future


def test_whole_frames_and_imports_run_in_the_build_executor(client: TestClient) -> None:
    executor = RecordingExecutor()
    app = client.app
    app.state.replays = Replays(app.state.repo, executor=executor)  # type: ignore[arg-type]
    game_id = client.post("/api/games/import", json=RECORD).json()["id"]
    client.get(f"/api/games/{game_id}/replay", headers={"Accept-Encoding": "gzip"})
    assert executor.ran == ["import_summary", "build", "with_whole_frames"]
    bad = RECORD | {"seed": "another seed"}
    assert error_of(client.post("/api/games/import", json=bad)) == (422, "invalid_record")
    assert executor.ran[-1] == "import_summary"
