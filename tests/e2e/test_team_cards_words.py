"""The Team Edition's and the card game's words and controls where a browser audit found
them wanting: the collect news names its treasure as the move list does; the French spells
are called as the French rulebook calls them; the lobby plays the cooperative game *with*
the computer; the card game's move list says why nothing was taken; the team's loss is
said as the book running out; a rotation's choices come into a phone's sight; a greyed
arrow says why it is grey; a lost replay is coloured as the lost room; a six-player list
keeps each line whole.

Positions are built with app.rules.Game and fed to the room page's own UI modules (the
`bench` of test_rules_v2_browser), or played through the engine and imported as replays.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import Game
from tests.e2e.conftest import http_json, seated_page, wait_for_js
from tests.e2e.test_rules_v2_browser import bench, feed, shot
from tests.rules.cards_helpers import nothing_to_take
from tests.rules.team_helpers import c, calm, carve, face_down, new, place, play
from tests.server.helpers import team_pick

NBSP = "\u00a0"


def collecting_game() -> tuple[Game, list[dict[str, Any]]]:
    """P0 steps from a1 to the bat at b1, on their board: the team's first treasure."""
    game = new(2)
    state = calm(game)
    state.players[0].board = ["bat", "ghost"]
    place(state, "bat", "b1", "EW")
    events = play(game, "b1")
    assert [e["type"] for e in events if e["type"] == "collected"] == ["collected"]
    return game, events


@pytest.mark.parametrize(
    ("locale", "own", "other"),
    [
        ("en-US", "You collect the bat (1/24)", "P0 collects the bat (1/24)"),
        (
            "fr-FR",
            f"Vous récupérez{NBSP}: chauve-souris (1/24)",
            f"P0 récupère{NBSP}: chauve-souris (1/24)",
        ),
        ("de-DE", "Du sammelst ein: Fledermaus (1/24)", "P0 sammelt ein: Fledermaus (1/24)"),
    ],
)
def test_team_the_collect_news_names_the_treasure_as_the_move_list_does(
    server: str, browser: Any, locale: str, own: str, other: str
) -> None:
    """ "You collect dragon (1/24)": the news lacked the article the move list has
    ("collected the dragon"); French and German say it as their move list does."""
    game, events = collecting_game()
    page = bench(browser, server, "team", "desktop", locale)
    last = {"seq": game.seq, "seat": 0, "action": {}, "events": events}
    for seat, words in ((0, own), (1, other)):
        page.evaluate("() => { window.__news = []; }")
        feed(page, game, seat, last)
        assert words in page.evaluate("() => window.__news")
    assert page.errors == []  # type: ignore[attr-defined]


FRENCH_NAMES = """async () => {
  const { setLanguage, t } = await import("/static/js/i18n.js");
  const { entryWords } = await import("/static/js/movelog.js");
  setLanguage("fr");
  const names = (s) => ["Ann", "Bob"][s];
  return {
    spells: ["push", "rotate", "switch", "traverse", "teleport", "escape"]
      .map((s) => t(`spell.${s}`)),
    switched: entryWords("switch:b2-b3", { variant: "team", names, seat: 0, events: [] }),
    book: t("team.daedalus"),
    mode: t("option.mode.help"),
  };
}"""


def test_team_french_spells_are_named_as_the_rulebook_names_them(server: str, browser: Any) -> None:
    """French buttons said "Échanger" and the move list "a interverti": the rulebook's
    spell tokens are Poussée, Rotation, Permutation, Traversée, Téléportation, Évasion,
    and its villain Dédalus, whose book is a grimoire."""
    page = browser.new_page()
    page.goto(server + "/")
    said = page.evaluate(FRENCH_NAMES)
    assert said["spells"] == [
        "Poussée",
        "Rotation",
        "Permutation",
        "Traversée",
        "Téléportation",
        "Évasion",
    ]
    assert said["switched"] == "a permuté b2 et b3"
    assert said["book"] == "Le grimoire de Dédalus"
    assert said["mode"].startswith(f"Initiation{NBSP}: Poussée et Rotation pour tous.")

    # the room's own spell buttons, in a French page
    game = new(2, spell_red="switch")
    calm(game)
    room = bench(browser, server, "team", "desktop", "fr-FR")
    feed(room, game, 0)
    assert room.text_content("[data-testid=spell-switch] .spell-name") == "Permutation"
    assert room.text_content("[data-testid=spell-push] .spell-name") == "Poussée"
    shot(room, "team-spells-fr")
    assert room.errors == []  # type: ignore[attr-defined]


VS_WORDS = """() => [
  document.querySelector("#vs-title").textContent,
  document.querySelector("label[for=vs-count]").textContent,
  document.querySelector("#vs-count option").textContent,
  document.querySelector("#vs-button").textContent,
]"""


@pytest.mark.parametrize(
    ("locale", "team", "classic"),
    [
        (
            "en-US",
            ["Play with the computer", "Team-mates", "1 computer", "Play with the computer"],
            [
                "Play against the computer",
                "Opponents",
                "1 computer player",
                "Play against the computer",
            ],
        ),
        (
            "fr-FR",
            ["Jouer avec l’ordinateur", "Coéquipiers", "1 ordinateur", "Jouer avec l’ordinateur"],
            [
                "Jouer contre l’ordinateur",
                "Adversaires",
                "1 joueur ordinateur",
                "Jouer contre l’ordinateur",
            ],
        ),
        (
            "de-DE",
            ["Mit dem Computer spielen", "Mitspieler", "1 Computer", "Mit dem Computer spielen"],
            [
                "Gegen den Computer spielen",
                "Gegner",
                "1 Computerspieler",
                "Gegen den Computer spielen",
            ],
        ),
    ],
)
def test_the_lobby_plays_the_team_edition_with_the_computer(
    server: str, browser: Any, locale: str, team: list[str], classic: list[str]
) -> None:
    """The cooperative game's computers are team-mates, not opponents."""
    ctx = browser.new_context(locale=locale)
    page = ctx.new_page()
    page.goto(server + "/")
    page.select_option("[data-testid=variant-select]", "team")
    assert page.evaluate(VS_WORDS) == team
    page.select_option("[data-testid=variant-select]", "classic")
    assert page.evaluate(VS_WORDS) == classic
    page.select_option("[data-testid=variant-select]", "team")
    # a change of language keeps the game's words
    page.select_option("[data-testid=lang-select]", "en")
    assert page.evaluate(VS_WORDS)[0] == "Play with the computer"


def no_take_move() -> tuple[str, list[dict[str, Any]]]:
    """Ann places a ghost joined to the ghost at (1, 0), which may not go: nothing taken."""
    game, action = nothing_to_take()
    notation = game.engine.notation(action)
    events = game.apply(0, action)
    assert any(e["type"] == "no_take" for e in events)
    return notation, events


ENTRY = """async ([notation, events, lang]) => {
  const { setLanguage } = await import("/static/js/i18n.js");
  const { entryWords } = await import("/static/js/movelog.js");
  setLanguage(lang);
  const names = (s) => ["Ann", "Bob"][s];
  return entryWords(notation, { variant: "cards", names, seat: 0, events });
}"""


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            "placed a ghost · took nothing: without the card of that motif, the others "
            "would no longer all touch by an edge",
        ),
        (
            "fr",
            f"a posé{NBSP}: fantôme · n’a rien pris{NBSP}: sans la carte de ce motif, les "
            "autres ne se toucheraient plus toutes par un côté",
        ),
        (
            "de",
            "legte an: Gespenst · nahm nichts: ohne die Karte dieses Motivs hingen die "
            "übrigen nicht mehr alle über eine Kante zusammen",
        ),
    ],
)
def test_cards_the_move_list_says_why_nothing_was_taken(
    server: str, browser: Any, lang: str, words: str
) -> None:
    """ "Zoé placed: candle", and nothing else: the reason nothing was taken was only in a
    banner gone in seconds. The move's entry (live and in the replay) carries it."""
    notation, events = no_take_move()
    page = browser.new_page()
    page.goto(server + "/")
    assert page.evaluate(ENTRY, [notation, events, lang]) == words


def lost_team_record() -> dict[str, Any]:
    """A standard two-player game played through by the team's bot to its loss."""
    game = Game.new("team", ["Ann", "Bob"], "e2e-team-lost", {"mode": "standard"})
    rng = random.Random(1)
    while game.result is None:
        seat = game.to_move
        assert seat is not None and game.seq < 3000
        game.apply(seat, team_pick(game.view(seat), game.legal_actions(seat), rng))
    assert game.result["winners"] == [], "the team won: no loss to show"
    return game.record()


LOST = "rgb(242, 215, 213)"


def test_team_a_lost_replay_ends_as_the_lost_room_does(server: str, browser: Any) -> None:
    """The replay of a lost game showed a win's gold banner where the room shows red, and
    its last entry read "Bob reached e6 · the team loses", as if that move lost: the book
    ran out at the next turn's start, and the entry says so."""
    record = lost_team_record()
    game_id = http_json("POST", server + "/api/games/import", record)["id"]
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector('#replay-page[data-state="ready"]')
    page.keyboard.press("End")
    banner = "[data-testid=result-banner]"
    page.wait_for_selector(f"{banner}[data-outcome=lost]")
    looks = page.eval_on_selector(
        banner, "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).backgroundImage]"
    )
    assert looks == [LOST, "none"], looks
    last = page.locator('[data-testid="replay-move"]').last.inner_text()
    assert "the Book of Daedalus had no page left to turn: the team loses" in last, last
    assert "reached" not in last.split("·")[-1]
    shot(page, "team-lost-replay")


def test_team_the_end_entry_says_the_book_ran_out(server: str, browser: Any) -> None:
    """The end's words in each language: the next turn found no page to turn."""
    game = new(2)
    state = calm(game)
    state.daedalus_deck = []
    events = play(game, "end")
    assert game.result is not None and any(e["type"] == "lost" for e in events)
    page = browser.new_page()
    page.goto(server + "/")
    script = ENTRY.replace('variant: "cards"', 'variant: "team"')
    said = {lang: page.evaluate(script, ["end", events, lang]) for lang in ("en", "fr", "de")}
    assert said["en"].endswith(
        "· then the Book of Daedalus had no page left to turn: the team loses"
    ), said
    assert said["fr"].endswith(
        f"· puis le grimoire de Dédalus n’avait plus de page à tourner{NBSP}: l’équipe perd"
    ), said
    assert said["de"].endswith(
        "· dann hatte das Buch von Daedalus keine Seite mehr zum Umblättern: das Team verliert"
    ), said


IN_SIGHT = """(sel) => { const e = document.querySelector(sel); if (!e) return false;
  const b = e.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight + 1; }"""


def test_team_phone_the_ways_to_turn_a_tile_come_into_sight(server: str, browser: Any) -> None:
    """Rotate, then a tile: "Turn b3 to:" and its buttons were below a phone's screen, and
    nothing brought them up (as laying a tile turned up does)."""
    game = new(2, spell_red="rotate")
    state = calm(game)
    carve(state, b3="NS")
    page = bench(browser, server, "team", "phone")
    feed(page, game, 0)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.click("[data-testid=spell-rotate]")
    page.evaluate("() => window.scrollTo(0, 0)")
    row, col = divmod(c("b3"), 7)
    page.click(f"[data-testid=cell-{row}-{col}]")
    page.wait_for_selector(".team-spells [data-testid^=rotate-]")
    wait_for_js(page, IN_SIGHT, ".team-spells [data-testid^=rotate-]")
    shot(page, "team-rotate-pick-phone")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("locale", "label", "why"),
    [
        (
            "en-US",
            "Not allowed (column b from the top): it would push the face-down tile at b7 "
            "out of the maze",
            "error: No push here: a push never pushes a face-down tile out of the maze "
            "(the tile at b7).",
        ),
        (
            "fr-FR",
            f"Interdit (la colonne b par le haut){NBSP}: cela expulserait du labyrinthe la "
            "plaque face cachée en b7",
            f"error: Pas de Poussée ici{NBSP}: elle n’expulse jamais une plaque face cachée "
            "du labyrinthe (la plaque en b7).",
        ),
        (
            "de-DE",
            "Verboten (Spalte b von oben): das würde das umgedrehte Plättchen auf b7 aus dem "
            "Labyrinth schieben",
            "error: Hier nicht: Der Schieben-Zauber schiebt nie ein umgedrehtes Plättchen "
            "aus dem Labyrinth (das Plättchen auf b7).",
        ),
    ],
)
def test_team_a_greyed_arrow_says_why(
    server: str, browser: Any, locale: str, label: str, why: str
) -> None:
    """An arrow that would push a face-down tile out was grey, labelled as any arrow,
    and a click on it did nothing: it now says why, in its label and on a click."""
    game = new(2)
    state = calm(game)
    face_down(state, "b7")
    legal = game.legal_actions(0)
    assert not any(a["type"] == "push" and a["side"] == "N" and a["index"] == 1 for a in legal)
    page = bench(browser, server, "team", "desktop", locale)
    feed(page, game, 0)
    arrow = page.locator("[data-testid=arrow-N-1]")
    assert arrow.get_attribute("data-active") == "false"
    slot = page.evaluate("""async () => (await import("/static/js/i18n.js")).slotWords("N", 1)""")
    assert f"({slot})" in label, slot
    assert arrow.get_attribute("aria-label") == label
    assert page.text_content("[data-testid=arrow-N-1] title") == label
    # an arrow it may take keeps its words
    assert page.get_attribute("[data-testid=arrow-N-3]", "data-active") == "true"
    assert page.get_attribute("[data-testid=arrow-N-3]", "data-blocked") is None
    page.evaluate("() => { window.__news = []; }")
    arrow.click()
    wait_for_js(page, "() => window.__news.length > 0")
    assert page.evaluate("() => window.__news") == [why]
    shot(page, f"team-greyed-arrow-{locale}")
    assert page.evaluate("() => window.__sent") == []
    assert page.errors == []  # type: ignore[attr-defined]


ROWS = """() => [...document.querySelectorAll("#player-list .player-line")].map((line) => {
  const tops = [...line.children].map((e) => e.getBoundingClientRect().top);
  const name = line.querySelector(".player-name").getBoundingClientRect();
  return { spread: Math.max(...tops) - Math.min(...tops), nameHeight: name.height,
           text: line.textContent };
})"""


def test_cards_six_players_each_on_one_line(server: str, browser: Any) -> None:
    """Six players on a desktop: "Computer (medium)" went onto two lines, its hand's
    backs and its connection's dot onto a line of their own. Each line is whole now, and
    the hand's backs still show (with the counts under it)."""
    made = http_json(
        "POST",
        server + "/api/rooms",
        {
            "variant": "cards",
            "name": "Ann",
            "computers": ["easy", "medium", "hard", "easy", "hard"],
            "start": True,
        },
    )
    page = seated_page(browser, server, made, viewport={"width": 1366, "height": 768})
    page.wait_for_selector("[data-testid=player-5] .conn-mark")
    rows = page.evaluate(ROWS)
    assert len(rows) == 6
    for row in rows:
        assert row["spread"] < 8 and row["nameHeight"] < 30, rows
    assert page.locator("#player-list .player-stats .hand-count").count() == 6
    shot(page, "cards-six-players")
    assert page.errors == []


SPELL_ROWS = """() => [...document.querySelectorAll('#player-list .player')].map((li) => {
  const board = li.querySelector('.team-board').getBoundingClientRect();
  const spells = li.querySelector('.team-spell-list').getBoundingClientRect();
  return { left: spells.left, top: spells.top, boardRight: board.right,
           boardBottom: board.bottom };
})"""


def test_team_each_player_s_spells_stand_beside_their_treasures(server: str, browser: Any) -> None:
    """Four players on a laptop, in German: "Schieben · Tauschen" fitted beside Ann's two
    treasures, and "Schieben · Durchqueren" went to a line of its own under the others',
    each row laid out its own way. The spells keep their column beside the treasures in
    every row, wrapping there."""
    spells = {"spell_red": "switch", "spell_yellow": "traverse", "spell_blue": "teleport"}
    made = http_json(
        "POST",
        server + "/api/rooms",
        {
            "variant": "team",
            "options": {"mode": "standard", "spell_green": "escape", **spells},
            "name": "Ann",
            "computers": ["easy", "medium", "hard"],
            "start": True,
        },
    )
    page = seated_page(
        browser, server, made, viewport={"width": 1280, "height": 800}, locale="de-DE"
    )
    page.wait_for_selector("[data-testid=player-3] .team-spell-list")
    rows = page.evaluate(SPELL_ROWS)
    assert len(rows) == 4
    for row in rows:
        assert row["left"] > row["boardRight"] and row["top"] < row["boardBottom"], rows
    assert max(r["left"] for r in rows) - min(r["left"] for r in rows) < 1, rows
    shot(page, "team-four-players-spells-de")
    assert page.errors == []
