"""Browser tests of the rules-version-2 choices (issue 11), in headless Chromium.

- Team: a real room; seq 0 shows the whole maze face up and the first Daedalus card is
  turned by seat 0's button, in front of everyone (both pages see the card and the news).
- Classic (open the pile, decline the bonus turn) and cards (linking highlight): those
  positions come up at random in real games, so the room page's own UI modules are driven
  with views and legal lists made by the real engine for an exact position, and what the
  player clicks is the action the engine then accepts.

Screenshots (desktop 1366x900 and phone 390x844) go to $SHOTS when it is set.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from app.rules import Game
from app.rules.cards import ENGINE, Place
from tests.e2e.conftest import http_json, join_room, wait_for_js, wait_for_layout
from tests.rules.cards_helpers import lay, nothing_to_take, set_hand
from tests.rules.helpers import arm_event

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
V2 = {"rules_version": 2}

MOUNT = """async ([variant, seat]) => {
  const path = { cards: "cards.js", team: "team.js", master: "master.js" }[variant] || "classic.js";
  const mod = await import(`/static/js/${path}`);
  const Ui = { cards: mod.CardsUI, team: mod.TeamUI, master: mod.MasterUI }[variant]
    || mod.ClassicUI;
  const byId = (id) => document.getElementById(id);
  // The room's own socket is live: its presence message (coalesced, it may come after
  // this) would show the lobby again, so the page stays in the game's phase.
  const roomPage = document.getElementById("room-page");
  roomPage.dataset.phase = "playing";
  new MutationObserver(() => {
    if (roomPage.dataset.phase !== "playing") roomPage.dataset.phase = "playing";
  }).observe(roomPage, { attributes: true, attributeFilter: ["data-phase"] });
  window.__sent = [];
  window.__news = [];
  window.__ui = new Ui(
    { board: byId("board"), spare: byId("spare"), rotateCw: byId("rotate-cw"),
      rotateCcw: byId("rotate-ccw"), stay: byId("stay-button"), controls: byId("controls"),
      turn: byId("turn-status"), seq: byId("seq"), target: byId("target-box"),
      event: byId("event-panel"), players: byId("player-list"), result: byId("result-banner"),
      hand: byId("hand-panel") },
    { sendAction: (a) => { window.__sent.push(a); return true; }, requestLegal: () => {},
      showError: (t) => window.__news.push("error: " + t), showNews: (t) => window.__news.push(t),
      dropNews: (t) => window.__news.push("dropped: " + t),
      isConnected: () => true },
  );
  return true;
}"""

FEED = """([msg, legal]) => {
  window.__sent = [];
  window.__ui.setState(msg, true);
  window.__ui.setLegal({ seq: msg.seq, actions: legal });
  return true;
}"""


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def bench(browser: Any, server: str, variant: str, size: str, locale: str = "en-US") -> Any:
    """The room page of a fresh room (lobby: no game of its own), with a UI of `variant`
    mounted on its game elements, fed by the test; in the language of `locale`."""
    width, height = SIZES[size]
    phone = size == "phone"
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        locale=locale,
    )
    ctx.set_default_timeout(15000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    room = http_json("POST", server + "/api/rooms", {"variant": variant})
    page.goto(server + room["url"])
    page.wait_for_selector("[data-testid=conn-status][data-status=online]", state="attached")
    page.evaluate(MOUNT, [variant, 0])
    page.errors = errors  # type: ignore[attr-defined]
    return page


def feed(page: Any, game: Game, seat: int, last: dict[str, Any] | None = None) -> None:
    msg = {"type": "state", "seq": game.seq, "view": game.view(seat), "last": last}
    page.evaluate(FEED, [msg, game.legal_actions(seat)])


def apply_sent(page: Any, game: Game, seat: int) -> list[dict[str, Any]]:
    """The action the page sent, applied by the engine (it must accept it)."""
    sent = page.evaluate("() => window.__sent")
    assert len(sent) == 1, sent
    events = game.apply(seat, sent[0])
    action = sent[0]
    feed(page, game, seat, {"seq": game.seq, "seat": seat, "action": action, "events": events})
    return sent


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_classic_open_the_pile_then_pick_the_top_card(server: str, browser, size: str) -> None:
    page = bench(browser, server, "classic", size)
    game = Game.new("classic", ["Ann", "Bob"], "e2e-exchange", {"events": True, **V2})
    arm_event(game, "exchange", "Sf")
    game.apply(0, {"type": "push", "side": "S", "index": 5, "rotation": 0})
    pile = game.state.players[0].pile.copy()
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=open-pile]")
    assert page.locator("[data-testid^=pick-]").count() == 0  # nothing shown before opening
    assert page.get_attribute("[data-testid=event-panel]", "data-event") == "exchange"
    shot(page, f"classic-exchange-closed-{size}")
    page.click("[data-testid=open-pile]")
    assert apply_sent(page, game, 0) == [{"type": "open_pile"}]
    page.wait_for_selector(f"[data-testid=pick-{pile[-1]}]")
    assert page.locator("[data-testid^=pick-]").count() == len(pile)
    # what the event asks is said (the panel is no live region), each question once
    questions = page.locator("[data-testid=event-panel] [data-announce]").all_text_contents()
    assert questions
    for asked in questions:
        wait_for_js(
            page, "(t) => document.querySelector('#announce').textContent.includes(t)", asked
        )
    assert page.locator("[data-testid=open-pile]").count() == 0
    shot(page, f"classic-exchange-open-{size}")
    page.click(f"[data-testid=pick-{pile[-1]}]")
    assert apply_sent(page, game, 0) == [{"type": "pick", "treasure": pile[-1]}]
    assert game.state.players[0].pile[0] == pile[-1]
    wait_for_js(page, "() => !document.querySelector('[data-testid^=pick-]')")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_classic_decline_the_bonus_turn(server: str, browser, size: str) -> None:
    page = bench(browser, server, "classic", size)
    game = Game.new("classic", ["Ann", "Bob", "Cy"], "e2e-bonus", {"events": True, **V2})
    arm_event(game, "double_turn", "Nb")
    game.apply(0, {"type": "push", "side": "N", "index": 1, "rotation": 0})
    game.apply(0, {"type": "move", "to": [0, 0]})
    assert game.view(0)["turn"]["bonus"] is True
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=decline-bonus]")
    assert page.get_attribute("[data-testid=event-panel]", "data-event") == "double_turn"
    shot(page, f"classic-bonus-{size}")
    page.click("[data-testid=decline-bonus]")
    assert apply_sent(page, game, 0) == [{"type": "decline"}]
    assert game.to_move == 1
    page.wait_for_selector("[data-testid=event-panel][hidden]", state="attached")
    news = page.evaluate("() => window.__news")
    assert any("declined" in line for line in news), news
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_classic_phone_the_spare_stays_under_the_board_through_an_extra_push(
    server: str, browser
) -> None:
    """An extra push in the move phase put the event's card between the board and the
    spare tile, which went below a phone's screen: the player scrolled down to turn it
    and up again to push. The spare keeps its place under the board; the event follows;
    a question of an event (the bonus turn's) is brought into sight."""
    page = bench(browser, server, "classic", "phone")
    game = Game.new("classic", ["Ann", "Bob", "Cy"], "e2e-extra", {"events": True, **V2})
    arm_event(game, "extra_push", "Nb")
    game.apply(0, {"type": "push", "side": "N", "index": 1, "rotation": 0})
    assert game.view(0)["turn"]["event"]["name"] == "extra_push"
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=event-panel][data-event=extra_push]")
    board = page.locator("[data-testid=board]").bounding_box()
    spare = page.locator("[data-testid=spare]").bounding_box()
    event = page.locator("[data-testid=event-panel]").bounding_box()
    assert board is not None and spare is not None and event is not None
    assert board["y"] + board["height"] <= spare["y"] < event["y"], (board, spare, event)
    # the keyboard's Tab and a screen reader follow the document: the same order
    assert page.evaluate(CONTROLS_FIRST) is True
    page.evaluate("() => window.scrollTo(0, 0)")
    wait_for_layout(page, "[data-testid=board]", "[data-testid=rotate-cw]")
    # the whole board and the spare's turn buttons in one screen
    view = page.viewport_size
    assert view is not None
    turn = page.locator("[data-testid=rotate-cw]").bounding_box()
    assert turn is not None and turn["y"] + turn["height"] <= view["height"], turn
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    # a question of the event is brought into sight below the spare
    page = bench(browser, server, "classic", "phone")
    game = Game.new("classic", ["Ann", "Bob", "Cy"], "e2e-bonus", {"events": True, **V2})
    arm_event(game, "double_turn", "Nb")
    game.apply(0, {"type": "push", "side": "N", "index": 1, "rotation": 0})
    game.apply(0, {"type": "move", "to": [0, 0]})
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=decline-bonus]")
    wait_for_js(
        page,
        "() => document.querySelector('[data-testid=decline-bonus]')"
        ".getBoundingClientRect().bottom <= window.innerHeight",
    )
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    # a laptop shows the event's card above the controls, and its document says so too
    page = bench(browser, server, "classic", "desktop")
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=decline-bonus]")
    assert page.evaluate(CONTROLS_FIRST) is False
    page.context.close()


CONTROLS_FIRST = """() => {
  const controls = document.querySelector('#controls');
  const panel = document.querySelector('[data-testid=event-panel]');
  return Boolean(controls.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING);
}"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_cards_linking_placements_are_highlighted(server: str, browser, size: str) -> None:
    page = bench(browser, server, "cards", size)
    game = Game.new("cards", ["Ann", "Bob"], "e2e-link", V2)
    lay(game, {(0, 0): ("chest", "I", "EW"), (1, 0): ("owl", "I", "EW")})
    set_hand(game, 0, [("chest", "L"), ("ghost", "I")])
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=must-link]")
    assert page.get_attribute(".place-hints", "data-must-link") == "true"
    assert page.locator("[data-testid=hand-0].links").count() == 1
    assert page.locator("[data-testid=hand-1].links").count() == 0
    # the card that links nothing, chosen by hand, says why no square lights up
    assert page.locator("[data-testid=cannot-place]").count() == 0
    page.click("[data-testid=hand-1]")
    page.wait_for_selector("[data-testid=cannot-place]")
    assert page.locator(".place-cell.legal").count() == 0
    page.click("[data-testid=hand-0]")
    page.wait_for_selector("[data-testid=cannot-place]", state="detached")
    lit = page.locator(".place-cell.legal.links")
    for _ in range(4):
        if lit.count():
            break
        page.click("[data-testid=rotate-cw-card]")
    assert lit.count() >= 1
    assert page.locator(".place-cell:not(.links)").count() == 0
    # a square is named by the card beside it, not by coordinates that mean nothing
    named = lit.first.get_attribute("aria-label") or ""
    assert re.fullmatch(
        r"Place the card (to the right of|to the left of|below|above) the (chest|owl) card: "
        r"it links two identical treasures",
        named,
    ), named
    assert page.get_attribute("[data-testid=board]", "aria-label") == "The cards laid"
    # ...and so is a dashed square, which takes the card turned another way
    dashed = page.locator("[data-testid^=turn-to-fit-]").evaluate_all(
        "(es) => es.map((e) => e.getAttribute('aria-label'))"
    )
    assert dashed, "no dashed square in this position: the check shows nothing"
    for label in dashed:
        assert re.fullmatch(
            r"Turn the card to place it (to the right of|to the left of|below|above) "
            r"the (chest|owl) card",
            label,
        ), label
    shot(page, f"cards-must-link-{size}")
    linking = game.legal_actions(0)
    assert all(ENGINE.links(game.state, 0, Place.from_dict(a)) for a in linking)
    lit.first.click()
    sent = apply_sent(page, game, 0)
    assert sent[0] in linking and sent[0]["card"] == 0  # the chest, joined to the chest
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_cards_a_placement_that_may_take_nothing_says_why(server: str, browser) -> None:
    """A card joined to one of its motif that may not go (the layout would come apart):
    the turn passed with no take step and no word, under an older move's news. Now the
    page says why nothing was taken, to the placer as theirs and to the others by name."""
    game, action = nothing_to_take()
    events = game.apply(0, action)
    assert [e["type"] for e in events if e["type"] in ("no_take", "can_take")] == ["no_take"]
    last = {"seq": game.seq, "seat": 0, "action": action, "events": events}
    page = bench(browser, server, "cards", "desktop")
    for seat, start in ((0, "Nothing to take: "), (1, "Ann took nothing: ")):
        page.evaluate("() => { window.__news = []; }")
        feed(page, game, seat, last)
        news = page.evaluate("() => window.__news")
        assert any(line.startswith(start) and "touch by an edge" in line for line in news), news
    page.select_option("[data-testid=lang-select]", "de")
    page.evaluate("() => { window.__news = []; }")
    feed(page, game, 1, last)
    assert any(line.startswith("Ann nimmt nichts") for line in page.evaluate("() => window.__news"))
    assert page.errors == []


def test_team_first_daedalus_card_is_turned_in_front_of_everyone(server: str, browser) -> None:
    room = http_json("POST", server + "/api/rooms", {"variant": "team", "options": {}})
    assert room["options"]["rules_version"] == 2
    url = server + room["url"]
    pages = []
    for size in ("desktop", "phone"):
        width, height = SIZES[size]
        phone = size == "phone"
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
        )
        ctx.set_default_timeout(15000)
        pages.append(ctx.new_page())
    a, b = pages
    errors: list[str] = []
    for p in pages:
        p.on("pageerror", lambda e: errors.append(str(e)))
    join_room(a, url, "Ann", 0)
    join_room(b, url, "Bob", 1)
    a.click("[data-testid=start-button]")
    for p in pages:
        p.wait_for_selector("[data-testid=daedalus-shut]")
        assert p.locator("[data-testid=board] .team-rubble").count() == 0  # all face up
        assert p.get_attribute("[data-testid=turn-status]", "data-phase") == "daedalus"
    assert b.locator("[data-testid=turn-first-card]").count() == 0  # seat 0 turns it
    a.wait_for_selector("[data-testid=turn-first-card]:not([disabled])")
    shot(a, "team-book-shut-desktop")
    shot(b, "team-book-shut-phone")
    a.click("[data-testid=turn-first-card]")
    for p in pages:
        p.wait_for_selector("[data-testid=daedalus-card]")
        p.wait_for_selector("[data-testid=move-log][data-count='1']")
        assert (p.text_content("[data-testid=log-entry] .log-notation") or "") == "daedalus"
        # a notation of words only is not shown beside the same words as a code label
        assert p.locator("[data-testid=log-entry] .log-notation").is_hidden()
        assert p.get_attribute("[data-testid=turn-status]", "data-phase") == "play"
    b.wait_for_selector("[data-testid=news]:not([hidden])")
    shot(a, "team-first-card-desktop")
    shot(b, "team-first-card-phone")
    assert errors == []
    for p in pages:
        p.context.close()


@pytest.mark.parametrize("mode", ["expert", "standard"])
def test_team_the_board_lights_only_what_may_be_collected_now(
    server: str, browser, mode: str
) -> None:
    """In expert a player collects the left card of their board first: both were lit on
    the board, and a stop on the right one collected nothing, with nothing said. Now the
    board lights what the engine says may be collected, the player list draws the right
    card paler, and the target box states the rule; in standard both cards are lit."""
    from tests.rules.team_helpers import calm, carve, place

    game = Game.new("team", ["Ann", "Bob"], "expert-order", {"mode": mode})
    state = calm(game)
    state.players[0].board = ["bat", "ghost"]
    carve(state, b1="EW")
    place(state, "bat", "c1", "NES")
    place(state, "ghost", "e1", "NES")
    page = bench(browser, server, "team", "desktop")
    feed(page, game, 0)
    lit = page.evaluate(
        """() => [...document.querySelectorAll('[data-cell]')]
             .filter((c) => c.firstChild && c.firstChild.classList.contains('is-target'))
             .map((c) => c.dataset.cell)"""
    )
    later = page.locator("[data-testid=team-board-0] .team-card.later")
    if mode == "expert":
        assert lit == ["0,2"], lit  # c1: the bat, the left card; not the ghost at e1
        assert later.count() == 1 and "after the left treasure" in later.get_attribute("title")
        rule = page.text_content("[data-testid=team-expert-rule]") or ""
        assert "left treasure first" in rule, rule
    else:
        assert lit == ["0,2", "0,4"], lit
        assert later.count() == 0
        assert page.locator("[data-testid=team-expert-rule]").count() == 0
    shot(page, f"team-{mode}-lit")
    assert page.errors == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_team_laying_the_turned_up_tile_is_no_spell(server: str, browser, size: str) -> None:
    """A step onto a face-down tile turns it up, and the player lays it before anything
    else: the spells' box then holds the ways to lay it, under its own title, not under
    "Spells" as if laying it spent one."""
    from tests.rules.team_helpers import calm, carve, face_down, new, place, play

    game = new(2)
    state = calm(game)
    carve(state, b1="EW", c1="EW")
    place(state, "bat", "d1", "NES")
    carve(state, b1="EW", c1="EW")
    face_down(state, "d1")
    page = bench(browser, server, "team", size)
    feed(page, game, 0)
    assert page.text_content("[data-testid=spells-title]") == "Spells"
    assert page.is_enabled("#rotate-cw")
    events = play(game, "d1")
    assert game.view(0)["turn"]["phase"] == "orient"
    feed(page, game, 0, {"seq": game.seq, "seat": 0, "action": {}, "events": events})
    assert page.text_content("[data-testid=spells-title]") == "Lay the tile"
    assert page.is_disabled("#rotate-cw") and page.is_disabled("#rotate-ccw")
    # the turn's line says it too: on a phone the choices are below the board, off screen
    status = page.text_content("[data-testid=turn-status]") or ""
    assert status.startswith("Your turn: lay the tile turned up at d1"), status
    assert page.locator("[data-testid^=orient-]").count() == len(game.legal_actions(0))
    if size == "phone":  # the ways to lay it come into sight, below the board as they are
        wait_for_js(
            page,
            "() => { const b = document.querySelector('[data-testid^=orient-]')"
            ".getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight + 1; }",
        )
    shot(page, f"team-orient-{size}")
    assert page.errors == []


def test_the_last_move_takes_an_earlier_moves_news_down(server: str, browser) -> None:
    """A move's news stays its time while the game goes on (a turn of several actions would
    sweep it away unread), but the move that ends the game takes it down: the result speaks
    then, and "Bob found the bat!" under GAME OVER read as the last move's news."""
    import json
    import random

    from app.bots.greedy import choose

    game = Game.new("classic", ["Ann", "Bob"], "news-at-the-end")
    rng = random.Random(1)
    steps: list[tuple[dict[str, Any], dict[str, Any]]] = []
    while game.result is None:
        seat = game.to_move
        assert seat is not None
        action = choose(game.view(seat), game.legal_actions(seat), rng)
        events = game.apply(seat, action)
        last = {"seq": game.seq, "seat": seat, "action": action, "events": events}
        steps.append((json.loads(json.dumps(game.view(0))), last))
    found = max(
        i for i, (_, last) in enumerate(steps) if any(e["type"] == "found" for e in last["events"])
    )
    assert found < len(steps) - 1, "the winning move found something: a test of nothing"
    page = bench(browser, server, "classic", "desktop")
    for view, last in steps[found:]:
        page.evaluate(FEED, [{"type": "state", "seq": view["seq"], "view": view, "last": last}, []])
    news = page.evaluate("() => window.__news")
    told = [line for line in news if not line.startswith("dropped: ")]
    assert told and "found" in told[0], news
    # taken down once, by the last move, and not before
    assert [line for line in news if line.startswith("dropped: ")] == [f"dropped: {told[-1]}"]
    assert news[-1] == f"dropped: {told[-1]}", news
    assert page.errors == []


def test_cards_a_finished_game_shows_every_hand_to_its_players(server: str, browser) -> None:
    """Over, the game shows no hand panel: a player's page said "Your hand: no card left
    in hand" beside two rotate buttons with nothing to turn, then a row per player saying
    the same (the game ends when no hand holds a card)."""
    import random

    game = Game.new("cards", ["Ann", "Bob", "Cy"], "hands-at-the-end")
    rng = random.Random(2)
    while game.result is None:
        seat = game.to_move
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert all(not hand for hand in (p["hand"] for p in game.view(0)["players"]))
    page = bench(browser, server, "cards", "phone")
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=result-banner]:not([hidden])")
    panel = "[data-testid=hand-panel]"
    assert page.is_hidden(panel)
    assert page.locator(f"{panel} .hand-card, {panel} button").count() == 0
    assert page.errors == []


def test_master_the_coin_question_is_asked_even_without_the_card(server: str, browser) -> None:
    """The coin question comes to whoever holds a card of the token's half, so that it
    tells nobody which values they hold; the page answered it by itself at once when the
    card was not there, which told the others exactly that (and the player nothing)."""
    from tests.rules.master_helpers import act, take_position

    game = take_position([5, 9])  # a card of the half 1-6, not the 3 taken
    page = bench(browser, server, "master", "phone")
    feed(page, game, 0)
    events = act(game, 0, "b1")
    assert game.legal_actions(0) == [{"type": "no_coin"}]
    page.evaluate(
        FEED,
        [
            {
                "type": "state",
                "seq": game.seq,
                "view": game.view(0),
                "last": {"seq": game.seq, "seat": 0, "action": {}, "events": events},
            },
            game.legal_actions(0),
        ],
    )
    page.wait_for_selector("[data-testid=do-no_coin]")
    assert page.evaluate("() => window.__sent") == []  # asked, not answered for her
    prompt = page.text_content("[data-testid=decision-prompt]")
    assert prompt == "You took treasure 3. You hold no card 3: no coin this time.", prompt
    # and the turn's line says so too (it asked "Play the matching card for a coin?")
    status = page.text_content("[data-testid=turn-status]") or ""
    assert status.startswith("No matching card: keep your cards."), status
    page.click("[data-testid=do-no_coin]")
    assert page.evaluate("() => window.__sent") == [{"type": "no_coin"}]
    assert page.errors == []


def test_master_the_final_duel_says_its_running_total(server: str, browser) -> None:
    from tests.rules.master_helpers import Dice, act, final_position

    game = final_position([1, 4])
    act(game, 0, "d3")
    act(game, 0, "challenge", Dice(6))
    act(game, 0, "accept", Dice(5))  # kept 6; the second roll is a 5
    page = bench(browser, server, "master", "desktop")
    feed(page, game, 0)
    prompt = page.text_content("[data-testid=decision-prompt]")
    assert prompt.startswith("Roll 2 of 3: 5, 11 in all (12 or more wins)."), prompt
    assert page.errors == []


def feed_events(page: Any, game: Game, seat: int, seq: int, events: list[Any]) -> None:
    """A state after an action applied straight to the engine's state (`act`), with its
    events as the page gets them (`seq` counted by the test: `act` keeps no log)."""
    last = {"seq": seq, "seat": seat, "action": {}, "events": events}
    msg = {"type": "state", "seq": seq, "view": game.view(seat), "last": last}
    page.evaluate(FEED, [msg, game.legal_actions(seat)])


def test_master_the_threatened_corridors_are_drawn_through_the_duel(server: str, browser) -> None:
    """The dragon die's threat (its `cells`) is drawn on the board while it is news: from
    the die through the re-roll question it started, gone once the duel is over."""
    from tests.rules.master_helpers import Dice, act, c, duel_position

    game = duel_position()
    st = game.state
    st.players[1].pos, st.players[1].treasures, st.players[1].hand = c("e1"), [4, 7], [2]
    page = bench(browser, server, "master", "desktop")
    feed(page, game, 1)
    assert page.locator("[data-testid=threat-cells]").count() == 0
    events = act(game, 0, "b1", Dice(5, 2))  # black guardian at f1; seat 1 rolls a 2
    threat = next(e for e in events if e["type"] == "threat")
    assert threat["duellists"] == [1] and game.state.turn.phase == "reroll"
    feed_events(page, game, 1, 1, events)
    page.wait_for_selector("[data-testid=do-accept]")
    cells = page.locator("[data-testid=threat-cells] rect.threat-cell")
    assert cells.count() == len(threat["cells"]) > 0
    assert page.get_attribute("[data-testid=threat-cells]", "data-source") == "black"
    assert page.text_content("[data-testid=threat]") == "Threatened: P1"
    shot(page, "master-threat-desktop")
    # during a bonus turn, the duel's question is P1's and the bonus turn P0's: the chip
    # stood beside P1's "Duel lost: re-roll?" as if it were P1's
    view = game.view(1)
    view["turn"]["bonus"] = True
    last = {"seq": 1, "seat": 0, "action": {}, "events": events}
    page.evaluate(FEED, [{"type": "state", "seq": 1, "view": view, "last": last}, []])
    assert page.locator("[data-testid=turn-status] [data-testid=bonus]").count() == 0
    feed_events(page, game, 1, 1, events)
    page.wait_for_selector("[data-testid=do-accept]")
    page.click("[data-testid=do-accept]")
    assert page.evaluate("() => window.__sent") == [{"type": "accept"}]
    events = act(game, 1, "accept")
    assert {"type": "lost", "seat": 1, "value": 4, "reason": "duel"} in events
    feed_events(page, game, 1, 2, events)
    wait_for_js(page, "() => !document.querySelector('[data-testid=threat-cells]')")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "2 × ↻: the dragon turns to face south"),
        ("fr", "2 × ↻\u00a0: le dragon se tourne vers le sud"),
        ("de", "2 × ↻: der Drache dreht sich nach Süden"),
    ],
)
def test_master_the_dragon_die_says_where_the_dragon_now_faces(
    server: str, browser, lang: str, words: str
) -> None:
    from tests.rules.master_helpers import Dice, act, take_position

    game = take_position([])
    game.state.facing = "N"
    page = bench(browser, server, "master", "phone")
    page.evaluate(f"async () => (await import('/static/js/i18n.js')).setLanguage('{lang}')")
    feed(page, game, 0)
    events = act(game, 0, "b1", Dice(1))
    assert events[2]["facing"] == "S"
    feed_events(page, game, 0, 1, events)
    # what is shown, and (a screen reader's) the arrows in words
    face = page.locator("[data-testid=dice] .dragon-face")
    assert face.locator("[aria-hidden=true]").text_content() == words
    said = face.locator(".visually-hidden").text_content() or ""
    assert "↻" not in said and said.endswith(words.split(":", 1)[1].strip()), said
    threat = page.text_content("[data-testid=threat]")
    assert (
        threat
        == {
            "en": "Nobody is threatened",
            "fr": "Personne n’est menacé",
            "de": "Niemand ist bedroht",
        }[lang]
    ), threat
    shot(page, f"master-arrows-phone-{lang}")
    title = page.text_content("[data-testid=lair] > title")
    assert title.endswith(words.split(" ")[-1]), title
    assert page.errors == []  # type: ignore[attr-defined]


def test_team_a_spell_not_on_offer_says_why(server: str, browser) -> None:
    """A spell of one's own, unused but not in the legal list, says which rule holds it
    back here, where it said only "not possible now"."""
    from tests.rules.team_helpers import c, calm, new, play

    game = new(2, spell_red="teleport")
    state = calm(game)
    state.players[0].pos = c("d2")  # walled in: no home corner on the way
    page = bench(browser, server, "team", "desktop")
    feed(page, game, 0)
    teleport = "[data-testid=spell-teleport]"
    page.wait_for_selector(f"{teleport}[data-state=unavailable]")
    assert page.text_content(f"{teleport} .spell-state") == "no corner in reach"
    assert page.get_attribute("[data-testid=spell-push]", "data-state") == "ready"
    events = play(game, "d2")  # the turn's one move, spent staying put
    feed(page, game, 0, {"seq": game.seq, "seat": 0, "action": {}, "events": events})
    page.wait_for_function(
        "() => document.querySelector('[data-testid=spell-teleport] .spell-state')"
        ".textContent === 'no move left'"
    )
    assert page.errors == []  # type: ignore[attr-defined]


def test_classic_the_turns_event_is_told_of_its_player_to_the_others(server: str, browser) -> None:
    """The event panel speaks to the player whose turn it is and of them to everyone else:
    "you may open your pile" on Bob's page, while Ann plays, read as Bob's to do."""
    page = bench(browser, server, "classic", "phone")
    game = Game.new("classic", ["Ann", "Bob"], "e2e-exchange", {"events": True, **V2})
    arm_event(game, "exchange", "Sf")
    game.apply(0, {"type": "push", "side": "S", "index": 5, "rotation": 0})
    feed(page, game, 1)
    page.wait_for_selector("[data-testid=event-panel][data-event=exchange]")
    desc = page.text_content("[data-testid=event-panel] .event-desc")
    assert (
        desc
        == "Ann may open their pile: then any of its cards goes on top, and the rest is reshuffled."
    )
    assert page.locator("[data-testid=open-pile]").count() == 0
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=open-pile]")
    desc = page.text_content("[data-testid=event-panel] .event-desc")
    assert desc.startswith("You may open your pile"), desc
    assert page.errors == []  # type: ignore[attr-defined]


def test_team_the_end_shows_every_face_down_tile_through_its_back(server: str, browser) -> None:
    """The finished game's view gives each face-down tile its face: the back goes
    see-through over every one, where a plain corridor (no treasure, no symbol) kept it."""
    from tests.rules.team_helpers import c, calm, face_down, new, place, play

    game = new(2)
    state = calm(game)
    place(state, "bat", "d1", "NES")
    plain = next(  # a movable tile with neither treasure nor symbol
        name
        for name in ("b2", "c2", "d2", "e2", "f2", "b4", "c4", "d4")
        if not game.view(0)["board"]["tiles"][c(name) // 7][c(name) % 7]["treasure"]
        and not game.view(0)["board"]["tiles"][c(name) // 7][c(name) % 7]["symbol"]
    )
    face_down(state, "d1", plain)
    state.daedalus_deck = []
    play(game, "end")
    assert game.result is not None
    page = bench(browser, server, "team", "desktop")
    feed(page, game, 0)
    row, col = c(plain) // 7, c(plain) % 7
    cell = page.locator(f"[data-testid=board] [data-cell='{row},{col}']")
    assert cell.get_attribute("data-face-down") == "true"
    assert "revealed-back" in (cell.get_attribute("class") or "")
    assert "revealed-back" in (page.get_attribute("[data-cell='0,3']", "class") or "")
    assert page.errors == []  # type: ignore[attr-defined]


def test_master_the_final_duels_end_shows_its_three_dice(server: str, browser) -> None:
    """At the end the panel kept only the last roll and the log only the sum: how the
    dragon was beaten was nowhere. Both now show the three dice."""
    from tests.rules.master_helpers import Dice, act, final_position

    game = final_position([1, 4])
    act(game, 0, "d3")
    act(game, 0, "challenge", Dice(6))
    act(game, 0, "accept", Dice(5))
    act(game, 0, "accept", Dice(4))
    events = act(game, 0, "accept")
    duel = next(e for e in events if e["type"] == "final_duel")
    assert duel["rolls"] == [6, 5, 4] and duel["won"] is True
    page = bench(browser, server, "master", "phone")
    feed_events(page, game, 0, 1, events)
    dice = page.locator("[data-testid=final-rolls] svg.die")
    assert [dice.nth(i).get_attribute("aria-label") for i in range(dice.count())] == ["6", "5", "4"]
    shot(page, "master-final-phone")
    words = page.evaluate(
        """async (events) => (await import('/static/js/movelog.js')).entryWords(
             'accept', { variant: 'master', events, seat: 0, names: (s) => ['Ann', 'Bob'][s] })""",
        events,
    )
    assert "beat the dragon (6 + 5 + 4 = 15)" in words, words
    assert words.endswith("game over, winner: Ann"), words
    assert page.errors == []  # type: ignore[attr-defined]


def test_master_a_question_below_the_board_comes_into_sight_on_a_phone(
    server: str, browser
) -> None:
    """On a phone the re-roll question's buttons lay below the screen's edge, with only
    "Duel lost: re-roll?" at the top to say there was anything to answer."""
    from tests.rules.master_helpers import Dice, act, c, duel_position

    game = duel_position()
    st = game.state
    st.players[1].pos, st.players[1].treasures, st.players[1].hand = c("e1"), [4, 7], [2, 3]
    page = bench(browser, server, "master", "phone")
    feed(page, game, 1)
    assert page.evaluate("() => window.scrollY") == 0
    events = act(game, 0, "b1", Dice(5, 2))
    feed_events(page, game, 1, 1, events)
    page.wait_for_selector("[data-testid=do-accept]")
    page.wait_for_function(
        """() => {
          const box = document.querySelector('[data-testid=do-accept]').getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }"""
    )
    assert page.evaluate("() => window.scrollY") > 0
    shot(page, "master-question-phone")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_winner_is_told_you_won_and_the_others_the_winners_name(server: str, browser) -> None:
    """The result's headline says "You won!" on the winner's own page, where it named her
    in the third person ("Ann won" to Ann); the others, and a tie, read names, in French
    with the verb's plural for two winners."""
    game = Game.new("classic", ["Ann", "Bob"], "you-won")
    page = bench(browser, server, "classic", "phone")
    headline = "[data-testid=result-banner] .result-text strong"

    def ended(seat: int, winners: list[int], lang: str = "en", reason: str | None = None) -> str:
        view = {**game.view(seat), "status": "finished"}
        view["result"] = {"winners": winners, "reason": reason}
        page.evaluate(
            "async (lang) => (await import('/static/js/i18n.js')).setLanguage(lang)", lang
        )
        page.evaluate(FEED, [{"type": "state", "seq": 0, "view": view, "last": None}, []])
        page.wait_for_selector("[data-testid=result-banner]:not([hidden])")
        if reason:
            return page.text_content("[data-testid=result-banner] .result-text") or ""
        return page.text_content(headline) or ""

    assert ended(0, [0]) == "You won!"
    assert ended(1, [0]) == "Ann won"
    assert ended(0, [0, 1]) == "Ann and Bob won"
    assert ended(0, [0], "fr") == "Vous avez gagné\u00a0!"  # no line break before "!"
    assert ended(1, [0], "fr") == "Ann a gagné"
    assert ended(1, [0, 1], "fr") == "Ann et Bob ont gagné"
    # why, after "You won!", in the winner's own words ("— found all their treasures")
    words = {
        ("en", 0): "You won! — you found all your treasures.",
        ("en", 1): "Ann won — found all their treasures.",
        ("fr", 0): "Vous avez gagné\u00a0! — vous avez trouvé tous vos objectifs.",
        ("fr", 1): "Ann a gagné — a trouvé tous ses objectifs.",
        ("de", 0): "Du hast gewonnen! — du hast alle Schätze gefunden.",
        ("de", 1): "Ann gewinnt — hat alle Schätze gefunden.",
    }
    for (lang, seat), said in words.items():
        assert ended(seat, [0], lang, "all_found") == said
    assert ended(0, [0], "fr", "home") == (
        "Vous avez gagné\u00a0! — de retour au départ avec tous vos objectifs."
    )
    assert page.errors == []


# The board's top in the document (an event's question may scroll the page to itself).
BOARD_TOP = (
    "() => document.querySelector('[data-testid=board]').getBoundingClientRect().top + scrollY"
)


@pytest.mark.parametrize(
    ("locale", "event"),
    [("fr-FR", "extra_push"), ("fr-FR", "swap"), ("de-DE", "peek"), ("en-GB", "wall")],
)
def test_classic_phone_an_event_s_chip_does_not_move_the_board(
    server: str, browser, locale: str, event: str
) -> None:
    """A push that turns up an event puts its chip ("Poussée supplémentaire") in the turn's
    line, just as the player goes to tap a square: beside the French and German move
    lines, which fill the three rows a phone keeps for the line, it took a fourth row of
    its own and moved the board 18-36 px down under the finger. It follows the line's
    last words now, in the rows kept."""
    page = bench(browser, server, "classic", "phone", locale)
    game = Game.new("classic", ["Ann", "Bob"], "e2e-chip", {"events": True, **V2})
    arm_event(game, event, "Nb")
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=turn-status][data-phase=push]")
    wait_for_layout(page, "[data-testid=board]", "[data-testid=turn-status]")
    before = page.evaluate(BOARD_TOP)
    game.apply(0, {"type": "push", "side": "N", "index": 1, "rotation": 0})
    assert game.view(0)["turn"]["event"]["name"] == event
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=turn-status][data-phase=move] [data-testid=event-chip]")
    wait_for_layout(page, "[data-testid=board]", "[data-testid=turn-status]")
    after = page.evaluate(BOARD_TOP)
    shot(page, f"classic-event-chip-{locale}-{event}")
    assert abs(before - after) <= 1, (before, after)
    # the chip is within the line's box, and all of it shows
    chip = page.locator("[data-testid=event-chip]").bounding_box()
    line = page.locator("[data-testid=turn-status]").bounding_box()
    assert chip is not None and line is not None
    assert line["y"] <= chip["y"] and chip["y"] + chip["height"] <= line["y"] + line["height"]
    assert line["x"] <= chip["x"] and chip["x"] + chip["width"] <= line["x"] + line["width"]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_team_phone_the_moves_chip_stays_at_the_line_s_end(server: str, browser) -> None:
    """The Team Edition's turn line is one short row ("Your turn", then "Moves 0/1" in a
    chip at the row's end): the classic games' chip that follows the words (above) is not
    for it, whose chip carries no icon."""
    page = bench(browser, server, "team", "phone", "fr-FR")
    game = Game.new("team", ["Ann", "Bob"], "e2e-team-chip", {"mode": "standard", **V2})
    game.apply(0, {"type": "daedalus"})  # the first card turned: Ann's turn to play
    assert game.view(0)["turn"]["phase"] == "play"
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=turn-status] .event-chip")
    wait_for_layout(page, "[data-testid=turn-status]")
    line = page.locator("[data-testid=turn-status]").bounding_box()
    chip = page.locator("[data-testid=turn-status] .event-chip").first.bounding_box()
    assert line is not None and chip is not None
    assert line["x"] + line["width"] - (chip["x"] + chip["width"]) < 20, (line, chip)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# What is left of a Team Edition turn, said after "Your turn": spells and the move, the
# move alone (no spell left), the spells alone (the move spent).
TEAM_HINTS = {
    "en-US": (
        "Your turn: cast your spells and move, in any order",
        "Your turn: move your pawn, or End turn",
        "Your turn: cast a spell you have left, or End turn",
    ),
    "fr-FR": (
        "À vous\u00a0: vos sorts et votre déplacement, dans l’ordre voulu",
        "À vous\u00a0: déplacez votre pion, ou Fin du tour",
        "À vous\u00a0: lancez un sort qui vous reste, ou Fin du tour",
    ),
    "de-DE": (
        "Du bist dran: zaubere und ziehe, in beliebiger Reihenfolge",
        "Du bist dran: ziehe deine Figur oder „Zug beenden“",
        "Du bist dran: wirke einen übrigen Zauberspruch oder „Zug beenden“",
    ),
}
HIDE_HINT = "() => { document.querySelector('[data-testid=turn-hint]').style.display = 'none'; }"


@pytest.mark.parametrize("locale", ["en-US", "fr-FR", "de-DE"])
def test_team_your_turn_says_what_is_left_of_it(server: str, browser, locale: str) -> None:
    """A line of "Your turn" alone left a first game's player looking for what to do: it says
    what is left of the turn (spells and the move in any order; the move; a spell or End
    turn), in the rows kept for it, so that the board does not move for it."""
    both, move, spells = TEAM_HINTS[locale]
    page = bench(browser, server, "team", "desktop", locale)
    game = Game.new("team", ["Ann", "Bob"], "e2e-team-hint", {"mode": "standard", **V2})
    game.apply(0, {"type": "daedalus"})  # the first card turned: Ann's turn to play
    assert game.view(0)["turn"]["used"] == [] and game.view(0)["players"][0]["spells"]
    feed(page, game, 0)
    line = page.locator("[data-testid=turn-status] strong")
    page.wait_for_selector("[data-testid=turn-hint]")
    assert line.inner_text() == both
    wait_for_layout(page, "[data-testid=board]", "[data-testid=turn-status]")
    shot(page, f"team-turn-hint-{locale}")
    with_hint = page.evaluate(BOARD_TOP)
    # The move spent (Ann stays where she stands): a spell is left, or End turn.
    stay = {"type": "move", "to": game.view(0)["players"][0]["pos"], "spell": False}
    game.apply(0, stay)
    feed(page, game, 0)
    wait_for_js(
        page,
        "(s) => document.querySelector(s)?.textContent.includes('0/1') === false",
        "[data-testid=turn-status]",
    )
    assert line.inner_text() == spells
    # Spells spent, a move left: the move, or End turn.
    game = Game.new("team", ["Ann", "Bob"], "e2e-team-hint", {"mode": "standard", **V2})
    game.apply(0, {"type": "daedalus"})
    game.state.turn.used += list(game.state.players[0].spells)  # each spell cast
    feed(page, game, 0)
    wait_for_js(
        page,
        "(s) => document.querySelector(s)?.textContent.includes('0/1')",
        "[data-testid=turn-status]",
    )
    assert line.inner_text() == move
    page.evaluate(HIDE_HINT)
    wait_for_layout(page, "[data-testid=board]", "[data-testid=turn-status]")
    assert abs(page.evaluate(BOARD_TOP) - with_hint) <= 1
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_team_phone_your_turn_keeps_its_one_row(server: str, browser) -> None:
    """On a phone the Team Edition's line keeps one row (its End turn needs the room): the
    words of what is left of the turn stay on the wider screens."""
    page = bench(browser, server, "team", "phone", "fr-FR")
    game = Game.new("team", ["Ann", "Bob"], "e2e-team-hint", {"mode": "standard", **V2})
    game.apply(0, {"type": "daedalus"})
    feed(page, game, 0)
    page.wait_for_selector("[data-testid=turn-hint]", state="attached")
    assert page.locator("[data-testid=turn-hint]").is_hidden()
    assert page.locator("[data-testid=turn-status] strong").inner_text() == "À vous"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
