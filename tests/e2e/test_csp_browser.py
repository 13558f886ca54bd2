"""Issue 17 item 17: every page works under its Content-Security-Policy. The browser
reports each blocked script, style or connection as a `securitypolicyviolation` event and
a console error; no page may have one, and each still reaches its working state."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import http_json
from tests.server.helpers import greedy_record

# Kept in the quick suite (`scripts/test`).
pytestmark = pytest.mark.smoke

WATCH_VIOLATIONS = """() => {
  window.__violations = [];
  document.addEventListener("securitypolicyviolation",
    (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
}"""


def test_every_page_runs_under_its_policy(server: str, browser: Any) -> None:
    game_id = http_json("POST", server + "/api/games/import", greedy_record(seed="csp"))["id"]
    room = http_json("POST", server + "/api/rooms", {"variant": "classic"})["code"]
    pages = {
        "/": "#variant-select option",  # filled in by the lobby's module
        f"/r/{room}": "[data-testid=seat-0]",  # drawn after the socket's welcome
        "/rules/classic": "#notation-legend *",  # drawn by the rules page's module
        f"/replay/{game_id}": '#replay-page[data-state="ready"]',
    }
    for path, ready in pages.items():
        page = browser.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda exc, p=problems: p.append(str(exc)))
        page.on(
            "console",
            lambda msg, p=problems: p.append(msg.text) if msg.type == "error" else None,
        )
        page.add_init_script(f"({WATCH_VIOLATIONS})()")
        response = page.goto(server + path)
        assert response is not None
        assert "nonce-" in response.headers["content-security-policy"]
        page.wait_for_selector(ready, state="attached")
        page.wait_for_load_state("networkidle")
        violations = page.evaluate("() => window.__violations")
        assert violations == [], (path, violations)
        assert not [p for p in problems if "Content Security Policy" in p], (path, problems)
        page.close()
