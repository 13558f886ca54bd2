"""End-to-end: two players in headless Chromium against the real server.

The server runs with uvicorn in a subprocess on a free port and a fresh SQLite file; the
browser is Debian's chromium driven by Playwright (never a downloaded browser).
"""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.conftest import http_json, join_room

# Kept in the quick suite (`scripts/test`).
pytestmark = pytest.mark.smoke

PUSH_NOTATION = re.compile(r"^[NESW][a-g1-7](\+[1-3])?$")
CELL_NOTATION = re.compile(r"^[a-g][1-7]$")


def test_two_players_push_and_move(server: str, browser) -> None:
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    url = server + room["url"]

    # Two contexts: two players, each with their own localStorage (their own seat token).
    ctx_a = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx_b = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    ctx_a.set_default_timeout(15000)
    ctx_b.set_default_timeout(15000)
    a = ctx_a.new_page()
    b = ctx_b.new_page()
    errors: list[str] = []
    a.on("pageerror", lambda e: errors.append(f"A: {e}"))
    b.on("pageerror", lambda e: errors.append(f"B: {e}"))
    # Every message the pages send: the states carry the legal actions (the hello asks
    # for them), so the pages never ask with a `legal` message of their own.
    sent: list[dict[str, object]] = []
    for page in (a, b):
        page.on(
            "websocket",
            lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))),
        )

    join_room(a, url, "Ann <b>x</b>", 0)
    join_room(b, url, "Bob", 1)

    # Names are text: the markup shows as typed and creates no element.
    a.wait_for_selector("[data-testid=seat-1] .seat-name")
    assert b.text_content("[data-testid=seat-0] .seat-name") == "Ann <b>x</b>"
    assert b.locator("[data-testid=seat-list] b").count() == 0

    a.click("[data-testid=start-button]")

    # Seat 0 starts: its arrows light up once the legal actions have arrived.
    a.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
    b.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    assert b.locator("[data-testid^=arrow-][data-active=true]").count() == 0
    forbidden_free = a.locator("[data-testid^=arrow-][data-active=true]")
    assert forbidden_free.count() == 12  # no push yet: every slot is open

    # Push: turn the spare once (R key), then click an arrow.
    a.keyboard.press("r")
    assert a.get_attribute("[data-testid=spare]", "data-rotation") == "1"
    a.click("[data-testid=arrow-N-1]")
    a.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=move]")
    b.wait_for_selector("[data-testid=move-log][data-count='1']")
    assert b.text_content("[data-testid=log-entry] .log-notation") == "Nb+1"
    # The no-reverse rule shows: the opposite slot is disabled everywhere.
    assert b.get_attribute("[data-testid=arrow-S-1]", "class").split().count("forbidden") == 1

    # Move: click one of the lit cells.
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    cells = a.locator("[data-testid^=cell-]")
    assert cells.count() >= 1
    cells.first.click()

    # The other browser sees the move at once, and the turn has passed to seat 1.
    b.wait_for_selector("[data-testid=move-log][data-count='2']")
    b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    a.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    assert b.get_attribute("[data-testid=seq]", "data-seq") == "2"
    notations = b.locator("[data-testid=log-entry] .log-notation").all_text_contents()
    assert PUSH_NOTATION.match(notations[0]) and CELL_NOTATION.match(notations[1]), notations
    b.wait_for_selector("[data-testid=board][data-legal=ready]")
    assert b.locator("[data-testid^=arrow-][data-active=true]").count() == 11

    # Chat goes to everyone, as text.
    b.fill("[data-testid=chat-input]", "<i>hello</i>")
    b.click("[data-testid=chat-send]")
    a.wait_for_selector("[data-testid=chat-line] .chat-text")
    assert a.text_content("[data-testid=chat-line] .chat-text") == "<i>hello</i>"
    assert a.locator("[data-testid=chat-log] i").count() == 0

    # A reload keeps the seat (the token is in localStorage), the whole move log and the
    # conversation so far.
    b.reload()
    b.wait_for_selector("[data-testid=move-log][data-count='2']")
    b.wait_for_selector("[data-testid=board][data-legal=ready]")
    assert b.locator("[data-testid^=arrow-][data-active=true]").count() == 11
    b.wait_for_selector("[data-testid=chat-line] .chat-text")
    assert b.locator("[data-testid=chat-line] .chat-text").all_text_contents() == ["<i>hello</i>"]
    assert b.is_hidden("#chat-empty")

    assert errors == []
    hellos = [m for m in sent if m["type"] == "hello"]
    assert len(hellos) >= 3 and all(m["legal"] is True for m in hellos)  # b said it twice
    assert [m for m in sent if m["type"] == "legal"] == []
    assert [m["action"]["type"] for m in sent if m["type"] == "action"] == ["push", "move"]
    ctx_a.close()
    ctx_b.close()


RECORD_ANIMATIONS = """() => {
  window.__animations = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    window.__animations.push(animation);
    return animation;
  };
}"""


def _pos(server: str, code: str, seat: int) -> str:
    view = http_json("GET", f"{server}/api/rooms/{code}/view")["view"]
    row, col = view["players"][seat]["pos"]
    return f"cell-{row}-{col}"


def test_the_last_move_glides_to_its_end_on_ones_own_turn(server: str, browser) -> None:
    """The opponent's move glides to its end on one's own turn. Its state carries the
    legal actions, so the board is drawn once (they used to arrive a moment later and
    draw it again, which cancelled the glide at its start), and a room message drawing
    the same view again lets the glide run (it used to cancel it too)."""
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    url, code = server + room["url"], room["code"]
    a = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    b = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    join_room(a, url, "Ann", 0)
    join_room(b, url, "Bob", 1)
    a.click("[data-testid=start-button]")
    for attempt in range(12):  # until Ann can leave her cell (a push may wall her in)
        a.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
        a.wait_for_selector("[data-testid=board][data-legal=ready]")
        # Another arrow each time: the same push every time could keep her walled in (a
        # CI run's seed did for six turns).
        arrows = a.locator("[data-testid^=arrow-][data-active=true]")
        arrows.nth(attempt % arrows.count()).click()
        a.wait_for_selector("[data-testid=turn-status][data-phase=move]")
        a.wait_for_selector("[data-testid=board][data-legal=ready]")
        here = _pos(server, code, 0)
        away = a.locator(f"[data-testid^=cell-]:not([data-testid={here}])")
        if away.count():
            break
        a.click(f"[data-testid={here}]")  # stays; Bob pushes and stays too
        b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
        b.wait_for_selector("[data-testid=board][data-legal=ready]")
        b.locator("[data-testid^=arrow-][data-active=true]").first.click()
        b.wait_for_selector("[data-testid=turn-status][data-phase=move]")
        b.wait_for_selector("[data-testid=board][data-legal=ready]")
        b.click(f"[data-testid={_pos(server, code, 1)}]")
    else:
        pytest.fail("Ann never had a cell to move to")
    b.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=move]")
    b.evaluate(RECORD_ANIMATIONS)
    away.first.click()
    b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    b.wait_for_selector("[data-testid=board][data-legal=ready]")
    # each animation's end: run out (`finished`) or cut short (`cancelled`, then idle)
    states = b.evaluate(
        "() => Promise.allSettled(window.__animations.map((x) => x.finished))"
        ".then(() => window.__animations.map((x) => x.playState))"
    )
    assert states, "the move drew no animation"
    assert set(states) == {"finished"}, states  # a cancelled animation is idle


def test_a_join_before_the_first_welcome_keeps_the_seat(server: str, browser) -> None:
    """A page that joins before the answer to its first, tokenless hello has come says
    hello again with its new token; that late answer (`seat: null`) once read as "your
    seat was freed": the page let go of its token, and its Start was refused as
    unauthorized (a CI run's host page that never got its board). Here the first answer
    is held back until the page has sent its second hello."""
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    url, code = server + room["url"], room["code"]
    a = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sent_token = []  # the page has said hello with a token
    held: list[str] = []

    def route(ws) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            to_server.send(message)
            if json.loads(message).get("token"):
                sent_token.append(True)
                for waiting in held:  # after the second hello: the race, every time
                    ws.send(waiting)
                held.clear()

        def from_server(message: str | bytes) -> None:
            if not sent_token:
                held.append(message)
            else:
                ws.send(message)

        ws.on_message(from_page)
        to_server.on_message(from_server)

    a.route_web_socket(re.compile(r"/ws/"), route)
    a.goto(url)
    a.fill("[data-testid=join-name]", "Ann")
    a.click("[data-testid=join-button]")
    a.wait_for_selector("[data-testid=seat-0].mine[data-connected='1']")
    assert sent_token and not held
    b = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    join_room(b, url, "Bob", 1)
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    assert a.evaluate(f"() => localStorage.getItem('labyrinth:token:{code}')")
    assert not a.is_visible("text=Your seat was freed")
