"""The move list's words, from real games' events (the engine's, not written here).

The Team Edition's Book of Daedalus: each page the book turns is in the move list, beside
the action whose turn's end turned it, as it fell out: the pawns it moved by their players'
names, the tiles it turned face down by their cells, who it sent home, the pages left. A
player who looked away (or was away) reads there what the panel, which shows only the
latest card, no longer says.

A pawn that stays put: the notation of a move is the cell it ends on, so "moved to c3" said
of a pawn that never left c3; its `moved` event (from = to) says it stayed, in the entry
and in the event's own line."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.rooms.live import for_history, in_history
from app.rules import Game
from app.rules.board import COLUMN_LETTERS
from tests.e2e.conftest import http_json

WORDS = """async ([lines, lang]) => {
  const { setLanguage } = await import("/static/js/i18n.js");
  const { entryWords } = await import("/static/js/movelog.js");
  const { cardWords } = await import("/static/js/daedalus.js");
  setLanguage(lang);
  const names = (s) => ["Ann", "Bob"][s];
  return lines.map(([notation, seat, ev]) => ({
    log: entryWords(notation, { variant: "team", names, seat, events: [ev] }),
    panel: cardWords(ev.card, ev.effect),
  }));
}"""


def cell(pos: list[int]) -> str:
    return f"{COLUMN_LETTERS[pos[1]]}{pos[0] + 1}"


def random_moves(game: Game, chooser: random.Random) -> Iterator[tuple[str, int, list[Any]]]:
    """The game played by `chooser` to its end: each action's notation, seat and events."""
    while game.result is None:
        seat = game.to_move
        assert seat is not None
        action = chooser.choice(game.legal_actions(seat))
        notation = game.engine.notation(action)
        yield notation, seat, game.apply(seat, action)


def pages_of_each_kind() -> dict[str, tuple[str, int, dict[str, Any]]]:
    """A page of each case, with the notation and seat of the action that turned it: a push,
    a flip that turned tiles, a teleport that moved pawns, one whose pawns are not in play."""
    found: dict[str, tuple[str, int, dict[str, Any]]] = {}
    for attempt in range(40):
        game = Game.new("team", ["Ann", "Bob"], f"daedalus-words-{attempt}")
        chooser = random.Random(attempt)
        for notation, seat, events in random_moves(game, chooser):
            if len(found) == 4:
                break
            for ev in events:
                if ev["type"] != "daedalus":
                    continue
                effect = ev["effect"]
                kind = effect["kind"]
                if kind == "flip" and not effect["cells"]:
                    continue
                if kind == "teleport":
                    kind = "teleport" if effect["seats"] else "teleport_none"
                found.setdefault(kind, (notation, seat, ev))
        if len(found) == 4:
            return found
    raise AssertionError(f"40 games turned only {sorted(found)}")


def test_each_page_of_the_book_is_in_the_move_log(server: str, browser: Any) -> None:
    pages = pages_of_each_kind()
    kinds = ["push", "flip", "teleport", "teleport_none"]
    lines = [list(pages[kind]) for kind in kinds]
    page = browser.new_page()
    page.goto(server + "/")
    english = dict(zip(kinds, page.evaluate(WORDS, [lines, "en"]), strict=True))
    french = dict(zip(kinds, page.evaluate(WORDS, [lines, "fr"]), strict=True))
    page.close()

    names = ["Ann", "Bob"]
    for kind in kinds:
        ev = pages[kind][2]
        left = ev["left"]
        log = english[kind]["log"]
        # after the action's own words, as what happened next: the next turn's, when the
        # action ended a turn (said plainly, it read as the ender's doing); the pages left
        first = pages[kind][0] == "daedalus"
        assert (" · Daedalus " if first else " · next turn: Daedalus ") in log, log
        assert log.endswith(f"({left} page{'' if left == 1 else 's'} left)"), log
        said = french[kind]["log"].split(" · ")[1]
        assert said.startswith("Dédalus a " if first else "tour suivant\u00a0: Dédalus a "), said
        for seat in ev["effect"].get("sent_home", []):
            assert f"sent home: {names[seat]}" in log, log

    assert "Daedalus pushed a tile face down into" in english["push"]["log"]
    assert "Dédalus a poussé une plaque face cachée" in french["push"]["log"]

    flip = pages["flip"][2]
    for pos in flip["effect"]["cells"]:
        assert cell(pos) in english["flip"]["log"], english["flip"]
    assert english["flip"]["panel"].startswith("Daedalus turns the ")

    teleport = pages["teleport"][2]
    moved = " and ".join(names[s] for s in teleport["effect"]["seats"])
    corner = cell(teleport["effect"]["to"])
    assert (
        f"Daedalus sent {moved} to the {teleport['card']['to']} corner ({corner})"
        in (english["teleport"]["log"])
    ), english["teleport"]
    # the card names colours; the panel says where that corner is on the board
    assert english["teleport"]["panel"].endswith(f"corner ({corner})"), english["teleport"]
    assert "au coin " in french["teleport"]["panel"], french["teleport"]
    assert "au coin de " not in french["teleport"]["panel"], french["teleport"]

    absent = pages["teleport_none"][2]
    pawns = absent["card"]["pawns"]
    assert (
        f"Daedalus named the {pawns[0]} and {pawns[1]} pawns, not in play"
        in (english["teleport_none"]["log"])
    ), english["teleport_none"]


STAY = """async ([lines, lang]) => {
  const { setLanguage } = await import("/static/js/i18n.js");
  const { entryWords, eventWords } = await import("/static/js/movelog.js");
  setLanguage(lang);
  const names = (s) => ["Ann", "Bob"][s];
  return lines.map(([notation, seat, events]) => ({
    entry: entryWords(notation, { variant: "classic", names, seat, events }),
    moved: eventWords(events.find((e) => e.type === "moved"), { names }),
  }));
}"""


def moves_of_a_classic_game() -> tuple[tuple[str, int, list[Any]], tuple[str, int, list[Any]]]:
    """A move that stayed put and one that went somewhere, with their notations and events."""
    game = Game.new("classic", ["Ann", "Bob"], "stay-words")
    chooser = random.Random(3)
    stay = went = None
    for notation, seat, events in random_moves(game, chooser):
        if stay is not None and went is not None:
            break
        moved = [e for e in events if e["type"] == "moved"]
        if moved and moved[0]["from"] == moved[0]["to"]:
            stay = stay or (notation, seat, events)
        elif moved:
            went = went or (notation, seat, events)
    assert stay is not None and went is not None
    return stay, went


def test_a_pawn_that_stays_put_is_said_to_stay(server: str, browser: Any) -> None:
    stay, went = moves_of_a_classic_game()
    page = browser.new_page()
    page.goto(server + "/")
    english = page.evaluate(STAY, [[list(stay), list(went)], "en"])
    french = page.evaluate(STAY, [[list(stay), list(went)], "fr"])
    page.close()
    assert english[0]["entry"].startswith(f"stayed at {stay[0]}"), english
    assert english[1]["entry"].startswith(f"moved to {went[0]}"), english
    assert french[0]["entry"].startswith(f"n’a pas bougé ({stay[0]})"), french
    assert french[1]["entry"].startswith(f"a rejoint {went[0]}"), french
    # the event's own line (the move's details, a replay's panel) says so too: "moved from
    # e3 to e3" read as a slip of the server's
    stayer, goer = ["Ann", "Bob"][stay[1]], ["Ann", "Bob"][went[1]]
    assert english[0]["moved"] == f"{stayer} stayed at {stay[0]}", english
    assert english[1]["moved"].startswith(f"{goer} moved from "), english
    assert french[0]["moved"] == f"{stayer} n’a pas bougé ({stay[0]})", french


DICE = """async ([lines, lang]) => {
  const { setLanguage } = await import("/static/js/i18n.js");
  const { entryWords } = await import("/static/js/movelog.js");
  setLanguage(lang);
  const names = (s) => ["Ann", "Bob", "Cy"][s];
  return lines.map(([notation, seat, events]) =>
    entryWords(notation, { variant: "master", names, seat, events }));
}"""


def master_duels() -> tuple[
    tuple[str, int, list[dict[str, Any]]], tuple[str, int, list[dict[str, Any]]]
]:
    """From real Master games, as a reload's history keeps them (`for_history`): a move
    whose dragon made someone else duel, and one whose dragon threatened nobody."""
    duel = calm = None
    for attempt in range(40):
        game = Game.new("master", ["Ann", "Bob", "Cy"], f"dice-words-{attempt}")
        chooser = random.Random(attempt)
        for notation, seat, events in random_moves(game, chooser):
            if duel is not None and calm is not None:
                break
            kept = [for_history(e) for e in events if in_history(e)]
            kinds = [e["type"] for e in events]
            rolls = [e for e in events if e["type"] == "duel_roll"]
            if rolls and all(e["seat"] != seat for e in rolls):
                duel = duel or (notation, seat, kept)
            elif "dragon_die" in kinds and not rolls:
                calm = calm or (notation, seat, kept)
        if duel is not None and calm is not None:
            return duel, calm
    raise AssertionError("40 Master games had no duel of another player")


def test_master_dice_are_in_the_move_log(server: str, browser: Any) -> None:
    """A move's dragon die, who it threatened and their duel rolls are in the move log (and
    so in the words a screen reader hears for another's move, and in a reload's history):
    before, the log said only what a duel cost, and the dice were in the panel alone."""
    duel, calm = master_duels()
    names = ["Ann", "Bob", "Cy"]
    page = browser.new_page()
    page.goto(server + "/")
    words = {
        lang: page.evaluate(DICE, [[list(duel), list(calm)], lang]) for lang in ("en", "fr", "de")
    }
    page.close()
    rolls = [e for e in duel[2] if e["type"] == "duel_roll"]
    threat = next(e for e in duel[2] if e["type"] == "threat")
    line = words["en"][0]
    assert "dragon die: " in line, line
    assert f"threatened: {names[threat['duellists'][0]]}" in line, line
    for roll in rolls:
        assert f"{names[roll['seat']]} rolled {roll['roll']}" in line, line
    assert "dé du dragon\u00a0: " in words["fr"][0]
    assert f"a fait {rolls[0]['roll']}" in words["fr"][0]
    threatened = [names[seat] for seat in threat["duellists"]]
    menaced = "menacé\u00a0: " if len(threatened) == 1 else "menacés\u00a0: "  # the agreement
    assert menaced + threatened[0] in words["fr"][0], words["fr"][0]
    assert "Drachenwürfel: " in words["de"][0] and f"würfelte {rolls[0]['roll']}" in words["de"][0]
    # a threat of nobody is left unsaid: the die's face says where the dragon looks
    assert "dragon die: " in words["en"][1] and "threat" not in words["en"][1], words["en"][1]


WON = """async (lang) => {
  const { setLanguage } = await import("/static/js/i18n.js");
  const { entryWords } = await import("/static/js/movelog.js");
  setLanguage(lang);
  const names = (s) => ["Ann", "Bob"][s];
  const events = [{ type: "moved", seat: 0, from: "b1", to: "a1" }, { type: "won", seat: 0 }];
  return entryWords("a1", { variant: "classic", names, seat: 0, events });
}"""


def test_the_winning_move_says_it_won_the_game(server: str, browser: Any) -> None:
    """The last line of a won game said "Ann moved to a1 · wins": wins what, the reader
    of the log asked; it says the game."""
    page = browser.new_page()
    page.goto(server + "/")
    words = {lang: page.evaluate(WON, lang) for lang in ("en", "fr", "de")}
    page.close()
    assert words["en"].endswith(" · wins the game"), words
    assert words["fr"].endswith(" · gagne la partie"), words
    assert words["de"].endswith(" · gewinnt das Spiel"), words


@pytest.mark.parametrize(("variant", "noun"), [("team", "das Plättchen"), ("classic", "die Karte")])
def test_german_pushes_name_the_piece_as_each_game_does(
    server: str, browser: Any, variant: str, noun: str
) -> None:
    """The Team Edition's German pages say Plättchen ("Freies Plättchen"), the classic
    game's Karte (its rulebook's Extrakarte): a Team replay's "what the step did" read
    "die Karte wurde in Spalte b von oben eingeschoben"."""
    room = http_json("POST", server + "/api/rooms", {"variant": variant})
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.goto(server + room["url"])
    said = page.evaluate(
        "async () => (await import('/static/js/movelog.js'))"
        ".eventWords({ type: 'pushed', slot: 'Nb' })"
    )
    assert said.startswith(f"{noun} wurde in "), said
    context.close()
