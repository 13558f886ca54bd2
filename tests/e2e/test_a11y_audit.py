"""The accessibility audit's defects, fixed (keyboard and screen-reader play, EN/FR/DE):
the board said in words, a replay step's move said, the turn timer's warning, the card
game's turned card, the result said once, Team on a phone with larger text, forced
colours, Master's cards named."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.conftest import (
    http_json,
    play_out,
    seated_page,
    vs_computer,
    wait_for_js,
    wait_for_layout,
)
from tests.server.helpers import greedy_record

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

SUMMARY = """() => {
  const s = document.querySelector('[data-testid=board-summary]');
  return s ? s.textContent : '';
}"""
ANNOUNCED = """() => { window.__said = []; const region = document.getElementById("announce");
  new MutationObserver(() => window.__said.push(region.textContent))
    .observe(region, { childList: true, characterData: true, subtree: true }); }"""


def in_words(
    server: str, browser: Any, variant: str, locale: str, options: dict[str, Any] | None = None
) -> tuple[Any, str]:
    """A game against the computer on a desktop in `locale`, its controls ready: the page,
    and the board in words as a screen reader gets it."""
    made = vs_computer(server, variant, options)
    page = seated_page(browser, server, made, locale=locale, **DESKTOP)
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    wait_for_js(page, SUMMARY)
    return page, page.evaluate(SUMMARY)


def cell_of(key: str) -> str:
    r, c = (int(x) for x in key.split(","))
    return "abcdefg"[c] + str(r + 1)


def test_the_classic_board_is_said_in_words_in_french(server: str, browser: Any) -> None:
    page, said = in_words(server, browser, "classic", "fr-FR")
    # the viewer's pawn and the other's, by the board's own coordinates
    assert re.search(r"Votre pion est en [a-g][1-7]\.", said), said
    assert re.search(r"Le pion de .+ est en [a-g][1-7]\.", said), said
    # the own target, where the board shows it (its mark), or on the spare tile
    mark = page.locator("[data-testid=target-mark]")
    if mark.count():
        where = "en " + cell_of(mark.first.get_attribute("data-cell"))
    else:
        where = "sur la plaque supplémentaire"
    assert "Votre objectif (" in said and f") est {where}." in said, said
    assert where in page.text_content("[data-testid=target-where]")
    # the spare tile's paths
    assert "chemins vers" in said
    # each player's entry says where the pawn is
    for seat in (0, 1):
        assert re.search(r"pion en [a-g][1-7]", page.text_content(f"[data-testid=player-{seat}]"))
    assert page.errors == []
    page.context.close()


def test_master_pieces_and_cards_are_said_in_words_in_german(server: str, browser: Any) -> None:
    page, said = in_words(server, browser, "master", "de-DE")
    assert re.search(r"Der Drache liegt in seiner Höhle auf d4 und blickt nach \w+\.", said), said
    assert re.search(r"Der weiße Wächter steht auf [a-g][1-7]\.", said), said
    assert re.search(r"Der schwarze Wächter steht auf [a-g][1-7]\.", said), said
    assert re.search(r"Nächster Schatz: 1, auf [a-g][1-7]\.", said), said
    # the hand: a list of cards named in words, not "2 ⟳ 7 ×2"
    hand = page.locator("[data-testid=master-hand] [role=list]")
    assert hand.count() == 1
    items = hand.locator("[role=listitem]")
    assert items.count() >= 1
    for i in range(items.count()):
        words = items.nth(i).locator(".visually-hidden").text_content()
        assert re.fullmatch(r"\d+: Münze oder (neu würfeln|Doppelzug)", words), words
        assert items.nth(i).get_attribute("title") is None
    snapshot = page.locator("[data-testid=master-hand]").aria_snapshot()
    assert "⟳" not in snapshot and "×2" not in snapshot
    assert page.errors == []
    page.context.close()


def test_team_treasures_to_take_are_said_where_they_lie(server: str, browser: Any) -> None:
    page, said = in_words(server, browser, "team", "en-GB", {"mode": "standard"})
    assert "Your pawn is on a1." in said, said
    assert re.search(r"Treasures you may take now: .*(on [a-g][1-7]|not in sight)", said), said
    assert "Treasures you may take now" in page.text_content("[data-testid=target-where]")
    page.context.close()


def test_team_on_a_phone_with_larger_text_does_not_scroll_sideways(
    server: str, browser: Any
) -> None:
    made = vs_computer(server, "team", {"mode": "standard"})
    page = seated_page(browser, server, made, locale="de-DE", **PHONE)
    page.add_style_tag(content="html{font-size:150% !important}")
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    wait_for_layout(page, "[data-testid=team-portal]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("[data-testid=team-portal]").bounding_box()
    assert box["x"] + box["width"] <= 390
    page.context.close()


def test_a_replay_step_says_what_the_move_did(server: str, browser: Any) -> None:
    record = greedy_record(players=2, seed="e2e-a11y", events=True)
    game_id = http_json("POST", server + "/api/games/import", record)["id"]
    page = browser.new_context(locale="fr-FR", **DESKTOP).new_page()
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('#replay-page[data-state="ready"]')
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        wait_for_js(
            page, "(k) => document.getElementById('replay-page').dataset.at === String(k)", step
        )
        words = page.text_content(".replay-entry.current .log-text")
        said = page.text_content("[data-testid=replay-said]")
        assert said.startswith(f"Coup {step} sur "), said
        assert " ".join(words.split()) in " ".join(said.split()), (words, said)
        assert page.get_attribute("[data-testid=replay-said]", "aria-live") == "polite"
    # the position is said there, no longer by the heading's counter too
    assert page.get_attribute("#replay-position", "aria-live") is None
    page.context.close()


def test_the_turn_timer_warns_once_before_it_runs_out(server: str, browser: Any) -> None:
    made = vs_computer(server, "classic", clock={"kind": "turn", "seconds": 30})
    ctx = browser.new_context(locale="en-GB", **DESKTOP)
    ctx.add_init_script(
        f"localStorage.setItem('labyrinth:token:{made['code']}', '{made['token']}')"
    )
    page = ctx.new_page()
    page.clock.install()
    page.goto(server + made["url"])
    page.wait_for_selector("[data-testid=board][data-legal=ready][data-my-turn=true]")
    page.evaluate("""() => {
      window.__warned = [];
      const r = document.querySelector('[data-testid=clock-warning]');
      new MutationObserver(() => r.textContent && window.__warned.push(r.textContent))
        .observe(r, { childList: true, characterData: true, subtree: true }); }""")
    assert page.text_content("[data-testid=clock-warning]") == ""
    left = int(page.get_attribute("[data-testid=clock]", "data-left"))
    assert left > 13
    page.clock.run_for((left - 13) * 1000)
    assert page.evaluate("window.__warned") == []
    page.clock.run_for(4500)
    wait_for_js(page, "() => window.__warned.length > 0")
    page.clock.run_for(3000)
    warned = page.evaluate("window.__warned")
    assert len(warned) == 1 and re.fullmatch(r"(10|9) seconds left in your turn\.", warned[0]), (
        warned
    )
    assert page.get_attribute("[data-testid=clock-warning]", "aria-live") == "polite"
    ctx.close()


def place_any_card(page: Any) -> None:
    """Play the turn with whichever card goes somewhere as it is turned now, else discard.

    The card last looked at may be one that links nothing while the other links (it then
    lights no square and no discard is offered), so each card is chosen in turn.
    """
    for i in range(2):
        if not page.locator(f"[data-testid=hand-{i}]").count():
            continue
        page.click(f"[data-testid=hand-{i}]")
        for _r in range(4):
            if page.locator(".place-cell.legal").count():
                page.locator(".place-cell.legal").first.click()
                return
            page.click("[data-testid=rotate-cw-card]")
    page.locator("[data-testid^=discard-]").first.click()


CARDS_READY = "[data-testid=board][data-legal=ready][data-my-turn=true]"
SEQ = "[data-testid=turn-status]"


def acted(page: Any, seq: str | None) -> None:
    """Wait until the page has drawn a state after `seq` (the one its action was sent on):
    until then CARDS_READY still holds of the turn just played."""
    wait_for_js(
        page,
        "(seq) => document.querySelector('[data-testid=turn-status]').dataset.seq !== seq",
        seq,
    )


OVER = "[data-testid=result-banner]:not([hidden])"


def seek_card_fitting_nowhere(page: Any, choose: Any, turn: Any) -> int | None:
    """Play turns until a chosen card fits nowhere as it is turned (only dashed squares,
    no lit one): its index in the hand; None if the game ends first (about one game in
    four hundred, played as here against the easy computer, never shows such a card).
    `choose(i)` picks a card, `turn()` turns it."""
    while True:
        page.wait_for_selector(f"{CARDS_READY}, {OVER}", timeout=15000)
        if page.locator(OVER).count():
            return None
        if page.get_attribute("[data-testid=turn-status]", "data-phase") == "take":
            seq = page.get_attribute(SEQ, "data-seq")
            page.click("[data-testid=take-button]")
            acted(page, seq)
            continue
        for i in range(2):
            if not page.locator(f"[data-testid=hand-{i}]").count():
                continue
            choose(i)
            for _r in range(4):
                lit, dashed = page.evaluate(
                    "() => [document.querySelectorAll('.place-cell.legal').length,"
                    " document.querySelectorAll('.place-cell.other-rotation').length]"
                )
                if lit == 0 and dashed > 0:
                    return i
                turn()
        seq = page.get_attribute(SEQ, "data-seq")
        place_any_card(page)
        acted(page, seq)


def card_fitting_nowhere(
    browser: Any, server: str, controls: Any, games: int = 4, **context: Any
) -> tuple[Any, int]:
    """A page of Ann's game against the easy computer, at a turn where one of her cards
    fits nowhere as turned, and that card's index: a new game whenever one ends without
    (four games: a chance of about 1 in 10^10 that none shows one). `controls(page)` gives
    the `choose` and `turn` of `seek_card_fitting_nowhere`."""
    for _game in range(games):
        made = vs_computer(server, "cards")
        page = seated_page(browser, server, made, locale="en-GB", **context)
        page.wait_for_selector(CARDS_READY)
        found = seek_card_fitting_nowhere(page, *controls(page))
        if found is not None:
            return page, found
        page.context.close()
    raise AssertionError(f"no card that fits nowhere as turned came up in {games} games")


def test_a_turned_card_is_said_and_one_that_fits_nowhere_says_so(server: str, browser: Any) -> None:
    def controls(page: Any) -> tuple[Any, Any]:
        page.evaluate(ANNOUNCED)
        # the hand's cards are named with their paths
        label = page.get_attribute("[data-testid=hand-0]", "aria-label")
        assert re.fullmatch(r".+, paths to the .+", label), label

        def choose(i: int) -> None:
            page.focus(f"[data-testid=hand-{i}]")
            page.keyboard.press("Enter")

        def turn() -> None:
            page.evaluate("() => { window.__said = []; }")
            page.keyboard.press("r")
            # turning is said, with the card's new paths (as the hand's label has them)
            wait_for_js(page, "() => window.__said.some((s) => /paths to the/.test(s))")

        return choose, turn

    page, found = card_fitting_nowhere(browser, server, controls, **DESKTOP)
    message = "This card fits nowhere as turned: press R to turn it"
    assert message in page.text_content("[data-testid=fits-nowhere]")
    # Enter on the card says why nothing lit up
    page.evaluate("() => { window.__said = []; }")
    page.focus(f"[data-testid=hand-{found}]")
    page.keyboard.press("Enter")
    wait_for_js(page, "(m) => window.__said.some((s) => s.includes(m))", message)
    # and Tab reaches the table: a dashed square, whose name says a press turns the card
    assert page.locator(".place-cell.other-rotation[tabindex='0']").count() == 1
    # With single-key shortcuts off, R does nothing: the help names the buttons instead.
    page.click("[data-testid=letter-keys]")
    off = "This card fits nowhere as turned: turn it with the buttons under your hand"
    wait_for_js(
        page,
        "(m) => document.querySelector('[data-testid=fits-nowhere]').textContent.includes(m)",
        off,
    )
    page.click("[data-testid=letter-keys]")
    page.focus(f"[data-testid=hand-{found}]")
    for _ in range(20):  # the table comes before the hand
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.classList.contains('place-cell')"):
            break
    assert page.evaluate("() => document.activeElement.classList.contains('other-rotation')")
    page.keyboard.press("Enter")
    wait_for_js(page, "() => document.activeElement.classList.contains('legal')")
    assert page.errors == []
    page.context.close()


def test_on_a_phone_a_card_that_fits_nowhere_names_the_round_arrows(
    server: str, browser: Any
) -> None:
    """A phone has no R key: "press R to turn it" was its help too."""
    page, _found = card_fitting_nowhere(
        browser,
        server,
        lambda page: (
            lambda i: page.click(f"[data-testid=hand-{i}]"),
            lambda: page.click("[data-testid=rotate-cw-card]"),
        ),
        **PHONE,
    )
    text = page.text_content("[data-testid=fits-nowhere]")
    assert "This card fits nowhere as turned: turn it with the round arrows" in text, text
    assert "R" not in text.replace("This card", "")
    assert page.errors == []
    page.context.close()


def test_the_result_is_drawn_once(server: str, browser: Any) -> None:
    made = vs_computer(server, "classic")
    page = seated_page(browser, server, made, locale="en-GB", **DESKTOP)
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    page.evaluate("""() => { window.__drawn = 0; const r = document.getElementById('result-banner');
      new MutationObserver((records) => {
        for (const m of records) if (m.addedNodes.length) { window.__drawn++; break; }
      })
        .observe(r, { childList: true, subtree: true, characterData: true }); }""")
    play_out(server, made["code"], {0: made["token"]})
    page.wait_for_selector("[data-testid=result-banner]:not([hidden])")
    # the room's own news of the end (it shows the after-game panel) has been drawn too; then
    # a while more, for a late message (presence, a re-sync) that would draw the result again:
    # a check that something does not happen has no event to wait for
    page.wait_for_selector("[data-testid=after-game]:not([hidden])")
    page.wait_for_timeout(1500)
    assert page.evaluate("window.__drawn") == 1
    # a language change says it again, in the new words
    english = page.text_content("[data-testid=result-banner]")
    page.select_option("#lang-select", "de")
    wait_for_js(page, "(e) => document.getElementById('result-banner').textContent !== e", english)
    page.context.close()


def test_forced_colours_keep_the_chosen_card_and_the_player_colours(
    server: str, browser: Any
) -> None:
    made = vs_computer(server, "cards")
    page = seated_page(browser, server, made, forced_colors="active", **DESKTOP)
    page.wait_for_selector("[data-testid=board][data-legal=ready]")
    page.wait_for_selector("[data-testid=hand-1]")
    style = (
        "(sel) => { const s = getComputedStyle(document.querySelector(sel));"
        " return [s.outlineStyle, s.outlineWidth]; }"
    )
    chosen = page.evaluate(style, "[data-testid=hand-panel] .hand-card[aria-pressed=true]")
    other = page.evaluate(style, "[data-testid=hand-panel] .hand-card[aria-pressed=false]")
    assert chosen[0] != "none" and other[0] == "none", (chosen, other)
    dots = page.evaluate(
        "() => [...document.querySelectorAll('#player-list .dot')]"
        ".map((d) => getComputedStyle(d).backgroundColor)"
    )
    assert len(dots) == 2 and dots[0] != dots[1], dots
    page.context.close()
