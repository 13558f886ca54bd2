"""Costs of hostile input after issue 17 (part A): prints figures, never asserts.

1. Static-file aliases: 5,000 requests for `/static/js/<n>/../i18n.js` (each answered 404
   now), then the cached file count and the lobby page's size and render time.
2. A 64 KiB WebSocket frame nested as deep as it can be: time to refuse it
   (`app/boundedjson.py`), and a legal 64 KiB frame's parse time for comparison.
3. A replay asked for without gzip: the largest piece the streamed answer holds at once
   against the whole decompressed body (what the old code built per request).
4. Name keys (`app/text.py`): time per name of the case-folded TR39 skeleton.

Run: `python3 bench/hostile_input.py` from the repository root.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient

from app import boundedjson
from app.config import Settings
from app.main import create_app
from app.replays import build, record_of
from app.text import name_key
from app.web.games import gunzipped
from tests.server.helpers import greedy_record, imported_row


def aliases() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(database_url=f"sqlite:///{tmp}/b.sqlite3", replay_processes=0))
        with TestClient(app) as client:
            before = len(client.get("/").content)
            assets = app.state.assets
            started = time.perf_counter()
            for n in range(5000):
                assets.get(f"js/{n}/../i18n.js")
            spent = time.perf_counter() - started
            t0 = time.perf_counter()
            after = len(client.get("/").content)
            render = (time.perf_counter() - t0) * 1000
            print(
                f"aliases: 5000 lookups in {spent * 1000:.0f} ms; cached files "
                f"{len(assets._items)}; lobby {before} -> {after} bytes, render {render:.1f} ms"
            )


def deep_frames() -> None:
    deep = '{"type":"ping","x":' + "[" * 32_000 + "]" * 32_000 + "}"
    started = time.perf_counter()
    for _ in range(20):
        with contextlib.suppress(ValueError):
            boundedjson.loads(deep)
    refused = (time.perf_counter() - started) / 20 * 1000
    wide = json.dumps({"type": "chat", "text": "x" * 65_000})
    started = time.perf_counter()
    for _ in range(20):
        boundedjson.loads(wide)
    parsed = (time.perf_counter() - started) / 20 * 1000
    print(f"deep 64 KiB frame refused in {refused:.2f} ms; flat one parsed in {parsed:.2f} ms")


def streamed_replay() -> None:
    record = greedy_record(players=4, seed="bench-hostile", min_actions=400, max_actions=900)
    game = imported_row(record, "bench1")
    packed = build(game, record_of(game, []) | {"actions": record["actions"]})
    whole = len(gzip.decompress(packed))

    async def largest() -> int:
        return max([len(piece) async for piece in gunzipped(packed)])

    print(
        f"replay of {len(record['actions'])} actions: stored {len(packed)} bytes gzipped, "
        f"{whole} plain; largest streamed piece {asyncio.run(largest())} bytes"
    )


def name_keys() -> None:
    names = ["Ann", "Аnn", "Zoë 🙂", "paypal", "𝔭𝒶ỿ𝕡𝕒ℓ", "x" * 32] * 500
    name_key("warm")
    started = time.perf_counter()
    for name in names:
        name_key(name)
    per = (time.perf_counter() - started) / len(names) * 1e6
    print(f"name_key: {per:.1f} µs per name")


if __name__ == "__main__":
    aliases()
    deep_frames()
    streamed_replay()
    name_keys()
