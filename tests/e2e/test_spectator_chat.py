"""Spectators chat under the names they give: a crowd's lines were all "spectator"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import http_json, wait_for_js
from tests.e2e.test_phone_a11y import DESKTOP, PHONE, started


def test_spectators_chat_under_their_names(server: str, browser: Any, tmp_path: Any) -> None:
    (ann, bob), errors = started(server, browser, "classic", {}, DESKTOP)
    watchers = []
    for ctx_args, stored in [(DESKTOP, "Zoé"), (PHONE, None), (DESKTOP, "BOB")]:
        ctx = browser.new_context(**ctx_args)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        if stored:  # the name this browser last joined a table with
            page.add_init_script(f"localStorage.setItem('labyrinth:name', {stored!r})")
        page.goto(ann.url)
        page.wait_for_selector("[data-testid=you-watch]")
        watchers.append(page)
    zoe, other, bob_again = watchers
    # each watcher is offered a name for the chat, the stored one first; players are not
    assert zoe.input_value("[data-testid=chat-name]") == "Zoé"
    assert other.input_value("[data-testid=chat-name]") == ""
    # ...but not a player's own name (an old tab of a seat moved to another device), which
    # the server would refuse as taken
    assert bob_again.input_value("[data-testid=chat-name]") == ""
    bob_again.context.close()
    watchers = [zoe, other]
    assert other.is_visible("[data-testid=chat-name]")
    assert ann.is_hidden("[data-testid=chat-note]")
    zoe.fill("[data-testid=chat-input]", "nice push")
    zoe.click("[data-testid=chat-send]")
    other.fill("[data-testid=chat-input]", "indeed")
    other.click("[data-testid=chat-send]")
    for page in watchers:
        page.wait_for_selector("[data-testid=chat-line] >> nth=1")
        names = page.locator("[data-testid=chat-line] .chat-name").all_text_contents()
        assert names == ["Zoé", "Spectator"], names
    other.screenshot(path=str(tmp_path / "spectator-chat-phone.png"), full_page=True)
    # the room's code, what one reads out to a friend, is whole beside "You are watching"
    code = ann.url.rsplit("/", 1)[1]
    title = other.locator(".room-head h1")
    assert code in (title.text_content() or "")
    assert title.evaluate("(e) => e.scrollWidth <= e.clientWidth")
    # a watcher may not chat under a player's name: refused, and told why
    other.fill("[data-testid=chat-name]", "ann")
    other.fill("[data-testid=chat-input]", "I am Ann")
    other.click("[data-testid=chat-send]")
    other.wait_for_selector("[data-testid=error-toast]:not([hidden])")
    assert "already has this name" in (other.text_content("[data-testid=error-toast]") or "")
    # a player's line is tagged with its channel for the watchers, who read both, not for
    # the players, who read only that one
    ann.fill("[data-testid=chat-input]", "thanks")
    ann.click("[data-testid=chat-send]")
    for page in (ann, bob, zoe):
        page.wait_for_selector("[data-testid=chat-line] .chat-text >> text=thanks")
    # the players read none of the watchers' lines: those were sent before this one, on the
    # same socket, and would have come first
    for page in (ann, bob):
        lines = page.locator("[data-testid=chat-line] .chat-text").all_text_contents()
        assert lines == ["thanks"], lines
    assert ann.locator("[data-testid=chat-channel]").count() == 0
    assert bob.locator("[data-testid=chat-channel]").count() == 0
    tags = zoe.locator("[data-testid=chat-channel]").all_text_contents()
    assert tags == ["spectators only", "spectators only", "to everyone"], tags
    assert errors == []
    for page in [ann, bob, *watchers]:
        page.context.close()


def test_a_refused_line_says_why_and_comes_back_to_the_box(server: str, browser: Any) -> None:
    """The heart a phone keyboard inserts ("gg ❤️") was refused as invisible characters, in
    half English, and the typed line was gone; a name was told "Names are 1 to 32
    characters" whatever rule it broke."""
    (ann, bob), errors = started(server, browser, "classic", {}, DESKTOP)
    heart = "gg \u2764\ufe0f"
    ann.fill("[data-testid=chat-input]", heart)
    ann.click("[data-testid=chat-send]")
    bob.wait_for_selector("[data-testid=chat-line]")
    assert bob.text_content("[data-testid=chat-line] .chat-text") == heart
    hidden = "psst\u200bhidden"
    ann.fill("[data-testid=chat-input]", hidden)
    ann.click("[data-testid=chat-send]")
    ann.wait_for_selector("[data-testid=error-toast]:not([hidden])")
    said = ann.text_content("[data-testid=error-toast]") or ""
    assert said == "A chat line may not hold control or invisible characters.", said
    assert ann.input_value("[data-testid=chat-input]") == hidden
    # a French visitor's join with such a name is told that rule, in French
    waiting = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": "Ann"})
    ctx = browser.new_context(**DESKTOP, locale="fr-FR")
    visitor = ctx.new_page()
    visitor.on("pageerror", lambda e: errors.append(str(e)))
    visitor.goto(server + waiting["url"])
    visitor.fill("[data-testid=join-name]", "Zo\u200bé")
    visitor.click("[data-testid=join-button]")
    wait_for_js(visitor, "!!document.getElementById('lobby-error').textContent")
    said = visitor.text_content("#lobby-error")
    assert said == "Un nom ne peut pas contenir de caractères de contrôle ou invisibles.", said
    # and so the lobby's form, where the audit typed it
    visitor.goto(server + "/")
    visitor.fill("[data-testid=create-name]", "Zo\u200bé")
    visitor.click("[data-testid=create-button]")
    wait_for_js(visitor, "!!document.getElementById('create-error').textContent")
    said = visitor.text_content("#create-error")
    assert said == "Un nom ne peut pas contenir de caractères de contrôle ou invisibles.", said
    ctx.close()
    assert errors == []


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-US", "A name cannot be only spaces: it needs a letter, a number or a symbol."),
        (
            "fr-FR",
            "Un nom ne peut pas être fait que d’espaces\u00a0: il lui faut une lettre,"
            " un chiffre ou un symbole.",
        ),
        (
            "de-DE",
            "Ein Name kann nicht nur aus Leerzeichen bestehen: Er braucht einen Buchstaben,"
            " eine Ziffer oder ein Symbol.",
        ),
    ],
)
def test_a_name_of_spaces_only_is_told_so(
    server: str, browser: Any, locale: str, words: str
) -> None:
    """Three spaces typed as a name were told "Names are 1 to 32 characters" beside the
    form's own count, "3/32" (the lobby's forms: "Type your name first"); the room's join
    form and the lobby's two say what is wrong, in the page's language."""
    waiting = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": "Ann"})
    ctx = browser.new_context(**DESKTOP, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + waiting["url"])
    page.fill("[data-testid=join-name]", "   ")
    page.click("[data-testid=join-button]")
    wait_for_js(page, "!!document.getElementById('lobby-error').textContent")
    assert page.text_content("#lobby-error") == words
    page.goto(server + "/")
    for button, said in (("create-button", "create-error"), ("vs-button", "vs-error")):
        page.fill("[data-testid=create-name]", "   ")
        page.click(f"[data-testid={button}]")
        wait_for_js(page, f"!!document.getElementById('{said}').textContent")
        assert page.text_content(f"#{said}") == words, button
    assert "/r/" not in page.url  # nothing was created
    ctx.close()
    assert errors == []
