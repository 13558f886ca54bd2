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


def beginners_record(
    seed: str,
    variant: str = "classic",
    players: tuple[str, ...] = ("Ann", "Bob"),
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Easy computer players to the end: they miss targets they could reach."""
    game = Game.new(variant, list(players), seed=seed, options=options)
    rng = random.Random(seed)
    while game.to_move is not None:
        seat = game.to_move
        game.apply(seat, choose(variant, "easy", game.view(seat), game.legal_actions(seat), rng))
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
    # the choices left: a badge on the choice itself, the double turn's push on the board
    unused = {
        kind: [m for t in analysis["turns"] for m in t["marks"] if m["kind"] == kind]
        for kind in ("unused_coin", "unused_double")
    }
    assert unused["unused_double"], "the beginners used every double turn: pick another seed"
    for kind, marks in unused.items():
        assert page.locator(f'[data-testid="analysis-{kind}"]').count() == len(marks)
    mark = unused["unused_double"][0]
    page.locator(f'[data-testid="analysis-unused_double"][data-seq="{mark["seq"]}"]').click()
    assert page.get_attribute("#replay-page", "data-at") == str(mark["seq"] - 1)
    assert page.locator('[data-testid="analysis-arrow"]').count() == 1
    note = page.text_content('[data-testid="analysis-note"]') or ""
    assert f"A double turn (card {mark['card']})" in note
    page.click('[data-testid="analysis-preview"]')
    page.wait_for_selector('[data-testid="analysis-path"]')
    points = page.get_attribute('[data-testid="analysis-path"]', "points") or ""
    assert len(points.split()) == len(mark["path"])
    assert "double turn" in (page.text_content('[data-testid="analysis-summary"]') or "")
    assert not errors, errors
    page.close()


def test_a_team_turn_missed_through_spells_is_told_spell_by_spell(
    server: str, browser: Any
) -> None:
    options = {"mode": "standard", "rules_version": 2}
    record = beginners_record("team-spells", "team", ("Ann", "Bob", "Cy"), options)
    game_id = http_json("POST", server + "/api/games/import", record)["id"]
    analysis = http_json("GET", f"{server}/api/games/{game_id}/analysis")
    turn, mark = next(
        (t, m)
        for t in analysis["turns"]
        for m in t["marks"]
        if any(s["type"] in ("rotate", "switch") for s in m["spells"])
    )
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('#replay-page[data-analysis="ready"]')
    page.locator(f'[data-testid="analysis-missed"][data-seq="{turn["seq"]}"]').click()
    assert page.get_attribute("#replay-page", "data-at") == str(turn["seq"] - 1)
    note = page.text_content('[data-testid="analysis-note"]') or ""
    assert "Next turn" in note and ("swap" in note or "turn the tile" in note)
    spells = page.locator('[data-testid="analysis-spell"]').count()
    page.click('[data-testid="analysis-preview"]')
    page.wait_for_selector('[data-testid="analysis-goal"]')
    spells += page.locator('[data-testid="analysis-spell"]').count()
    assert spells == sum(1 for s in mark["spells"] if s["type"] != "push")
    if ARTEFACTS:
        page.screenshot(path=str(Path(ARTEFACTS) / "analysis-team-390.png"), full_page=True)
    assert not errors, errors
    page.close()


def test_a_card_game_turn_that_took_less_than_it_could_is_shown_with_its_card(
    server: str, browser: Any
) -> None:
    """The badge of a card game's turn went to the step before it, where the previous
    player's figures were shown (or nothing), and the better card was named nowhere."""
    record = beginners_record("e2e-cards-analysis", "cards", ("Ann", "Bob", "Cy"))
    game_id = http_json("POST", server + "/api/games/import", record)["id"]
    analysis = http_json("GET", f"{server}/api/games/{game_id}/analysis")
    missed = [t for t in analysis["turns"] if any(m["kind"] == "missed" for m in t["marks"])]
    assert missed, "the beginners missed no take: pick another seed"
    turn = missed[-1]
    mark = next(m for m in turn["marks"] if m["kind"] == "missed")
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('#replay-page[data-analysis="ready"]')
    badge = page.locator(f'[data-testid="analysis-missed"][data-seq="{turn["seq"]}"]')
    assert badge.get_attribute("title") == "A bigger take was possible this turn: show the turn"
    badge.click()
    assert page.get_attribute("#replay-page", "data-at") == str(turn["seq"])
    note = page.text_content('[data-testid="analysis-note"]') or ""
    assert f"Biggest take available: {turn['could']}; taken: {turn['got']}." in note, note
    name = ["Ann", "Bob", "Cy"][turn["seat"]]
    motif = page.evaluate(
        "async (m) => { const i = await import('/static/js/i18n.js'); return i.t('motif.' + m); }",
        mark["motif"],
    )
    told = f"Laid elsewhere, the {motif} card would have let {name} take {turn['could']}."
    assert told in note, note
    assert not errors, errors
    page.close()


WORDS = """async () => {
  const { ReplayAnalysis } = await import("/static/js/analysis.js");
  const told = (variant, turns, players) => {
    const summary = document.createElement("div");
    const names = () => ["Ann", "Bob"];
    const a = new ReplayAnalysis("g", { summary, names, variant, redraw() {} });
    a.data = { variant, turns, players };
    for (const turn of turns) { a.bySeq.set(turn.seq, turn); a.before.set(turn.seq - 1, turn); }
    a.renderSummary();
    return { summary: summary.textContent, notes: turns.map((turn) => {
      const box = a.describe(turn.seq);
      return box ? box.textContent : null;
    }) };
  };
  const push = { side: "N", index: 1, rotation: 0 };
  const player = (seat, marks) => (
    { seat, turns: 4, missed: 0, gifts: 1, accuracy: 1, played_for: 0, marks });
  return {
    classic: told("classic", [
      { seq: 3, seat: 0, marks: [{ kind: "gift", to: 1, goal: "target", instead: push }] },
      { seq: 7, seat: 0, marks: [{ kind: "gift", to: 1, goal: "home", instead: push }] },
    ], [player(0, { gift: 2 }), player(1, {})]),
    master: told("master", [], [player(0, {}), player(1, { risk: 1 })]),
  };
}"""


def test_the_analysis_says_what_it_measured(server: str, browser: Any) -> None:
    """A gift was told as "let Bob reach their target" when Bob then missed it (it was
    within his reach), and as a target when his goal was home; Master's "0 duels risked"
    counted only duels risked where the same value was safe; accuracy was not defined."""
    page = browser.new_page()
    page.goto(server + "/")
    got = page.evaluate(WORDS)
    gift, home = got["classic"]["notes"]
    assert gift == (
        "This push put Bob's target within their reach; "
        "push into column b from the top would not have."
    )
    assert home.startswith("This push put Bob's way home within their reach"), home
    assert "Accuracy is the share of a player's turns" in got["classic"]["summary"]
    master = got["master"]["summary"]
    assert "0 duels risked needlessly" in master and "1 duel risked needlessly" in master
    page.close()


def test_a_right_to_left_name_keeps_its_numbers_after_it(server: str, browser: Any) -> None:
    """A right-to-left name followed by a number took the number into its own run: the
    summary read "12 أحمد turns". A name is isolated from its sentence."""
    record = beginners_record("e2e-bidi", players=("أحمد", "Bob"))
    game_id = http_json("POST", server + "/api/games/import", record)["id"]
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('[data-testid="analysis-summary"] li[data-seat="0"]')
    name_right, digits_left = page.evaluate(
        """() => {
          const li = document.querySelector('[data-testid="analysis-summary"] li[data-seat="0"]');
          const name = li.querySelector("strong").getBoundingClientRect();
          const text = li.lastChild;  // " 12 turns · ..."
          const at = text.textContent.search(/[0-9]/);
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + 1);
          return [name.right, range.getBoundingClientRect().left];
        }"""
    )
    assert digits_left >= name_right - 1, (name_right, digits_left)
    page.close()


def test_a_move_s_two_marks_leave_its_words_room(server: str, browser: Any) -> None:
    """On a desktop the move list is the narrow left column; a move marked twice ("missed"
    and "gift", longer in German) had its two badges side by side and 57 px left for its
    words, which broke a name inside ("Comp / uter"). The marks stack; entries keep one
    height."""
    game_id = http_json("POST", server + "/api/games/import", beginners_record("e2e-marks"))["id"]
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="de")
    page = context.new_page()
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector(".replay-entry .analysis-badge + .analysis-badge")
    widths, heights = page.evaluate(
        """() => {
          const entries = [...document.querySelectorAll('.replay-entry:not(.current)')]
            .filter((e) => e.querySelector(".analysis-badge + .analysis-badge"));
          return [entries.map((e) => e.querySelector(".log-text").getBoundingClientRect().width),
                  [...document.querySelectorAll('.replay-entry:not(.current)')]
                    .map((e) => e.offsetHeight)];
        }"""
    )
    assert widths and min(widths) >= 110, widths
    assert len(set(heights)) == 1, set(heights)
    context.close()
