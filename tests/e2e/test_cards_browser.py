"""End-to-end: the card game in headless Chromium, a desktop player and a phone player."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import (
    http_json,
    join_room,
    may_place,
    play_out,
    seated_page,
    wait_for_layout,
    wait_for_stable,
)

# Kept in the quick suite (`scripts/test`).
pytestmark = pytest.mark.smoke

PLACE = re.compile(r"^h[01]@-?\d+,-?\d+(\+[1-3])?$")
DEALS = 3  # rooms tried for a deal that may place: under 1 in 10^10 that none may


def test_place_a_card_by_clicking_a_lit_cell(server: str, browser) -> None:
    for _deal in range(DEALS):  # a deal where Ann's first turn may place a card
        room = http_json("POST", server + "/api/rooms", {"variant": "cards"})
        url = server + room["url"]
        ctx_a = browser.new_context(viewport={"width": 1280, "height": 800})
        ctx_b = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        for ctx in (ctx_a, ctx_b):
            ctx.set_default_timeout(15000)
        a, b = ctx_a.new_page(), ctx_b.new_page()
        errors: list[str] = []
        a.on("pageerror", lambda e, errors=errors: errors.append(f"A: {e}"))
        b.on("pageerror", lambda e, errors=errors: errors.append(f"B: {e}"))
        join_room(a, url, "Ann", 0)
        join_room(b, url, "Bob", 1)
        assert a.locator("[data-testid=seat-list] li").count() == 6  # six seats in the lobby
        a.click("[data-testid=start-button]")
        a.wait_for_selector("[data-testid=board][data-legal=ready]")
        if may_place(a):
            break
        assert errors == []
        ctx_a.close()
        ctx_b.close()
    else:
        raise AssertionError(f"no card Ann could place in her first turn in {DEALS} deals")

    assert a.locator("[data-testid=board] .layout-card").count() == 4
    assert a.locator("[data-testid=hand-panel] .hand-card").count() == 2
    assert b.locator("[data-testid=hand-panel] .hand-card").count() == 2  # Bob's own hand
    assert b.text_content("[data-testid=pile-count]") == "40"

    # the lit cells follow the rotation: R turns the selected card
    lit = a.locator(".place-cell.legal")
    shown = a.locator(".place-cell")
    # the selected card is one that can be placed (when linking is compulsory only some can)
    a.wait_for_selector(".place-cell")
    if a.locator(".hand-card.links").count():
        assert a.locator(".hand-card.selected.links").count() == 1
    for _ in range(4):
        if lit.count():
            break
        a.keyboard.press("r")
    assert lit.count() > 0 and shown.count() >= lit.count()
    # a dashed square (the card fits there turned) turns the card to fit when clicked
    dashed = a.locator("[data-testid^=turn-to-fit-]")
    if dashed.count():
        pos = dashed.first.get_attribute("data-pos")
        dashed.first.click()
        a.wait_for_selector(f'.place-cell.legal[data-pos="{pos}"]')
    # zoom and fit
    a.click("[data-testid=zoom-in]")
    assert a.get_attribute("[data-testid=board]", "data-zoom") == "manual"
    a.click("[data-testid=zoom-fit]")
    assert a.get_attribute("[data-testid=board]", "data-zoom") == "fit"
    # the zoom sits on the layout it zooms, not under the hand
    zoom = a.locator("[data-testid=zoom-tools]").bounding_box()
    board = a.locator("[data-testid=board]").bounding_box()
    assert board["y"] <= zoom["y"] and zoom["y"] + zoom["height"] <= board["y"] + board["height"]
    assert zoom["x"] + zoom["width"] <= board["x"] + board["width"] + 1

    a.locator(".place-cell.legal").first.click()
    b.wait_for_selector("[data-testid=move-log][data-count='1']")
    assert PLACE.match(b.text_content("[data-testid=log-entry] .log-notation") or "")
    # the move list read again after a reload says what it said live ("placed a troubadour")
    first = "[data-testid=log-entry][data-seq='1'] [data-testid=log-words]"
    told = b.text_content(first)
    # "placed an owl", "placed a key": the motif with its article, not "placed a card"
    assert told and re.match(r"placed (an owl|a (?!card)\w+)", told), told
    b.reload()
    b.wait_for_selector(first)
    assert b.text_content(first) == told
    assert b.locator("[data-testid=board] .layout-card").count() >= 5
    # a card may have been taken; either way seat 0 has played
    a.wait_for_selector("[data-testid=turn-status][data-seat='1'], [data-phase=take]")
    assert errors == []
    ctx_a.close()
    ctx_b.close()


def test_a_take_is_said_once_in_the_log(server: str, browser) -> None:
    """The move list says what a take took in the move's own words, not once more as an
    event after it ("took 1 card · Ann took 1 × troubadour")."""
    page = browser.new_page()
    page.goto(server + "/")
    words = page.evaluate(
        """async () => {
          const { entryWords } = await import("/static/js/movelog.js");
          const names = (s) => ["Ann", "Bob"][s];
          const card = { motif: "troubadour" };
          const took = { type: "took", seat: 0, cards: [card, card] };
          return [
            entryWords("take:3,-4/3,-3", { variant: "cards", names, events: [took] }),
            entryWords("take:3,-4", { variant: "cards", names, events: [] }),
            entryWords("take:-", { variant: "cards", names, events: [] }),
          ];
        }"""
    )
    assert words == ["took 2 × troubadour", "took 1 card", "took nothing"], words
    page.close()


def test_the_zoom_tools_cover_no_square_on_a_phone(server: str, browser) -> None:
    """The zoom tools sit over the board's top right corner, where a free square of the
    layout's top row fell on a phone: a tap meant for it zoomed out instead. The view keeps
    their band free, in every deal (four games' first turns here)."""
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    remember = "([code, token]) => localStorage.setItem('labyrinth:token:' + code, token)"
    checked = 0
    for _room in range(8):  # four deals whose first turn places a card (see `may_place`)
        if checked == 4:
            break
        body = {"variant": "cards", "name": "Ann", "computers": ["easy", "easy"], "start": True}
        room = http_json("POST", server + "/api/rooms", body)
        context = browser.new_context(**phone)
        page = context.new_page()
        page.goto(server + "/")
        page.evaluate(remember, [room["code"], room["token"]])
        page.goto(server + room["url"])
        if not may_place(page):
            context.close()
            continue
        checked += 1
        # the board's last layout (the hand panel) settled
        wait_for_layout(page, "[data-testid=zoom-tools]", "[data-testid=board]")
        tools = page.locator("[data-testid=zoom-tools]").bounding_box()
        assert tools is not None
        squares = page.evaluate(
            """() => [...document.querySelectorAll(".place-cell .place-frame")].map((el) => {
                 const r = el.getBoundingClientRect();
                 return [r.left, r.top, r.right, r.bottom];
               })"""
        )
        assert squares
        for left, top, right, bottom in squares:
            apart = (
                right <= tools["x"]
                or left >= tools["x"] + tools["width"]
                or bottom <= tools["y"]
                or top >= tools["y"] + tools["height"]
            )
            assert apart, ([left, top, right, bottom], tools)
        context.close()
    assert checked == 4, f"only {checked} of 8 deals let the first player place a card"


def test_a_finished_layout_fills_the_board(server: str, browser) -> None:
    """While cards may be placed, the view keeps a ring of free squares around the layout;
    once the game is over there is nothing to place, and on a phone the ring (more than
    two squares of a 390 px board) left the last layout's cards small. The finished layout
    is shown with a thin margin only."""
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    body = {"variant": "cards", "name": "Ann", "computers": ["easy"], "start": True}
    for _deal in range(DEALS):  # a deal whose first turn shows free squares to place on
        made = http_json("POST", server + "/api/rooms", body)
        page = seated_page(browser, server, made, **phone)
        if may_place(page):
            break
        page.context.close()
    else:
        raise AssertionError(f"no card Ann could place in her first turn in {DEALS} deals")
    margin = """() => {
      const board = document.querySelector("[data-testid=board]");
      const [, , w, h] = board.getAttribute("viewBox").split(" ").map(Number);
      const box = board.getBoundingClientRect();
      const scale = Math.min(box.width / w, box.height / h);
      const cards = [...board.querySelectorAll(".layout-card")];
      const rects = cards.map((el) => el.getBoundingClientRect());
      const right = Math.max(...rects.map((r) => r.right));
      const span = (right - Math.min(...rects.map((r) => r.left))) / scale;
      return w - span;
    }"""
    assert page.evaluate(margin) > 200  # the free squares' ring, both sides
    play_out(server, made["code"], {0: made["token"]})
    page.wait_for_selector("[data-testid=result-banner]:not([hidden])")
    assert wait_for_stable(page, margin) < 100  # a 100-unit square: less than one in all
    page.context.close()
