"""Issue 14, item 16: every game playable by keyboard alone. Classic is played in
test_phone_a11y.py; here Master, Team and the card game each play at least one whole turn
with the keyboard only (Tab to reach a slot, a cell, a card or a button; Enter or Space to
act; the game's own keys), with no click once the game has started, and the other player
sees the turn in the log.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import wait_for_js
from tests.e2e.test_phone_a11y import DESKTOP, started

FOCUSED = """() => {
  const e = document.activeElement;
  return e && e !== document.body
    ? e.getAttribute("data-testid") || e.getAttribute("data-key")
      || e.getAttribute("data-pos") || e.tagName
    : null;
}"""

MATCHES = "(s) => !!document.activeElement && document.activeElement.matches(s)"


def tab_to(page: Any, selector: str, limit: int = 200) -> str:
    """Press Tab until the focused element matches `selector`; what it is."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(MATCHES, selector):
            print("TABS", selector, _ + 1)
            return str(page.evaluate(FOCUSED))
    raise AssertionError(f"Tab never reached {selector}")


def enter_on(page: Any, selector: str, key: str = "Enter") -> str:
    """Reach a control with Tab and act on it with `key`."""
    reached = tab_to(page, selector)
    page.keyboard.press(key)
    return reached


def play(page: Any, selector: str, key: str = "Enter") -> str:
    """`enter_on`, for a control that sends an action: wait until the page shows it done
    (its log one longer), so the next step reads the new position."""
    count = log_count(page)
    reached = enter_on(page, selector, key)
    wait_for_js(
        page,
        "(n) => Number(document.querySelector('[data-testid=move-log]').dataset.count) > n",
        arg=count,
        timeout=10000,
    )
    return reached


MY_STEP_OR_NOT = """() => {
  const board = document.querySelector("[data-testid=board]").dataset;
  return board.myTurn === "false" || board.legal === "ready";
}"""


def my_step(page: Any) -> None:
    """Wait until the page is on its player's turn with the legal list in hand."""
    page.wait_for_selector("[data-testid=board][data-my-turn=true][data-legal=ready]")


def log_count(page: Any) -> int:
    return int(page.get_attribute("[data-testid=move-log]", "data-count") or 0)


def no_clicks(page: Any) -> None:
    """From now on, any click that reaches the page fails the test (keyboard only); the
    clicks Enter and Space synthesise on buttons carry `detail == 0`."""
    page.evaluate(
        """() => document.addEventListener("click", (ev) => {
          if (ev.detail !== 0) window.__pointerClicks = (window.__pointerClicks || 0) + 1;
        }, true)"""
    )


def pointer_clicks(page: Any) -> int:
    return int(page.evaluate("() => window.__pointerClicks || 0"))


def turn_passed(page: Any, other: Any, before: int) -> None:
    """The turn went to seat 1 on both pages; the other page's log grew by it."""
    other.wait_for_selector("[data-testid=turn-status][data-seat='1']")
    page.wait_for_selector("[data-testid=turn-status][data-seat='1']")
    assert log_count(other) > before


def test_master_by_keyboard_alone(server: str, browser: Any) -> None:
    (page, other), errors = started(server, browser, "master", {}, DESKTOP)
    no_clicks(page)
    my_step(page)
    page.locator("[data-testid=board]").focus()  # where a keyboard user starts: the board
    first = play(page, "[data-testid^=arrow-][data-active=true]")
    assert first.startswith("arrow-")
    page.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    my_step(page)
    assert play(page, "[data-testid^=cell-]").startswith("cell-")
    # then whatever the turn asks (a coin, a re-roll, a double turn...), by Tab and Enter,
    # until the turn is the other player's; a duel may ask the other player too
    for _ in range(12):
        wait_for_js(page, MY_STEP_OR_NOT, timeout=10000)
        if page.get_attribute("[data-testid=board]", "data-my-turn") == "false":
            if other.get_attribute("[data-testid=turn-status]", "data-seat") == "1":
                break
            if other.get_attribute("[data-testid=board]", "data-my-turn") == "true":
                my_step(other)
                play(other, "[data-testid=decisions] button")
            page.wait_for_timeout(200)
            continue
        phase = page.get_attribute("[data-testid=turn-status]", "data-phase")
        if phase == "push":  # a double turn: a whole turn more
            play(page, "[data-testid^=arrow-][data-active=true]")
        elif phase == "move":
            play(page, "[data-testid^=cell-]")
        else:
            play(page, "[data-testid=decisions] button")
    turn_passed(page, other, 0)
    seats = other.locator("[data-testid=log-entry]").evaluate_all(
        "(es) => es.map((e) => e.getAttribute('data-seat'))"
    )
    assert seats[:2] == ["0", "0"]  # Ann's push and move, made by keyboard
    assert pointer_clicks(page) == 0
    assert errors == []


def test_team_by_keyboard_alone(server: str, browser: Any) -> None:
    (page, other), errors = started(server, browser, "team", {"mode": "introductory"}, DESKTOP)
    no_clicks(page)
    my_step(page)
    page.locator("[data-testid=board]").focus()
    if page.locator("[data-testid=turn-first-card]:enabled").count():
        enter_on(page, "[data-testid=turn-first-card]")
        my_step(page)
    before = log_count(other)
    # the Rotate spell: its button, a tile on the board, then the new orientation
    enter_on(page, "[data-testid=spell-rotate]")
    page.wait_for_selector("[data-testid=spell-help]")
    enter_on(page, "[data-testid^=cell-]", key=" ")
    play(page, "[data-testid^=rotate-]:not([data-testid^=rotate-c])")
    assert log_count(page) == before + 1
    my_step(page)
    # the Push spell through a slot, then a move
    play(page, "[data-testid^=arrow-][data-active=true]")
    my_step(page)
    play(page, "[data-testid^=cell-]")
    # then, unless the move ended the turn: orient a face-down tile stepped onto, a bonus
    # move after a treasure, and the end of the turn, all by keyboard
    for _ in range(4):
        wait_for_js(page, MY_STEP_OR_NOT, timeout=10000)
        if page.get_attribute("[data-testid=board]", "data-my-turn") == "false":
            break
        if page.get_attribute("[data-testid=turn-status]", "data-phase") == "orient":
            play(page, "[data-testid^=orient-]")
        else:
            play(page, "[data-testid=end-turn]:enabled")
    turn_passed(page, other, before)
    notations = other.locator("[data-testid=log-entry][data-seat='0'] .log-notation")
    texts = notations.all_text_contents()
    # the rotation, the push and the move chosen by keyboard (after Daedalus' card)
    rotated = next(i for i, n in enumerate(texts) if n.startswith("rotate:"))
    assert len(texts[rotated:]) >= 3, texts
    assert pointer_clicks(page) == 0
    assert errors == []


def test_cards_by_keyboard_alone(server: str, browser: Any) -> None:
    (page, other), errors = started(server, browser, "cards", {}, DESKTOP)
    no_clicks(page)
    my_step(page)
    page.locator("[data-testid=board]").focus()
    # a hand card chosen by Tab and Enter, turned with R; the lit squares follow
    hand = page.locator("[data-testid=hand-panel] .hand-card")
    assert hand.count() == 2
    chosen = enter_on(page, "[data-testid=hand-panel] .hand-card")
    assert chosen.startswith("hand-")
    my_step(page)
    for _ in range(4):  # some rotation of a placeable card has lit squares
        if page.locator(".place-cell.legal").count():
            break
        page.keyboard.press("r")
    if not page.locator(".place-cell.legal").count():
        page.keyboard.press("2" if chosen == "hand-0" else "1")  # the other card
        for _ in range(4):
            if page.locator(".place-cell.legal").count():
                break
            page.keyboard.press("r")
    placed = enter_on(page, ".place-cell.legal")
    assert "," in placed  # a square of the layout, by its coordinates
    # a take, when the placement linked: confirmed by Tab and Enter (Space on a card
    # toggles it); otherwise the turn is over already
    wait_for_js(
        page,
        """() => {
          const b = document.querySelector("[data-testid=board]");
          return b.dataset.myTurn === "false"
            || (b.dataset.phase === "take" && b.dataset.legal === "ready");
        }""",
        timeout=10000,
    )
    if page.get_attribute("[data-testid=board]", "data-my-turn") == "true":
        enter_on(page, "[data-testid=take-button]:enabled")
    turn_passed(page, other, 0)
    assert other.get_attribute("[data-testid=board]", "data-cards") == "5"
    assert pointer_clicks(page) == 0
    assert errors == []
