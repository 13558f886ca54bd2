"""The Team Edition's spell choices in headless Chromium: each spell tile exists once, so
the lobby's form and the host's panel never offer a seat the spell another seat has (it
is disabled there, saying whose it is; "at random" stays everyone's), and a refusal of
the options anyway is said in the page's language, the controls showing again the
options in force. Screenshots go to the test's folder (tmp_path)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import http_json, wait_for_js

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}

# The page's words, by language: a spell another seat has, the refusal, two spells' names.
WORDS = {
    "fr": {
        "held_by_red": "Permutation (rouge)",
        "refused": "Chaque sort n’existe qu’une fois\u00a0: "
        "deux couleurs ne peuvent pas avoir le même sort.",
        "yellow_teleport": "Sort de jaune\u00a0: Téléportation",
        "held_by_yellow": "Téléportation (jaune)",
    },
    "de": {
        "held_by_red": "Tauschen (Rot)",
        "refused": "Jeden Zauber gibt es nur einmal: "
        "Zwei Farben können nicht denselben Zauber haben.",
        "yellow_teleport": "Zauber von Gelb: Teleportieren",
        "held_by_yellow": "Teleportieren (Gelb)",
    },
}

# An option of a list, enabled or not, and its words: {value: [disabled, text]}.
ENTRIES = """(sel) => Object.fromEntries([...document.querySelector(sel).options]
  .map((o) => [o.value, [o.disabled, o.textContent]]))"""
# A stale list (another tab, an older page): the option is offered again, as before the fix.
OFFER = """([sel, value]) => {
  document.querySelector(sel + " option[value=" + value + "]").disabled = false;
}"""


def _page(browser: Any, locale: str, device: dict[str, Any], script: str = "") -> Any:
    ctx = browser.new_context(**device, locale=locale)
    ctx.set_default_timeout(15000)
    if script:
        ctx.add_init_script(script)
    page = ctx.new_page()
    page.errors = errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


@pytest.mark.parametrize(("locale", "device"), [("fr", PHONE), ("de", DESKTOP)])
def test_the_lobby_form_gives_each_spell_to_one_seat(
    server: str, browser: Any, tmp_path: Path, locale: str, device: dict[str, Any]
) -> None:
    words = WORDS[locale]
    page = _page(browser, locale, device)
    page.goto(server + "/")
    page.select_option("[data-testid=variant-select]", "team")
    page.select_option("[data-testid=opt-mode]", "expert")
    page.select_option("[data-testid=opt-spell_red]", "switch")

    # Yellow's list: Switch is Red's, disabled and saying so; "at random" and the rest free.
    yellow = "[data-testid=opt-spell_yellow]"
    entries = page.evaluate(ENTRIES, yellow)
    assert entries["switch"] == [True, words["held_by_red"]], entries
    assert not entries["random"][0] and not entries["teleport"][0], entries
    page.select_option(yellow, "teleport")
    red = page.evaluate(ENTRIES, "[data-testid=opt-spell_red]")
    assert red["teleport"] == [True, words["held_by_yellow"]] and not red["random"][0], red
    # Red takes another spell: Switch is free again in the others' lists.
    page.select_option("[data-testid=opt-spell_red]", "rotate")
    assert page.evaluate(ENTRIES, yellow)["switch"][0] is False
    page.select_option("[data-testid=opt-spell_red]", "switch")
    # A list is as wide as its longest entry: the words of whose a spell is keep the form
    # within a phone's width.
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(tmp_path / f"lobby-{locale}.png"), full_page=True)

    # A list offering it anyway: the server's refusal is said in the page's language.
    page.evaluate(OFFER, [yellow, "switch"])
    page.select_option(yellow, "switch")
    page.fill("[data-testid=create-name]", "Zoé")
    page.click("[data-testid=create-button]")
    wait_for_js(page, "() => document.getElementById('create-error').textContent !== ''")
    assert page.text_content("#create-error") == words["refused"]
    assert "/r/" not in page.url
    assert page.errors == []


@pytest.mark.parametrize(("locale", "device"), [("de", DESKTOP), ("fr", DESKTOP)])
def test_the_host_panel_gives_each_spell_to_one_seat(
    server: str, browser: Any, tmp_path: Path, locale: str, device: dict[str, Any]
) -> None:
    words = WORDS[locale]
    made = http_json(
        "POST",
        server + "/api/rooms",
        {"variant": "team", "options": {"mode": "expert", "spell_red": "switch"}, "name": "Ann"},
    )
    code = made["code"]
    keys = (
        f"localStorage.setItem('labyrinth:token:{code}', '{made['token']}');"
        f"localStorage.setItem('labyrinth:host:{code}', '{made['host_token']}');"
    )
    page = _page(browser, locale, device, keys)
    page.goto(server + made["url"])
    yellow = "[data-testid=room-opt-spell_yellow]"
    page.wait_for_selector(f"[data-testid=host-panel]:not([hidden]) {yellow}")

    entries = page.evaluate(ENTRIES, yellow)
    assert entries["switch"] == [True, words["held_by_red"]], entries
    assert not entries["random"][0] and not entries["teleport"][0], entries

    # Yellow takes Teleport: the room says so, and Red's list has it as Yellow's.
    page.select_option(yellow, "teleport")
    chip = "[data-testid=room-options] li[data-option=spell_yellow]"
    wait_for_js(
        page,
        "([sel, text]) => document.querySelector(sel).textContent === text",
        [chip, words["yellow_teleport"]],
    )
    red = "[data-testid=room-opt-spell_red]"
    wait_for_js(
        page, "(sel) => document.querySelector(sel + ' option[value=teleport]').disabled", red
    )
    assert page.evaluate(ENTRIES, red)["teleport"] == [True, words["held_by_yellow"]]
    page.screenshot(path=str(tmp_path / f"host-{locale}.png"), full_page=True)

    # A list offering Red's spell anyway: refused, said in the page's words, and Yellow's
    # list shows again what the room has (Teleport), as its words do.
    page.evaluate(OFFER, [yellow, "switch"])
    page.select_option(yellow, "switch")
    wait_for_js(page, "() => document.getElementById('lobby-error').textContent !== ''")
    assert page.text_content("[data-testid=lobby-error]") == words["refused"]
    wait_for_js(page, "(sel) => document.querySelector(sel).value === 'teleport'", yellow)
    assert page.text_content(chip) == words["yellow_teleport"]
    room = http_json("GET", f"{server}/api/rooms/{code}")
    assert room["options"]["spell_yellow"] == "teleport", room
    assert page.errors == []
