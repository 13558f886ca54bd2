"""Each game in its own rulebook's words: the Team Edition's German tiles are "Plättchen",
the other games' "Karten" (a Team page said "Extrakarte" of its spare tile)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_phone_a11y import DESKTOP, started

GERMAN = {**DESKTOP, "locale": "de-DE"}


@pytest.mark.parametrize(
    ("variant", "options", "spare"),
    [("team", {"mode": "introductory"}, "Freies Plättchen"), ("classic", {}, "Extrakarte")],
)
def test_the_spare_tile_is_called_as_its_rulebook_calls_it(
    server: str, browser: Any, variant: str, options: dict, spare: str
) -> None:
    (page, other), errors = started(server, browser, variant, options, GERMAN)
    page.wait_for_selector("[data-testid^=arrow-]")
    words = " ".join(
        [
            page.text_content("#controls") or "",
            *page.locator("[data-testid^=arrow-]").evaluate_all(
                "(es) => es.map((e) => e.getAttribute('aria-label'))"
            ),
            page.get_attribute("[data-testid=spare]", "aria-label") or "",
        ]
    )
    assert spare in words, words
    if variant == "team":
        assert "Extrakarte" not in words, words
        assert "Das freie Plättchen in" in words, words
    assert errors == []
    other.context.close()
    page.context.close()


# (variant, an event that names its seat, the words on that seat's own page, on the other's)
OWN_NEWS = [
    ("classic", "found", "You found the ", "Bob found the "),
    ("cards", "took", "You took ", "Bob took "),
]


@pytest.mark.parametrize(("variant", "kind", "own", "other"), OWN_NEWS)
def test_a_players_own_find_is_told_to_them_as_theirs(
    server: str, browser: Any, variant: str, kind: str, own: str, other: str
) -> None:
    """On Ann's own page, "Ann found the helmet!" read as news of someone else: her page
    says "You found...", as the end says "You won!"; the others' pages still name her."""
    import json
    import random

    from app.bots import choose
    from app.rules import Game
    from tests.e2e.test_rules_v2_browser import FEED, bench

    game = Game.new(variant, ["Ann", "Bob"], f"own-news-{variant}")
    rng = random.Random(2)
    steps: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    while game.result is None and len(steps) < 2:
        seat = game.to_move
        assert seat is not None
        action = choose(variant, "hard", game.view(seat), game.legal_actions(seat), rng)
        events = game.apply(seat, action)
        if seat not in steps and any(e.get("type") == kind for e in events):
            last = {"seq": game.seq, "seat": seat, "action": action, "events": events}
            steps[seat] = (json.loads(json.dumps(game.view(0))), last)
    assert set(steps) == {0, 1}, "a game in which both seats did it: pick another seed"
    page = bench(browser, server, variant, "desktop")
    for seat, expected in ((0, own), (1, other)):
        view, last = steps[seat]
        page.evaluate("() => { window.__news = []; }")
        page.evaluate(FEED, [{"type": "state", "seq": view["seq"], "view": view, "last": last}, []])
        told = [line for line in page.evaluate("() => window.__news") if expected in line]
        assert told, (seat, page.evaluate("() => window.__news"))
    page.select_option("[data-testid=lang-select]", "fr")
    view, last = steps[0]
    page.evaluate("() => { window.__news = []; }")
    page.evaluate(FEED, [{"type": "state", "seq": view["seq"], "view": view, "last": last}, []])
    assert any(line.startswith("Vous ") for line in page.evaluate("() => window.__news"))
    # a shared device names the mover even when the view is still the mover's (a game's
    # end: "Vous vainquez le dragon" under "Léa a gagné")
    page.evaluate("() => { window.__ui.ctx.sharedDevice = true; window.__news = []; }")
    page.evaluate(FEED, [{"type": "state", "seq": view["seq"], "view": view, "last": last}, []])
    told = page.evaluate("() => window.__news")
    assert told and not any(line.startswith("Vous ") for line in told), told
    assert any(line.startswith("Ann ") for line in told), told
    assert page.errors == []
    page.context.close()


def test_a_computer_pawn_is_named_in_the_page_language(server: str, browser: Any) -> None:
    """The pawns' titles said "Figur von Computer (easy)" on a German page where every other
    place says "Computer (leicht)"."""
    from tests.e2e.conftest import http_json, seated_page

    made = http_json(
        "POST",
        server + "/api/rooms",
        {"variant": "classic", "name": "Ann", "computers": ["easy"], "start": True},
    )
    page = seated_page(browser, server, made, **GERMAN)
    context = page.context
    page.wait_for_selector("[data-testid=board] [data-key^=pawn-] title", state="attached")
    titles = page.locator("[data-testid=board] [data-key^=pawn-] title").all_text_contents()
    assert any("Computer (leicht)" in title for title in titles), titles
    assert not any("(easy)" in title for title in titles), titles
    assert page.errors == []
    context.close()


def test_a_french_card_game_turns_cards_not_tiles(server: str, browser: Any) -> None:
    """The French move list said "plaque tournée une fois" of a card: the card game has no
    tiles."""
    import json
    from pathlib import Path

    from tests.e2e.conftest import http_json

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "records_v1" / "cards-2p.json"
    game_id = http_json("POST", server + "/api/games/import", json.loads(fixture.read_text()))["id"]
    context = browser.new_context(**DESKTOP, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('#replay-page[data-state="ready"]')
    titles = page.locator("[data-testid=replay-move] .log-text").evaluate_all(
        "(es) => es.map((e) => e.title)"
    )
    assert any("carte tournée" in title for title in titles), titles[:10]
    assert not any("plaque" in title for title in titles), [t for t in titles if "plaque" in t]
    context.close()


def test_daedalus_push_card_says_in_german_what_became_of_the_tile(
    server: str, browser: Any
) -> None:
    """The Book of Daedalus panel, after Daedalus pushes a tile in: the German line read
    "ist nun offen das freie Plättchen" (no verb for "offen das"), not a sentence."""
    page = browser.new_page(**GERMAN)
    page.goto(server + "/")
    said = page.evaluate(
        """async () => {
          const { setLanguage, t } = await import("/static/js/i18n.js");
          setLanguage("de");
          return t("team.effect.push");
        }"""
    )
    assert said == "Das herausgeschobene Plättchen wird offen zum neuen freien Plättchen.", said
    page.close()
