"""The table in headless Chromium: "Play against the computer" from the lobby (a person
pushes and moves, the computer answers), the host's room before the start, and "Play
again" from the end screen. Screenshots go to the test's folder (tmp_path)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import (
    http_json,
    join_room,
    play_out,
    seated_page,
    serve_app,
    vs_computer,
    wait_for_js,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}

# Every text the room page's live region for screen readers takes, in order.
SAID = """
window.__said = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("announce");
  if (region) new MutationObserver(() => window.__said.push(region.textContent))
    .observe(region, { childList: true, characterData: true, subtree: true });
});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Computers answer after 0.1 s (0.8 s in production): a whole game against one, played
    to its end screen, then takes seconds rather than half a minute."""
    yield from serve_app(tmp_path_factory.mktemp("server"), COMPUTER_PAUSE="0.1")


@pytest.mark.parametrize(
    ("locale", "computer"),
    [
        ("en-US", "Computer (hard)"),
        ("fr-FR", "Ordinateur (difficile)"),
        ("de-DE", "Computer (schwer)"),
    ],
)
def test_play_against_the_computer(
    server: str, browser, tmp_path: Path, locale: str, computer: str
) -> None:
    """A game against the computer from the lobby. The game keeps the name the server gave
    the seat ("Computer (hard)"); the page names it in its own language wherever players
    are named (the players, the move log)."""
    ctx = browser.new_context(**DESKTOP, locale=locale)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(SAID)
    page.goto(server + "/")
    page.fill("[data-testid=create-name]", "Zoé")
    page.select_option("[data-testid=vs-count]", "1")
    page.select_option("[data-testid=vs-level]", "hard")
    page.screenshot(path=str(tmp_path / f"lobby-desktop-{locale}.png"), full_page=True)
    page.click("[data-testid=vs-button]")

    # The room opens with the game running; the person moves first.
    page.wait_for_url("**/r/*")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
    assert page.text_content("[data-testid=room-options]").strip()
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    page.click("[data-testid^=arrow-][data-active=true] >> nth=0")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=move]")
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    page.locator("[data-testid^=cell-]").first.click()

    # The computer answers with its push and move, and it is the person's turn again.
    page.wait_for_selector("[data-testid=move-log][data-count='4']")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
    players = page.text_content("[data-testid=players]") or ""
    assert computer in players, players
    assert locale == "en-US" or "(hard)" not in players, players
    names = page.locator("[data-testid=log-entry] .log-name").all_text_contents()
    assert names == ["Zoé", "Zoé", computer, computer], names
    # A screen reader hears the computer's moves in the move list's words, not the
    # person's own, and each turn line once.
    entries = [
        " ".join(text.split())
        for text in page.locator("[data-testid=log-entry] .log-text").all_text_contents()
    ]
    said = page.evaluate("window.__said")
    for entry in entries[2:]:
        assert any(line.startswith(entry) for line in said), (entries, said)
    assert not any(entries[0] in line or entries[1] in line for line in said), (entries, said)
    assert all(a != b for a, b in itertools.pairwise(said)), said
    page.screenshot(path=str(tmp_path / f"vs-computer-desktop-{locale}.png"))
    assert errors == []
    ctx.close()


def test_the_host_sets_up_the_room_and_a_guest_sees_it(
    fresh_server: str, browser, tmp_path: Path
) -> None:
    server = fresh_server  # this test reads the lobby's lists
    host_ctx, guest_ctx = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    for ctx in (host_ctx, guest_ctx):
        ctx.set_default_timeout(15000)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(f"host: {e}"))
    guest.on("pageerror", lambda e: errors.append(f"guest: {e}"))

    host.goto(server + "/")
    host.check("[data-testid=listed]")
    # The creator takes the first seat, the host's: without a name, the form asks first.
    host.click("[data-testid=create-button]")
    assert host.text_content("#create-error") == (
        "Type your name first: you take the room’s first seat."
    )
    assert host.evaluate("document.activeElement.id") == "create-name"
    host.fill("[data-testid=create-name]", "Ann")
    host.click("[data-testid=create-button]")
    host.wait_for_url("**/r/*")
    url = host.url
    host.wait_for_selector("[data-testid=seat-0].mine[data-connected='1']")
    assert host.text_content("[data-testid=seat-0] .seat-name") == "Ann"
    host.wait_for_selector("[data-testid=host-panel]:not([hidden])")
    host.wait_for_selector("[data-testid=host-badge]")

    # The host changes an option and adds a computer seat; the guest sees both in words.
    host.check("[data-testid=room-opt-events]")
    host.select_option("[data-testid=computer-level]", "easy")
    host.click("[data-testid=add-computer]")
    host.wait_for_selector("[data-testid=seat-1] .seat-name")
    assert host.text_content("[data-testid=seat-1] .seat-name") == "Computer (easy)"

    # The guest finds the open table in the lobby, joins from there.
    guest.goto(server + "/")
    guest.wait_for_selector("[data-testid=open-table]")
    assert "Event variant" in guest.text_content("[data-testid=open-table]")
    guest.click("[data-testid=open-table] a")
    join_room(guest, url, "Bob", 2)
    assert "Event variant" in guest.text_content("[data-testid=room-options]")
    guest.wait_for_selector("[data-testid=start-rule]")
    assert "host" in guest.text_content("[data-testid=start-rule]").lower()
    assert guest.locator("[data-testid=start-button]").is_hidden()
    assert guest.locator("[data-testid=host-panel]").is_hidden()
    guest.screenshot(path=str(tmp_path / "room-guest-phone.png"), full_page=True)
    host.screenshot(path=str(tmp_path / "room-host-desktop.png"), full_page=True)

    # The guest leaves the seat (told as their own doing), takes it again; the host removes
    # the computer, then the guest, who is told who freed the seat, and joins once more.
    guest.click("[data-testid=leave-seat]")
    guest.wait_for_selector("#join-form:not([hidden])")
    assert guest.text_content("[data-testid=seat-notice]") == (
        "You left your seat; you are watching."
    )
    join_room(guest, url, "Bob", 2)
    # each host's button says whose seat it frees (a screen reader heard "Remove" twice)
    assert host.get_attribute("[data-testid=remove-seat-1]", "aria-label") == (
        "Remove Computer (easy)"
    )
    assert host.get_attribute("[data-testid=remove-seat-2]", "aria-label") == "Remove Bob"
    host.click("[data-testid=remove-seat-1]")  # a computer goes at the first press
    guest.wait_for_selector("[data-testid=seat-1].mine")
    # the host's page too has Bob in seat 1 (a click on its computer's button, still drawn
    # there, would free Bob's seat at once)
    host.wait_for_selector("[data-testid=remove-seat-1][aria-label='Remove Bob']")
    # a person's seat asks for a second press: a slip sent a friend back to the join form
    host.click("[data-testid=remove-seat-1]")
    host.wait_for_selector("[data-testid=remove-seat-1].asking")
    assert host.get_attribute("[data-testid=remove-seat-1]", "aria-label") == (
        "Really remove Bob? Press again to free the seat"
    )
    assert host.evaluate("document.activeElement.dataset.testid") == "remove-seat-1"
    # unanswered, the question goes after a while and the seat stays
    host.wait_for_selector("[data-testid=remove-seat-1]:not(.asking)", timeout=8000)
    assert host.text_content("[data-testid=remove-seat-1]") == "Remove"
    assert guest.locator("[data-testid=seat-1].mine").count() == 1
    host.click("[data-testid=remove-seat-1]")
    host.click("[data-testid=remove-seat-1].asking")
    guest.wait_for_selector("#join-form:not([hidden])")
    notice = guest.text_content("[data-testid=seat-notice]") or ""
    assert notice.startswith("The host freed your seat"), notice
    join_room(guest, url, "Bob", 1)
    guest.wait_for_selector("[data-testid=seat-1].mine")
    host.click("[data-testid=start-button]")
    guest.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    assert errors == []
    host_ctx.close()
    guest_ctx.close()


def test_a_freed_player_is_offered_a_seat_only_while_one_is_free(server: str, browser) -> None:
    """The host frees Bob's seat: "You may take a free seat again" is said while a seat is
    free, not once the room has filled up again (it stayed up then), and again when a seat
    frees once more; the notice itself stays, as Bob is still watching."""
    made = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": "Ann"})
    code, host = made["code"], made["host_token"]
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(15000)
    bob = ctx.new_page()
    join_room(bob, server + made["url"], "Bob", 1)
    http_json("DELETE", f"{server}/api/rooms/{code}/seats/1", token=host)
    notice = "[data-testid=seat-notice]"
    bob.wait_for_selector(f"{notice}:not([hidden])")
    assert bob.text_content(notice) == (
        "The host freed your seat; you are watching. You may take a free seat again."
    )
    for _ in range(3):  # Ann and three computers: the room is full
        http_json("POST", f"{server}/api/rooms/{code}/computers", {"level": "easy"}, host)
    bob.wait_for_selector("[data-testid=seat-3] .seat-name")
    assert bob.is_visible(notice)
    assert bob.text_content(notice) == "The host freed your seat; you are watching."
    bob.select_option("[data-testid=lang-select]", "de")
    assert bob.text_content(notice) == "Der Gastgeber hat deinen Platz frei gemacht; du schaust zu."
    http_json("DELETE", f"{server}/api/rooms/{code}/seats/3", token=host)
    bob.wait_for_selector("[data-testid=seat-3].free")
    assert bob.text_content(notice) == (
        "Der Gastgeber hat deinen Platz frei gemacht; du schaust zu."
        " Du kannst wieder einen freien Platz nehmen."
    )
    ctx.close()


def test_play_again_from_the_end_screen(server: str, browser, tmp_path: Path) -> None:
    made = http_json(
        "POST",
        server + "/api/rooms",
        {"variant": "cards", "name": "Ann", "computers": ["easy"]},
    )
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(30000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.evaluate(
        "([code, token, host]) => { localStorage.setItem('labyrinth:token:' + code, token);"
        " localStorage.setItem('labyrinth:host:' + code, host); }",
        [made["code"], made["token"], made["host_token"]],
    )
    page.goto(server + made["url"])
    page.wait_for_selector("[data-testid=start-button]:not([hidden])")
    page.click("[data-testid=start-button]")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    first = http_json("GET", f"{server}/api/rooms/{made['code']}")["game_id"]
    _play_to_the_end(server, made)
    page.wait_for_selector("[data-testid=after-game]:not([hidden])")
    replay = page.get_attribute("[data-testid=watch-replay]", "href")
    assert replay == f"/replay/{first}"
    assert "null" not in page.text_content("[data-testid=after-game]")
    page.screenshot(path=str(tmp_path / "finished-phone.png"), full_page=True)
    page.click("[data-testid=play-again]")
    # The computer accepts at once: the next game starts with the same players.
    page.wait_for_selector("[data-testid=after-game][hidden]", state="attached")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    room = http_json("GET", f"{server}/api/rooms/{made['code']}")
    assert room["status"] == "playing" and room["game_id"] != first
    assert page.get_attribute("[data-testid=move-log]", "data-count") == "0"
    assert errors == []
    ctx.close()


def test_the_replay_of_one_s_own_game_leads_back_to_the_table(server: str, browser) -> None:
    """The end screen's "Watch the replay" opens the replay in the room's tab: the
    player had no way back to the table, where "Play again" waits, but the browser's Back.
    The replay of a game of this browser's room now has a link back; others' have none."""
    made = vs_computer(server, "cards")
    page = seated_page(browser, server, made, host=True, locale="fr-FR", **PHONE)
    page.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    _play_to_the_end(server, made)
    page.wait_for_selector("[data-testid=after-game]:not([hidden])")
    game = http_json("GET", f"{server}/api/rooms/{made['code']}")["game_id"]
    page.click("[data-testid=watch-replay]")
    page.wait_for_url(f"**/replay/{game}")
    page.wait_for_selector("[data-testid=replay-moves] li")
    back = page.locator("[data-testid=replay-room]")
    assert back.is_visible()
    assert back.text_content() == "Retour à la salle"
    assert back.get_attribute("href") == made["url"]
    back.click()
    page.wait_for_url(f"**{made['url']}")
    page.wait_for_selector("[data-testid=play-again]")
    assert page.errors == []
    # Someone else's replay (the lobby's "Recently finished"): no table of theirs to go to.
    other = browser.new_context(**PHONE).new_page()
    other.goto(f"{server}/replay/{game}")
    other.wait_for_selector("[data-testid=replay-moves] li")
    assert other.is_hidden("[data-testid=replay-room]")
    other.context.close()
    page.context.close()


def _play_to_the_end(server: str, made: dict) -> None:
    """Ann's seat plays largest-take-first cards over the protocol until the game ends."""
    from tests.cluster.conftest import Peer

    peer = Peer(server.replace("http", "ws", 1), made["code"], made["token"])
    try:
        state = peer.until("state")
        while state["view"]["status"] == "playing":
            if state["view"]["turn"]["seat"] == 0:
                actions = peer.legal()["actions"]
                if actions:
                    seq = state["seq"]
                    peer.send({"type": "action", "id": "x", "seq": seq, "action": actions[0]})
            state = peer.until("state", timeout=30)
    finally:
        peer.close()


def test_a_dealt_team_game_names_only_the_spells_of_its_colours(server: str, browser) -> None:
    """Before the start every colour's spell is an option; once two seats are dealt, the
    header tells the two that are in play, not four."""
    room = http_json(
        "POST",
        server + "/api/rooms",
        {"variant": "team", "options": {"mode": "standard"}, "name": "Ann", "computers": ["easy"]},
    )
    page = browser.new_page(**DESKTOP)
    page.goto(server + "/")
    remember = "([code, token]) => localStorage.setItem('labyrinth:token:' + code, token)"
    page.evaluate(remember, [room["code"], room["token"]])
    page.goto(server + room["url"])
    chips = "[data-testid=room-options] li"
    page.wait_for_selector(chips)
    before = set(page.eval_on_selector_all(chips, "(els) => els.map((e) => e.dataset.option)"))
    assert {"spell_red", "spell_yellow", "spell_green", "spell_blue"} <= before
    http_json("POST", f"{server}/api/rooms/{room['code']}/start", {}, room["host_token"])
    page.wait_for_selector("[data-testid=board]")
    players = page.evaluate(
        "async (code) => (await (await fetch('/api/rooms/' + code + '/view')).json()).view.players",
        room["code"],
    )
    colours = [p["color"] for p in players]
    shown = set(page.eval_on_selector_all(chips, "(els) => els.map((e) => e.dataset.option)"))
    assert shown == {"mode"} | {f"spell_{c}" for c in colours} and len(colours) == 2, shown
    # each spell left to chance says what it became, not "dealt at random" to the end
    for p in players:
        spell = p["spells"][1]
        words = page.text_content(f"{chips}[data-option=spell_{p['color']}]")
        assert words.endswith(f": {spell.title()} (dealt at random)"), words
    page.close()


def seated_phone(browser: Any, server: str, made: dict[str, Any]) -> Any:
    """The room page of the seat `made` (a create's answer) on a phone."""
    return seated_page(browser, server, made, **PHONE)


def ann_bob_and_a_computer(browser: Any, server: str) -> tuple[dict, dict, Any, Any]:
    """A card game of Ann (the host), a computer and Bob, started: the create's and the
    join's answers, and Ann's and Bob's pages on phones."""
    made = http_json(
        "POST", server + "/api/rooms", {"variant": "cards", "name": "Ann", "computers": ["easy"]}
    )
    code = made["code"]
    bob = http_json("POST", f"{server}/api/rooms/{code}/join", {"name": "Bob"})
    http_json("POST", f"{server}/api/rooms/{code}/start", {}, made["host_token"])
    ann = seated_phone(browser, server, made)
    bob_page = seated_phone(browser, server, {"code": code, "url": made["url"], **bob})
    return made, bob, ann, bob_page


def test_a_waiting_room_says_who_is_not_here(server: str, browser) -> None:
    """Before the start, a seat whose page is closed is "not here", not "reconnecting…"
    (nothing is waiting to reconnect to a game); the options are said once, in the header."""
    made = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": "Ann"})
    bob = http_json("POST", f"{server}/api/rooms/{made['code']}/join", {"name": "Bob"})
    page = seated_phone(browser, server, made)
    ctx = page.context
    page.wait_for_selector("[data-testid=seat-0].mine[data-connected='1']")
    assert page.text_content("[data-testid=seat-1] .conn-word") == "not here"
    assert "Event variant" in page.text_content("[data-testid=room-options]")
    assert "Event variant" not in page.text_content("[data-testid=lobby-panel]")
    page.select_option("[data-testid=lang-select]", "fr")
    assert page.text_content("[data-testid=seat-1] .conn-word") == "pas là"
    # Bob opens the room: he is here now, which is not news of someone "back"
    bob_ctx = browser.new_context(**DESKTOP)
    bob_ctx.add_init_script(
        f"localStorage.setItem('labyrinth:token:{made['code']}', '{bob['token']}')"
    )
    bob_ctx.new_page().goto(server + made["url"])
    # the room message that shows him here is the one that would say it (static/js/room.js
    # `setRoom` draws the seats and tells the news in one go): read at once
    page.wait_for_selector("[data-testid=seat-1][data-connected='1']")
    # (the news line is the game's: said here, it would stand over the board once started)
    assert page.text_content("[data-testid=news]") == ""
    bob_ctx.close()
    # the third seat is the colour the game will deal it: blue, clockwise round the board
    http_json("POST", f"{server}/api/rooms/{made['code']}/join", {"name": "Cy"})
    page.wait_for_selector("[data-testid=seat-2] .dot-blue")
    assert page.locator("[data-testid=seat-3] .dot-green").count() == 1
    http_json("POST", f"{server}/api/rooms/{made['code']}/start", {}, made["host_token"])
    page.wait_for_selector("[data-testid=player-2] .dot-blue")
    ctx.close()


def test_a_long_name_keeps_its_line_in_the_seat_list_on_a_phone(server: str, browser) -> None:
    """A 32-character name beside a host's badge and button was squeezed into pieces of
    three to five letters (a row 400 px tall): the row now wraps, the name beside its
    colour and broken only between its words."""
    name = "Maximilian-Alexander Schwarzeneg"
    made = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": name})
    page = seated_phone(browser, server, made)
    page.wait_for_selector("[data-testid=seat-0].mine .badge")
    boxes = page.evaluate(
        """() => {
          const seat = document.querySelector('[data-testid=seat-0]');
          const box = (el) => el.getBoundingClientRect();
          const name = box(seat.querySelector('.seat-name'));
          const dot = box(seat.querySelector('.dot'));
          const line = parseFloat(getComputedStyle(seat.querySelector('.seat-name')).lineHeight);
          return { name: [name.top, name.bottom, name.width], dot: [dot.top, dot.bottom], line };
        }"""
    )
    top, bottom, width = boxes["name"]
    assert bottom - top <= 2.5 * boxes["line"], boxes  # two lines at most: no pieces
    assert width > 200, boxes
    assert top <= boxes["dot"][0] and boxes["dot"][1] <= bottom, boxes  # beside its colour
    page.context.close()


@pytest.fixture(scope="module")
def quick_rematch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A "play again" offer waits 6 s for the seats that have not accepted (60 by default).
    A test reads two of its countdown's redraws (one a second) before it runs out: with 4 s
    that left about 2 s, on a loaded machine, for the offer to reach the other page."""
    yield from serve_app(
        tmp_path_factory.mktemp("rematch"), COMPUTER_PAUSE="0.1", REMATCH_SECONDS="6"
    )


def test_play_again_says_who_it_waits_for_and_whom_it_left_out(quick_rematch: str, browser) -> None:
    """Ann asks to play again: her page names who is not ready yet (Bob). Bob lets the offer
    run out: the next game starts without him, and his page says why he now watches."""
    server = quick_rematch
    made, bob, ann, bob_page = ann_bob_and_a_computer(browser, server)
    code = made["code"]
    # Bob reads the chat, at the foot of his phone's page, when the game ends: its result
    # is brought into his sight.
    bob_page.wait_for_selector("[data-testid=turn-status][data-seat]")
    bob_page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    play_out(server, code, {0: made["token"], bob["seat"]: bob["token"]})
    bob_page.wait_for_selector("[data-testid=result-banner]:not([hidden])")
    wait_for_js(
        bob_page,
        "() => { const b = document.querySelector('[data-testid=result-banner]')"
        ".getBoundingClientRect(); return b.top > -2 && b.bottom <= innerHeight }",
    )
    for page in (ann, bob_page):
        page.wait_for_selector("[data-testid=play-again]")
    # the invitation is gone with the game (its replay is the link to give)
    assert ann.locator("[data-testid=share-card]").is_hidden()
    ann.click("[data-testid=play-again]")
    ann.wait_for_selector("[data-testid=rematch-waiting]")
    assert ann.text_content("[data-testid=rematch-waiting]") == " Waiting for Bob."
    # Bob's page does not say it waits for Bob; its button is the same one while the
    # offer counts down (one drawn again each second lost a tap under a finger)
    bob_page.wait_for_selector("[data-testid=rematch-status]")
    assert bob_page.locator("[data-testid=rematch-waiting]").count() == 0
    bob_page.evaluate(
        "() => { window.__button = document.querySelector('[data-testid=play-again]') }"
    )
    # two of the countdown's redraws (one a second: its seconds change); a redraw that
    # replaced the button would have done so by then
    status = "() => document.querySelector('[data-testid=rematch-status]').textContent"
    for _ in range(2):
        shown = bob_page.evaluate(status)
        wait_for_js(bob_page, f"(shown) => ({status})() !== shown", shown)
    assert bob_page.evaluate(
        "() => window.__button.isConnected"
        " && window.__button === document.querySelector('[data-testid=play-again]')"
    )
    bob_page.wait_for_selector("[data-testid=seat-notice]:not([hidden])", timeout=20000)
    assert bob_page.text_content("[data-testid=seat-notice]") == (
        "“Play again” went on without you: you had not accepted it in time. You are watching."
    )
    # the next game's first state came after it and did not take it away
    bob_page.wait_for_selector("[data-testid=turn-status][data-seat]")
    assert bob_page.is_visible("[data-testid=seat-notice]")
    # Ann is told whom the new game went on without (Bob reads his own notice instead)
    ann.wait_for_selector("[data-testid=news]:has-text('The new game started without Bob.')")
    assert "started without" not in (bob_page.text_content("[data-testid=news]") or "")
    room = http_json("GET", f"{server}/api/rooms/{code}")
    assert [s["name"] for s in room["seats"]] == ["Ann", "Computer (easy)"]
    ann.context.close()
    bob_page.context.close()


def test_a_host_without_a_seat_may_start(server: str, browser) -> None:
    """A host who gave up their seat was told "…add computer players, then start" and
    shown no Start; the host's key starts the game, seated or not."""
    made = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": "Hana"})
    code = made["code"]
    http_json("POST", f"{server}/api/rooms/{code}/join", {"name": "Ivo"})
    http_json("DELETE", f"{server}/api/rooms/{code}/seats/0", token=made["host_token"])
    ctx = browser.new_context(**DESKTOP)
    ctx.set_default_timeout(15000)
    ctx.add_init_script(f"localStorage.setItem('labyrinth:host:{code}', '{made['host_token']}');")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + made["url"])
    page.wait_for_selector("[data-testid=host-panel]:not([hidden])")
    page.select_option("[data-testid=computer-level]", "easy")
    page.click("[data-testid=add-computer]")
    page.wait_for_selector("[data-testid=seat-1]:not(.free)")
    page.click("[data-testid=start-button]")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    assert http_json("GET", f"{server}/api/rooms/{code}")["status"] == "playing"
    assert errors == []
    ctx.close()


NEWS_SEEN = """() => {
  window.__news = [];
  const news = document.querySelector('[data-testid=news]');
  new MutationObserver(() => window.__news.push(news.textContent))
    .observe(news, { childList: true, characterData: true, subtree: true });
}"""


def test_who_left_is_told_the_next_game_went_on_without_them(quick_rematch: str, browser) -> None:
    """Bob left the game; the others played again. His page kept "You left the game: the
    computer plays your seat" (false of the new game) and read "The new game started
    without Bob" of himself: it says the new game went on without him, in his words."""
    server = quick_rematch
    made, _bob, ann, bob_page = ann_bob_and_a_computer(browser, server)
    code = made["code"]
    bob_page.wait_for_selector("[data-testid=seat-tools]:not([hidden])")
    ann.evaluate(NEWS_SEEN)
    bob_page.on("dialog", lambda d: d.accept())
    bob_page.click("[data-testid=leave-button]")
    bob_page.wait_for_selector("[data-testid=seat-notice]:not([hidden])")
    # the others are told, as of a lost connection (only the seat's label changed)
    wait_for_js(
        ann,
        "() => window.__news.includes("
        "'Bob left the game: the computer plays the seat to the end.')",
    )
    play_out(server, code, {0: made["token"]})
    ann.wait_for_selector("[data-testid=play-again]")
    ann.click("[data-testid=play-again]")
    bob_page.wait_for_selector(
        "[data-testid=news]:has-text('The new game started without you: you are watching it.')",
        timeout=20000,
    )
    assert bob_page.is_hidden("[data-testid=seat-notice]")
    assert bob_page.is_hidden("[data-testid=since-banner]")
    ann.wait_for_selector("[data-testid=news]:has-text('The new game started without Bob.')")
    ann.context.close()
    bob_page.context.close()


def finished_card_game(browser: Any, server: str, computer: bool = False) -> tuple[Any, Any, Any]:
    """Ann (the host) and Bob, and with `computer` an easy computer, played a card game
    to its end (its first legal actions end it, where a classic game's may loop): the
    create's answer, Ann's and Bob's phone pages at "Play again"."""
    made = http_json("POST", server + "/api/rooms", {"variant": "cards", "name": "Ann"})
    code = made["code"]
    bob = http_json("POST", f"{server}/api/rooms/{code}/join", {"name": "Bob"})
    if computer:
        http_json(
            "POST", f"{server}/api/rooms/{code}/computers", {"level": "easy"}, made["host_token"]
        )
    http_json("POST", f"{server}/api/rooms/{code}/start", {}, made["host_token"])
    ann = seated_phone(browser, server, made)
    bob_page = seated_phone(browser, server, {"code": code, "url": made["url"], **bob})
    bob_page.wait_for_selector("[data-testid=turn-status][data-seat]")
    play_out(server, code, {0: made["token"], 1: bob["token"]})
    ann.wait_for_selector("[data-testid=play-again]")
    return made, ann, bob_page


def test_no_thanks_to_play_again_starts_the_others_game_at_once(
    quick_rematch: str, browser
) -> None:
    """An offer to play again could only be accepted: the others waited its whole minute
    for someone who would not play. "No thanks" frees the seat, and the game of those who
    accepted starts at once."""
    server = quick_rematch
    made, ann, bob_page = finished_card_game(browser, server, computer=True)
    code = made["code"]
    assert ann.locator("[data-testid=rematch-decline]").count() == 0  # nothing offered yet
    ann.click("[data-testid=play-again]")
    bob_page.wait_for_selector("[data-testid=rematch-decline]")
    assert ann.locator("[data-testid=rematch-decline]").count() == 0  # Ann has accepted
    bob_page.click("[data-testid=rematch-decline]")
    bob_page.wait_for_selector("[data-testid=seat-notice]:not([hidden])")
    assert bob_page.text_content("[data-testid=seat-notice]") == (
        "You said no to playing again: your seat is free. You are watching."
    )
    # at once: well before the offer's 6 s in this server
    ann.wait_for_selector("[data-testid=news]:has-text('The new game started without Bob.')")
    room = http_json("GET", f"{server}/api/rooms/{code}")
    assert room["status"] == "playing"
    assert [s["name"] for s in room["seats"]] == ["Ann", "Computer (easy)"]
    ann.context.close()
    bob_page.context.close()


def test_a_table_too_small_to_play_again_says_who_did_not_stay(quick_rematch: str, browser) -> None:
    """Bob said no to playing again, and Ann alone cannot play: the room opened again and
    her page only said "At least 2 players are needed", as if nobody had played there."""
    server = quick_rematch
    made, ann, bob_page = finished_card_game(browser, server)
    code = made["code"]
    ann.click("[data-testid=play-again]")
    bob_page.click("[data-testid=rematch-decline]")
    ann.wait_for_selector("[data-testid=lobby-panel]:visible")
    help_text = ann.locator("#lobby-help")
    wait_for_js(
        ann,
        "() => document.getElementById('lobby-help').textContent.startsWith("
        "'No new game without Bob: at least 2 players are needed.')",
    )
    assert "Share this page's link" in help_text.text_content()
    assert http_json("GET", f"{server}/api/rooms/{code}")["status"] == "lobby"
    # Cy comes by the link: the usual words, and the game starts as any first one
    http_json("POST", f"{server}/api/rooms/{code}/join", {"name": "Cy"})
    wait_for_js(
        ann,
        "() => !document.getElementById('lobby-help').textContent.includes('without Bob')",
    )
    ann.click("[data-testid=start-button]")
    ann.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    ann.context.close()
    bob_page.context.close()


def test_play_again_by_keyboard_keeps_the_focus_and_is_said(server: str, browser) -> None:
    """A keyboard player's "Play again" was taken away by their own acceptance, and the
    focus fell to the top of the page; the offer reached the other player silently; and
    the new game left both pages' focus nowhere. The status takes the focus, the offer and
    the acceptance are said, and the new game takes the focus up."""
    made = http_json("POST", server + "/api/rooms", {"variant": "cards", "name": "Ann"})
    code = made["code"]
    bob = http_json("POST", f"{server}/api/rooms/{code}/join", {"name": "Bob"})
    http_json("POST", f"{server}/api/rooms/{code}/start", {}, made["host_token"])
    pages = []
    for seat in (made, {"code": code, "url": made["url"], **bob}):
        context = browser.new_context(**DESKTOP)
        context.add_init_script(SAID)
        context.add_init_script(
            f"localStorage.setItem('labyrinth:token:{code}', '{seat['token']}')"
        )
        page = context.new_page()
        page.goto(server + made["url"])
        page.wait_for_selector("[data-testid=turn-status][data-seat]")
        pages.append(page)
    ann, bob_page = pages
    play_out(server, code, {0: made["token"], 1: bob["token"]})
    focused = (
        "() => { const a = document.activeElement; return a && a.getAttribute('data-testid') }"
    )
    ann.focus("[data-testid=play-again]")
    ann.keyboard.press("Enter")
    wait_for_js(ann, f"() => ({focused})() === 'rematch-status'")
    wait_for_js(ann, "() => window.__said.some((s) => s.includes('Waiting for Bob.'))")
    wait_for_js(bob_page, "() => window.__said.some((s) => s.includes('Ann would play again.'))")
    bob_page.focus("[data-testid=play-again]")
    bob_page.keyboard.press("Enter")
    for page in (ann, bob_page):
        page.wait_for_selector("[data-testid=result-banner]", state="hidden")
        wait_for_js(
            page,
            "() => document.activeElement && document.activeElement !== document.body"
            " && document.getElementById('room-page').contains(document.activeElement)",
        )
        page.context.close()


def test_the_host_s_panel_keeps_a_keyboard_player_s_focus(server: str, browser) -> None:
    """An arrow key on one of the host's lists changes the option at once; the panel was
    drawn again with it and the focus fell to the top of the page (the next arrow key went
    nowhere). And removing a computer took its button, and the focus, away."""
    made = http_json("POST", server + "/api/rooms", {"variant": "team", "name": "Ann"})
    code = made["code"]
    http_json("POST", f"{server}/api/rooms/{code}/computers", {"level": "easy"}, made["host_token"])
    page = seated_page(browser, server, made, host=True, **DESKTOP)
    context = page.context
    page.wait_for_selector("[data-testid=room-opt-mode]")
    before = http_json("GET", f"{server}/api/rooms/{code}")["options"].get("mode")
    shown = page.text_content("[data-testid=room-options]")
    page.focus("[data-testid=room-opt-mode]")
    page.keyboard.press("ArrowDown")
    # the room's news of the change has drawn the panel again
    wait_for_js(
        page,
        "(shown) => document.querySelector('[data-testid=room-options]').textContent !== shown",
        shown,
    )
    assert http_json("GET", f"{server}/api/rooms/{code}")["options"].get("mode") != before
    focused = "() => document.activeElement && document.activeElement.getAttribute('data-testid')"
    assert page.evaluate(focused) == "room-opt-mode"
    page.focus("[data-testid=remove-seat-1]")
    page.keyboard.press("Enter")
    wait_for_js(page, "() => !document.querySelector('[data-testid=remove-seat-1]')")
    wait_for_js(page, f"() => ({focused})() === 'add-computer'")
    context.close()


def test_continue_on_another_device_by_keyboard(server: str, browser) -> None:
    """The button was disabled while its link was asked for, which dropped a keyboard
    player's focus to the top of the page, and the panel came unsaid: the focus goes to
    the link, and the button says the panel is open."""
    made = vs_computer(server, "classic")
    page = seated_page(browser, server, made, **DESKTOP)
    page.wait_for_selector("[data-testid=device-button]:visible")
    button = page.locator("[data-testid=device-button]")
    assert button.get_attribute("aria-expanded") == "false"
    page.focus("[data-testid=device-button]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=device-panel]:not([hidden])")
    wait_for_js(page, "() => document.activeElement.id === 'device-link'")
    assert button.get_attribute("aria-expanded") == "true"
    assert page.input_value("[data-testid=device-link]").startswith(server)
    page.context.close()


def test_a_keyboard_player_s_focus_goes_from_the_board_to_what_comes_next(
    server: str, browser
) -> None:
    """The game's end left a keyboard player's focus on the board, which has nothing left
    to do; "Play again" came before it, five Shift+Tab away."""
    made = vs_computer(server, "cards")
    page = seated_page(browser, server, made, **DESKTOP)
    page.wait_for_selector("[data-testid=turn-status][data-seat]")
    page.focus("[data-testid=board]")
    page.keyboard.press("Shift")  # the last input is a key
    play_out(server, made["code"], {0: made["token"]})
    page.wait_for_selector("[data-testid=result-banner]:not([hidden])")
    wait_for_js(
        page,
        "() => document.activeElement"
        " && document.activeElement.getAttribute('data-testid') === 'play-again'",
    )
    page.context.close()


def test_a_room_message_leaves_the_focus_on_the_host_s_remove(server: str, browser: Any) -> None:
    """The host presses Enter on Bob's Remove ("Really remove Bob?") and, before the
    second Enter, someone joins: the seat list was drawn again and the focus fell to the
    page's body, so the second Enter did nothing and Bob stayed. It stays on the button."""
    made = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": "Ann"})
    code = made["code"]
    page = seated_page(browser, server, made, host=True, **DESKTOP)
    http_json("POST", f"{server}/api/rooms/{code}/join", {"name": "Bob"})
    remove = "[data-testid=remove-seat-1]"
    page.wait_for_selector(remove)
    page.focus(remove)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{remove}.asking")
    http_json("POST", f"{server}/api/rooms/{code}/join", {"name": "Cy"})
    page.wait_for_selector("[data-testid=seat-2] .seat-name:text('Cy')")
    assert page.evaluate("document.activeElement.dataset.testid") == "remove-seat-1"
    page.keyboard.press("Enter")
    wait_for_js(
        page,
        "() => [...document.querySelectorAll('[data-testid^=seat-] .seat-name')]"
        ".map((e) => e.textContent).join(',') === 'Ann,Cy'",
    )
    page.context.close()


def test_the_host_goes_on_on_a_phone_before_the_start(
    server: str, browser: Any, tmp_path: Path
) -> None:
    """A host who made the room on a laptop and wants to play on their phone had no way
    but to join again under another name ("Someone here already has this name"): the
    device link is offered from the moment a seat is taken, and the host's seat takes the
    host's controls along (the laptop's go)."""
    made = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": "Ann"})
    laptop = seated_page(browser, server, made, host=True)
    laptop.wait_for_selector("[data-testid=host-panel]:not([hidden])")
    laptop.wait_for_selector("[data-testid=seat-tools]:not([hidden])")
    # before the start, the move alone: leaving is the seat list's, the rest the game's
    assert laptop.locator("[data-testid=leave-button]").is_hidden()
    laptop.click("[data-testid=device-button]")
    laptop.wait_for_selector("[data-testid=device-panel]:not([hidden])")
    link = laptop.input_value("[data-testid=device-link]")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    page.errors = errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(link)
    # The phone holds the seat and the host's controls: it seats a computer and starts.
    page.wait_for_selector("[data-testid=host-panel]:not([hidden])")
    laptop.wait_for_selector("[data-testid=host-panel]", state="hidden")
    code = made["code"]
    assert laptop.evaluate(f"() => localStorage.getItem('labyrinth:host:{code}')") is None
    page.click("[data-testid=add-computer]")
    page.wait_for_selector("[data-testid=start-button]:enabled")
    page.click("[data-testid=start-button]")
    page.wait_for_selector("[data-testid=turn-status][data-seat='0']")
    page.screenshot(path=str(tmp_path / "host-moved-to-phone-before-start.png"))
    assert laptop.errors == [] and errors == []  # type: ignore[attr-defined]
    phone.close()
    laptop.context.close()
