"""Pass-and-play in headless Chromium: "Play on this device" from the lobby, the shield
between two people's turns (the previous seat's target out of the page while it is up),
a computer seat's turn played out without a shield, Team Edition (nothing per seat to
hide) switching seats without one, a plain link opened elsewhere being a spectator's, and
no news of the device's own seats coming and going. Screenshots go to the test's folder
(tmp_path)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import http_json, wait_for_js

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}

SHIELD_UP = "[data-testid=pass-shield]:not([hidden])"

# A seat's own view, straight from the server over a WebSocket of its own (the token
# read from the page's storage): what the page shows is checked against it.
SEAT_VIEW = """async ([code, seat]) => {
  const seats = JSON.parse(localStorage.getItem("labyrinth:local:" + code));
  const token = seats.find((s) => s.seat === seat).token;
  const ws = new WebSocket(`ws://${location.host}/ws/${code}`);
  return await new Promise((resolve, reject) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token }));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") { ws.close(); resolve(msg.view); }
    };
    ws.onerror = () => reject(new Error("socket failed"));
  });
}"""


def _new_page(browser: Any, errors: list[str], who: str, **context: Any) -> Any:
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(f"{who}: {e}"))
    return page


def _module_page(browser: Any, server: str) -> tuple[Any, list[str]]:
    """A page of the site, for a script that drives its modules (`page.evaluate`) with
    made-up messages: its errors are gathered."""
    errors: list[str] = []
    page = _new_page(browser, errors, "device", **DESKTOP)
    page.goto(server + "/")
    return page, errors


def _start_from_lobby(page: Any, server: str, seats: list[str], variant: str = "classic") -> str:
    """Fill "Play on this device" with `seats` (a name, or `computer:<level>`), start, and
    return the room code once the room page is open."""
    page.goto(server + "/")
    page.select_option("[data-testid=variant-select]", variant)
    while page.locator("[data-testid^=local-player-]").count() < len(seats):
        page.click("[data-testid=local-add]")
    for i, seat in enumerate(seats):
        if seat.startswith("computer:"):
            page.select_option(f"[data-testid=local-kind-{i}]", seat.split(":", 1)[1])
        else:
            page.fill(f"[data-testid=local-name-{i}]", seat)
    page.click("[data-testid=local-button]")
    page.wait_for_url("**/r/*")
    return page.url.rsplit("/", 1)[1]


def _tap(page: Any, name: str) -> None:
    """The shield names `name`; `name` taps it and the board comes back."""
    page.wait_for_selector(SHIELD_UP)
    assert page.text_content("[data-testid=pass-title]") == f"Pass the device to {name}"
    assert page.text_content("[data-testid=pass-ready]") == f"I am {name}"
    page.click("[data-testid=pass-ready]")
    page.wait_for_selector("[data-testid=pass-shield]", state="hidden")


def _push_and_move(page: Any, seat: int) -> None:
    page.wait_for_selector(f"[data-testid=turn-status][data-seat='{seat}'][data-phase=push]")
    page.wait_for_selector("[data-testid=board][data-legal=ready][data-my-turn=true]")
    page.click("[data-testid^=arrow-][data-active=true] >> nth=0")
    page.wait_for_selector(f"[data-testid=turn-status][data-seat='{seat}'][data-phase=move]")
    page.wait_for_selector("[data-testid=board][data-legal=ready][data-my-turn=true]")
    page.locator("[data-testid^=cell-]").first.click()


def _told_since_the_last_turn(page: Any, name: str, first: bool = False) -> None:
    """The banner at the top tells the next person the other's turn (push, then move), in
    one sentence; before their first turn, since the game began (they had no last turn)."""
    page.wait_for_selector("[data-testid=since-banner][data-kind=turn]:not([hidden])")
    title = "Since the game began:" if first else "Since your last turn:"
    assert page.text_content("[data-testid=since-banner] strong") == title
    lines = page.locator("[data-testid=since-line]").all_text_contents()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{name} pushed "), lines
    assert ", then moved to " in lines[0] or ", then stayed at " in lines[0], lines


def _every_seat_connected(page: Any, code: str) -> None:
    """Until the server counts every seat of the room connected (one socket each)."""
    wait_for_js(
        page,
        "async (code) => (await (await fetch('/api/rooms/' + code)).json())"
        ".seats.every((s) => s.connected)",
        code,
        timeout=15000,
    )


def _nothing_of_a_seat_in_the_page(page: Any) -> None:
    """While the shield is up, no target (box, attribute, board marker), board or hand
    is in the document at all: hidden is not enough."""
    for selector in (
        "[data-testid=target]",
        "[data-target]",
        "[data-testid=target-mark]",
        ".is-target",
        "[data-testid=board]",
        "[data-testid=hand-panel]",
        "[data-testid=move-log]",
    ):
        assert page.locator(selector).count() == 0, selector


def test_two_people_pass_the_device(server: str, browser, tmp_path: Path) -> None:
    errors: list[str] = []
    page = _new_page(browser, errors, "device", **DESKTOP)
    code = _start_from_lobby(page, server, ["Ann", "Bob"])

    # Before anyone plays, the device asks for Ann: nothing of a seat is drawn yet.
    page.wait_for_selector(SHIELD_UP)
    _nothing_of_a_seat_in_the_page(page)
    room = http_json("GET", f"{server}/api/rooms/{code}")
    assert room["status"] == "playing"
    assert [(s["name"], s["kind"]) for s in room["seats"]] == [("Ann", "human"), ("Bob", "human")]
    # Both seats are connected (one socket each): neither will turn "away".
    _every_seat_connected(page, code)
    _tap(page, "Ann")
    page.wait_for_selector("[data-testid=target][data-target]:not([data-target=''])")
    ann_target = page.get_attribute("[data-testid=target]", "data-target")
    assert ann_target == page.evaluate(SEAT_VIEW, [code, 0])["players"][0]["target"]
    # the seat's tools (another device, leave) say whose seat they act for
    assert page.text_content("[data-testid=seat-tools-title]") == "Ann's seat"
    # one device's own table invites nobody
    assert page.locator("[data-testid=share-card]").is_hidden()
    page.screenshot(path=str(tmp_path / "ann-desktop.png"))
    # "Playing on this device" takes no line of its own: the whole board, its bottom
    # arrows too, fits a laptop's screen as in a room with one player per device
    page.evaluate("window.scrollTo(0, 0)")
    board = page.locator("[data-testid=board]").bounding_box()
    assert board is not None and board["y"] + board["height"] <= 900, board
    size = board["height"]

    # Ann pushes and moves; the shield names Bob and Ann's target leaves the page.
    _push_and_move(page, 0)
    page.wait_for_selector(SHIELD_UP)
    assert page.text_content("[data-testid=pass-title]") == "Pass the device to Bob"
    _nothing_of_a_seat_in_the_page(page)
    # Her target's picture is nowhere either (the icon sprite defines every treasure).
    assert page.locator(f"[data-treasure='{ann_target}'], use[href='#t-{ann_target}']").count() == 0
    page.screenshot(path=str(tmp_path / "shield-desktop.png"))

    # Bob taps: his own target, his turn, and his view of the moves so far.
    _tap(page, "Bob")
    page.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    page.wait_for_selector("[data-testid=target][data-target]:not([data-target=''])")
    bob_target = page.get_attribute("[data-testid=target]", "data-target")
    assert page.text_content("[data-testid=seat-tools-title]") == "Bob's seat"
    bob_view = page.evaluate(SEAT_VIEW, [code, 1])
    assert bob_target == bob_view["players"][1]["target"] != ann_target
    assert "target" not in bob_view["players"][0]
    assert page.get_attribute("[data-testid=move-log]", "data-count") == "2"
    names = page.locator("[data-testid=log-entry] .log-name").all_text_contents()
    assert names == ["Ann", "Ann"], names
    # What Ann did is said at the top, move by move: the move list is far down a phone's
    # page, and the device was in Ann's hands meanwhile.
    _told_since_the_last_turn(page, "Ann", first=True)

    # Bob can play; then the device goes back to Ann, who finds her own target again.
    _push_and_move(page, 1)
    page.wait_for_selector("[data-testid=since-banner]", state="hidden")  # he played on
    _tap(page, "Ann")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
    page.wait_for_selector("[data-testid=board][data-my-turn=true]")
    _told_since_the_last_turn(page, "Bob")
    page.screenshot(path=str(tmp_path / "since-last-turn.png"))
    # the news stands beside the board, which keeps its size (it took 170 px of it)
    page.evaluate("window.scrollTo(0, 0)")
    board = page.locator("[data-testid=board]").bounding_box()
    since = page.locator("[data-testid=since-banner]").bounding_box()
    assert board is not None and since is not None
    assert abs(board["height"] - size) <= 1, (board, size)
    assert since["x"] + since["width"] <= board["x"], (since, board)
    assert page.get_attribute("[data-testid=target]", "data-target") in (
        page.evaluate(SEAT_VIEW, [code, 0])["players"][0]["target"],
        "home",
    )
    assert page.get_attribute("[data-testid=move-log]", "data-count") == "4"
    assert errors == []
    page.context.close()


def test_a_computer_seat_plays_between_two_people_on_a_phone(
    server: str, browser, tmp_path: Path
) -> None:
    errors: list[str] = []
    page = _new_page(browser, errors, "device", **PHONE)
    page.goto(server + "/")
    page.screenshot(path=str(tmp_path / "lobby-phone.png"), full_page=True)
    code = _start_from_lobby(page, server, ["Ann", "computer:easy", "Bob"])
    _tap(page, "Ann")
    page.screenshot(path=str(tmp_path / "ann-phone.png"), full_page=True)
    ann_target = page.get_attribute("[data-testid=target]", "data-target")
    _push_and_move(page, 0)

    # The computer's push and move play out in a spectator's view: Ann and Bob may both
    # be looking, and neither's target is on the screen. Then the shield asks for Bob.
    page.wait_for_selector("[data-testid=turn-status][data-seat='1']")
    page.wait_for_selector("[data-testid=target][data-target='']")
    assert page.locator(f"[data-target='{ann_target}'], [data-testid=target-mark]").count() == 0
    # ...said to the players holding the device, not as to a stranger watching
    assert page.text_content("[data-testid=target]") == "Not your turn: every target stays hidden."
    # The page's own spectator socket, whose view is on the screen (its hello named a
    # seat of this device), is nobody watching: for the server (the room, the lobby's
    # "watching") as for the page.
    spectators = "async (code) => (await (await fetch('/api/rooms/' + code)).json()).spectators"
    assert page.evaluate(spectators, code) == 0
    assert page.get_attribute("[data-testid=spectator-count]", "data-count") == "0"
    page.screenshot(path=str(tmp_path / "computer-turn-phone.png"))
    page.wait_for_selector(SHIELD_UP)
    assert page.text_content("[data-testid=pass-title]") == "Pass the device to Bob"
    _nothing_of_a_seat_in_the_page(page)
    page.screenshot(path=str(tmp_path / "shield-phone.png"))
    _tap(page, "Bob")
    page.wait_for_selector("[data-testid=turn-status][data-seat='2'][data-phase=push]")
    names = page.locator("[data-testid=log-entry] .log-name").all_text_contents()
    assert names == ["Ann", "Ann", "Computer (easy)", "Computer (easy)"], names
    # Two shields in all (Ann at the start, then Bob): none for the computer's turn.
    assert page.get_attribute("[data-testid=pass-shield]", "data-passes") == "2"
    assert page.get_attribute("[data-testid=target]", "data-target") == page.evaluate(
        SEAT_VIEW, [code, 2]
    )["players"][2].get("target")
    page.screenshot(path=str(tmp_path / "bob-phone.png"), full_page=True)
    assert errors == []
    page.context.close()


def test_the_plain_link_elsewhere_is_a_spectator(server: str, browser) -> None:
    errors: list[str] = []
    device = _new_page(browser, errors, "device", **DESKTOP)
    code = _start_from_lobby(device, server, ["Ann", "Bob"])
    _tap(device, "Ann")
    device.wait_for_selector("[data-testid=board][data-my-turn=true]")

    watcher = _new_page(browser, errors, "watcher", **PHONE)
    watcher.goto(f"{server}/r/{code}")
    watcher.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    assert watcher.locator(SHIELD_UP).count() == 0
    assert watcher.get_attribute("[data-testid=target]", "data-target") == ""
    assert watcher.locator("[data-testid=board][data-my-turn=true]").count() == 0
    assert watcher.locator("[data-testid=local-note]").count() == 0
    assert watcher.evaluate("localStorage.length") == 0
    # the stranger's header says they watch (the players' questions are in the turn's
    # line); the device's players are told no such thing, even on a computer's turn
    assert watcher.locator("[data-testid=you-watch]").is_visible()
    assert watcher.text_content("[data-testid=you-watch]") == "You are watching"
    assert device.locator("[data-testid=you-watch]").is_hidden()
    wait_for_js(
        watcher,
        "document.querySelector('[data-testid=spectator-count]').dataset.count === '1'",
        timeout=15000,
    )

    # The device plays on; the spectator sees the move, still as a spectator.
    _push_and_move(device, 0)
    watcher.wait_for_selector("[data-testid=move-log][data-count='2']")
    assert watcher.get_attribute("[data-testid=target]", "data-target") == ""
    device.wait_for_selector(SHIELD_UP)
    assert errors == []
    device.context.close()
    watcher.context.close()


def test_team_edition_switches_seats_without_a_shield(server: str, browser) -> None:
    errors: list[str] = []
    page = _new_page(browser, errors, "device", **DESKTOP)
    code = _start_from_lobby(page, server, ["Ann", "Bob"], variant="team")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    assert page.locator(SHIELD_UP).count() == 0
    seats = json.loads(page.evaluate(f"localStorage.getItem('labyrinth:local:{code}')"))
    assert [s["seat"] for s in seats] == [0, 1]

    # Ann ends her turn from another connection of her seat: the page turns to Bob's
    # view by itself, no shield (Team Edition has nothing one seat sees and another not).
    ended = page.evaluate(
        """async ([code, token]) => {
          const ws = new WebSocket(`ws://${location.host}/ws/${code}`);
          return await new Promise((resolve) => {
            let seq = null;
            ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token }));
            ws.onmessage = (ev) => {
              const msg = JSON.parse(ev.data);
              if (msg.type === "state" && seq === null) {
                seq = msg.seq;
                const phase = msg.view.turn.phase;
                const action = phase === "daedalus" ? { type: "daedalus" } : { type: "end" };
                ws.send(JSON.stringify({ type: "action", id: "x", seq, action }));
              } else if (msg.type === "state" && msg.view.turn.seat === 1) {
                ws.close();
                resolve(true);
              } else if (msg.type === "state" && msg.view.turn.phase === "play") {
                const end = { type: "action", id: "y", seq: msg.seq, action: { type: "end" } };
                ws.send(JSON.stringify(end));
              } else if (msg.type === "error") {
                ws.close();
                resolve(msg.message);
              }
            };
          });
        }""",
        [code, seats[0]["token"]],
    )
    assert ended is True
    page.wait_for_selector("[data-testid=turn-status][data-seat='1']")
    wait_for_js(
        page,
        "document.querySelector('[data-testid=board]').dataset.myTurn === 'true'",
        timeout=15000,
    )
    assert page.locator(SHIELD_UP).count() == 0
    assert page.get_attribute("[data-testid=pass-shield]", "data-passes") in (None, "0")
    # with no shield between them, the turn's line says whose turn it is ("Your turn"
    # named nobody at a shared device)
    wait_for_js(
        page,
        "document.querySelector('[data-testid=turn-status]').textContent"
        ".startsWith('Bob, your turn')",
    )
    assert errors == []
    page.context.close()


@pytest.mark.slow  # a whole game paced under the rate limit
def test_play_again_keeps_every_local_seat(server: str, browser, tmp_path: Path) -> None:
    """At the end, one "Play again" on the device accepts for every seat it plays: the
    next game starts at once with the same two people, still passing the device."""
    from tests.cluster.conftest import Peer

    errors: list[str] = []
    page = _new_page(browser, errors, "device", **PHONE)
    code = _start_from_lobby(page, server, ["Ann", "Bob"], variant="cards")
    page.wait_for_selector(SHIELD_UP)
    first = http_json("GET", f"{server}/api/rooms/{code}")["game_id"]
    seats = json.loads(page.evaluate(f"localStorage.getItem('labyrinth:local:{code}')"))

    # Both seats play the largest take over the protocol while the page looks on.
    ws = server.replace("http", "ws", 1)
    peers = {s["seat"]: Peer(ws, code, s["token"]) for s in seats}
    try:
        state = peers[0].state_at(0)
        while state["view"]["status"] == "playing":
            mover = peers[state["view"]["turn"]["seat"]]
            if mover is not peers[0]:
                mover.state_at(state["seq"])
            action = mover.legal()["actions"][0]
            mover.send({"type": "action", "id": "x", "seq": state["seq"], "action": action})
            state = peers[0].state_at(state["seq"] + 1)
            # pacing, kept: each connection may send 20 messages a second, and the turn's
            # state (awaited above) is no sign that a connection's budget has come back
            time.sleep(0.1)
    finally:
        for peer in peers.values():
            peer.close()

    # The game is over: no shield (everything is shown to everyone now), and play again.
    page.wait_for_selector("[data-testid=after-game]:not([hidden])")
    assert page.locator(SHIELD_UP).count() == 0
    page.screenshot(path=str(tmp_path / "finished-phone.png"), full_page=True)
    page.click("[data-testid=play-again]")
    wait_for_js(
        page,
        "async ([code, first]) => { const r = await (await fetch('/api/rooms/' + code)).json();"
        " return r.status === 'playing' && r.game_id !== first; }",
        [code, first],
        timeout=20000,
    )
    room = http_json("GET", f"{server}/api/rooms/{code}")
    assert [(s["seat"], s["name"]) for s in room["seats"]] == [(0, "Ann"), (1, "Bob")]
    # The new game is Ann's to start; the page shows it to her (behind a shield unless
    # it already showed her seat when the last game ended).
    wait_for_js(
        page,
        "!!document.querySelector('[data-testid=pass-shield]:not([hidden])') ||"
        " !!document.querySelector(\"[data-testid=turn-status][data-seq='0']\")"
        " && document.querySelector('[data-testid=board]').dataset.myTurn === 'true'",
        timeout=20000,
    )
    if page.locator(SHIELD_UP).count():
        _tap(page, "Ann")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=place]")
    page.wait_for_selector("[data-testid=move-log][data-count='0']", state="attached")
    assert errors == []
    page.context.close()


# The page's own module, fed a scripted stream per local seat (no server socket behind
# it): which view it hands the page, and when it asks for the device to be passed.
DECISIONS = """async (secrets) => {
  const { LocalSeatsSocket } = await import("/static/js/local-seats.js");
  const seats = [{ seat: 0, token: "a", name: "Ann" }, { seat: 2, token: "c", name: "Cy" }];
  const s = new LocalSeatsSocket("nowhere", seats, { secrets, lookMs: 0 });
  const log = [];
  s.addEventListener("pass", (e) => log.push(`pass ${e.detail.name}`));
  s.addEventListener("reveal", (e) => log.push(`reveal ${e.detail.seat}`));
  s.addEventListener("message", (e) => {
    const m = e.detail;
    if (m.type === "state") log.push(`state ${m.seq} as ${m.view.you}`);
    else if (m.type === "room") log.push(`room with ${m.room.spectators} watching`);
    else log.push(`${m.type} ${m.seat}`);
  });
  const players = ["Ann", "Computer", "Cy"].map((name, seat) => ({ seat, name, color: "red" }));
  const state = (you, seq, actor, history) => ({
    type: "state", seq, ...(history ? { history: [] } : {}),
    view: { status: actor === null ? "finished" : "playing", seq, you, players,
            turn: actor === null ? null : { seat: seq < 3 ? 0 : actor, actor, phase: "x" } },
  });
  // Every socket hears every step: the watcher (once there is one) first, then Cy's.
  const step = (seq, actor, history = false) => {
    if (s.watcher) s.onWatcherMessage(s.watcher, state(null, seq, actor, history));
    s.onMessage(s.local.get(2), state(2, seq, actor, history));
    s.onMessage(s.local.get(0), state(0, seq, actor, history));
  };
  const sync = (seat, seq, actor) => s.onMessage(s.local.get(seat), state(seat, seq, actor, true));
  const room = { status: "playing", seats: [] };
  for (const seat of [0, 2]) s.onMessage(s.local.get(seat), { type: "welcome", seat, room });
  step(0, 0, true);     // Ann to play
  s.reveal();
  sync(0, 0, 0);
  step(1, 2);           // on Ann's turn, Cy decides (Master: a duellist's reroll)
  s.reveal();
  sync(2, 1, 2);
  step(2, 0);           // back to Ann
  s.reveal();
  sync(0, 2, 0);
  step(3, 1);           // the computer's turn: a spectator's view, when there are secrets
  if (s.watcher) {
    s.onWatcherMessage(s.watcher, state(null, 3, 1, true));
    // Its hello names a seat of this device (`seated`), so the server counts it among
    // no one's spectators: the room's count reaches the page as the server sent it.
    log.push(`watcher seated ${s.watcher.socket.getSeated()}`);
    s.onMessage(s.local.get(0), { type: "room", room: { ...room, spectators: 1 } });
  }
  step(4, 1);
  step(5, 0);           // Ann again: she still holds the device, no shield
  sync(0, 5, 0);
  step(6, 1);           // the computer again
  if (s.watcher) s.onWatcherMessage(s.watcher, state(null, 6, 1, true));
  step(7, 2);           // Cy's turn
  step(8, null);        // the game ends before Cy taps: nothing is secret any more
  sync(2, 8, null);
  return log;
}"""


# Ann plays her turn out; the shield for Cy comes once she has seen it land, not at once.
LOOK = """async () => {
  const { LocalSeatsSocket } = await import("/static/js/local-seats.js");
  const seats = [{ seat: 0, token: "a", name: "Ann" }, { seat: 1, token: "b", name: "Cy" }];
  const s = new LocalSeatsSocket("nowhere", seats, { secrets: true, lookMs: 400 });
  const log = [];
  const t0 = performance.now();
  s.addEventListener("pass", (e) => log.push([`pass ${e.detail.name}`, performance.now() - t0]));
  s.addEventListener("message", (e) => {
    if (e.detail.type === "state") log.push([`state ${e.detail.seq} as ${e.detail.view.you}`, 0]);
  });
  const players = ["Ann", "Cy"].map((name, seat) => ({ seat, name, color: "red" }));
  const state = (you, seq, actor, history) => ({
    type: "state", seq, ...(history ? { history: [] } : {}),
    view: { status: "playing", seq, you, players, turn: { seat: actor, actor, phase: "x" } },
  });
  const room = { status: "playing", seats: [] };
  for (const seat of [0, 1]) s.onMessage(s.local.get(seat), { type: "welcome", seat, room });
  s.onMessage(s.local.get(0), state(0, 0, 0, true));
  s.reveal();
  s.onMessage(s.local.get(0), state(0, 0, 0, true));
  const t1 = performance.now();
  s.onMessage(s.local.get(1), state(1, 1, 1));
  s.onMessage(s.local.get(0), state(0, 1, 1));   // Ann's turn is over: Cy's
  const atOnce = log.some(([line]) => line === "pass Cy");
  await new Promise((done) => setTimeout(done, 700));
  const passed = log.find(([line]) => line === "pass Cy");
  return { atOnce, after: passed ? passed[1] - (t1 - t0) : null, lines: log.map(([l]) => l) };
}"""


def test_the_player_who_just_played_sees_it_land_before_the_shield(server: str, browser) -> None:
    """The screen went dark 100 ms after a player's last move: they never saw their pawn
    arrive or what it found. Their own view stays a moment (`lookMs`), then the shield
    asks for the device; meanwhile the next player's view is nowhere on the page."""
    page, errors = _module_page(browser, server)
    got = page.evaluate(LOOK)
    assert got["atOnce"] is False, got
    assert got["after"] is not None and got["after"] >= 390, got
    assert "state 1 as 0" in got["lines"] and "state 1 as 1" not in got["lines"], got
    assert errors == []


def test_whose_view_the_page_shows_and_when_it_asks_to_pass(server: str, browser) -> None:
    page, errors = _module_page(browser, server)
    shielded = page.evaluate(DECISIONS, True)
    assert shielded == [
        "welcome null",
        "pass Ann",
        "reveal 0",
        "welcome 0",
        "state 0 as 0",
        "state 1 as 0",
        "pass Cy",
        "reveal 2",
        "welcome 2",
        "state 1 as 2",
        "state 2 as 2",
        "pass Ann",
        "reveal 0",
        "welcome 0",
        "state 2 as 0",
        "state 3 as 0",
        "reveal watch",
        "welcome null",
        "state 3 as null",
        "watcher seated a",
        "room with 1 watching",
        "state 4 as null",
        "state 5 as null",
        "reveal 0",
        "welcome 0",
        "state 5 as 0",
        "state 6 as 0",
        "reveal watch",
        "welcome null",
        "state 6 as null",
        "state 7 as null",
        "pass Cy",
        "reveal 2",
        "welcome 2",
        "state 8 as 2",
    ], shielded
    # Without secrets (Team Edition) the same game never asks: the page follows the mover,
    # and the computer's turn plays out in the view shown. (Each `reveal()` of the script
    # finds no shield to lift and does nothing.)
    open_game = page.evaluate(DECISIONS, False)
    assert not [line for line in open_game if line.startswith("pass")], open_game
    assert "state 4 as 0" in open_game and "state 4 as null" not in open_game, open_game
    assert [line for line in open_game if line.startswith("reveal")] == [
        "reveal 0",
        "reveal 2",
        "reveal 0",
        "reveal 2",
    ], open_game
    assert errors == []
    page.context.close()


def test_the_form_says_what_is_missing_and_one_person_needs_no_shield(server: str, browser) -> None:
    errors: list[str] = []
    page = _new_page(browser, errors, "device", **PHONE)
    page.goto(server + "/")
    page.evaluate("localStorage.clear()")
    page.reload()
    error = "[data-testid=local-error]"
    # at the fewest players nothing can be removed: the fields reach the form's edge
    field = page.locator("[data-testid=local-kind-0]").bounding_box()
    add = page.locator("[data-testid=local-add]").bounding_box()
    assert abs((field["x"] + field["width"]) - (add["x"] + add["width"])) <= 2, (field, add)
    for i in (0, 1):
        page.select_option(f"[data-testid=local-kind-{i}]", "easy")
    page.click("[data-testid=local-button]")
    assert page.text_content(error) == "At least one player must be a person."
    page.select_option("[data-testid=local-kind-1]", "person")
    page.click("[data-testid=local-button]")
    assert page.text_content(error) == "Type a name for player 2."
    page.fill("[data-testid=local-name-1]", "Ann")
    page.select_option("[data-testid=local-kind-0]", "person")
    page.fill("[data-testid=local-name-0]", "ANN")
    page.click("[data-testid=local-add]")  # a third player, no name yet
    page.click("[data-testid=local-button]")
    assert page.text_content(error) == "Two players are called Ann: give each a different name."
    # the focus goes to the name the message is about, not to the empty one
    focused = "() => document.activeElement.getAttribute('data-testid')"
    assert page.evaluate(focused) == "local-name-1"
    # The form follows the game's player counts: four seats at most in classic, and no
    # fewer than two.
    page.click("[data-testid=local-add]")
    assert page.locator("[data-testid^=local-player-]").count() == 4
    assert page.locator("[data-testid=local-add]").is_disabled()
    page.click("[data-testid=local-remove-3]")
    page.click("[data-testid=local-remove-2]")
    assert page.locator("[data-testid=local-remove-0]").count() == 0
    assert page.locator("[data-testid=local-player-2]").count() == 0
    assert page.url == server + "/"  # nothing was made, the lobby is still here

    # One person against a computer: an ordinary seat, no shield, no extra socket.
    page.select_option("[data-testid=local-kind-1]", "medium")
    page.click("[data-testid=local-button]")
    page.wait_for_url("**/r/*")
    code = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("[data-testid=board][data-my-turn=true]")
    assert page.locator(SHIELD_UP).count() == 0
    assert page.locator("[data-testid=local-note]").count() == 0
    assert page.evaluate(f"localStorage.getItem('labyrinth:local:{code}')") is None
    assert page.evaluate(f"!!localStorage.getItem('labyrinth:token:{code}')") is True
    assert "Computer (medium)" in page.text_content("[data-testid=players]")
    assert errors == []
    page.context.close()


# Every text the news line shows, kept from the page's first paint on (a reload too).
RECORD_NEWS = """(() => {
  const said = JSON.parse(sessionStorage.getItem("news-said") || "[]");
  const keep = () => sessionStorage.setItem("news-said", JSON.stringify(said));
  document.addEventListener("DOMContentLoaded", () => {
    const news = document.getElementById("news");
    if (!news) return;
    new MutationObserver(() => {
      const text = news.textContent;
      if (text && said.at(-1) !== text) { said.push(text); keep(); }
    }).observe(news, { childList: true, characterData: true, subtree: true });
  });
})()"""


def test_the_device_hears_no_news_of_its_own_seats(server: str, browser) -> None:
    """Each local seat's socket connects on its own, so a room message may show Bob away
    and the next one back: the people at the device are not told of each other. A seat
    played elsewhere still is."""
    page, errors = _module_page(browser, server)
    news = page.evaluate(
        """async () => {
          const { presenceNews } = await import("/static/js/presence.js");
          const seat = (n, name, connected) => ({ seat: n, name, connected, kind: "human" });
          const before = [seat(0, "Ann", true), seat(1, "Bob", false), seat(2, "Cy", true)];
          const after = [seat(0, "Ann", true), seat(1, "Bob", true), seat(2, "Cy", false)];
          // Cy pressed "Leave the game": the computer plays the seat, nobody waits for Cy
          const left = after.map((s) => s.seat === 2 ? { ...s, computer: { reason: "left" } } : s);
          const said = [presenceNews(before, after, [0, 1]), presenceNews(before, after, 0),
                  presenceNews(before, left, 0)];
          // and in French and German, as plainly ("Cy ist weg — warte auf die Rückkehr")
          const { setLanguage } = await import("/static/js/i18n.js");
          for (const code of ["fr", "de"]) {
            setLanguage(code);
            said.push(presenceNews(before, after, 0));
          }
          setLanguage("en");
          return said;
        }"""
    )
    # A drop is not said as leaving: "Cy left" read as "Cy left the game", which is the
    # news of a player who pressed "Leave the game" (and whom nobody waits for).
    assert news == [
        ["Cy is disconnected — waiting for them to reconnect"],
        ["Bob is back", "Cy is disconnected — waiting for them to reconnect"],
        ["Bob is back"],
        ["Bob est de retour", "Cy a perdu la connexion — en attente de son retour"],
        ["Bob ist zurück", "Cy hat die Verbindung verloren — wir warten auf die Rückkehr"],
    ], news

    page.add_init_script(RECORD_NEWS)
    code = _start_from_lobby(page, server, ["Ann", "Bob", "Cy"])
    page.wait_for_selector(SHIELD_UP)
    for _ in range(3):  # each reload opens the three seats' sockets one after the other
        page.reload()
        page.wait_for_selector(SHIELD_UP)
        _every_seat_connected(page, code)
        page.wait_for_timeout(300)  # the room message that says so has reached the page
    said = page.evaluate("JSON.parse(sessionStorage.getItem('news-said') || '[]')")
    assert not [line for line in said if "back" in line or "disconnected" in line], said
    assert errors == []
    page.context.close()


STAND_IN = """async () => {
  const { LocalSeatsSocket } = await import("/static/js/local-seats.js");
  const seats = [{ seat: 0, token: "a", name: "Ann" }, { seat: 1, token: "b", name: "Bob" }];
  const s = new LocalSeatsSocket("nowhere", seats, { secrets: true, lookMs: 0 });
  const log = [];
  s.addEventListener("pass", (e) => log.push(`pass ${e.detail.name}`));
  s.addEventListener("reveal", (e) => log.push(`reveal ${e.detail.seat}`));
  s.addEventListener("dropped", (e) => log.push(`dropped ${e.detail.name} ${e.detail.why}`));
  s.addEventListener("message", (e) => {
    const m = e.detail;
    if (m.type === "state") log.push(`state ${m.seq} as ${m.view.you}`);
    else if (m.type === "room") log.push("room");
    else log.push(`${m.type} ${m.seat}`);
  });
  const players = ["Ann", "Bob"].map((name, seat) => ({ seat, name, color: "red" }));
  const state = (you, seq, actor, history) => ({
    type: "state", seq, ...(history ? { history: [] } : {}),
    view: { status: "playing", seq, you, players, turn: { seat: actor, actor, phase: "x" } },
  });
  const step = (seq, actor) => {
    if (s.watcher) s.onWatcherMessage(s.watcher, state(null, seq, actor, false));
    for (const entry of s.local.values()) s.onMessage(entry, state(entry.seat, seq, actor, false));
  };
  const sync = (seat, seq, actor) => seat === "watch"
    ? s.onWatcherMessage(s.watcher, state(null, seq, actor, true))
    : s.onMessage(s.local.get(seat), state(seat, seq, actor, true));
  const roomWith = (bob) => ({
    status: "playing", seats: [{ seat: 0, computer: null }, { seat: 1, computer: bob }],
  });
  const away = roomWith({ level: "easy", reason: "away" });
  for (const seat of [0, 1]) s.onMessage(s.local.get(seat), { type: "welcome", seat, room: away });
  step(0, 0); s.reveal(); sync(0, 0, 0);   // Ann plays
  step(1, 1); sync("watch", 1, 1);          // Bob's turn, the computer's while he is away
  step(2, 0); sync(0, 2, 0);                // Ann again: she still holds the device
  log.push("-- Bob is back");
  for (const seat of [0, 1]) s.onMessage(s.local.get(seat), { type: "room", room: roomWith(null) });
  step(3, 1);                               // his turn: the device goes to him
  log.push("-- Bob's seat moves to his phone");
  s.onMessage(s.local.get(1), { type: "seat_moved", seat: 1, why: "device" });
  sync("watch", 3, 1);
  step(4, 0); sync(0, 4, 0);
  log.push("-- Ann leaves");
  s.onMessage(s.local.get(0), { type: "seat_moved", seat: 0, why: "left" });
  sync("watch", 4, 1);
  step(5, 1);
  return log;
}"""


def test_a_seat_the_computer_stands_in_for_or_that_went_elsewhere(server: str, browser) -> None:
    """Pass-and-play: the turns of a local seat the computer plays while its person is
    away show as a computer's (no shield asking for the device), until the person is
    back; a seat that moves to another device or leaves is news for the page, whose
    other seats play on, and the page watches once it has no seat left."""
    page, errors = _module_page(browser, server)
    log = page.evaluate(STAND_IN)
    assert log == [
        "welcome null",
        "pass Ann",
        "reveal 0",
        "welcome 0",
        "state 0 as 0",
        "state 1 as 0",
        "reveal watch",  # Bob's turn, played by the computer: no shield asks for him
        "welcome null",
        "state 1 as null",
        "state 2 as null",
        "reveal 0",  # Ann again, without a shield: the device stayed in her hands
        "welcome 0",
        "state 2 as 0",
        "-- Bob is back",
        "room",
        "state 3 as 0",
        "pass Bob",
        "-- Bob's seat moves to his phone",
        "dropped Bob device",  # news, not this page's seat moving
        "reveal watch",
        "welcome null",
        "state 3 as null",
        "state 4 as null",
        "reveal 0",
        "welcome 0",
        "state 4 as 0",
        "-- Ann leaves",
        "seat_moved 0",  # no seat left here: the page is told, and watches
        "reveal watch",
        "welcome null",
        "state 4 as null",
        "state 5 as null",
    ], log
    assert errors == []
    page.context.close()


def test_a_game_for_fewer_players_sets_names_aside_not_away(server: str, browser) -> None:
    """Six names typed for the card game, then classic chosen (four at most): the last
    two were dropped without a word. They are set aside, said under the list, and come
    back with the card game (or with "Add a player")."""
    errors: list[str] = []
    page = _new_page(browser, errors, "device", **DESKTOP)
    page.goto(server + "/")
    page.select_option("[data-testid=variant-select]", "cards")
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
    while page.locator("[data-testid^=local-player-]").count() < len(names):
        page.click("[data-testid=local-add]")
    for i, name in enumerate(names):
        page.fill(f"[data-testid=local-name-{i}]", name)
    assert page.locator("[data-testid=local-aside]").is_hidden()

    page.select_option("[data-testid=variant-select]", "classic")
    assert page.locator("[data-testid^=local-player-]").count() == 4
    aside = page.text_content("[data-testid=local-aside]")
    assert aside == "Set aside, as this game takes at most 4 players: Eve and Fay.", aside

    page.select_option("[data-testid=variant-select]", "cards")
    values = [page.input_value(f"[data-testid=local-name-{i}]") for i in range(6)]
    assert values == names
    assert page.locator("[data-testid=local-aside]").is_hidden()
    # an unnamed row set aside is called by its number, as its field was ("?" before)
    page.fill("[data-testid=local-name-5]", "")
    page.select_option("[data-testid=variant-select]", "classic")
    aside = page.text_content("[data-testid=local-aside]")
    assert aside == "Set aside, as this game takes at most 4 players: Eve and Player 6.", aside
    assert errors == []
    page.context.close()


def test_the_turn_summary_tells_whole_turns_and_says_what_it_leaves_out(
    server: str, browser: Any
) -> None:
    """Counted in moves (8), a round of Master (2-5 moves a turn) lost whole turns and
    began in the middle of one, without a word: the summary now keeps the latest turns
    whole, and says how many earlier moves it leaves to the move list."""
    page = browser.new_page()
    page.goto(server + "/")
    log: list[dict[str, Any]] = []
    for turn in range(9):  # seats 1, 2, 3, 0, 1, 2, 3, 0, 1: 7 turns of the others
        seat = (turn + 1) % 4
        for notation in ("W2+1", "a1", "b1"):
            log.append({"seq": len(log) + 1, "seat": seat, "notation": notation, "events": []})
    summary = page.evaluate(
        """async (log) => {
          const { turnSummary } = await import('/static/js/since.js');
          return turnSummary(log, 0, 0, { names: (s) => ['Ann', 'Bob', 'Cid', 'Dee'][s] });
        }""",
        log,
    )
    lines = summary["lines"]
    assert summary["moves"] == 21, summary
    assert lines[0] == "3 earlier moves are in the move list.", lines
    assert len(lines) == 7, lines  # the note, then the latest 6 turns of the others
    for line in lines[1:]:
        assert line.split(" ", 1)[1].startswith("pushed row 2 from the left"), line
        assert line.count(", then ") == 2, line  # each turn whole: push, move, move
    assert [line.split(" ")[0] for line in lines[1:]] == ["Cid", "Dee", "Bob", "Cid", "Dee", "Bob"]
    page.close()


def test_the_keyboard_stays_on_the_shield_and_comes_back_to_the_game(server: str, browser) -> None:
    """With the keyboard alone: while the shield is up, Tab cannot reach the header's links
    under it, and after "I am Ann" the focus is in the game (the next step's control), not
    at the top of the document."""
    errors: list[str] = []
    page = _new_page(browser, errors, "device", **DESKTOP)
    _start_from_lobby(page, server, ["Ann", "Bob"])
    page.wait_for_selector(SHIELD_UP)
    wait_for_js(page, "() => document.activeElement?.dataset.testid === 'pass-ready'")
    for _ in range(4):
        page.keyboard.press("Tab")
        outside = page.evaluate(
            "() => { const a = document.activeElement;"
            " return a && a !== document.body && !a.closest('#pass-shield') ? a.outerHTML : null }"
        )
        assert outside is None, outside
    assert page.evaluate("document.querySelector('header').closest('[inert]') !== null")
    page.focus("[data-testid=pass-ready]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=pass-shield]", state="hidden")
    page.wait_for_selector("[data-testid=board][data-legal=ready][data-my-turn=true]")
    wait_for_js(
        page,
        "() => document.getElementById('room-page').contains(document.activeElement)"
        " && document.activeElement.id !== 'board'",
    )
    assert page.evaluate("document.querySelector('[inert]')") is None
    assert errors == []
    page.context.close()


OWN_DICE = """async () => {
  const { MasterUI } = await import("/static/js/master.js");
  const players = ["Ann", "Bob", "Cy"].map((name, seat) => ({ seat, name, color: "red" }));
  const dice = [
    { type: "took", seat: 0, value: 3, at: "c3" },
    { type: "dragon_die", seat: 0, face: "4", facing: "N" },
    { type: "threat", source: "dragon", duellists: [2], cells: ["d4"] },
    { type: "duel_roll", seat: 2, roll: 5 },
  ];
  const heard = (own, last, you) => {
    const said = [];
    const ctx = { say: (text) => said.push(text), showNews() {}, ownsSeat: (s) => own.includes(s) };
    // the method alone, on what it uses (a whole game UI wants the room page's elements)
    const ui = Object.assign(Object.create(MasterUI.prototype),
      { ctx, moveNewsLine() {}, view: { you } });
    MasterUI.prototype.announce.call(ui, last, { you, players, status: "playing" });
    return said;
  };
  const move = { seq: 7, seat: 0, events: dice, by: null };
  return {
    // a shared device: Ann moved, and the view is Bob's by the time it comes back
    shared: heard([0, 1], move, 1),
    // the computer moved for Ann (she was away): not hers to be told as her own
    stoodIn: heard([0, 1], { ...move, by: "computer:away" }, 1),
    // Bob's own phone: Ann's move is said in its words elsewhere (room.js sayMove)
    another: heard([1], move, 1),
    own: heard([0], move, 0),
  };
}"""


def test_the_device_says_the_dice_after_its_own_seats_move(server: str, browser) -> None:
    """What the dice did after a move is said to its mover (the dice panel is no live
    region); on a shared device the view is the next person's by the time the move comes
    back, and the dice were still the device's own seat's."""
    page, errors = _module_page(browser, server)
    said = page.evaluate(OWN_DICE)
    assert len(said["shared"]) == 1, said
    assert said["shared"][0].startswith("dragon die: 4 turns, the dragon now faces north"), said
    assert "threatened: Cy" in said["shared"][0] and "Cy rolled 5" in said["shared"][0], said
    assert said["own"] == said["shared"], said
    assert said["stoodIn"] == [] and said["another"] == [], said
    assert errors == []
    page.context.close()


# A game ends with Cy's view shown; "Play again" deals the next one: its first states reach
# the device (Cy's socket first) with `first` to move.
NEW_GAME = """async (first) => {
  const { LocalSeatsSocket } = await import("/static/js/local-seats.js");
  const seats = [{ seat: 0, token: "a", name: "Ann" }, { seat: 1, token: "c", name: "Cy" }];
  const s = new LocalSeatsSocket("nowhere", seats, { secrets: true, lookMs: 400 });
  const log = [];
  s.addEventListener("pass", (e) => log.push(`pass ${e.detail.name}`));
  s.addEventListener("message", (e) => {
    const m = e.detail;
    if (m.type === "state") log.push(`state ${m.seq} as ${m.view.you} ${m.view.status}`);
  });
  const players = ["Ann", "Cy"].map((name, seat) => ({ seat, name, color: "red" }));
  const state = (you, seq, actor, history) => ({
    type: "state", seq, ...(history ? { history: [] } : {}),
    view: { status: actor === null ? "finished" : "playing", seq, you, players,
            turn: actor === null ? null : { seat: actor, actor, phase: "x" } },
  });
  const room = { status: "playing", seats: [] };
  for (const seat of [0, 1]) s.onMessage(s.local.get(seat), { type: "welcome", seat, room });
  s.onMessage(s.local.get(0), state(0, 0, 1, true));  // Cy to play
  s.reveal();
  s.onMessage(s.local.get(1), state(1, 0, 1, true));
  log.push("-- over");
  s.onMessage(s.local.get(1), state(1, 1, null));  // Cy's move ends the game
  s.onMessage(s.local.get(0), state(0, 1, null));
  log.push("-- again");
  s.onMessage(s.local.get(1), state(1, 0, first));
  s.onMessage(s.local.get(0), state(0, 0, first));
  log.push("-- at once");
  await new Promise((done) => setTimeout(done, 600));
  s.reveal();
  s.onMessage(s.local.get(first), state(first, 0, first, true));
  return log;
}"""


@pytest.mark.parametrize(("first", "name"), [(1, "Cy"), (0, "Ann")])
def test_play_again_deals_the_next_game_behind_the_shield(
    server: str, browser, first: int, name: str
) -> None:
    """At a game's end everyone looks at the screen. "Play again" left the last seat's view
    shown: its new hand or target came up in front of the table, for the look's 1.5 s
    before the shield, or for good when that seat moved first. No view of the new game
    is shown before the shield's tap."""
    page, errors = _module_page(browser, server)
    log = page.evaluate(NEW_GAME, first)
    again = log[log.index("-- again") + 1 :]
    assert again == [
        f"pass {name}",
        "-- at once",
        f"state 0 as {first} playing",
    ], log
    assert errors == []
    page.context.close()


# Bob's turn, 30 s a turn, behind the shield; his time runs out and the computer plays it.
RAN_OUT = """async () => {
  const { LocalSeatsSocket } = await import("/static/js/local-seats.js");
  const { PassShield } = await import("/static/js/pass-shield.js");
  const seats = [{ seat: 0, token: "a", name: "Ann" }, { seat: 1, token: "b", name: "Bob" }];
  const s = new LocalSeatsSocket("nowhere", seats, { secrets: true, lookMs: 0 });
  const shield = new PassShield(document.getElementById("main"), () => {});
  const shown = [];
  s.addEventListener("pass", (e) => {
    shield.show(e.detail);
    const text = (id) => { const el = document.querySelector(`[data-testid=${id}]`);
                           return el ? el.textContent : null; };
    shown.push([text("pass-title"), text("pass-clock"), text("pass-ran-out")]);
  });
  const players = ["Ann", "Bob"].map((name, seat) => ({ seat, name, color: "red" }));
  const now = Date.now();
  const clock = (seat) => ({ kind: "turn", seconds: 30, seat, timeouts: [0, 0],
    turn_started: new Date(now).toISOString(), deadline: new Date(now + 25000).toISOString() });
  const state = (you, seq, actor, last) => ({
    type: "state", seq, clock: clock(actor), last,
    view: { status: "playing", seq, you, players, turn: { seat: actor, actor, phase: "x" } },
  });
  const room = { status: "playing", seats: [] };
  for (const seat of [0, 1]) s.onMessage(s.local.get(seat), { type: "welcome", seat, room });
  s.onMessage(s.local.get(0), state(0, 4, 1, { seat: 0, by: null }));  // Bob to play
  const timedOut = { seat: 1, by: "computer:timeout", notation: "x", events: [] };
  s.onMessage(s.local.get(0), state(0, 6, 0, timedOut));  // the computer played Bob's turn
  return shown;
}"""


def test_the_shield_shows_the_turn_s_time_and_says_when_it_ran_out(server: str, browser) -> None:
    """The turn's time runs behind the shield: it showed no clock, and when it ran out the
    shield changed from "Bob" to "Ann" with no word. It shows the time left, and says
    whose time ran out."""
    page, errors = _module_page(browser, server)
    shown = page.evaluate(RAN_OUT)
    assert shown[0][0] == "Pass the device to Bob", shown
    assert shown[0][1] is not None and shown[0][1].endswith("left for this turn"), shown
    assert shown[0][1].startswith(("0:24", "0:25")), shown
    assert shown[0][2] is None, shown
    assert shown[1][0] == "Pass the device to Ann", shown
    assert shown[1][2] == "Bob’s time ran out: the computer played the turn.", shown
    assert errors == []
    page.context.close()


def test_the_turn_summary_says_which_turns_the_computer_played(server: str, browser) -> None:
    """Bob's time ran out behind the shield and the computer played his turn, then Ann's:
    his "Since your last turn" told Ann's turns as hers, and not his own at all. His own
    is said to him ("The computer played your turn"), not of "Bob (played by…)"."""
    page = browser.new_page()
    page.goto(server + "/")
    timeout = "computer:timeout"
    log = [
        {"seq": 1, "seat": 0, "notation": "Nb", "events": [], "by": None},
        {"seq": 2, "seat": 0, "notation": "a1", "events": [], "by": None},
        {"seq": 3, "seat": 1, "notation": "Nd+1", "events": [], "by": timeout},
        {"seq": 4, "seat": 1, "notation": "d3", "events": [], "by": timeout},
        {"seq": 5, "seat": 0, "notation": "Nf+1", "events": [], "by": timeout},
        {"seq": 6, "seat": 0, "notation": "a1", "events": [], "by": timeout},
    ]
    summary = page.evaluate(
        """async (log) => {
          const { turnSummary } = await import('/static/js/since.js');
          return turnSummary(log, 0, 1, { variant: 'classic', names: (s) => ['Ann', 'Bob'][s] });
        }""",
        log,
    )
    lines = summary["lines"]
    assert [line.split(" (")[0].split(" ")[0] for line in lines] == ["Ann", "The", "Ann"], lines
    assert "(played by the computer)" not in lines[0], lines
    assert lines[1].startswith("The computer played your turn: pushed column d"), lines
    assert lines[2].startswith("Ann (played by the computer) pushed column f"), lines
    page.close()
