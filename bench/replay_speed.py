"""How fast a replay opens and steps, in a real browser against a live server. Prints only.

    python3 bench/replay_speed.py [--loads 5] [--steps 150]

A ~300-action classic game (greedy bots with random detours, deterministic) is imported
into a fresh server (uvicorn, SQLite in a temporary folder). Then, in Debian's Chromium:
- opening: the page is loaded `--loads` times; the figure is `performance.now()` when the
  replay page has drawn its first frame (the `window.__replayTimings.firstFrame` hook,
  set right after the first synchronous render), i.e. milliseconds since navigation
  start, including HTML, modules, the replay request and the first render. The first,
  cold load (server replay not cached, browser cache empty) is shown on its own.
- stepping: inside the page, the Right key is dispatched `--steps` times; for each step
  the synchronous render time (key handler to DOM updated) and the time until the next
  animation frame after it (the step is on screen) are taken with `performance.now()`.
It also times the replay endpoint itself over HTTP, cold and cached.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, free_port, http_json  # noqa: E402
from tests.server.helpers import greedy_record  # noqa: E402

STEP_SCRIPT = """async (steps) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const sync = [], painted = [];
  await frame();
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    const t1 = performance.now();
    await frame();
    painted.push(performance.now() - t0);
    sync.push(t1 - t0);
  }
  return { sync, painted, at: Number(document.getElementById("replay-page").dataset.at) };
}"""


def start_server(folder: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{folder}/bench.db")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            if http_json("GET", base + "/healthz").get("ok"):
                return proc, base
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("the server did not start")


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--steps", type=int, default=150)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    record = greedy_record(players=2, seed="bench-replay", min_actions=300, max_actions=330)
    actions = len(record["actions"])
    with tempfile.TemporaryDirectory() as folder:
        proc, base = start_server(folder)
        try:
            game_id = http_json("POST", base + "/api/games/import", record)["id"]
            cold_ms, size = timed_get(f"{base}/api/games/{game_id}/replay")
            warm = [timed_get(f"{base}/api/games/{game_id}/replay")[0] for _ in range(5)]
            print(f"game {game_id}: {actions} actions, {actions + 1} frames")
            print(f"GET replay (server) cold  {cold_ms:6.1f} ms, {size / 1024:.0f} KiB gzipped")
            print(f"GET replay (server) warm  {summary(warm)}")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                context = browser.new_context(viewport={"width": 1300, "height": 900})
                loads = []
                for _ in range(args.loads + 1):
                    page = context.new_page()
                    page.goto(f"{base}/replay/{game_id}")
                    page.wait_for_selector('#replay-page[data-state="ready"]')
                    page.wait_for_function("window.__replayTimings.firstPaint !== null")
                    loads.append(page.evaluate("window.__replayTimings"))
                    page.close()
                for key, what in (
                    ("loaded", "replay data parsed"),
                    ("firstFrame", "first frame in the DOM"),
                    ("firstPaint", "first frame's paint"),
                ):
                    again = summary([x[key] for x in loads[1:]])
                    print(f"open -> {what:24} first load {loads[0][key]:6.1f} ms; reloads {again}")
                page = context.new_page()
                page.goto(f"{base}/replay/{game_id}")
                page.wait_for_selector('#replay-page[data-state="ready"]')
                steps = min(args.steps, actions)
                result = page.evaluate(STEP_SCRIPT, steps)
                print(f"step render (sync DOM)        {summary(result['sync'])}")
                print(f"step until next frame         {summary(result['painted'])}")
                print(f"(stepped to move {result['at']} of {actions})")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(json.dumps({"actions": actions}))


if __name__ == "__main__":
    main()
