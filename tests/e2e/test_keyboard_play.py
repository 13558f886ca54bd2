"""Issue 14, item 16: every game playable by keyboard alone. Classic is played in
test_phone_a11y.py; here Master, Team and the card game each play at least one whole turn
with the keyboard only (Tab to reach a slot, a cell, a card or a button; Enter or Space to
act; the game's own keys), with no click once the game has started, and the other player
sees the turn in the log.
"""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.conftest import may_place, seated_page, vs_computer, wait_for_js
from tests.e2e.test_phone_a11y import DESKTOP, started
from tests.live_server import http_json

FOCUSED = """() => {
  const e = document.activeElement;
  return e && e !== document.body
    ? e.getAttribute("data-testid") || e.getAttribute("data-key")
      || e.getAttribute("data-pos") || e.tagName
    : null;
}"""

MATCHES = "(s) => !!document.activeElement && document.activeElement.matches(s)"

SIDES = {"N": "top", "E": "right", "S": "bottom", "W": "left"}

IN_BOARD = "() => !!document.activeElement.closest('#board')"


def tab_to(page: Any, selector: str, limit: int = 200) -> int:
    """Press Tab until the focused element matches `selector`; how many presses it took
    (0: the page had put the focus there already)."""
    for presses in range(limit + 1):
        if page.evaluate(MATCHES, selector):
            return presses
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focused(page: Any) -> str:
    return str(page.evaluate(FOCUSED))


def play(page: Any, selector: str, key: str = "Enter") -> int:
    """Reach a control that sends an action with Tab, act with `key`, and wait until the
    page shows the action done (its log one longer) so the next step reads the new
    position. The Tab presses it took."""
    count = log_count(page)
    presses = tab_to(page, selector)
    page.keyboard.press(key)
    wait_for_js(
        page,
        "(n) => Number(document.querySelector('[data-testid=move-log]').dataset.count) > n",
        arg=count,
        timeout=10000,
    )
    return presses


MY_STEP_OR_NOT = """() => {
  const board = document.querySelector("[data-testid=board]").dataset;
  return board.myTurn === "false" || board.legal === "ready";
}"""


def my_step(page: Any) -> None:
    """Wait until the page is on its player's turn with the legal list in hand."""
    page.wait_for_selector("[data-testid=board][data-my-turn=true][data-legal=ready]")


def same_state(page: Any, other: Any) -> None:
    """Wait until both pages have drawn the same state (the one that came last): one that
    lags reads a turn already played."""
    seq = "() => Number(document.querySelector('[data-testid=turn-status]').dataset.seq)"
    wait_for_js(other, f"(n) => ({seq})() >= n", page.evaluate(seq), timeout=10000)
    wait_for_js(page, f"(n) => ({seq})() >= n", other.evaluate(seq), timeout=10000)


# Counts the keys that reached the page, after its own handlers (added before this one).
COUNT_KEYS = """() => { window.__keys = 0;
  document.addEventListener("keydown", () => window.__keys++); }"""


def keys_handled(page: Any, count: int) -> None:
    """Wait until the page has handled `count` keys since COUNT_KEYS: a key that must do
    nothing is checked once it has been through the page's handlers."""
    wait_for_js(page, "(n) => window.__keys >= n", count)


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


# From now on, every text the page's live region for screen readers takes, in order.
HEARD = """() => {
  window.__said = [];
  const region = document.getElementById("announce");
  new MutationObserver(() => window.__said.push(region.textContent))
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


def heard(page: Any) -> list[str]:
    return [" ".join(line.split()) for line in page.evaluate("() => window.__said")]


def test_master_by_keyboard_alone(server: str, browser: Any) -> None:
    (page, other), errors = started(server, browser, "master", {}, DESKTOP)
    no_clicks(page)
    page.evaluate(HEARD)
    prompts: list[str] = []
    my_step(page)
    # the hand's marks are said on the page (a touch screen shows no title)
    key = page.text_content("[data-testid=master-hand-key]") or ""
    hand = [int(c) for c in page.locator("[data-testid^=card-] strong").all_text_contents()]
    assert hand and ("1-6: coin or re-roll the duel die" in key) == any(c <= 6 for c in hand)
    assert ("7-12: coin or double turn" in key) == any(c > 6 for c in hand), (key, hand)
    # from the top of the page to an arrow, once; from then on the page keeps the focus
    # where play goes on: every later step needs no Tab at all
    play(page, "[data-testid^=arrow-][data-active=true]")
    page.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    my_step(page)
    assert focused(page).startswith("cell-")  # the first lit cell, after the push
    # a lit cell's name says the token and the guardian on it (the pictures' titles are
    # not read through the cell's button)
    lit = page.eval_on_selector_all(
        "[data-testid^=cell-]",
        "(es) => es.map((e) => [e.getAttribute('data-testid'), e.getAttribute('aria-label')])",
    )
    tokens = page.eval_on_selector_all(
        "[data-testid^=token-]",
        "(es) => es.map((e) => [e.getAttribute('data-testid'), e.getAttribute('data-value')])",
    )
    on_token = {key.replace("token-", "cell-"): value for key, value in tokens}
    for key, label in lit:
        if key in on_token:
            assert f"Treasure {on_token[key]}" in label, (key, label)
        else:
            assert not re.search(r"Treasure \d", label), (key, label)
    page.keyboard.press("ArrowDown")  # the arrow keys go from cell to cell
    page.keyboard.press("ArrowRight")
    assert focused(page).startswith("cell-")
    assert play(page, "[data-testid^=cell-]") == 0
    # then whatever the turn asks (a coin, a re-roll, a double turn...), by Enter, until
    # the turn is the other player's; a duel may ask the other player too
    for _ in range(12):
        wait_for_js(page, MY_STEP_OR_NOT, timeout=10000)
        if page.get_attribute("[data-testid=board]", "data-my-turn") == "false":
            same_state(page, other)
            wait_for_js(other, MY_STEP_OR_NOT, timeout=10000)
            if other.get_attribute("[data-testid=turn-status]", "data-seat") == "1":
                break
            if other.get_attribute("[data-testid=board]", "data-my-turn") == "true":
                my_step(other)
                play(other, "[data-testid=decisions] button")
            continue
        phase = page.get_attribute("[data-testid=turn-status]", "data-phase")
        if phase == "push":  # a double turn: a whole turn more
            assert play(page, "[data-testid^=arrow-][data-active=true]") == 0
        elif phase == "move":
            assert play(page, "[data-testid^=cell-]") == 0
        else:
            prompts.append(
                " ".join((page.text_content("[data-testid=decision-prompt]") or "").split())
            )
            assert play(page, "[data-testid=decisions] button") == 0, phase
    turn_passed(page, other, 0)
    # what a decision asks (the roll it follows) is said, though the panel is no live region
    said = heard(page)
    for prompt in prompts:
        assert any(prompt in line for line in said), (prompt, said)
    seats = other.locator("[data-testid=log-entry]").evaluate_all(
        "(es) => es.map((e) => e.getAttribute('data-seat'))"
    )
    assert seats[:2] == ["0", "0"]  # Ann's push and move, made by keyboard
    # waiting for the next turn, the focus stays on the board (not the top of the page)
    assert page.evaluate("() => document.activeElement.id") == "board"
    assert pointer_clicks(page) == 0
    assert errors == []


def test_team_by_keyboard_alone(server: str, browser: Any) -> None:
    (page, other), errors = started(server, browser, "team", {"mode": "introductory"}, DESKTOP)
    no_clicks(page)
    my_step(page)
    before = log_count(other)
    if page.locator("[data-testid=turn-first-card]:enabled").count():
        other.evaluate(HEARD)
        play(page, "[data-testid=turn-first-card]")
        my_step(page)
        # Bob hears the card once, in the move's words, not again as the news line
        other.wait_for_selector("[data-testid=news]:not([hidden])")
        news = " ".join((other.text_content("[data-testid=news]") or "").split())
        wait_for_js(other, "() => window.__said.some((l) => l.includes('Book of Daedalus'))")
        said = heard(other)
        assert sum("Book of Daedalus" in line for line in said) == 1, said
        assert not any(news in line for line in said), (news, said)
    # the Rotate spell: its button, then the tile to turn (the page goes there), then its
    # new orientation (the page goes to the choices)
    # the turn line is heard in parts ("Your turn. Moves 0/1"), not run together
    parts = page.locator("[data-testid=turn-status] > :not(.dot)").all_text_contents()
    wait_for_js(
        page,
        "(l) => document.querySelector('#announce').textContent.endsWith(l)",
        ". ".join(" ".join(part.split()) for part in parts),
    )
    tab_to(page, "[data-testid=spell-rotate]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=spell-help]")
    assert focused(page).startswith("cell-")
    # the lit tiles say what a press does there; Escape puts the spell down and goes back
    # to its button, which says whether it is aimed
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Turn "), label
    assert page.get_attribute("[data-testid=spell-rotate]", "aria-pressed") == "true"
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=spell-help]", state="detached")
    assert focused(page) == "spell-rotate"
    assert page.get_attribute("[data-testid=spell-rotate]", "aria-pressed") == "false"
    assert page.locator("[data-testid^=cell-]").evaluate_all(
        "(es) => es.every((e) => e.getAttribute('aria-label').startsWith('Move to '))"
    )
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=spell-help]")
    assert focused(page).startswith("cell-")
    page.keyboard.press(" ")
    page.wait_for_selector("[data-testid=team-spells] [data-testid^=rotate-]")
    # each way to turn it is named by the sides it opens (its pictures were nameless)
    for choice in page.locator("[data-testid=team-spells] [data-testid^=rotate-]").all():
        opened = (choice.get_attribute("data-testid") or "").removeprefix("rotate-")
        named = choice.get_attribute("aria-label") or ""
        assert named.startswith("Paths to the "), named
        words = {side for side, word in SIDES.items() if word in named}
        assert words == set(opened), (named, opened)
    assert play(page, "[data-testid=team-spells] [data-testid^=rotate-]") == 0
    my_step(page)
    # a move, from the lit cell the page chose; then the push, the end of the turn, and
    # whatever a found treasure or a face-down tile asks, each where the page puts it
    assert play(page, "[data-testid^=cell-]") == 0
    for _ in range(6):
        wait_for_js(page, MY_STEP_OR_NOT, timeout=10000)
        if page.get_attribute("[data-testid=board]", "data-my-turn") == "false":
            break
        if page.get_attribute("[data-testid=turn-status]", "data-phase") == "orient":
            assert play(page, "[data-testid^=orient-]") == 0
        elif page.evaluate(MATCHES, "[data-key^=cell-]"):
            assert play(page, "[data-testid^=cell-]") == 0  # a bonus move
        elif page.evaluate(MATCHES, "[data-key^=arrow-]"):
            assert play(page, "[data-testid^=arrow-][data-active=true]") == 0
        else:
            assert play(page, "[data-testid=end-turn]:enabled") == 0
    turn_passed(page, other, before)
    notations = other.locator("[data-testid=log-entry][data-seat='0'] .log-notation")
    texts = notations.all_text_contents()
    # the rotation, the move and the push chosen by keyboard (after Daedalus' card)
    rotated = next(i for i, n in enumerate(texts) if n.startswith("rotate:"))
    assert len(texts[rotated:]) >= 3, texts
    assert pointer_clicks(page) == 0
    assert errors == []


LIT = ".place-cell.legal"


def test_cards_by_keyboard_alone(server: str, browser: Any) -> None:
    for _deal in range(3):  # a deal whose first turn may place a card (see `may_place`)
        (page, other), errors = started(server, browser, "cards", {}, DESKTOP)
        if may_place(page):
            break
        page.context.close()
        other.context.close()
    else:
        raise AssertionError("no card Ann could place in her first turn in 3 deals")
    no_clicks(page)
    my_step(page)
    # a hand card chosen by Tab and Enter
    tab_to(page, "[data-testid=hand-1]")
    page.keyboard.press("Enter")
    wait_for_js(page, "() => document.querySelector('[data-testid=hand-1]').ariaPressed === 'true'")
    # 1 and 2 choose a card, R turns it; once it has lit squares the focus is on one
    for key in ["r", "r", "r", "1", "r", "r", "r"]:
        if page.locator(LIT).count():
            break
        page.keyboard.press(key)
    assert page.locator(LIT).count()
    assert page.evaluate(MATCHES, LIT)
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)  # from lit square to lit square (or stays)
        assert page.evaluate(MATCHES, LIT)
    # the table is one stop for Tab, however many its lit squares
    stops = "() => document.querySelectorAll('#board [data-rove][tabindex=\"0\"]').length"
    assert page.evaluate(stops) == 1
    placed = focused(page)
    page.keyboard.press("Tab")
    assert not page.evaluate(IN_BOARD), focused(page)
    page.keyboard.press("Shift+Tab")
    assert focused(page) == placed
    assert "," in placed  # a square of the table, by its coordinates
    page.keyboard.press("Enter")
    # a take, when the placement linked: the page goes to its button, the largest choice
    # already made; otherwise the turn is over already
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
        assert play(page, "[data-testid=take-button]:enabled") == 0
    turn_passed(page, other, 0)
    assert other.locator(f"[data-testid=board] .layout-card[data-pos='{placed}']").count() == 1
    assert page.evaluate("() => document.activeElement.id") == "board"
    assert pointer_clicks(page) == 0
    assert errors == []


def test_the_spare_tile_is_told_in_words_as_it_turns(server: str, browser: Any) -> None:
    """R turns the spare tile, and a screen reader hears where its paths now lead (its
    picture's name said only "Spare tile: bat"); a keyboard's player is shown the keys."""
    (page, other), errors = started(server, browser, "classic", {}, DESKTOP)
    assert page.is_visible("[data-testid=keys-help]")
    for presses in range(1, 5):
        page.keyboard.press("r")
        page.wait_for_selector(f"[data-testid=spare][data-rotation='{presses % 4}']")
        opened = page.get_attribute("[data-testid=spare]", "data-open") or ""
        turned = {"NESW"[("NESW".index(side) + presses) % 4] for side in opened}
        label = page.get_attribute("[data-testid=spare]", "aria-label") or ""
        assert label.startswith("Spare tile"), label
        paths = label.split(", paths to the ", 1)[1]
        said = {side for side, word in SIDES.items() if word in paths}
        assert said == turned, (label, opened, presses)
        wait_for_js(page, "(l) => document.querySelector('#announce').textContent === l", label)
    # A lit cell's name says what is there: Ann's own square says she stands on it.
    page.click("[data-testid^=arrow-][data-active=true] >> nth=0")
    page.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    labels = page.eval_on_selector_all(
        "[data-testid^=cell-]", "(els) => els.map((e) => e.getAttribute('aria-label'))"
    )
    assert all(label.startswith("Move to ") for label in labels), labels
    assert sum(label.endswith("you are here") for label in labels) == 1, labels
    assert errors == []
    other.context.close()
    page.context.close()


def test_the_skip_link_takes_the_keyboard_past_the_header(server: str, browser: Any) -> None:
    """The first Tab shows "Skip to content"; Enter on it puts the focus on the page's
    content, and the next Tab goes on from there (the target took no focus, and Tab went
    on through the header)."""
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/rules")
    page.keyboard.press("Tab")
    assert page.evaluate(MATCHES, ".skip-link")
    assert page.is_visible(".skip-link")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('#main')")
    ctx.close()


def test_a_game_started_by_keyboard_begins_where_play_goes_on(server: str, browser: Any) -> None:
    """Joined and started with the keyboard, the player finds the focus on the board's
    first active arrow (the start took the focused button away, and Tab began again at
    the top of the page); the other player, who joined by keyboard too, waits on the
    board."""
    room = http_json("POST", server + "/api/rooms", {"variant": "classic", "options": {}})
    pages = []
    for seat, name in enumerate(["Ann", "Bob"]):
        page = browser.new_context(**DESKTOP).new_page()
        page.goto(server + room["url"])
        page.fill("[data-testid=join-name]", name)  # fill types no key: then Enter does
        page.focus("[data-testid=join-name]")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"[data-testid=seat-{seat}].mine[data-connected='1']")
        pages.append(page)
    ann, bob = pages
    tab_to(ann, "[data-testid=start-button]")
    ann.keyboard.press("Enter")
    ann.wait_for_selector("[data-testid=board][data-legal=ready]")
    wait_for_js(ann, "(s) => document.activeElement.matches(s)", "[data-key^=arrow-][tabindex]")
    wait_for_js(bob, "() => document.activeElement.id === 'board'")
    for page in pages:
        page.context.close()


def test_tab_goes_past_the_board_in_one_press(server: str, browser: Any) -> None:
    """The board is one stop for Tab (a roving tabindex): its arrows and lit cells are
    gone through with the arrow keys, and Tab leaves it at once (a Team player pressed
    Tab through every arrow and lit cell to reach "End turn"); Shift+Tab comes back to
    the control last chosen."""
    (page, other), errors = started(server, browser, "classic", {}, DESKTOP)
    my_step(page)
    tab_to(page, "[data-testid^=arrow-][data-active=true]")
    stops = "() => document.querySelectorAll('#board [data-rove][tabindex=\"0\"]').length"
    assert page.locator("#board [data-key][tabindex]").count() == 12
    assert page.evaluate(stops) == 1
    page.keyboard.press("ArrowRight")
    chosen = focused(page)
    assert chosen.startswith("arrow-")
    assert page.evaluate(stops) == 1
    page.keyboard.press("Tab")
    assert not page.evaluate(IN_BOARD), focused(page)
    page.keyboard.press("Shift+Tab")
    assert focused(page) == chosen
    # after the push, the stop is a lit cell, and Tab leaves the board from it as well
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    my_step(page)
    assert focused(page).startswith("cell-")
    assert page.evaluate(stops) == 1
    page.keyboard.press("Tab")
    assert not page.evaluate(IN_BOARD), focused(page)
    assert errors == []
    other.context.close()
    page.context.close()


ROTATION = "() => document.querySelector('[data-testid=spare]').dataset.rotation"


def test_single_key_shortcuts_can_be_turned_off(server: str, browser: Any) -> None:
    """WCAG 2.1.4: R turned the spare tile wherever the focus was, so a word said to
    speech input, or a stray key, turned it unasked, and nothing turned that off. "Your
    seat" has the switch; it holds on this device (a reload, the next room), the keys'
    help stops naming R, and the buttons beside the tile still turn it."""
    made = vs_computer(server, "classic")
    page = seated_page(browser, server, made, locale="en-GB", **DESKTOP)
    page.wait_for_selector("[data-testid=board][data-legal=ready][data-my-turn=true]")
    toggle = page.locator("[data-testid=letter-keys]")
    assert toggle.get_attribute("aria-pressed") == "true"
    assert toggle.text_content() == "Single-key shortcuts: on"
    page.keyboard.press("r")
    wait_for_js(
        page, "() => document.querySelector('[data-testid=spare]').dataset.rotation === '1'"
    )
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert toggle.text_content() == "Single-key shortcuts: off"
    help_words = page.text_content("[data-testid=keys-help]")
    assert "R turns" not in help_words and "Single-key shortcuts are off" in help_words
    page.locator("body").focus()
    page.evaluate(COUNT_KEYS)
    for key in ("r", "R", "Shift+R"):
        page.keyboard.press(key)
    keys_handled(page, 3)
    assert page.evaluate(ROTATION) == "1"
    page.click("[data-testid=rotate-cw]")
    assert page.evaluate(ROTATION) == "2"
    # the choice holds on this device: a reload, and in French
    page.reload()
    page.wait_for_selector("[data-testid=board][data-legal=ready][data-my-turn=true]")
    page.evaluate(COUNT_KEYS)
    page.keyboard.press("r")
    keys_handled(page, 1)
    assert page.evaluate(ROTATION) == "0"
    page.select_option("#lang-select", "fr")
    wait_for_js(
        page,
        "() => document.querySelector('[data-testid=letter-keys]').textContent"
        " === 'Raccourcis d’une seule touche\u202f: désactivés'"
        " || document.querySelector('[data-testid=letter-keys]').textContent"
        " === 'Raccourcis d’une seule touche\u00a0: désactivés'",
    )
    assert "raccourcis d’une seule touche sont désactivés" in page.text_content(
        "[data-testid=keys-help]"
    )
    # and on again
    page.click("[data-testid=letter-keys]")
    page.keyboard.press("r")
    wait_for_js(
        page, "() => document.querySelector('[data-testid=spare]').dataset.rotation === '1'"
    )
    assert page.errors == []
    page.context.close()


def test_the_card_game_s_keys_can_be_turned_off(server: str, browser: Any) -> None:
    """The card game's R, 1, 2 and F act wherever the focus is, as the classic game's R:
    with the shortcuts off a stray "2" no longer chooses the second card, and the hand's
    help names the buttons instead of the keys."""
    made = vs_computer(server, "cards")
    page = seated_page(browser, server, made, locale="en-GB", **DESKTOP)
    page.wait_for_selector("[data-testid=board][data-legal=ready][data-my-turn=true]")
    page.click("[data-testid=letter-keys]")
    wait_for_js(page, "() => document.body.textContent.includes('The buttons under the hand turn')")
    # The first card is chosen at the start unless the deal lets only the second one link
    # (then it is the one chosen): the key pressed is the other card's.
    chosen = 0 if page.get_attribute("[data-testid=hand-0]", "aria-pressed") == "true" else 1
    other = 1 - chosen
    assert page.get_attribute(f"[data-testid=hand-{chosen}]", "aria-pressed") == "true"
    page.locator("body").focus()
    page.evaluate(COUNT_KEYS)
    page.keyboard.press(str(other + 1))
    keys_handled(page, 1)
    assert page.get_attribute(f"[data-testid=hand-{chosen}]", "aria-pressed") == "true"
    assert page.get_attribute(f"[data-testid=hand-{other}]", "aria-pressed") == "false"
    page.click("[data-testid=letter-keys]")
    page.keyboard.press(str(other + 1))
    wait_for_js(
        page,
        f"() => document.querySelector('[data-testid=hand-{other}]')"
        ".getAttribute('aria-pressed') === 'true'",
    )
    assert page.errors == []
    page.context.close()
