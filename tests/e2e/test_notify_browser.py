"""Issue 12, "Your turn": when the turn passes to a player, the page says so in the tab's
title, plays a short sound unless muted (the choice kept across reloads), and, with the
permission granted and the tab hidden, shows a browser notification.

The page's `Notification` and WebAudio oscillators are watched through an init script
(they run before the page's modules); the permission is granted to the context as a
player's click on the browser's prompt would.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import http_json, join_room, push_and_move, wait_for_js

DESKTOP = {"viewport": {"width": 1366, "height": 900}}

# Notifications the page makes are recorded, not shown; every oscillator the chime starts
# is counted (two per chime: two notes).
SPY = """
window.__notes = [];
window.__tones = 0;
const RealNotification = window.Notification;
class SpyNotification {
  constructor(title, options) {
    window.__notes.push({ title, body: options && options.body, tag: options && options.tag });
  }
  static get permission() { return RealNotification.permission; }
  static requestPermission() { return RealNotification.requestPermission(); }
}
window.Notification = SpyNotification;
const realOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__tones += 1;
  return realOscillator.call(this);
};
"""

HIDE = """() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

MINE = "() => document.title.startsWith('\u25cf Your turn \u2014 ')"
NOT_MINE = "() => !document.title.startsWith('\u25cf')"


def alerts(page: Any) -> int:
    return int(page.evaluate("() => Number(document.documentElement.dataset.turnAlerts || 0)"))


def test_your_turn_title_sound_mute_and_notification(server: str, browser: Any) -> None:
    room = http_json("POST", server + "/api/rooms", {"variant": "classic", "options": {}})
    url = server + room["url"]
    ctx_a = browser.new_context(**DESKTOP)
    ctx_b = browser.new_context(**DESKTOP)
    ctx_b.grant_permissions(["notifications"], origin=server)
    ctx_b.add_init_script(SPY)
    errors: list[str] = []
    pages = []
    for ctx in (ctx_a, ctx_b):
        ctx.set_default_timeout(15000)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(page)
    a, b = pages
    join_room(a, url, "Ann", 0)
    join_room(b, url, "Bob", 1)
    a.click("[data-testid=start-button]")
    wait_for_js(a, MINE)
    wait_for_js(a, "() => document.documentElement.dataset.turnAlerts === '1'")  # the start
    b.wait_for_selector("[data-testid=board]")
    assert b.evaluate(NOT_MINE)
    assert alerts(b) == 0
    # permission granted: the page offers no "notify me" button (nothing to ask)
    assert b.locator("[data-testid=notify-toggle]").is_hidden()
    assert b.text_content("[data-testid=sound-toggle]") == "Sound on"

    # the turn passes to Bob, his tab visible: the title and a chime, no notification
    push_and_move(a)
    wait_for_js(b, MINE)
    assert "Your turn" not in a.title()
    assert alerts(b) == 1
    assert b.evaluate("() => window.__tones") == 2
    assert b.evaluate("() => window.__notes") == []
    push_and_move(b)
    wait_for_js(b, NOT_MINE)

    # his tab hidden: the next turn of his also brings a notification
    b.evaluate(HIDE)
    push_and_move(a)
    wait_for_js(b, "() => window.__notes.length === 1")
    note = b.evaluate("() => window.__notes[0]")
    assert note["title"] == "Your turn!"
    assert room["code"] in note["body"]
    assert alerts(b) == 2 and b.evaluate("() => window.__tones") == 4

    # muted, and still muted after a reload: the title changes, no sound
    b.click("[data-testid=sound-toggle]")
    assert b.text_content("[data-testid=sound-toggle]") == "Sound off"
    assert b.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "false"
    b.reload()
    b.wait_for_selector("[data-testid=seat-1].mine", state="attached")
    b.wait_for_selector("[data-testid=board][data-legal=ready]")
    assert b.text_content("[data-testid=sound-toggle]") == "Sound off"
    assert b.evaluate("() => localStorage.getItem('labyrinth:mute')") == "1"
    wait_for_js(b, MINE)
    assert alerts(b) == 0  # reloaded on his own turn: the turn did not just come
    push_and_move(b)
    wait_for_js(b, NOT_MINE)
    push_and_move(a)
    wait_for_js(b, MINE)
    assert alerts(b) == 1  # counted on the new page
    assert b.evaluate("() => window.__tones") == 0

    # sound back on, remembered too
    b.click("[data-testid=sound-toggle]")
    b.reload()
    b.wait_for_selector("[data-testid=seat-1].mine", state="attached")
    assert b.text_content("[data-testid=sound-toggle]") == "Sound on"
    assert b.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "true"
    assert errors == []


# The browser's prompt, answered by the test: `window.__answer` is what the person chose
# ("default": they closed it without choosing).
PROMPT = """
window.__answer = "default";
let permission = "default";
window.Notification = class {
  static get permission() { return permission; }
  static async requestPermission() { permission = window.__answer; return permission; }
};
"""


def test_asking_for_notifications_says_what_came_of_it(server: str, browser: Any) -> None:
    room = http_json(
        "POST",
        server + "/api/rooms",
        {"variant": "classic", "name": "Ann", "computers": ["easy"], "start": True},
    )
    ctx = browser.new_context(**DESKTOP)
    ctx.add_init_script(PROMPT)
    page = ctx.new_page()
    page.goto(server + "/")
    remember = "([code, token]) => localStorage.setItem('labyrinth:token:' + code, token)"
    page.evaluate(remember, [room["code"], room["token"]])
    page.goto(server + room["url"])
    toggle = "[data-testid=notify-toggle]"
    page.wait_for_selector(f"{toggle}:not([hidden])")
    page.click(toggle)  # closed without a choice: told, and the button stays to ask again
    page.wait_for_selector("[data-testid=news]:has-text('the button asks again')")
    assert page.is_visible(toggle)
    page.evaluate("window.__answer = 'denied'")
    page.click(toggle)
    page.wait_for_selector("[data-testid=news]:has-text('blocked for this site')")
    assert page.is_hidden(toggle)  # nothing left to ask: the settings are the way
    ctx.close()
