"""A browser steps through a replay of master, team and cards with the keyboard.

`test_replay.py` does this for classic. Each variant's replay draws its frames with the
variant's own room UI, which was written for live play (one viewer, its own secrets), so
each is opened here on a whole game imported from a record: the board and the variant's
pieces render without errors, the layout keeps its columns, Right/Left/End/Home move the
position and the highlight, the end shows the result, and a middle step is screenshot.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.bots.master import choose as master_choose
from app.rules import Game
from tests.e2e.conftest import check_every_frame, http_json
from tests.server.helpers import Chooser, cards_pick, team_pick

VIEWPORT = {"viewport": {"width": 1300, "height": 900}}


@dataclass(frozen=True)
class Case:
    """One variant's replay: how its game is played and what its board must show."""

    variant: str
    players: int
    choose: Chooser
    options: dict[str, Any]
    # selectors of the variant's own pieces, each present at the start
    pieces: tuple[str, ...]
    # a selector present at the middle step (for team: tiles Daedalus turned face down)
    middle: str
    # a player field the revealed panel must list (None: this variant has no player secret)
    secret: str | None


CASES = [
    Case(
        "master",
        3,
        master_choose,
        {},
        ('[data-testid="lair"]', '[data-testid="guardian-white"]', '[data-testid^="token-"]'),
        '[data-testid="stage"]',
        "hand",
    ),
    Case(
        "team",
        3,
        team_pick,
        {"mode": "standard"},
        ('[data-testid="daedalus-card"]', '[data-testid="team-portal"]', ".team-board"),
        '[data-face-down="true"] .team-rubble',
        None,
    ),
    Case(
        "cards",
        3,
        cards_pick,
        {},
        (".layout-card", '[data-testid="revealed-hand-0"]', '[data-testid="pile-count"]'),
        '[data-testid="revealed-hand-1"] .revealed-card',
        None,  # every hand is drawn under "Every hand": the revealed panel does not repeat it
    ),
]


@pytest.fixture(params=CASES, ids=[c.variant for c in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    return request.param


def whole_game(case: Case) -> dict[str, Any]:
    """A finished game's record, played through the engine by the variant's bot (fast:
    no server), to be imported as the replay to open."""
    names = ["Ann", "Bob", "Cy", "Di"][: case.players]
    game = Game.new(case.variant, names, f"e2e-{case.variant}", case.options)
    rng = random.Random(1)
    while game.result is None:
        seat = game.to_move
        assert seat is not None and game.seq < 2000
        game.apply(seat, case.choose(game.view(seat), game.legal_actions(seat), rng))
    return game.record()


def at(page: Any) -> int:
    return int(page.get_attribute("#replay-page", "data-at"))


def current_entry(page: Any) -> int:
    return int(page.get_attribute(".replay-entry.current", "data-step"))


def drawn(page: Any) -> str:
    """What the frame draws: the board, the turn line and the players. Not the card game's
    backdrop (`cards-bed`): it is sized from the camera, whose band above the cards is
    measured on the laid-out page (the zoom tools' place), so it moves with the layout
    (a scrollbar coming as the page grows) while the frame stays the same."""
    html = "".join(
        page.inner_html(s) for s in ("#replay-board", "#replay-turn", "#replay-player-list")
    )
    return re.sub(r'<rect class="cards-bed"[^>]*></rect>', "", html)


def width(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => e.getBoundingClientRect().width"))


def test_keyboard_steps_through_a_variant_replay(
    server: str, browser: Any, case: Case, tmp_path: Path
) -> None:
    record = whole_game(case)
    last = len(record["actions"])
    result = Game.from_record(record).result
    game_id = http_json("POST", server + "/api/games/import", record)["id"]
    page = browser.new_page(**VIEWPORT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('#replay-page[data-state="ready"]')
    assert at(page) == 0 and current_entry(page) == 0
    assert page.locator('[data-testid="replay-move"]').count() == last + 1
    for selector in case.pieces:
        assert page.locator(selector).count() >= 1, (case.variant, selector)
    # the variant's panels stay in the right-hand column instead of squeezing it
    assert width(page, '[data-testid="players"]') > 250
    assert not page.is_visible('[data-testid="result-banner"]')
    fields = page.locator('[data-testid="secrets-0"] [data-field]')
    if case.secret is None:
        assert fields.count() == 0  # public fields (boards, spells) are not "revealed"
        assert not page.is_visible("#replay-secrets-title")  # nor titled over nothing
    else:
        assert [fields.nth(i).get_attribute("data-field") for i in range(fields.count())] == [
            case.secret
        ]
    # secrets are drawn (cards as cards, treasures as icons), never written out as JSON
    assert "{" not in page.inner_text('[data-testid="replay-secrets"]')
    # The analysis comes after the first frame and may draw on it (a turn missed from the
    # start): the frame is read once it came, or the Home key's frame differed from it.
    page.wait_for_selector("#replay-page[data-analysis]")
    start = drawn(page)

    page.keyboard.press("ArrowRight")
    assert at(page) == 1 and current_entry(page) == 1
    assert drawn(page) != start
    page.keyboard.press("ArrowLeft")
    assert at(page) == 0 and current_entry(page) == 0
    assert drawn(page) == start

    page.keyboard.press("End")
    assert at(page) == last and current_entry(page) == last
    assert page.text_content("#replay-position").strip().startswith(f"Move {last}")
    banner = page.locator('[data-testid="result-banner"]')
    assert banner.is_visible()
    if case.variant == "team":
        expected = "won" if result["winners"] else "lost"
        assert banner.get_attribute("data-outcome") == expected
    else:
        for seat in result["winners"]:
            assert record["players"][seat] in banner.inner_text()
    if case.secret == "hand":
        # the final duel spends every card: an empty hand is said to be empty, not "—"
        secrets = page.inner_text('[data-testid="replay-secrets"]')
        assert "—" not in secrets and "empty" in secrets, secrets
    page.keyboard.press("ArrowRight")  # already at the end: stays
    assert at(page) == last
    page.keyboard.press("Home")
    assert at(page) == 0 and current_entry(page) == 0 and drawn(page) == start
    assert not banner.is_visible()

    middle = last // 2
    page.click(f'[data-testid="replay-move"][data-step="{middle}"] button')
    assert at(page) == middle and current_entry(page) == middle
    assert page.locator(case.middle).count() >= 1, (case.variant, case.middle)
    shot = tmp_path / f"replay-{case.variant}-{middle}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    check_every_frame(page, server, game_id, last)
    assert errors == []
