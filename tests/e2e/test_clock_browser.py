"""Real tables in headless Chromium: a seat moved to another device by its link, a turn
timer that ticks and times out, a player who walks away and is replaced by the computer.
Screenshots go to the test's tmp folder (desktop and phone sizes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import (
    http_json,
    join_room,
    push_and_move,
    seated_page,
    serve_app,
    vs_computer,
    wait_for_js,
    wait_for_stable,
)

SHOTS = Path(__file__).resolve().parents[2] / "data" / "screenshots"


@pytest.fixture
def table_server(tmp_path: Path) -> Iterator[str]:
    """The app with players away after 1 s (a minute in production), no computer pause."""
    yield from serve_app(tmp_path, AWAY_AFTER="1", COMPUTER_PAUSE="0")


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def two_players(browser: Any, url: str, phone_b: bool = False) -> tuple[Any, Any, list[str]]:
    ctx_a = browser.new_context(viewport={"width": 1366, "height": 900})
    if phone_b:
        ctx_b = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
    else:
        ctx_b = browser.new_context(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    pages = []
    for label, ctx in (("A", ctx_a), ("B", ctx_b)):
        ctx.set_default_timeout(20000)
        page = ctx.new_page()
        page.on("pageerror", lambda e, label=label: errors.append(f"{label}: {e}"))
        pages.append(page)
    join_room(pages[0], url, "Ann", 0)
    join_room(pages[1], url, "Chloé", 1)
    return pages[0], pages[1], errors


def ann_has_played(browser: Any, server: str) -> tuple[dict[str, Any], Any, Any, list[str]]:
    """A classic table of Ann and Chloé, started, Ann's first turn played: Chloé's turn."""
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    a, b, errors = two_players(browser, server + room["url"])
    a.click("[data-testid=start-button]")
    push_and_move(a, cell="first")
    b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    return room, a, b, errors


def test_a_second_device_takes_the_seat_by_its_link(server: str, browser: Any) -> None:
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    url = server + room["url"]
    a, b, errors = two_players(browser, url)
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=seat-tools]:not([hidden])")
    a.click("[data-testid=device-button]")
    a.wait_for_selector("[data-testid=device-panel]:not([hidden])")
    link = a.input_value("[data-testid=device-link]")
    code = room["code"]
    old_key = a.evaluate(f"() => localStorage.getItem('labyrinth:token:{code}')")
    assert old_key
    assert "#transfer=" in link and link.startswith(url)
    # named apart from the room's invitation, which it looks like
    assert a.text_content("[data-testid=device-label]") == (
        "Private link to your seat (not an invitation)"
    )
    assert a.locator("[data-testid=device-qr] svg path").count() == 1
    # the link's life as the server set it (DEVICE_LINK_TTL, 600 s by default)
    assert a.text_content("[data-testid=device-help]").endswith("it works once, for 10 minutes.")
    shot(a, "device-link-desktop")

    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    phone.set_default_timeout(20000)
    p = phone.new_page()
    p.on("pageerror", lambda e: errors.append(f"phone: {e}"))
    requested: list[str] = []
    p.on("request", lambda r: requested.append(r.url))
    p.goto(link)
    # The phone has the seat: it is Ann's turn and the phone may push.
    p.wait_for_selector("[data-testid=seat-tools]:not([hidden])")
    p.wait_for_selector("[data-testid=board][data-legal=ready]")
    # and is told so, after the first state (which clears the news of before it)
    p.wait_for_selector("[data-testid=news]:not([hidden])")
    assert p.text_content("[data-testid=news]") == "The seat is yours on this device."
    assert "transfer" not in p.url, "the key leaves the address bar"
    assert not any("transfer" in u for u in requested), "the key is in no request line"
    # The old tab is told, and watches.
    a.wait_for_selector("[data-testid=seat-notice]:not([hidden])")
    assert a.is_hidden("[data-testid=seat-tools]")
    # ...and so is a tab that was closed then, opened again with the old key: told where
    # it stays, not by a toast's few seconds
    closed = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    closed.add_init_script(f"localStorage.setItem('labyrinth:token:{code}', '{old_key}')")
    reopened = closed.new_page()
    reopened.goto(url)
    reopened.wait_for_selector("[data-testid=seat-notice]:not([hidden])")
    notice = reopened.text_content("[data-testid=seat-notice]") or ""
    assert notice.startswith("This device no longer holds a seat here"), notice
    assert reopened.is_visible("[data-testid=you-watch]")
    closed.close()
    shot(a, "device-moved-desktop")
    push_and_move(p, cell="first")
    b.wait_for_selector("[data-testid=move-log][data-count='2']")
    shot(p, "device-claimed-phone")
    # the same link again: used, it says so where it stays, and how to get a new one
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    again = other.new_page()
    again.goto(link)
    again.wait_for_selector("[data-testid=seat-notice]:not([hidden])")
    notice = again.text_content("[data-testid=seat-notice]") or ""
    assert notice.startswith("This link did not move the seat here"), notice
    assert "Continue on another device" in notice
    assert again.is_hidden("[data-testid=seat-tools]")
    # the refusal's toast, two lines on a phone, shows whole: it lost its first line above
    # the news band, whose height it kept
    fit = again.evaluate(
        """() => {
          const toast = document.querySelector('[data-testid=error-toast]');
          const band = toast.parentElement.getBoundingClientRect();
          const box = toast.getBoundingClientRect();
          return { shown: !toast.hidden, top: box.top >= band.top - 1,
                   whole: toast.scrollHeight <= toast.clientHeight + 1, tall: box.height };
        }"""
    )
    assert fit["shown"] and fit["top"] and fit["whole"], fit
    other.close()
    assert errors == []


@pytest.mark.slow  # waits out a real 30 s clock
def test_a_clock_ticks_and_a_timeout_is_played(server: str, browser: Any) -> None:
    room = http_json(
        "POST",
        server + "/api/rooms",
        {"variant": "classic", "clock": {"kind": "turn", "seconds": 30}},
    )
    url = server + room["url"]
    a, b, errors = two_players(browser, url, phone_b=True)
    a.wait_for_selector("[data-testid=room-clock]:not([hidden])")
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=clock]:not([hidden])")
    b.wait_for_selector("[data-testid=clock-left]")
    first = int(b.get_attribute("[data-testid=clock]", "data-left") or "0")
    wait_for_js(
        b,
        "(first) => Number(document.querySelector('[data-testid=clock]').dataset.left) < first",
        first,
    )
    second = int(b.get_attribute("[data-testid=clock]", "data-left") or "0")
    assert 0 < second < first <= 30, (first, second)
    # the timer is written one way, in the header and in the clock's bar alike
    assert a.text_content("[data-testid=room-clock]") == "30 s a turn"
    assert a.text_content("[data-testid=clock] .clock-kind") == "30 s a turn"
    shot(a, "clock-desktop")
    shot(b, "clock-phone")
    # Ann does nothing: after 30 s the server plays her turn, marked in the log.
    b.wait_for_selector("[data-testid=log-cause][data-cause=timeout]", timeout=45000)
    b.wait_for_selector("[data-testid=turn-status][data-seat='1']", timeout=10000)
    # ...and said, not only labelled: to her in her words, to the others by her name
    assert a.text_content("[data-testid=news]") == (
        "Your time ran out: the computer plays this turn for you."
    )
    assert b.text_content("[data-testid=news]") == (
        "Ann's time ran out: the computer plays the turn."
    )
    assert int(b.get_attribute("[data-testid=clock]", "data-left") or "0") > 20
    shot(b, "timeout-phone")
    # On a narrow phone, in German ("Zeit abgelaufen"), a timed-out move's badge stays
    # beside its notation, both under the words if they must: alone, it went under the
    # move's number, out of the column of the words
    narrow = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale="de-DE"
    )
    c = narrow.new_page()
    c.goto(url)
    c.wait_for_selector("[data-testid=log-cause][data-cause=timeout]")
    boxes = c.eval_on_selector_all(
        "[data-testid=log-entry]:has([data-testid=log-cause])",
        """(es) => es.map((e) => {
          const box = (s) => { const r = e.querySelector(s).getBoundingClientRect();
            return { left: r.left, top: r.top, width: r.width }; };
          return { text: box(".log-text"), notation: box(".log-notation"),
                   cause: box("[data-testid=log-cause]") };
        })""",
    )
    assert boxes, boxes
    for box in boxes:
        assert box["cause"]["left"] >= box["text"]["left"], box
        if box["notation"]["width"]:
            assert abs(box["cause"]["top"] - box["notation"]["top"]) < 4, box
    narrow.close()
    assert errors == []


@pytest.mark.slow  # waits out two real 30 s turns
def test_a_player_whose_turns_ran_out_is_told_once_that_the_computer_plays(
    server: str, browser: Any
) -> None:
    """Two turns out of time: the computer plays Ann's seat. Her own page says so once, in
    the banner with the way back; the line the others read ("The computer plays for Ann
    (away)") was also shown to her, of herself, in the third person, under that banner."""
    made = vs_computer(server, "classic", clock={"kind": "turn", "seconds": 30})
    ann = seated_page(browser, server, made, viewport={"width": 390, "height": 844}, is_mobile=True)
    watcher = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    watcher.goto(server + made["url"])
    ann.wait_for_selector("[data-testid=stand-in-0]", timeout=120000)
    assert ann.text_content("[data-testid=stand-in-0] .away-text") == (
        "The computer is playing for you while you are away."
    )
    assert ann.locator("[data-testid=computer-seat-0]").count() == 0
    assert ann.is_hidden("[data-testid=computer-seats]")
    # ...which the others still read, by her name
    watcher.wait_for_selector("[data-testid=computer-seat-0]", timeout=20000)
    assert watcher.text_content("[data-testid=computer-seat-0]") == (
        "The computer plays for Ann (away)"
    )
    shot(ann, "stand-in-phone")
    # Back: the banner goes, and no line about her seat comes in its place.
    ann.click("[data-testid=stand-in-back-0]")
    ann.wait_for_selector("[data-testid=back-banner]", state="hidden")
    watcher.wait_for_selector("[data-testid=computer-seat-0]", state="detached")
    assert ann.is_hidden("[data-testid=computer-seats]")
    assert ann.errors == []
    watcher.context.close()
    ann.context.close()


@pytest.mark.slow  # waits out real away delays
def test_a_player_walks_away_and_the_computer_takes_over(table_server: str, browser: Any) -> None:
    room, a, b, errors = ann_has_played(browser, table_server)
    b.context.close()  # Chloé closes her tab on her turn
    a.wait_for_selector("[data-testid=away-banner]:not([hidden])")
    assert "Chloé" in (a.text_content("[data-testid=away-banner]") or "")
    # Her line in the players' list agrees with the banner: away, no longer reconnecting.
    mark = "[data-testid=player-1] [data-testid=conn-mark]"
    a.wait_for_selector(f"{mark}[data-away=true]")
    assert a.text_content(mark) == "away"
    shot(a, "away-desktop")
    a.click("[data-testid=away-takeover]")
    a.wait_for_selector("[data-testid=log-cause][data-cause=away]")
    a.wait_for_selector("[data-testid=computer-seat-1]")
    a.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
    assert a.is_hidden("[data-testid=away-banner]")
    # ...and her line says who plays it now (it had no mark at all)
    a.wait_for_selector(f"{mark}[data-played=away]")
    assert a.text_content(mark) == "computer"
    push_and_move(a, cell="first")
    a.wait_for_selector("[data-testid=log-cause][data-cause=away] >> nth=2")
    shot(a, "takeover-desktop")
    # Ann leaves too: the computer plays both seats to the end, which Ann watches.
    a.on("dialog", lambda d: d.accept())
    a.click("[data-testid=leave-button]")
    a.wait_for_selector("[data-testid=seat-notice]:not([hidden])")
    a.wait_for_selector("[data-testid=result-banner]:not([hidden])", timeout=60000)
    game = http_json("GET", f"{table_server}/api/rooms/{room['code']}")
    assert game["status"] == "finished"
    assert [s["computer"]["reason"] for s in game["seats"]] == ["left", "away"]
    assert http_json("GET", f"{table_server}/api/games/{game['game_id']}")["left"] == [0]
    # Over: said in the past, and nobody is shown "reconnecting" to a finished game.
    played = a.text_content("[data-testid=computer-seat-0]") or ""
    assert played.startswith("The computer played for Ann"), played
    assert a.locator("[data-testid^=player-] [data-testid=conn-mark]").count() == 0
    shot(a, "finished-after-leave-desktop")
    assert errors == []


@pytest.mark.slow  # waits out real away delays
def test_a_player_who_comes_back_is_told_what_happened_meanwhile(
    table_server: str, browser: Any
) -> None:
    room, a, b, errors = ann_has_played(browser, table_server)
    url = table_server + room["url"]
    push_and_move(b, cell="first")
    a.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
    assert a.is_hidden("[data-testid=since-banner]")  # nothing went unseen
    ann = a.context
    a.close()  # Ann closes her tab on her turn; her browser keeps her seat and what it saw
    b.click("[data-testid=away-takeover]", timeout=20000)
    b.wait_for_selector("[data-testid=log-cause][data-cause=away] >> nth=1")
    b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")

    back = ann.new_page()
    back.on("pageerror", lambda e: errors.append(f"A again: {e}"))
    back.goto(url)
    back.wait_for_selector("[data-testid=since-banner]:not([hidden])")
    lines = back.locator("[data-testid=since-line]").all_text_contents()
    # counted in turns, as players count (its push and move are one turn)
    assert lines[:2] == ["1 turn was played.", "The computer played it for you."], lines
    # ...and the move log marks where those moves begin
    after_mark = back.locator("[data-testid=log-since] + [data-testid=log-entry]")
    assert after_mark.get_attribute("data-seq") == "5"
    shot(back, "since-desktop")
    back.select_option("[data-testid=lang-select]", "fr")
    lines = back.locator("[data-testid=since-line]").all_text_contents()
    assert lines[:2] == ["1 tour a été joué.", "L’ordinateur l’a joué pour vous."], lines
    back.set_viewport_size({"width": 390, "height": 844})
    shot(back, "since-phone-fr")
    back.set_viewport_size({"width": 1366, "height": 900})
    back.select_option("[data-testid=lang-select]", "en")
    # Chloé's move keeps the news up; Ann's own move puts it behind her.
    push_and_move(b, cell="first")
    back.wait_for_selector("[data-testid=turn-status][data-seat='0'][data-phase=push]")
    assert back.is_visible("[data-testid=since-banner]")
    push_and_move(back, cell="first")
    back.wait_for_selector("[data-testid=since-banner]", state="hidden")
    assert back.locator("[data-testid=log-since]").count() == 0
    # What this device showed is remembered: a reload brings no old news again.
    back.reload()
    back.wait_for_selector("[data-testid=move-log][data-count='10']")
    assert back.is_hidden("[data-testid=since-banner]")
    assert errors == []


SINCE = """async () => {
  const m = await import("/static/js/since.js");
  const names = (seat) => ["Ann", "Bob", "Cy"][seat];
  const log = [
    { seq: 1, seat: 0, notation: "Nb" }, { seq: 2, seat: 0, notation: "c3" },
    { seq: 3, seat: 1, notation: "W4" },
    { seq: 4, seat: 1, notation: "a2", events: [{ type: "found", seat: 1, treasure: "ghost" }] },
    { seq: 5, seat: 2, notation: "Sd", by: "computer:timeout" },
    { seq: 6, seat: 2, notation: "d6", by: "computer:timeout" },
  ];
  const text = (s) => (s ? s.lines : null);
  const summaries = {
    lastTwo: text(m.sinceSummary(log.slice(0, 4), 2, [0], { names, single: true })),
    four: text(m.sinceSummary(log, 2, [0], { names, single: true })),
    shared: text(m.sinceSummary(log, 4, [0, 2], { names, single: false })),
    mixed: text(m.sinceSummary(log, 2, [2], { names, single: true })),
    bobs: text(m.sinceSummary(log, 2, [1], { names, single: true })),
    bobsShared: text(m.sinceSummary(log, 2, [1, 2], { names, single: false })),
    ownSeat: text(m.sinceSummary(
      log.map((e) => ({ ...e, by: e.by && "computer:seat" })), 4, [2], { names, single: true })),
  };
  // Said to the reader, in each language: their own find, and a list that names them.
  const i18n = await import("/static/js/i18n.js");
  const ended = [...log, { seq: 7, seat: 0, notation: "e5", events: [
    { type: "found", seat: 0, treasure: "bat" }, { type: "won", winners: [0, 1] }] }];
  const yours = {};
  for (const code of ["en", "fr", "de"]) {
    i18n.setLanguage(code);
    yours[code] = {
      bobs: text(m.sinceSummary(log, 2, [1], { names, single: true })).at(-1),
      ended: text(m.sinceSummary(ended, 4, [1], { names, single: true })).at(-1),
      // a shared device's person whose turn the computer played (their time ran out)
      turn: text(m.turnSummary(log, 4, 2, { names, variant: "classic" })),
    };
  }
  i18n.setLanguage("en");
  localStorage.clear();
  m.saveSeen("abc", "g1", 7);
  m.saveSeen("xyz", "g1", 3);
  const first = m.loadSeen("abc", "g1");
  m.saveSeen("abc", "g2", 0);  // the room's next game: the last one's mark goes
  const kept = Object.keys(localStorage).sort();
  return { summaries, yours, first, kept, none: m.loadSeen("abc", "g3") };
}"""


def test_what_happened_meanwhile_in_words(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    got = page.evaluate(SINCE)
    summaries = got["summaries"]
    assert summaries["lastTwo"] is None  # two moves by others: the log says it already
    assert summaries["four"] == [
        "2 turns were played.",
        "Bob found the ghost.",
    ]
    assert summaries["shared"] == [
        "1 turn was played.",
        "The computer played it for Cy.",
    ]
    assert summaries["mixed"] == [
        "2 turns were played.",
        "The computer played 1 of them for you.",
        "Bob found the ghost.",
    ]

    # Bob's own find, read on his page, is his ("Bob found the ghost" read as another's),
    # said to him as the rest of the page speaks (it read "Bob (you) found the ghost");
    # on a shared device the news is everyone's, and names them
    assert summaries["bobs"][-1] == "You found the ghost.", summaries["bobs"]
    yours = got["yours"]
    assert yours["en"]["bobs"] == "You found the ghost."
    assert yours["fr"]["bobs"] == "Vous avez trouvé\u00a0: fantôme."
    assert yours["de"]["bobs"] == "Du fandst: Geist."
    assert yours["en"]["ended"] == "Ann found the bat and game over, winner: Ann and you."
    assert "(you)" not in str(yours) and "(vous)" not in str(yours) and "(du)" not in str(yours)
    assert yours["en"]["turn"][-1].startswith("The computer played your turn: "), yours
    assert yours["fr"]["turn"][-1].startswith("L’ordinateur a joué votre tour\u00a0: "), yours
    assert yours["de"]["turn"][-1].startswith("Der Computer hat deinen Zug gespielt: "), yours
    assert summaries["bobsShared"][-1] == "Bob found the ghost.", summaries["bobsShared"]
    assert summaries["ownSeat"] is None  # a computer seat's own moves are not news
    assert got["first"] == 7 and got["none"] is None
    assert got["kept"] == ["labyrinth:seen:abc:g2", "labyrinth:seen:xyz:g1"]
    page.close()


LATE_WELCOME = """async (lateMs) => {
  const m = await import("/static/js/clock.js");
  // The welcome was stamped lateMs before this page handled it (a busy server or link).
  m.setServerNow(Date.now() - lateMs);
  const el = document.createElement("div");
  document.body.append(el);
  const view = new m.ClockView(el, () => "Ann");
  const started = Date.now();
  view.update({
    kind: "turn", seconds: 30, seat: 0, timeouts: [0, 0],
    turn_started: new Date(started).toISOString(),
    deadline: new Date(started + 30000).toISOString(),
  });
  const left = Number(el.dataset.left);
  view.update(null);
  return left;
}"""


def test_a_late_welcome_does_not_lengthen_a_turn(server: str, browser: Any) -> None:
    """The turn's start is a server time the page has passed too: a welcome delivered
    five seconds late must not show a 30-second turn with 35 seconds left."""
    page = browser.new_page()
    page.goto(server + "/")
    assert page.evaluate(LATE_WELCOME, 5000) == 30


MY_TURN_SEEN = """() => {
  window.__myTurnSeen = 0;
  const board = document.querySelector('[data-testid=board]');
  const look = () => { if (board.dataset.myTurn === 'true') window.__myTurnSeen += 1; };
  const watched = { attributes: true, attributeFilter: ['data-my-turn'] };
  new MutationObserver(look).observe(board, watched);
  look();
  return true;
}"""


@pytest.mark.slow  # waits out two real 30 s clocks
def test_while_the_computer_stands_in_the_page_watches_until_i_am_back(
    server: str, browser: Any
) -> None:
    """Two turns timed out hand Ann's seat to the computer while her page stays open. Her
    page said "Your turn" and lit its squares under the computer's moves; it watches now,
    and "I'm back" gives her the controls again at her next turn."""
    room = http_json(
        "POST",
        server + "/api/rooms",
        {"variant": "classic", "clock": {"kind": "turn", "seconds": 30}},
    )
    a, b, errors = two_players(browser, server + room["url"])
    a.click("[data-testid=start-button]")
    b.wait_for_selector("[data-testid=log-cause][data-cause=timeout]", timeout=45000)
    b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    push_and_move(b, cell="first")
    # the second timeout in a row: the computer plays Ann's seat until she is back
    a.wait_for_selector("[data-testid=stand-in-0]", timeout=45000)
    b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    assert a.evaluate(MY_TURN_SEEN) is True
    push_and_move(b, cell="first")  # Ann's turn, which the computer plays
    b.wait_for_selector("[data-testid=log-cause][data-cause=away]")
    b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    assert a.evaluate("() => window.__myTurnSeen") == 0
    assert a.get_attribute("[data-testid=board]", "data-my-turn") == "false"
    # back: at her next turn the page plays again, its controls ready
    a.click("[data-testid=stand-in-back-0]")
    a.wait_for_selector("[data-testid=back-banner]", state="hidden")
    push_and_move(b, cell="first")
    a.wait_for_selector("[data-testid=board][data-my-turn=true][data-legal=ready]")
    push_and_move(a, cell="first")
    b.wait_for_selector("[data-testid=turn-status][data-seat='1'][data-phase=push]")
    assert errors == []


def test_a_chess_clock_keeps_to_a_few_lines_on_a_phone(server: str, browser: Any) -> None:
    """A chess clock of four seats took a line for each (about 250 px above the board on
    a phone, with a long name and the computers'): two seats to a line now, a long name
    cut (whole in its title), every time whole."""
    made = http_json(
        "POST",
        server + "/api/rooms",
        {
            "variant": "classic",
            "name": "Maximilian von Hohenzollern-Sig",
            "computers": ["easy", "medium", "hard"],
            "start": True,
            "clock": {"kind": "fischer", "seconds": 300, "increment": 5},
        },
    )
    page = seated_page(
        browser,
        server,
        made,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="fr-FR",
    )
    page.wait_for_selector("[data-testid=clock-seat-3]")
    bar = page.evaluate(
        """() => {
          const bar = document.querySelector('[data-testid=clock]');
          const seats = [...bar.querySelectorAll('.clock-seat')].map((s) => {
            const time = s.querySelector('.clock-time');
            return { right: s.getBoundingClientRect().right, title: s.title,
                     time: time.scrollWidth <= time.clientWidth + 1 };
          });
          return { height: bar.getBoundingClientRect().height, seats,
                   width: document.documentElement.scrollWidth };
        }"""
    )
    assert bar["height"] < 110, bar
    assert bar["width"] <= 390
    assert all(s["time"] and s["right"] <= 390 for s in bar["seats"]), bar
    assert bar["seats"][0]["title"] == "Maximilian von Hohenzollern-Sig"
    assert page.errors == []
    page.context.close()


def test_a_turn_clock_takes_the_whole_line_on_a_phone(server: str, browser: Any) -> None:
    """A turn clock shows one line, whose turn it is and the time left: it was held to half
    the bar, as a chess clock's two seats a line are, so a long name took four lines above
    the board ("Maximilian-", "Alexander", "Habsburger: noch", "1:59") beside an empty half."""
    made = http_json(
        "POST",
        server + "/api/rooms",
        {
            "variant": "master",
            "name": "Maximilian-Alexander Habsburger",
            "computers": ["easy"],
            "start": True,
            "clock": {"kind": "turn", "seconds": 120},
        },
    )
    page = seated_page(
        browser,
        server,
        made,
        viewport={"width": 360, "height": 740},
        is_mobile=True,
        has_touch=True,
        locale="de-DE",
    )
    page.wait_for_selector("[data-testid=clock-left]")
    line = wait_for_stable(
        page,
        """() => {
          const left = document.querySelector('[data-testid=clock-left]');
          const r = left.getBoundingClientRect();
          return { height: r.height, right: r.right, text: left.textContent,
                   line: parseFloat(getComputedStyle(left).lineHeight) };
        }""",
    )
    assert line["text"].startswith("Maximilian-Alexander Habsburger: noch "), line
    assert line["height"] <= 2 * line["line"] + 1, line
    assert line["right"] <= 360, line
    assert page.errors == []
    page.context.close()
