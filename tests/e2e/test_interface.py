"""Issue 14, reading the game and finding one's way: the move log in words (translated,
notation as a label, legend on the rules pages), plurals, tab titles, news that never
covers the board and is never stale, the target unlike the reachable cells, options in
words, the Team form's fields, the rules index and each room's rules link.

Each test takes screenshots into its tmp_path (desktop 1366x900, phone 390x844).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import http_json, join_room, push_and_move, wait_for_js
from tests.server.helpers import greedy_record

DESKTOP = {"viewport": {"width": 1366, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# a log line's words must never be developer notation
RAW = re.compile(r"\b\d+,-?\d+\b|[a-z_]+:\S|\+\d")


def two_players(server: str, browser: Any, variant: str, options: dict | None = None):
    room = http_json("POST", server + "/api/rooms", {"variant": variant, "options": options or {}})
    url = server + room["url"]
    ctx_a = browser.new_context(**DESKTOP)
    ctx_b = browser.new_context(**PHONE)
    for ctx in (ctx_a, ctx_b):
        ctx.set_default_timeout(15000)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    errors: list[str] = []
    a.on("pageerror", lambda e: errors.append(f"A: {e}"))
    b.on("pageerror", lambda e: errors.append(f"B: {e}"))
    join_room(a, url, "Alice", 0)
    join_room(b, url, "Bob", 1)
    return url, a, b, errors


def boxes_overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_move_log_reads_in_words_in_every_language(
    server: str, browser: Any, tmp_path: Path
) -> None:
    _url, a, b, errors = two_players(server, browser, "classic", {"events": True})
    a.click("[data-testid=start-button]")
    push_and_move(a)
    b.wait_for_selector("[data-testid=move-log][data-count='2']")

    words = b.locator("[data-testid=log-words]").all_text_contents()
    notations = b.locator("[data-testid=log-entry] .log-notation").all_text_contents()
    slot = notations[0].split("+")[0]
    # the slot in the board's words, not its compass letter: "Sd" is column d from the bottom
    side = {"N": "column {} from the top", "S": "column {} from the bottom"}
    side |= {"W": "row {} from the left", "E": "row {} from the right"}
    assert words[0].startswith("pushed " + side[slot[0]].format(slot[1])), words
    # "moved to c3" ("stayed at a1" when the first lit cell was her own), and what the
    # move found when it found something ("· Alice found ...")
    cell = notations[1].rstrip("*")
    assert words[1].split(" · ")[0] in (f"moved to {cell}", f"stayed at {cell}"), words
    assert b.text_content("[data-testid=log-entry] .log-name") == "Alice"
    assert not any(RAW.search(w) for w in words), words

    expected = {
        "fr": ("a poussé dans la ", ("a rejoint", "n’a pas bougé")),
        "de": ("schob in ", ("zog nach", "blieb auf")),
    }
    for lang, (push, move) in expected.items():
        b.select_option("[data-testid=lang-select]", lang)
        words = b.locator("[data-testid=log-words]").all_text_contents()
        assert words[0].startswith(push) and words[1].startswith(move), words
        b.screenshot(path=str(tmp_path / f"log-phone-{lang}.png"), full_page=True)
    # the notation stays, as a small label beside the words
    assert b.locator("[data-testid=log-entry] .log-notation").all_text_contents() == notations
    labels = b.locator("[data-testid=log-entry] .log-notation").all()
    assert all(label.is_visible() for label in labels)
    a.screenshot(path=str(tmp_path / "log-desktop.png"))
    # a reload brings the history (notations only), still in words
    b.reload()
    b.wait_for_selector("[data-testid=move-log][data-count='2']")
    assert b.locator("[data-testid=log-words]").first.text_content().startswith("schob in ")
    assert errors == []


def test_the_replay_says_what_each_move_did_in_words(server: str, browser: Any) -> None:
    record = greedy_record(players=2, seed="e2e-words", events=True)
    game_id = http_json("POST", server + "/api/games/import", record)["id"]
    moves = http_json("GET", f"{server}/api/games/{game_id}/replay")["moves"]
    page = browser.new_page(**DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('#replay-page[data-state="ready"]')

    found = next(m for m in moves if any(e["type"] == "found" for e in m["events"]))
    page.click(f'[data-testid="replay-move"][data-step="{found["seq"] - 1}"] button')
    page.keyboard.press("ArrowRight")
    panel = page.text_content("[data-testid=replay-events]")
    moved = next(e for e in found["events"] if e["type"] == "moved")
    to = "abcdefg"[moved["to"][1]] + str(moved["to"][0] + 1)
    assert "moved from" in panel and f"to {to}" in panel, panel
    assert "found the" in panel
    # no raw keys, no zero-based coordinates
    assert not re.search(r"\bfrom \d|\d,\d|\bseat\b", panel), panel
    assert page.text_content("[data-testid=replay-move-words]").strip()
    # the move list: words beside the notation, the find included
    entry = page.text_content(f'[data-testid="replay-move"][data-step="{found["seq"]}"]')
    assert "found the" in entry and found["notation"] in entry
    # the line starts with the mover's name: what they found follows without it again
    assert " · found the " in entry, entry

    # news of the step shown goes as soon as another step is shown
    assert page.is_visible("[data-testid=news]")
    page.keyboard.press("Home")
    assert not page.is_visible("[data-testid=news]")

    page.select_option("#lang-select", "fr")
    page.click(f'[data-testid="replay-move"][data-step="{found["seq"]}"] button')
    panel = page.text_content("[data-testid=replay-events]")
    assert "a trouvé" in panel and f"a rejoint {to}" in panel, panel
    assert errors == []


def test_plurals_follow_the_language(server: str, browser: Any) -> None:
    page = browser.new_page(**DESKTOP)
    page.goto(server + "/")
    got = page.evaluate(
        """async () => {
      const i18n = await import("/static/js/i18n.js");
      const out = {};
      for (const lang of ["en", "fr", "de"]) {
        i18n.setLanguage(lang);
        out[lang] = [0, 1, 2].map((n) => i18n.t("cards.taken_count", { n }))
          .concat([1, 2].map((n) => i18n.t("master.stats.coins", { n })))
          .concat([1, 2].map((n) => i18n.t("lobby.moves", { n })))
          .concat([0, 1].map((n) => i18n.t("lobby.watching", { n })));
      }
      return out;
    }"""
    )
    assert got["en"] == [
        "0 cards taken", "1 card taken", "2 cards taken", "1 coin", "2 coins", "1 move", "2 moves",
        "nobody watching", "1 watching",
    ]  # fmt: skip
    assert got["fr"] == [
        "0 carte prise", "1 carte prise", "2 cartes prises",
        "1 pièce", "2 pièces", "1 coup", "2 coups", "aucun spectateur", "1 spectateur",
    ]  # fmt: skip
    assert got["de"] == [
        "0 Karten genommen", "1 Karte genommen", "2 Karten genommen",
        "1 Münze", "2 Münzen", "1 Zug", "2 Züge", "niemand schaut zu", "1 schaut zu",
    ]  # fmt: skip


def test_tab_titles_are_in_the_pages_language(server: str, browser: Any) -> None:
    page = browser.new_page(**DESKTOP)
    page.goto(server + "/")
    assert page.title() == "Lobby — Labyrinth"
    page.select_option("#lang-select", "fr")
    assert page.title() == "Accueil — Labyrinthe"
    page.goto(server + "/rules/master")
    assert page.title() == "Règles\u00a0: Labyrinthe Master — Labyrinthe"
    page.select_option("#lang-select", "de")
    assert page.title().startswith("Regeln: ")
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    page.goto(server + room["url"])
    wait_for_js(page, "document.title.startsWith('Raum ')")


def test_news_never_covers_the_board(server: str, browser: Any, tmp_path: Path) -> None:
    _url, a, b, errors = two_players(server, browser, "classic")
    a.click("[data-testid=start-button]")
    for page, name in ((a, "desktop"), (b, "phone")):
        page.wait_for_selector("[data-testid=board]")
        before = page.locator("[data-testid=board]").bounding_box()
        page.evaluate(
            """async () => {
          const { flash } = await import("/static/js/dom.js");
          flash(document.getElementById("news"), "Bob found the troll!", 6000);
        }"""
        )
        news = page.locator("[data-testid=news]")
        assert news.is_visible()
        board = page.locator("[data-testid=board]").bounding_box()
        assert not boxes_overlap(news.bounding_box(), board)
        assert board == before  # the board does not move either
        page.screenshot(path=str(tmp_path / f"news-{name}.png"))
    assert errors == []


def own_target_marked(page: Any) -> bool:
    """The viewer's target is marked once: on its board cell, or on the spare tile."""
    target = page.get_attribute("[data-testid=target]", "data-target")
    marks = page.locator("[data-testid=target-mark]")
    if page.locator("[data-testid=spare] .is-target").count():
        assert marks.count() == 0
        return False
    assert marks.count() == 1
    cell = marks.get_attribute("data-cell")
    assert f"#t-{target}" in (page.locator(f"[data-cell='{cell}'] .tile").inner_html() or "")
    return True


def test_the_target_is_marked_unlike_the_reachable_cells(
    server: str, browser: Any, tmp_path: Path
) -> None:
    _url, a, b, errors = two_players(server, browser, "classic")
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    b.wait_for_selector("[data-testid=turn-status][data-phase=push]")
    on_board = own_target_marked(a)
    own_target_marked(b)  # each their own: Bob's, not Alice's
    a.locator("[data-testid^=arrow-][data-active=true]").first.click()
    a.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    on_board = own_target_marked(a)
    cell = a.eval_on_selector(".reachable-frame", "e => getComputedStyle(e).stroke")
    probe = """() => {
      const g = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      g.setAttribute("class", "target-ring");
      document.getElementById("board").append(g);
      const stroke = getComputedStyle(g).stroke;
      g.remove();
      return stroke;
    }"""
    ring = (
        a.eval_on_selector(".target-ring", "e => getComputedStyle(e).stroke")
        if on_board
        else a.evaluate(probe)
    )
    assert ring != cell
    a.screenshot(path=str(tmp_path / "target-and-reachable.png"))
    assert errors == []


def test_options_in_words_and_the_rules_of_that_game(server: str, browser: Any) -> None:
    room = http_json(
        "POST",
        server + "/api/rooms",
        {"variant": "team", "options": {"mode": "standard", "spell_red": "switch"}},
    )
    page = browser.new_page(**DESKTOP)
    page.goto(server + room["url"])
    page.wait_for_selector("[data-testid=room-options] li")
    chips = page.locator("[data-testid=room-options] li").all_text_contents()
    assert "Mode: Standard" in chips and "Red's spell: Switch" in chips, chips
    # said once, in the header: the seats' panel does not repeat them
    assert "Mode: Standard" not in page.text_content("[data-testid=lobby-panel]")
    assert page.get_attribute("[data-testid=rules-link]", "href") == "/rules/team"
    page.select_option("#lang-select", "fr")
    chips = page.locator("[data-testid=room-options] li").all_text_contents()
    assert "Mode\u00a0: Standard" in chips  # no line break before the colon

    intro = http_json("POST", server + "/api/rooms", {"variant": "team"})
    page.goto(server + intro["url"])
    page.wait_for_selector("[data-testid=room-options] li")
    chips = page.locator("[data-testid=room-options] li").all_text_contents()
    assert len(chips) == 1 and "Initiation" in chips[0], chips  # no spells in introductory

    classic = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    page.goto(server + classic["url"])
    page.select_option("#lang-select", "en")
    page.wait_for_selector("[data-testid=room-options] li")
    chips = page.locator("[data-testid=room-options] li").all_text_contents()
    assert chips == ["Event variant: off", "Return home to win: on"]


def test_the_team_form_shows_spells_only_when_they_apply(server: str, browser: Any) -> None:
    page = browser.new_page(**PHONE)
    page.goto(server + "/")
    page.select_option("[data-testid=variant-select]", "team")
    spells = [f"[data-testid=opt-spell_{c}]" for c in ("red", "yellow", "green", "blue")]
    assert page.is_visible("[data-testid=opt-mode]")
    assert not any(page.is_visible(s) for s in spells)
    page.select_option("[data-testid=opt-mode]", "standard")
    assert all(page.is_visible(s) for s in spells)
    page.select_option("[data-testid=opt-mode]", "introductory")
    assert not any(page.is_visible(s) for s in spells)


def test_a_rules_index_and_a_notation_legend_on_every_rules_page(
    server: str, browser: Any, tmp_path: Path
) -> None:
    page = browser.new_page(**PHONE)
    page.goto(server + "/")
    page.click("[data-testid=rules-menu] summary")
    links = page.locator("[data-testid=rules-menu] a")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
        "/rules/classic", "/rules/master", "/rules/team", "/rules/cards",
    ]  # fmt: skip
    page.screenshot(path=str(tmp_path / "rules-menu-phone.png"))
    for variant in ("classic", "master", "team", "cards"):
        page.goto(f"{server}/rules/{variant}")
        rows = page.locator("[data-testid=notation-legend] tbody tr")
        assert rows.count() >= 4
        for i in range(rows.count()):
            code, meaning = rows.nth(i).locator("td").all_text_contents()
            assert meaning and meaning != code, (variant, code)
        # pictures drawn by the board's own tile code (the card game's through its cards)
        figures = page.locator("[data-testid=rules-pictures] figure")
        assert figures.count() >= 7
        assert page.locator("[data-testid=rules-pictures] .tile .tile-wall").count() >= 20
        page.screenshot(path=str(tmp_path / f"rules-{variant}.png"), full_page=True)
        # "On this page" links every section shown, the notation's legend last
        toc = page.locator("[data-testid=rules-toc] a")
        shown = page.locator("article h2:visible")
        assert toc.count() == shown.count() - 1 >= 5, variant  # all but its own heading
        targets = [toc.nth(i).get_attribute("href") for i in range(toc.count())]
        assert targets[-1] == "#notation-title"
        for href in targets:
            assert page.locator(href).is_visible(), (variant, href)
        toc.last.click()
        assert page.locator("#notation-title").evaluate(
            "(el) => el.getBoundingClientRect().top < window.innerHeight"
        )
    page.select_option("#lang-select", "de")
    assert page.text_content("[data-testid=notation-legend] h2") == "Zugnotation"
    contents = page.locator("[data-testid=rules-toc]")
    assert contents.locator("h2").text_content() == "Auf dieser Seite"
    assert "Zugnotation" in contents.text_content()
    assert (
        contents.locator("a").first.text_content()
        == page.locator("[data-lang-block=de] section h2").first.text_content()
    )
    # a link to a section opens the page at it
    page.goto(f"{server}/rules/classic#section-4")
    assert page.locator("#section-4").evaluate(
        "(el) => Math.abs(el.getBoundingClientRect().top) < 40"
    )


RECORD_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  // window.__refuse: the server is down, the network up: a connection fails before it
  // opens. (Sent to a port where nobody listens it was blocked by the page's policy,
  // connect-src 'self', and never failed: the page waited for it, flakily, for good.)
  // window.__hang: that very connection on purpose, which neither opens nor fails.
  window.WebSocket = class extends Native {
    constructor(url, ...rest) {
      super(window.__hang ? "ws://127.0.0.1:9/" : url, ...rest);
      window.__sockets.push(this);
      if (window.__refuse) this.close();
    }
  };
})();"""


def test_a_connection_that_never_opens_is_tried_again(server: str, browser: Any) -> None:
    """A reconnection that hung (neither open nor closed) left the page "reconnecting" for
    good; it is given up after a while and the next one tried."""
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    context = browser.new_context(**DESKTOP)
    context.add_init_script(RECORD_SOCKETS)
    page = context.new_page()
    join_room(page, server + room["url"], "Alice", 0)
    page.evaluate("() => { window.__hang = true; window.__sockets.forEach((s) => s.close()); }")
    page.wait_for_selector("[data-testid=conn-status][data-status=offline]", state="attached")
    wait_for_js(page, "() => window.__sockets.some((s) => s.url.includes(':9/'))")
    page.evaluate("() => { window.__hang = false; }")
    page.wait_for_selector(
        "[data-testid=conn-status][data-status=online]", state="attached", timeout=20000
    )
    context.close()


def test_a_seat_moved_to_another_device_is_no_news_to_the_others(server: str, browser: Any) -> None:
    """Chloé moves her seat to her laptop: her connection was down between the claim and
    the laptop's hello, and Alice read "Chloé is disconnected — waiting for them to reconnect", then
    "Chloé is back". A drop that ends within a moment is no news now."""
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    url = server + room["url"]
    ctx_a, ctx_b = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    join_room(a, url, "Alice", 0)
    join_room(b, url, "Chloé", 1)
    a.click("[data-testid=start-button]")
    b.wait_for_selector("[data-testid=turn-status][data-phase=push]")
    a.evaluate(
        """() => { window.__told = [];
          const news = document.getElementById("news");
          new MutationObserver(() => window.__told.push(news.textContent))
            .observe(news, { childList: true, characterData: true, subtree: true }); }"""
    )
    b.click("[data-testid=device-button]")
    b.wait_for_selector("[data-testid=device-panel]:not([hidden])")
    link = b.input_value("[data-testid=device-link]")
    laptop = browser.new_context(**DESKTOP)
    c = laptop.new_page()
    c.goto(link)
    c.wait_for_selector("[data-testid=seat-tools]:not([hidden])")
    b.wait_for_selector("[data-testid=seat-notice]:not([hidden])")
    a.wait_for_selector("[data-testid=player-1] [data-testid=conn-mark][data-connected=true]")
    # Past the moment a drop must last to be news (LEFT_AFTER_MS, 3 s in static/js/room.js):
    # a check that nothing is said has no event to wait for. The page's timer for the drop
    # was set when its news came, before the mark above; a timer of the page's own set now
    # for as long (and a little) runs after it however slow the machine.
    a.evaluate("() => new Promise((done) => setTimeout(done, 3000 + 100))")
    told = a.evaluate("() => window.__told")
    assert not [line for line in told if "Chloé" in line], told
    for ctx in (ctx_a, ctx_b, laptop):
        ctx.close()


def test_connection_state_in_words(server: str, browser: Any, tmp_path: Path) -> None:
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    url = server + room["url"]
    ctx_a = browser.new_context(**DESKTOP)
    ctx_a.add_init_script(RECORD_SOCKETS)
    ctx_b = browser.new_context(**PHONE)
    for ctx in (ctx_a, ctx_b):
        ctx.set_default_timeout(15000)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    join_room(a, url, "Alice", 0)
    join_room(b, url, "Chloé", 1)
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    b.wait_for_selector("[data-testid=turn-status][data-phase=push]")

    # Chloé drops: Alice reads it beside Chloé's name at once, and in the news once it
    # has lasted a moment (a reload or a move to another device is back within it)
    ctx_b.close()
    a.wait_for_selector("[data-testid=player-1] [data-testid=conn-mark][data-connected=false]")
    assert "reconnecting" in a.text_content("[data-testid=player-1]")
    news = a.locator("[data-testid=news]")
    a.wait_for_selector("[data-testid=news]:has-text('Chloé is disconnected')")
    assert news.is_visible()
    a.screenshot(path=str(tmp_path / "player-left.png"))

    # The server goes away while Alice's network stays: the banner says the game's
    # connection was lost, not that she is offline (she would check her Wi-Fi)
    a.evaluate("() => { window.__refuse = true; window.__sockets.forEach((s) => s.close()); }")
    banner = a.locator("[data-testid=offline-banner]")
    banner.wait_for(state="visible")
    assert "connection to the game was lost" in banner.text_content()
    assert "offline" not in banner.text_content()
    a.locator("[data-testid^=arrow-][data-active=true]").first.click()
    toast = a.locator("[data-testid=error-toast]")
    assert toast.is_visible() and "connection to the game is down" in toast.text_content()
    a.evaluate("() => { window.__refuse = false; }")
    banner.wait_for(state="hidden", timeout=20000)
    a.wait_for_selector("[data-testid=board][data-legal=ready]")

    # Alice's own connection goes: a banner says so, and a click on an arrow explains
    ctx_a.set_offline(True)
    a.evaluate("() => window.__sockets.forEach((s) => s.close())")
    banner.wait_for(state="visible")
    assert "offline" in banner.text_content()
    a.locator("[data-testid^=arrow-][data-active=true]").first.click()
    assert toast.is_visible() and "offline" in toast.text_content()
    a.screenshot(path=str(tmp_path / "offline.png"))
    ctx_a.set_offline(False)
    banner.wait_for(state="hidden", timeout=20000)
    ctx_a.close()


SLOW_ACTIONS = """(() => {
  // window.__slow: an action reaches the server 1.5 s late (a slow mobile network)
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const late = window.__slow && String(data).includes('"type":"action"');
    if (late) setTimeout(() => send.call(this, data), 1500);
    else send.call(this, data);
  };
})();"""


def test_an_action_on_a_slow_network_is_seen_on_its_way(
    server: str, browser: Any, tmp_path: Path
) -> None:
    """A click whose answer takes long says "Sending…" over the board (the arrows go dark and
    nothing else moves until the state comes); a quick answer never shows it. A spectator
    is not told which keys turn a spare tile that is not theirs."""
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    url = server + room["url"]
    ctx_a = browser.new_context(**DESKTOP)
    ctx_a.add_init_script(SLOW_ACTIONS)
    ctx_b = browser.new_context(**DESKTOP)
    ctx_a.set_default_timeout(15000)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    join_room(a, url, "Alice", 0)
    join_room(b, url, "Bob", 1)
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    sending = a.locator("[data-testid=sending]")
    assert sending.is_hidden()
    assert a.locator("[data-testid=keys-help]").is_visible()

    a.evaluate("() => { window.__slow = true; }")
    a.locator("[data-testid^=arrow-][data-active=true]").first.click()
    sending.wait_for(state="visible", timeout=1400)
    assert sending.text_content().strip() == "Sending…"
    a.screenshot(path=str(tmp_path / "sending.png"))
    a.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    sending.wait_for(state="hidden")

    # a watcher sees the spare tile, not the keys that turn it
    ctx_c = browser.new_context(**DESKTOP)
    c = ctx_c.new_page()
    c.goto(url)
    c.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    assert c.locator("[data-testid=spare]").is_visible()
    assert c.locator("[data-testid=keys-help]").is_hidden()
    # nor the buttons that turn it (the players see theirs)
    assert c.locator("[data-testid=rotate-cw]").is_hidden()
    assert c.locator("[data-testid=rotate-ccw]").is_hidden()
    assert a.locator("[data-testid=rotate-cw]").is_visible()
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()


def test_team_spells_say_their_state(server: str, browser: Any, tmp_path: Path) -> None:
    # rules version 1: the turn starts with the spells (version 2 begins with Daedalus's
    # first card, an action of its own that the rules' UI offers)
    options = {"mode": "standard", "rules_version": 1}
    _url, a, b, errors = two_players(server, browser, "team", options)
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    b.wait_for_selector("[data-testid=spell-push]")
    # Alice's turn: her push is ready (and says so); Bob's spells wait for his turn,
    # neither crossed out nor looking usable
    push = a.locator("[data-testid=spell-push]")
    assert push.get_attribute("data-state") == "ready" and push.is_enabled()
    assert "ready" in push.text_content()
    push.click()
    assert "arrow" in a.text_content("[data-testid=spell-help]")
    for spell in b.locator("[data-testid^=spell-]").all():
        if spell.get_attribute("data-testid") == "spell-help":
            continue
        assert spell.get_attribute("data-state") == "wait"
        assert "on your turn" in spell.text_content()
        assert "line-through" not in spell.evaluate(
            "e => getComputedStyle(e.querySelector('.spell-name')).textDecorationLine"
        )
    # after her push, Alice's push reads as used, in words
    a.locator("[data-testid^=arrow-][data-active=true]").first.click()
    a.wait_for_selector("[data-testid=spell-push][data-state=used]")
    assert "used this turn" in a.text_content("[data-testid=spell-push]")
    # the status box keeps to the two rows the turn's line has (no squeezed board)
    box = a.locator("[data-testid=target]").bounding_box()
    turn = a.locator("[data-testid=turn-status]").bounding_box()
    assert box["height"] <= turn["height"] < 90, (box, turn)
    b.screenshot(path=str(tmp_path / "team-phone.png"))
    a.screenshot(path=str(tmp_path / "team-desktop.png"))
    assert errors == []


def test_one_bonus_line_and_no_stale_controls(server: str, browser: Any) -> None:
    """Classic: the Stay button only while one may stay; nothing to rotate once over."""
    _url, a, b, errors = two_players(server, browser, "classic")
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    assert not a.is_visible("[data-testid=stay-button]")  # push phase
    assert not b.is_visible("[data-testid=stay-button]")  # waiting
    a.locator("[data-testid^=arrow-][data-active=true]").first.click()
    a.wait_for_selector("[data-testid=turn-status][data-phase=move]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    assert a.is_visible("[data-testid=stay-button]")
    assert not b.is_visible("[data-testid=stay-button]")
    assert errors == []


def test_lobby_lists_read_cleanly(fresh_server: str, browser: Any, tmp_path: Path) -> None:
    server = fresh_server  # this test reads the lobby's lists
    long = "Maximilian-Alexander von Hohenzollern"[:32]
    record = greedy_record(players=2, seed="e2e-lobby")
    record["players"] = [long, "Bo"]
    http_json("POST", server + "/api/games/import", record)
    page = browser.new_page(**PHONE)
    page.goto(server + "/")
    game = page.locator("[data-testid=finished-game]").first
    game.wait_for()
    names = game.locator(".game-players")
    line = names.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
    # whole on a phone (no tooltip opens there), on a second line if need be
    assert line < names.bounding_box()["height"] < 4 * line
    assert names.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert names.text_content().startswith(long)
    assert names.get_attribute("title").startswith(long)
    winner = game.locator(".game-winner")
    assert winner.evaluate("e => getComputedStyle(e).color") != "rgb(179, 38, 30)"
    # turns, not actions: a classic turn is a push and a move (item 11)
    turns = len(record["actions"]) // 2
    assert re.search(rf"\b{turns} turns\b", game.text_content())
    assert "actions" not in game.text_content() and "moves" not in game.text_content()
    # the four games, each with its pitch and rules link
    for variant in ("classic", "master", "team", "cards"):
        intro = page.locator(f"[data-testid=intro-{variant}]")
        assert intro.locator(".intro-pitch").text_content().strip()
        assert intro.locator("a").get_attribute("href") == f"/rules/{variant}"
    page.screenshot(path=str(tmp_path / "lobby-phone.png"), full_page=True)
    # each game's card starts that game: the form, four cards down on a phone, in sight
    page.evaluate("window.scrollTo(0, 0)")
    page.click("[data-testid=intro-play-master]")
    assert page.input_value("[data-testid=variant-select]") == "master"
    page.wait_for_function(
        """() => {
          const box = document.getElementById('create-title').getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }"""
    )

    # a room's name field says where names stop
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    page.goto(server + room["url"])
    page.fill("[data-testid=join-name]", "x" * 40)
    assert page.input_value("[data-testid=join-name]") == "x" * 32
    help_text = page.text_content("[data-testid=join-name-help]")
    assert "32" in help_text and "32/32" in help_text
    # counted in characters, as the server counts them: an emoji is one (it was two
    # UTF-16 units to the field's maxlength, which stopped a name of emoji at 16)
    page.fill("[data-testid=join-name]", "😀" * 20)
    assert page.input_value("[data-testid=join-name]") == "😀" * 20
    assert "20/32" in page.text_content("[data-testid=join-name-help]")
    page.fill("[data-testid=join-name]", "😀" * 40)
    assert page.input_value("[data-testid=join-name]") == "😀" * 32


def test_replay_layout_holds(server: str, browser: Any) -> None:
    record = greedy_record(players=3, seed="e2e-layout", events=True)
    game_id = http_json("POST", server + "/api/games/import", record)["id"]
    page = browser.new_page(**DESKTOP)
    page.goto(f"{server}/replay/{game_id}?at=10")
    page.wait_for_selector('#replay-page[data-state="ready"]')
    before = page.locator("[data-testid=board]").bounding_box()
    page.click('[data-testid="replay-verify"]')
    page.wait_for_selector('[data-testid="replay-verdict"][data-ok="true"]')
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator("[data-testid=board]").bounding_box()["y"] == before["y"]
    # the Revealed heading keeps its distance from the player cards above it
    gap = page.evaluate(
        """() => {
      const heading = document.querySelector(".replay-players-card h3");
      const list = document.getElementById("replay-player-list");
      return heading.getBoundingClientRect().top - list.getBoundingClientRect().bottom;
    }"""
    )
    assert gap >= 12
    # the file picker shows its whole label, in the page's words (not the browser's)
    pick = page.locator("[data-testid=import-pick]")
    assert pick.text_content().strip() == "Choose a file"
    assert page.text_content("[data-testid=import-file-name]") == "No file chosen"
    whole = "(el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 0"
    assert pick.evaluate(whole)


@pytest.mark.slow  # waits for the lobby's refresh
def test_live_games_show_a_live_board(fresh_server: str, browser: Any, tmp_path: Path) -> None:
    server = fresh_server  # this test reads the lobby's lists
    url, a, _b, errors = two_players(server, browser, "classic")
    a.click("[data-testid=start-button]")
    lobby = browser.new_page(**DESKTOP)
    lobby.goto(server + "/")
    thumb = lobby.locator("[data-testid=live-thumb]").first
    thumb.locator("svg .tile").first.wait_for()
    assert thumb.locator("svg .tile").count() == 49
    assert thumb.get_attribute("href") == url.removeprefix(server)
    seq = thumb.get_attribute("data-seq")
    push_and_move(a)
    wait_for_js(
        lobby,
        "(seq) => document.querySelector('[data-testid=live-thumb]').dataset.seq !== seq",
        arg=seq,
        timeout=15000,
    )
    lobby.screenshot(path=str(tmp_path / "lobby-live.png"))
    # the live list counts that push and move as one turn (item 11), in each language
    a.wait_for_selector("[data-testid=move-log][data-count='2']")
    lobby.reload()
    for lang, words in (("en", "1 turn"), ("fr", "1 tour"), ("de", "1 Zug")):
        lobby.select_option("[data-testid=lang-select]", lang)
        meta = lobby.locator("[data-testid=live-game] .game-meta").first
        meta.wait_for()
        assert re.search(rf"(^|· ){words}( ·|$)", meta.text_content()), meta.text_content()
    # while they are at the table nothing is said of them; once both went, the list says
    # so (the game stays listed until it is adjourned, and "Watch" opens a frozen table)
    away = lobby.locator("[data-testid=live-game] [data-testid=players-away]")
    assert away.count() == 0
    assert errors == []
    a.context.close()
    _b.context.close()
    lobby.select_option("[data-testid=lang-select]", "en")
    # the server has seen both sockets close (the lobby's list is drawn from this answer)
    wait_for_js(
        lobby,
        """async () => { const { games } = await (await fetch("/api/games?status=playing")).json();
          return games.length > 0 && games.every((g) => g.at_table === 0); }""",
        timeout=15000,
    )
    lobby.reload()
    lobby.locator("[data-testid=live-game] .game-meta").first.wait_for()
    assert away.first.text_content() == " · the players are away"
    lobby.screenshot(path=str(tmp_path / "lobby-away.png"))
    # on a French phone its words wrap in the card (kept on one line, the page scrolled
    # sideways)
    phone = browser.new_page(**PHONE, locale="fr-FR")
    phone.goto(server + "/")
    phone.locator("[data-testid=live-game] [data-testid=players-away]").first.wait_for()
    # (a phone widens its layout to what overflows it: the page's width is compared to
    # the screen's 390 px, not to innerWidth)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["viewport"]["width"], width
    # its "Watch" goes under the words, which keep the row beside the thumbnail (beside
    # the button too, they had a third of it and took ten lines)
    boxes = phone.locator("[data-testid=live-game]").first.evaluate(
        """(item) => Object.fromEntries(["", ".game-main", ".button"].map((sel) => {
          const box = (sel ? item.querySelector(":scope > " + sel) : item).getBoundingClientRect();
          return [sel || "item", { top: box.top, bottom: box.bottom, width: box.width }];
        }))"""
    )
    assert boxes[".button"]["top"] >= boxes[".game-main"]["bottom"], boxes
    assert boxes[".game-main"]["width"] >= 0.6 * boxes["item"]["width"], boxes
    phone.screenshot(path=str(tmp_path / "lobby-phone.png"), full_page=True)
    phone.close()


def test_a_decision_with_one_answer_is_not_asked(server: str, browser: Any) -> None:
    """Master: a failed duel roll with no 1-6 card to play it again (a public fact: how
    many cards of each half a hand holds is known) is accepted at once (the log keeps it as
    an action) instead of asked. Not the coin question, even with "keep my cards" its one
    answer: asked of anyone holding a card of the token's half, it must not tell the others
    which values they hold by an answer sent before anyone could think."""
    page = browser.new_page(**DESKTOP)
    page.goto(server + "/")
    sent = page.evaluate(
        """async () => {
      const { MasterUI } = await import("/static/js/master.js");
      const el = (tag) => document.body.appendChild(document.createElement(tag));
      const NS = "http://www.w3.org/2000/svg";
      const svgEl = () => document.body.appendChild(document.createElementNS(NS, "svg"));
      const els = { board: svgEl(), spare: svgEl(), rotateCw: el("button"),
        rotateCcw: el("button"), stay: el("button"), controls: el("section"),
        turn: el("div"), seq: el("span"), target: el("div"), event: el("section"),
        players: el("ul"), result: el("div"), hand: el("section") };
      const sent = [];
      const ctx = { sendAction: (a) => { sent.push(a); return true; }, requestLegal() {},
        showError() {}, showNews() {}, isConnected: () => null };
      const ui = new MasterUI(els, ctx);
      ui.render = () => {};
      const reroll = { seat: 0, actor: 0, phase: "reroll", roll: 2 };
      ui.view = { seq: 9, status: "playing", you: 0, turn: reroll };
      ui.setLegal({ seq: 9, actions: [{ type: "accept" }] });
      ui.clearPending();
      const coin = { seat: 0, actor: 0, phase: "coin", taken: 3 };
      ui.view = { seq: 10, status: "playing", you: 0, turn: coin };
      ui.setLegal({ seq: 10, actions: [{ type: "no_coin" }] });
      ui.view = { seq: 11, status: "playing", you: 0, turn: coin };
      ui.setLegal({ seq: 11, actions: [{ type: "coin" }, { type: "no_coin" }] });
      return sent;
    }"""
    )
    # the lone accept is sent; the coin question, with one answer or two, is asked
    assert sent == [{"type": "accept"}]


def test_a_long_name_keeps_its_words_beside_a_lost_connection(server: str, browser: Any) -> None:
    """'Günther-Maximilian' with 'reconnecting…' beside it in the 270 px players' column:
    the word goes to the next line, not the name cut into 'Maximili / an'."""
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})
    long_name = "Günther-Maximilian"
    http_json("POST", f"{server}/api/rooms/{room['code']}/join", {"name": long_name})
    seat = http_json("POST", f"{server}/api/rooms/{room['code']}/join", {"name": "Amélie"})
    http_json("POST", f"{server}/api/rooms/{room['code']}/start", {}, room["host_token"])
    page = browser.new_page(**DESKTOP)
    page.goto(server + "/")
    remember = "([code, token]) => localStorage.setItem('labyrinth:token:' + code, token)"
    page.evaluate(remember, [room["code"], seat["token"]])
    page.goto(server + room["url"])
    page.wait_for_selector("[data-testid=player-0] [data-testid=conn-mark][data-connected=false]")
    lines = page.evaluate(
        """() => {
          const name = document.querySelector("[data-testid=player-0] .player-name");
          const range = document.createRange();
          range.selectNodeContents(name);
          return [name.textContent, range.getClientRects().length];
        }"""
    )
    assert lines == [long_name, 1], lines
    page.close()


def test_a_tap_on_the_board_never_spends_a_spell_unasked(server: str, browser: Any) -> None:
    """Team Edition: the squares only Teleport reaches are lit (and taken) only while
    Teleport is aimed; before, the board lights the plain moves alone."""
    errors: list[str] = []
    for _ in range(6):  # a deal where the spell has somewhere to go after the first push
        _url, a, _b, errors = two_players(
            server, browser, "team", {"mode": "standard", "spell_red": "teleport"}
        )
        a.click("[data-testid=start-button]")
        a.wait_for_selector("[data-testid=turn-first-card]:not([disabled])")
        a.click("[data-testid=turn-first-card]")
        a.wait_for_selector("[data-testid=spell-push][data-state=ready]")
        a.click("[data-testid=spell-push]")
        # a column away from Ann's corner (a1): her pawn stays home, where Teleport starts
        column = a.locator("[data-testid=arrow-N-3][data-active=true]")
        arrows = column if column.count() else a.locator("[data-testid^=arrow-][data-active=true]")
        arrows.first.click()
        a.wait_for_selector("[data-testid=spell-push][data-state=used]")
        a.wait_for_selector("[data-testid=board][data-legal=ready]")
        if a.get_attribute("[data-testid=spell-teleport]", "data-state") == "ready":
            break
        a.context.close()
        _b.context.close()
    else:
        raise AssertionError("Teleport never had a square to go to after the first push")
    lit = "[data-testid=board] [data-testid^=cell-]"
    plain = set(a.locator(lit).evaluate_all("cells => cells.map(c => c.dataset.testid)"))
    a.click("[data-testid=spell-teleport]")
    a.wait_for_selector("[data-testid=spell-teleport].aiming")
    aimed = set(a.locator(lit).evaluate_all("cells => cells.map(c => c.dataset.testid)"))
    assert aimed and plain and not aimed & plain, (plain, aimed)
    assert "choose a lit square" in (a.text_content("[data-testid=spell-help]") or "")
    # a square lit while Teleport is aimed is Teleport's move, asked for: the log says so
    a.locator(lit).first.click()
    a.wait_for_selector("[data-testid=move-log][data-count='3']")
    words = a.locator("[data-testid=log-words]").last.text_content() or ""
    assert "with a spell" in words, words
    assert errors == []


def test_a_game_begins_at_the_top_of_the_page(server: str, browser: Any) -> None:
    """The Team Edition's waiting room is long (each seat's spell): scrolled down to
    Start, the page showed the board half out of sight when the game began."""
    _url, a, b, errors = two_players(server, browser, "team", {"mode": "standard"})
    b.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # Bob's phone
    assert b.evaluate("() => scrollY") > 0
    a.click("[data-testid=start-button]")
    b.wait_for_selector("[data-testid=turn-status][data-seat]")
    wait_for_js(b, "() => scrollY === 0")
    assert errors == []
    a.context.close()
    b.context.close()


def test_a_laptop_screen_holds_the_whole_board(server: str, browser: Any) -> None:
    """At 1366x900 the board's bottom arrows and letters fell below the screen."""
    _url, a, b, errors = two_players(server, browser, "classic", {"events": True})
    a.click("[data-testid=start-button]")
    a.wait_for_selector("[data-testid=board][data-legal=ready]")
    bottom = a.evaluate("() => document.querySelector('#board').getBoundingClientRect().bottom")
    assert bottom <= DESKTOP["viewport"]["height"], bottom
    assert errors == []
    a.context.close()
    b.context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_masters_next_treasure_is_a_round_chip(server: str, browser: Any, size: dict) -> None:
    """Master's "Next treasure" shows the token's value in a round chip, as the board and
    the players' rows do: the target box's rule for a long treasure name (`min-width: 0`
    on its `strong`) had squeezed the chip into a tall, narrow oval."""
    from tests.e2e.conftest import seated_page, vs_computer

    page = seated_page(browser, server, vs_computer(server, "master"), **size)
    page.wait_for_selector(".target-box .token-chip")
    box = page.locator(".target-box .token-chip").bounding_box()
    assert box and box["width"] >= box["height"] - 0.5, box
    assert page.errors == []
    page.context.close()
