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
