"""Issue 14, item 1, for the card game: its rules page has pictures where the booklet had
them (the cards, the start, a placement that links two identical treasures, takes), each
drawn by the room page's own card code, readable in every language and to axe-core."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.test_phone_a11y import DESKTOP, PHONE, axe_problems

# picture -> what the game's drawing code must have put in it besides its cards
PICTURES = {
    "straight": (1, []),
    "corner": (1, []),
    "junction": (1, []),
    "start": (4, []),
    "link-before": (4, [".place-cell.links .card-tile.preview", ".place-cell .link-mark"]),
    "link-after": (5, [".take-path", ".placed-ring", ".layout-card.chosen .take-check"]),
    "take-several": (5, [".take-path", ".layout-card.chosen .take-check"]),
    "take-refused": (5, [".take-path", ".layout-card.refused .take-cross", ".cut-off"]),
}


def test_the_cards_rules_page_pictures_the_game(server: str, browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    for name, ctx_args in (("desktop", DESKTOP), ("phone", PHONE)):
        page = browser.new_page(**ctx_args)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/rules/cards")
        figures = page.locator("[data-testid=rules-pictures] figure")
        figures.first.wait_for()
        assert [
            figures.nth(i).get_attribute("data-picture") for i in range(figures.count())
        ] == list(PICTURES)
        for picture, (cards, marks) in PICTURES.items():
            figure = page.locator(f"[data-testid=rules-pictures] [data-picture={picture}]")
            pic = figure.locator("svg.rules-cards")
            assert pic.count() == 1
            # the layout's cards, each a card as the game draws it: walls, path and motif
            assert pic.locator(".layout-card .card-tile").count() == cards, picture
            assert pic.locator(".layout-card .card-tile .tile-path").count() == cards
            glyphs = pic.locator(".layout-card .glyph use")
            hrefs = [glyphs.nth(i).get_attribute("href") for i in range(glyphs.count())]
            assert len(hrefs) == cards
            # every motif's glyph exists in the page (the card sprite and the tiles' one)
            assert page.evaluate(
                "(ids) => ids.every((id) => document.getElementById(id.slice(1)) !== null)", hrefs
            ), hrefs
            for mark in marks:
                assert pic.locator(mark).count() >= 1, (picture, mark)
            assert figure.locator("figcaption").text_content().strip()
            box = pic.bounding_box()
            assert box["width"] > 60 and box["height"] > 60
            assert box["x"] + box["width"] <= ctx_args["viewport"]["width"]  # never cut off
        assert "ghost" in page.text_content("[data-picture=straight] figcaption")
        page.locator("[data-testid=rules-pictures]").screenshot(
            path=str(tmp_path / f"cards-pictures-{name}.png")
        )
        assert axe_problems(page) == []
        assert errors == []
    # the captions follow the page's language, the motifs named in it
    page.select_option("#lang-select", "fr")
    assert page.text_content("[data-testid=rules-pictures] h2") == "Les cartes"
    assert "fantôme" in page.text_content("[data-picture=straight] figcaption")
    page.select_option("#lang-select", "de")
    assert "Gespenst" in page.text_content("[data-picture=straight] figcaption")
    assert page.locator("[data-testid=rules-pictures] figure").count() == len(PICTURES)
    assert errors == []
