"""How fast a replay opens and steps, in a real browser against a live server. Prints only.

    python3 bench/replay_speed.py [--loads 7] [--steps 200]

A ~300-action classic game (greedy bots with random detours, deterministic):

- building its replay on the server (`app/replays.build`, in this process), and its size
  with whole frames and with patches (the page's encoding);

then, imported `2 * --loads + 1` times into a fresh server (uvicorn, SQLite in a temporary
folder, a replay cache of one game in memory), in Debian's Chromium:

- the replay endpoint over plain HTTP, cached, in both encodings;
- opening: each load is a new browser context (empty HTTP cache) navigating to
  `/replay/{id}`. "First frame painted" is `performance.now()` (ms since navigation
  start) once the first frame's paint is done: the page sets `window.__replayTimings`
  right after the first synchronous render (`firstFrame`), then in the next animation
  frame posts a message to itself; the message runs after that frame's style, layout and
  paint, and its time is `firstPaint`. Shown over the loads, for a replay in the
  server's memory, one it reads from the database, and one it builds when the page is
  asked for; and, for a visitor who came before, from the lobby to the replay in one
  tab (client files in the browser's cache). Nothing of playwright runs in the page
  during a load (see `load_timings`);
- stepping: on one page, `--steps` times, a keydown ArrowRight is dispatched to the
  document (the page's own keyboard handler) from a fresh task just after the previous
  step was painted. Per step: the synchronous handler time, the frame's main-thread work
  (handler + everything from the next animation frame's start until its paint is done:
  rAF callbacks, style, layout, paint), and the whole latency from the key to the step's
  paint done (includes waiting for the display's next frame slot, up to 16.7 ms).
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.replays import build, with_whole_frames  # noqa: E402
from app.store.db import make_engine, make_sessionmaker  # noqa: E402
from app.store.repository import Repository  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, http_json  # noqa: E402
from tests.live_server import ServerProcess  # noqa: E402
from tests.server.helpers import greedy_record, imported_row  # noqa: E402

STEP_SCRIPT = """async (steps) => {
  // Resolves after the next frame's paint: [frame start, paint done].
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => {
    const start = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve([start, performance.now()]);
    channel.port2.postMessage(0);
  }));
  const task = () => new Promise((resolve) => setTimeout(resolve, 0));
  const sync = [], work = [], latency = [];
  await painted();
  await painted();
  for (let i = 0; i < steps; i++) {
    await task();
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    const t1 = performance.now();
    const [frameStart, done] = await painted();
    sync.push(t1 - t0);
    work.push(t1 - t0 + (done - frameStart));
    latency.push(done - t0);
  }
  return { sync, work, latency, at: Number(document.getElementById("replay-page").dataset.at) };
}"""


def report_build(record: dict[str, Any]) -> None:
    """What building one replay costs the server, and what it weighs in each encoding."""
    game = imported_row(record, "bench")
    times = []
    for _ in range(5):
        started = time.perf_counter()
        patched = build(game, record)
        times.append((time.perf_counter() - started) * 1000)
    print(f"building a replay (re-play, reveal, patches, JSON, gzip): {summary(times)}")
    for encoding, packed in (("full", with_whole_frames(patched)), ("patches", patched)):
        raw = len(gzip.decompress(packed)) / 1024
        print(f"  frames={encoding:7}  {raw:6.0f} KiB JSON, {len(packed) / 1024:4.0f} KiB gzipped")


def forget_replays(database_url: str, game_ids: list[str]) -> None:
    """Make the stored replays of these games look built by other code, so that the
    server builds them again when asked, as after a deploy that changed the engines."""
    engine = make_engine(database_url)
    try:
        repo = Repository(make_sessionmaker(engine))
        for game_id in game_ids:
            repo.store_replay(game_id, "other-code", b"")
    finally:
        engine.dispose()


def timed_get(url: str) -> tuple[float, int]:
    started = time.perf_counter()
    req = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=30) as res:
        size = len(res.read())
    return (time.perf_counter() - started) * 1000, size


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(ordered):6.1f} ms   p95 {p95:6.1f} ms   "
        f"max {ordered[-1]:6.1f} ms   (n={len(ordered)})"
    )


TIMINGS_READY = """() => {
  const t = window.__replayTimings;
  const page = document.getElementById("replay-page");
  return t && t.firstPaint !== null && page && page.dataset.state === "ready" ? t : null;
}"""


def open_page(browser, url: str) -> dict[str, float]:
    """One load in a new browser context (an empty cache): the page's timings."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    try:
        return load_timings(context.new_page(), url)
    finally:
        context.close()


def load_timings(page, url: str) -> dict[str, float]:
    """Navigate `page` to `url` and read the replay's timings once it is ready.

    Nothing of playwright runs in the page until it is done: `wait_for_selector` and the
    like first inject playwright's own script, about 20 ms of main-thread work that would
    land in the middle of the measured load. Plain `evaluate` calls, spaced out, do not.
    """
    page.goto(url, wait_until="commit")
    time.sleep(0.5)  # the load is over by then, normally: see the first poll's result
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.1)
        timings = page.evaluate(TIMINGS_READY)
        if timings:
            return timings
    raise SystemExit(f"{url} did not finish loading")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--loads", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    record = greedy_record(players=2, seed="bench-replay", min_actions=300, max_actions=330)
    actions = len(record["actions"])
    print(f"game: {actions} actions, {actions + 1} frames; {os.cpu_count()} CPUs")
    report_build(record)
    with tempfile.TemporaryDirectory() as folder:
        # A cache of one replay: each game opened below is built when its page is asked for.
        server = ServerProcess(
            Path(folder),
            {
                "DATABASE_URL": f"sqlite:///{folder}/bench.db",
                "LOG_LEVEL": "WARNING",
                "REPLAY_CACHE_SIZE": "1",  # so that the other games are read or built
                "IMPORTS_PER_MINUTE": "0",  # the imports below come in a burst
            },
        ).start()
        base = server.url
        try:
            ids = [
                http_json("POST", base + "/api/games/import", record)["id"]
                for _ in range(2 * args.loads + 1)
            ]
            warm_id = ids.pop()
            time.sleep(2)  # each import builds and stores its replay in the background
            stored, unbuilt = ids[: args.loads], ids[args.loads :]
            forget_replays(f"sqlite:///{folder}/bench.db", unbuilt)
            for encoding in ("full", "patches"):
                url = f"{base}/api/games/{warm_id}/replay?frames={encoding}"
                cached = [timed_get(url)[0] for _ in range(9)]
                print(f"GET replay ({encoding:7}) cached  {summary(cached)}")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                open_page(browser, f"{base}/replay/{warm_id}")  # the browser's own warm-up
                # Interleaved, in turns, so that the machine's drift and the wake of the
                # load before (a browser context closing) weigh on the three alike.
                loads: dict[str, list[dict[str, float]]] = {
                    "in memory": [],
                    "stored": [],
                    "not built": [],
                    "from lobby": [],
                }
                # A visitor who came by before: one tab, from the lobby to the replay, the
                # client's files in the browser's cache (versioned URLs: no request at all).
                visitor = browser.new_context(viewport={"width": 1300, "height": 900})
                tab = visitor.new_page()
                for turn, (kept, unkept) in enumerate(zip(stored, unbuilt, strict=True)):
                    cases = [("in memory", warm_id), ("stored", kept), ("not built", unkept)]
                    for case, gid in cases[turn % 3 :] + cases[: turn % 3]:
                        loads[case].append(open_page(browser, f"{base}/replay/{gid}"))
                    tab.goto(base + "/")
                    loads["from lobby"].append(load_timings(tab, f"{base}/replay/{warm_id}"))
                visitor.close()
                print("opening (ms since navigation start), a new browser context each time")
                print("  (empty cache) with the replay in the server's memory, only stored")
                print("  (another process built it, or before a restart), or not built (the")
                print("  page's request builds it); and from the lobby in a tab that was there")
                print("  before (cached client files, replay in the server's memory):")
                for key, what in (
                    ("loaded", "replay data parsed"),
                    ("firstFrame", "first frame in the DOM"),
                    ("firstPaint", "FIRST FRAME PAINTED"),
                ):
                    for n, (case, timings) in enumerate(loads.items()):
                        label = what if n == 0 else ""
                        print(f"  {label:23} {case:10} {summary([x[key] for x in timings])}")
                context = browser.new_context(viewport={"width": 1300, "height": 900})
                page = context.new_page()
                page.goto(f"{base}/replay/{warm_id}")
                page.wait_for_selector('#replay-page[data-state="ready"]')
                steps = min(args.steps, actions)
                result = page.evaluate(STEP_SCRIPT, steps)
                print(f"stepping ({steps} steps with the Right key):")
                print(f"  handler (sync DOM update)    {summary(result['sync'])}")
                print(f"  FRAME WORK (handler+paint)   {summary(result['work'])}")
                print(f"  key -> step painted          {summary(result['latency'])}")
                print(f"  (stepped to move {result['at']} of {actions})")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
