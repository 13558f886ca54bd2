"""The replay page shows the analysis: marks in the move list, the better push and walk on
the board at the position the player faced, and a summary per player."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from app.bots import choose
from app.rules import Game
from tests.e2e.conftest import http_json

# Screenshots go where TEST_ARTEFACTS says, when it says (to look at them), else nowhere.
ARTEFACTS = os.environ.get("TEST_ARTEFACTS")


def beginners_record(seed: str) -> dict[str, Any]:
    """Two easy computer players: they miss targets they could reach."""
    game = Game.new("classic", ["Ann", "Bob"], seed=seed)
    rng = random.Random(seed)
    while game.to_move is not None:
        seat = game.to_move
        game.apply(seat, choose("classic", "easy", game.view(seat), game.legal_actions(seat), rng))
    return game.record()


def test_a_missed_turn_is_marked_and_its_better_push_drawn(server: str, browser: Any) -> None:
    game_id = http_json("POST", server + "/api/games/import", beginners_record("e2e-analysis"))[
        "id"
    ]
    analysis = http_json("GET", f"{server}/api/games/{game_id}/analysis")
    missed = [t for t in analysis["turns"] if any(m["kind"] == "missed" for m in t["marks"])]
    assert missed, "the beginners missed nothing: pick another seed"
    for viewport in ({"width": 1366, "height": 900}, {"width": 390, "height": 844}):
        page = browser.new_page(viewport=viewport)
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        page.goto(f"{server}/replay/{game_id}")
        page.wait_for_selector('#replay-page[data-analysis="ready"]')
        assert page.locator('[data-testid="analysis-missed"]').count() == len(missed)
        assert page.locator('[data-testid="analysis-summary"] li').count() == 2
        assert (
            page.locator('[data-testid="analysis-overlay"]').count() == 0 or missed[0]["seq"] == 1
        )
        turn = missed[0]
        mark = next(m for m in turn["marks"] if m["kind"] == "missed")
        page.locator(f'[data-testid="analysis-missed"][data-seq="{turn["seq"]}"]').click()
        assert page.get_attribute("#replay-page", "data-at") == str(turn["seq"] - 1)
        page.wait_for_selector('[data-testid="analysis-overlay"]')
        # on the game's own board: the arrow says where to push; the walk waits for the
        # board after that push
        assert page.locator('[data-testid="analysis-arrow"]').count() == 1
        assert page.locator('[data-testid="analysis-path"]').count() == 0
        note = page.text_content('[data-testid="analysis-note"]') or ""
        assert "Next turn" in note
        played = page.inner_html("#replay-board")
        page.click('[data-testid="analysis-preview"]')
        page.wait_for_selector('[data-testid="analysis-path"]')
        points = page.get_attribute('[data-testid="analysis-path"]', "points") or ""
        assert len(points.split()) == len(mark["path"])
        assert page.inner_html("#replay-board") != played
        if ARTEFACTS:
            shot = Path(ARTEFACTS) / f"analysis-{viewport['width']}.png"
            page.screenshot(path=str(shot), full_page=True)
        page.click('[data-testid="analysis-preview"]')  # back to the game
        assert page.locator('[data-testid="analysis-path"]').count() == 0
        # one step on, the position has changed: the suggestion is gone
        page.keyboard.press("ArrowRight")
        assert page.locator('[data-testid="analysis-overlay"]').count() == 0
        assert not errors, errors
        page.close()


def test_a_risked_duel_is_marked_in_a_master_replay(server: str, browser: Any) -> None:
    for n in range(60):
        game = Game.new("master", ["Ann", "Bob", "Cy"], seed=f"risk{n}")
        rng = random.Random(f"risk{n}")
        while game.to_move is not None:
            seat = game.to_move
            game.apply(
                seat, choose("master", "easy", game.view(seat), game.legal_actions(seat), rng)
            )
        game_id = http_json("POST", server + "/api/games/import", game.record())["id"]
        analysis = http_json("GET", f"{server}/api/games/{game_id}/analysis")
        risky = [t for t in analysis["turns"] if any(m["kind"] == "risk" for m in t["marks"])]
        if risky:
            break
    else:
        raise AssertionError("no risked duel in 60 games of beginners")
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('#replay-page[data-analysis="ready"]')
    assert page.locator('[data-testid="analysis-risk"]').count() == len(risky)
    page.locator(f'[data-testid="analysis-risk"][data-seq="{risky[0]["seq"]}"]').click()
    assert page.get_attribute("#replay-page", "data-at") == str(risky[0]["seq"])
    assert "duel" in (page.text_content('[data-testid="analysis-note"]') or "")
    assert "duel" in (page.text_content('[data-testid="analysis-summary"]') or "")
    assert not errors, errors
    page.close()
