"""A page whose connection died without closing: a network gone (the browser says so) or a
socket that no longer carries anything. The page said "Connected" on a stale position
while the others played on; it now says it is reconnecting, and comes back to the game as
it is."""

from __future__ import annotations

from typing import Any

from tests.cluster.conftest import Peer
from tests.e2e.conftest import http_json, seated_page, wait_for_js

DESKTOP = {"viewport": {"width": 1366, "height": 900}}


def _ann_and_bob(server: str) -> tuple[dict[str, Any], dict[str, Any]]:
    made = http_json("POST", server + "/api/rooms", {"variant": "classic", "name": "Ann"})
    bob = http_json("POST", f"{server}/api/rooms/{made['code']}/join", {"name": "Bob"})
    http_json("POST", f"{server}/api/rooms/{made['code']}/start", {}, made["host_token"])
    return made, bob


def _status(page: Any) -> str:
    return page.get_attribute("[data-testid=conn-status]", "data-status")


def test_a_network_gone_is_said_and_the_game_caught_up_when_it_is_back(
    server: str, browser
) -> None:
    made, bob = _ann_and_bob(server)
    page = seated_page(browser, server, made, **DESKTOP)
    page.wait_for_selector("[data-testid=turn-status][data-seat]")
    wait_for_js(
        page,
        "() => document.querySelector('[data-testid=conn-status]').dataset.status === 'online'",
    )
    page.context.set_offline(True)
    wait_for_js(
        page,
        "() => document.querySelector('[data-testid=conn-status]').dataset.status === 'offline'",
    )
    # meanwhile Ann's turn is played over the protocol, and Bob's starts
    ann = Peer(server.replace("http", "ws", 1), made["code"], made["token"])
    try:
        state = ann.until("state")
        for _ in range(2):
            action = ann.legal()["actions"][0]
            ann.send({"type": "action", "id": "x", "seq": state["seq"], "action": action})
            state = ann.state_at(state["seq"] + 1)
    finally:
        ann.close()
    assert state["view"]["turn"]["seat"] == bob["seat"]
    page.context.set_offline(False)
    wait_for_js(
        page,
        "() => document.querySelector('[data-testid=conn-status]').dataset.status === 'online'",
        timeout=15000,
    )
    wait_for_js(
        page,
        f"() => document.querySelector('[data-testid=turn-status]').dataset.seat"
        f" === '{bob['seat']}'",
    )
    assert page.errors == []
    page.context.close()


def test_a_socket_that_answers_nothing_is_given_up(server: str, browser) -> None:
    """The socket stays open but nothing comes back (the pongs are dropped here, as on a
    network that drops what it carries): the page no longer says "Connected"."""
    made, _ = _ann_and_bob(server)
    context = browser.new_context(**DESKTOP)
    context.add_init_script(
        f"localStorage.setItem('labyrinth:token:{made['code']}', '{made['token']}')"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    silent = {"on": False}

    def relay(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if silent["on"]:
                return  # a dead network: nothing reaches the page
            ws.send(message)

        def up(message: str | bytes) -> None:
            upstream.send(message)

        upstream.on_message(down)
        ws.on_message(up)

    page.route_web_socket("**/ws/**", relay)
    page.goto(server + made["url"])
    page.wait_for_selector("[data-testid=turn-status][data-seat]")
    assert _status(page) == "online"
    silent["on"] = True
    # a page brought to the front asks for a sign of life at once (no 20 s ping to wait for)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    wait_for_js(
        page,
        "() => document.querySelector('[data-testid=conn-status]').dataset.status !== 'online'",
        timeout=15000,
    )
    silent["on"] = False
    wait_for_js(
        page,
        "() => document.querySelector('[data-testid=conn-status]').dataset.status === 'online'",
        timeout=15000,
    )
    assert errors == []
    context.close()
