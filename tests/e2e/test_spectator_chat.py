"""Spectators chat under the names they give: a crowd's lines were all "spectator"."""

from __future__ import annotations

from typing import Any

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
