"""Shared by the browser tests: the real server under uvicorn, and Debian's Chromium.

The server runs in a subprocess on a free port with a fresh SQLite file; the browser is
Debian's chromium driven by Playwright (never a downloaded browser).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess, free_port, http_json

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--force-prefers-reduced-motion",
]

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "check_every_frame",
    "free_port",
    "http_json",
    "join_room",
    "may_place",
    "push_and_move",
    "serve_app",
    "wait_for_js",
    "wait_for_layout",
    "wait_for_stable",
]
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test; each is skipped, saying why, only on a
    machine without Debian's chromium (`.ci/run` and `scripts/test` install it)."""
    missing = not Path(CHROMIUM).exists()
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)
            if missing:
                item.add_marker(pytest.mark.skip(reason=f"no Chromium at {CHROMIUM}"))


def wait_for_js(page: Any, script: str, arg: Any = None, timeout: float = 5000) -> None:
    """`page.wait_for_function`, polled from here through `page.evaluate`: the pages run
    under a Content-Security-Policy without 'unsafe-eval', and Playwright's in-page
    polling compiles its predicate with `new Function`, which that policy refuses."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(script, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:.0f} ms: {script}")
        time.sleep(0.05)  # the poll's interval, not a wait for anything


STABLE = """async ([frames, timeout]) => {
  const read = (%s);
  const end = performance.now() + timeout;
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let last = JSON.stringify(await read()), same = 0;
  while (same < frames) {
    await frame();
    const now = JSON.stringify(await read());
    if (now === last) same++;
    else [last, same] = [now, 0];
    if (performance.now() > end) throw new Error("still changing after " + timeout + " ms: " + now);
  }
  return JSON.parse(last);
}"""


def wait_for_stable(page: Any, script: str, frames: int = 3, timeout: float = 5000) -> Any:
    """The value of `script` (a function of no argument, run in the page) once it has been
    the same on `frames` animation frames in a row: a box or a width read while the page
    still lays itself out (a late message, a font, a scroll) is a flake on a loaded machine,
    and a fixed wait long enough for one is time lost on all the others. Polled in the page
    through `page.evaluate`, as `wait_for_js` (the CSP refuses Playwright's own polling)."""
    return page.evaluate(STABLE % script, [frames, timeout])


def wait_for_layout(page: Any, *selectors: str, timeout: float = 5000) -> None:
    """Wait until the page's scroll position and width, and the boxes of the first element
    of each of `selectors`, stay put from one animation frame to the next."""
    boxes = """() => [scrollX, scrollY, document.documentElement.scrollWidth,
      ...%s.map((s) => { const e = document.querySelector(s);
        const r = e && e.getBoundingClientRect(); return r && [r.x, r.y, r.width, r.height]; })]"""
    wait_for_stable(page, boxes % json.dumps(list(selectors)), timeout=timeout)


def join_room(page: Any, url: str, name: str, seat: int) -> None:
    """Take a seat from the room page, as a person would, and wait until it is ours and
    the server has seen this page's socket say hello with it (the seat shows connected):
    a start clicked before that was a race of its own in CI's runs."""
    page.goto(url)
    page.fill("[data-testid=join-name]", name)
    page.click("[data-testid=join-button]")
    page.wait_for_selector(f"[data-testid=seat-{seat}].mine[data-connected='1']")


# Lit squares (some card may be placed) or discard buttons (none may): one or the other
# once the mover's page has its legal actions.
PLACE_OR_DISCARD = "[data-testid=board][data-legal=ready] .place-cell, [data-testid^=discard-]"


def may_place(page: Any) -> bool:
    """Whether the mover's first turn, on `page`, may place a card. About one deal in
    5,000 (10,000 with three players) gives the first player two cards that fit nowhere on
    the start square, whatever their rotation: a discard is all the turn offers, and a
    test of placing needs another deal (a room's seed is its own: a browser test's server
    cannot be given one)."""
    page.wait_for_selector(PLACE_OR_DISCARD)
    return page.locator("[data-testid^=discard-]").count() == 0


def push_and_move(page: Any, cell: str = "last") -> None:
    """A classic turn from the page: push at the first lit arrow, then move to the `cell`
    ("first" or "last") of the lit cells."""
    page.wait_for_selector("[data-testid=turn-status][data-phase=push]")
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    page.locator("[data-testid^=arrow-][data-active=true]").first.click()
    page.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    cells = page.locator("[data-testid^=cell-]")
    (cells.first if cell == "first" else cells.last).click()


def seated_page(
    browser: Any, server: str, made: dict[str, Any], host: bool = False, **context: Any
) -> Any:
    """The room page of the seat `made` (a create's or a join's answer: `code`, `url`,
    `token`), in a browser context of its own made with `context` (viewport, locale);
    with `host`, the page holds the create's `host_token` too. `page.errors` collects the
    page's script errors from its first line on."""
    ctx = browser.new_context(**context)
    keys = f"localStorage.setItem('labyrinth:token:{made['code']}', '{made['token']}');"
    if host:
        keys += f"localStorage.setItem('labyrinth:host:{made['code']}', '{made['host_token']}');"
    ctx.add_init_script(keys)
    page = ctx.new_page()
    page.errors = errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + made["url"])
    return page


def vs_computer(
    server: str, variant: str, options: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    """A started game of Ann and an easy computer (`extra`: more of the create's body, a
    clock say): the create's answer, for `seated_page`."""
    body = {
        "variant": variant,
        "options": options or {},
        "name": "Ann",
        "computers": ["easy"],
        "start": True,
        **extra,
    }
    return http_json("POST", server + "/api/rooms", body)


def play_out(server: str, code: str, tokens: dict[int, str]) -> None:
    """The seats of `tokens` play the first legal action over the protocol (the others are
    the computer's) until the game ends."""
    from tests.cluster.conftest import Peer

    peers = {seat: Peer(server.replace("http", "ws", 1), code, key) for seat, key in tokens.items()}
    try:
        states = {seat: peer.until("state") for seat, peer in peers.items()}
        state = states[min(peers)]
        while state["view"]["status"] == "playing":
            seq, mover = state["seq"], state["view"]["turn"]["seat"]
            if mover in peers:
                action = peers[mover].legal()["actions"][0]
                peers[mover].send({"type": "action", "id": "x", "seq": seq, "action": action})
                if len(peers) > 1:  # no computer's pause between turns: within the rate
                    time.sleep(0.06)  # limit of a connection (20 messages a second)
            states = {seat: peer.state_at(seq + 1) for seat, peer in peers.items()}
            state = states[min(peers)]
    finally:
        for peer in peers.values():
            peer.close()


FRAMES_FROM_PATCHES = """async (url) => {
  const { PatchedFrames } = await import("/static/js/patches.js");
  const [patched, full] = await Promise.all([
    fetch(url + "?frames=patches").then((r) => r.json()),
    fetch(url).then((r) => r.json()),
  ]);
  const sorted = (key, value) => (value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]])) : value);
  const frames = new PatchedFrames(patched.start, patched.patches);
  const same = (a, b) => JSON.stringify(a, sorted) === JSON.stringify(b, sorted);
  const differing = [];
  for (let k = 0; k < full.frames.length; k++) {
    if (!same(frames.at(k), full.frames[k])) differing.push(k);
  }
  const last = frames.at(frames.length - 1);
  const frozen = (v) => !v || typeof v !== "object" || Object.isFrozen(v);
  return { count: frames.length, expected: full.frames.length, differing,
           frozen: frozen(last) && Object.values(last).every(frozen) };
}"""

STEP_TO_THE_END = """() => {
  const page = document.getElementById("replay-page");
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "Home", bubbles: true }));
  let steps = 0;
  for (;;) {
    const before = page.dataset.at;
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    if (page.dataset.at === before) return steps;
    steps++;
  }
}"""


def check_every_frame(page: Any, server: str, game_id: str, actions: int) -> None:
    """The page's own patch code (static/js/patches.js) rebuilds every frame exactly as
    the server's whole frames have it, frozen; and the page draws every one of them, one
    step after the other (a renderer that changed a shared frame would throw)."""
    checked = page.evaluate(FRAMES_FROM_PATCHES, f"{server}/api/games/{game_id}/replay")
    assert checked["count"] == checked["expected"] == actions + 1
    assert checked["differing"] == [] and checked["frozen"] is True
    assert page.evaluate(STEP_TO_THE_END) == actions


# Rate limits count per client address, and every test's browser is 127.0.0.1.
UNLIMITED = {"ROOMS_PER_MINUTE": "0", "JOINS_PER_MINUTE": "0", "IMPORTS_PER_MINUTE": "0"}


def serve_app(log_dir: Path, **env: str) -> Iterator[str]:
    """Run the app under uvicorn on a fresh SQLite file in `log_dir`, with `env` on top of
    the test defaults; yield its base URL, stop it after."""
    process = ServerProcess(
        log_dir, {"DATABASE_URL": f"sqlite:///{log_dir / 'e2e.db'}", **UNLIMITED, **env}
    )
    try:
        process.start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield process.url
    finally:
        process.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app under uvicorn, on its own port and database, shared by a module's tests:
    starting a server costs seconds, and rooms and games are apart by their codes anyway.
    A test that reads the lobby's lists (which show every room) takes `fresh_server`."""
    yield from serve_app(tmp_path_factory.mktemp("server"))


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[str]:
    """A server of the test's own, on an empty database."""
    yield from serve_app(tmp_path)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One Chromium per module; each test opens its own contexts (own storage, cookies)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


SHOWN = 240  # characters of each socket frame `_socket_log` keeps


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test, for `_socket_log` to see whether it failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(autouse=True)
def _socket_log(request: pytest.FixtureRequest) -> Iterator[None]:
    """What each page's sockets sent and received, printed when the test fails: a CI run's
    output is all that is kept of it, and a page that waited in vain for its turn is
    explained by the frames it had (or had not) been sent."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    logs: list[tuple[str, list[str]]] = []
    began = time.monotonic()

    def stamp() -> str:
        return f"{time.monotonic() - began:7.3f}"

    def watch(page: Any) -> None:
        lines: list[str] = []
        logs.append((f"page {len(logs)}", lines))

        def socket(ws: Any) -> None:
            lines.append(f"{stamp()} open {ws.url}")
            ws.on("framesent", lambda f: lines.append(f"{stamp()} >> {str(f)[:SHOWN]}"))
            ws.on("framereceived", lambda f: lines.append(f"{stamp()} << {str(f)[:SHOWN]}"))
            ws.on("close", lambda _ws: lines.append(f"{stamp()} closed"))

        page.on("websocket", socket)
        page.on("framenavigated", lambda f: f.parent_frame or lines.append(f"{stamp()} at {f.url}"))
        page.on(
            "console",
            lambda m: (
                m.type in ("error", "warning")
                and lines.append(f"{stamp()} console {m.type}: {m.text[:SHOWN]}")
            ),
        )

    real_context, real_page = browser.new_context, browser.new_page

    def new_context(*args: Any, **kwargs: Any) -> Any:
        context = real_context(*args, **kwargs)
        context.on("page", watch)
        return context

    def new_page(*args: Any, **kwargs: Any) -> Any:
        page = real_page(*args, **kwargs)
        watch(page)
        return page

    browser.new_context, browser.new_page = new_context, new_page
    try:
        yield
    finally:
        del browser.new_context, browser.new_page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        for name, lines in logs:
            print(f"---- {name}: its sockets' frames (s since the test began)")
            print("\n".join(lines))


@pytest.fixture(autouse=True)
def _close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every page a test opened when it ends: a page left open goes on rendering,
    ticking its clock and answering its socket until the module's browser closes, and
    that CPU is taken from the tests still running."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()
