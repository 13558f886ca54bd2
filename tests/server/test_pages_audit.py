"""Audit 4's page defects: lookalike names, the pages while the database fails, the 404
page's language, link previews, `/favicon.ico`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from app.text import name_key, same_name
from app.web import words
from app.web.pages import result_words
from tests.server.helpers import make_room, receive_until, start

ROOT = Path(__file__).parents[2]


# -- names that look alike ------------------------------------------------------------------

# Capitals of other scripts that look like Latin ones, which folding first lost.
LOOKALIKE_CAPITALS = [
    ("Helen", "\u0397elen"),  # Greek capital Eta
    ("Helen", "\u0397\u0395L\u0395\u039d"),  # ΗΕLΕΝ: Eta, Epsilon, Nu
    ("helen", "\u0397elen"),
    ("HELEN", "\u0397elen"),
    ("Bob", "\u0392ob"),  # Greek capital Beta
    ("Zoe", "\u0396oe"),  # Greek capital Zeta
    ("ZOE", "\u0396oe"),
    ("zoe", "\u0396\u039f\u0395"),  # ΖΟΕ
    ("Tom", "\u03a4om"),
    ("Kim", "\u039aim"),
    ("Max", "\u039cax"),
    ("Nina", "\u039dina"),
    ("Xena", "\u03a7ena"),
    ("Eve", "\u0395ve"),
    ("Yann", "\u03a5ann"),
    ("Bob", "\u0412ob"),  # Cyrillic capital Ve
    ("Hanna", "\u041danna"),  # Cyrillic capital En
    ("H\u0301elen", "\u0389elen"),  # an accent on either keeps them one
]

# One name by the folded key already, which the rule must go on saying.
STILL_ONE_NAME = [
    ("Ann", "\u0410nn"),  # Cyrillic A
    ("Ann", "ANN"),
    ("Ann", "\uff21nn"),  # fullwidth A
    ("A\u200cnn", "Ann"),
    ("Ian", "\u0399an"),  # Greek capitals whose small letters look Latin
    ("Otto", "\u039ftto"),
    ("Alex", "\u0391lex"),
    ("paypal", "\U0001d52d\U0001d4b6\u1eff\U0001d561\U0001d552\u2113"),
    ("am", "arn"),
    ("Stra\u00dfe", "STRASSE"),
    ("Wei\u00df", "Wei\u03b2"),  # Greek small beta
    ("\u0391\u039d\u039d\u0391", "\u0391\u03bd\u03bd\u03b1"),  # ΑΝΝΑ, Αννα
    ("\u0392\u0391\u03a3\u0399\u039b\u0397\u03a3", "\u0392\u03b1\u03c3\u03b9\u03bb\u03b7\u03c2"),
    ("Da\u03bdid", "David"),  # Greek small nu
]

TWO_NAMES = [
    ("Ann", "Anne"),
    ("Zo\u00e9", "Zoe"),
    ("L\u00e9a", "Lea"),
    ("M\u00fcller", "Muller"),
    ("Bob", "Rob"),
    ("Dave", "Dane"),
    ("Nina", "Vina"),
    ("Ian", "Lan"),  # a capital I looks like an l, but these are two names
    ("Ida", "Lda"),
    ("Jan", "Jean"),
    ("Ivan", "Iwan"),
    ("Helen", "Nelen"),
    ("Helen", "\u03b7elen"),  # Greek small eta looks like an n, not an h
]


@pytest.mark.parametrize(("one", "other"), LOOKALIKE_CAPITALS)
def test_capitals_that_look_latin_make_one_name_with_latin(one: str, other: str) -> None:
    assert same_name(one, other) and same_name(other, one)


def test_the_name_table() -> None:
    """The whole rule at once: lookalikes (new and old) are one name, different names
    stay two, and whatever the folded key made one name still is."""
    one = LOOKALIKE_CAPITALS + STILL_ONE_NAME
    wrong = [(a, b, "two") for a, b in one if not (same_name(a, b) and same_name(b, a))]
    wrong += [(a, b, "one") for a, b in TWO_NAMES if same_name(a, b) or same_name(b, a)]
    names = [name for pair in one + TWO_NAMES for name in pair]
    wrong += [
        (a, b, "two, though the folded key is one")
        for a in names
        for b in names
        if name_key(a) == name_key(b) and not same_name(a, b)
    ]
    assert wrong == []


# -- the pages while the database fails -----------------------------------------------------


def broken(*_args: Any, **_kwargs: Any) -> Any:
    raise OperationalError("SELECT 1", {}, ConnectionError("the database went away"))


def failing(*_args: Any, **_kwargs: Any) -> Any:
    raise RuntimeError("a bug")


@pytest.fixture
def lenient(client: TestClient) -> Iterator[TestClient]:
    """The same app, answering a server bug as a browser would see it (the test client
    would raise it instead)."""
    yield TestClient(client.app, raise_server_exceptions=False)


def shown_block(page: str) -> str:
    """The language block of an error page that is not hidden."""
    blocks = re.findall(r'<div data-lang-block="(\w+)" lang="\w+"( hidden)?>', page)
    shown = [code for code, hidden in blocks if not hidden]
    assert len(blocks) == 3 and len(shown) == 1, blocks
    return shown[0]


def test_an_existing_room_is_unavailable_not_missing_while_the_database_fails(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _ = make_room(client, ["Ann"])
    service = client.app.state.service
    monkeypatch.setattr(service, "rooms", {})  # as after a restart: read from the database
    monkeypatch.setattr(client.app.state.repo, "get_room", broken)
    client.cookies.set("lang", "de")
    page = client.get(f"/r/{code}")
    assert page.status_code == 503
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["Retry-After"] == "2"
    assert 'data-testid="not-found"' not in page.text
    assert 'data-testid="unavailable"' in page.text
    assert "<title>Vorübergehend nicht erreichbar — Labyrinth</title>" in page.text
    assert shown_block(page.text) == "de"
    # The API keeps the protocol's JSON, exactly.
    api = client.get(f"/api/rooms/{code}")
    assert api.status_code == 503 and api.headers["Retry-After"] == "2"
    message = "the server cannot reach its database; try again"
    assert api.json() == {"error": {"code": "unavailable", "message": message}}
    monkeypatch.undo()
    assert client.get(f"/r/{code}").status_code == 200


def test_the_replay_page_is_html_while_the_database_fails(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client.app.state.repo, "get_game", broken)
    page = client.get("/replay/abc", headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.8"})
    assert page.status_code == 503
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["Retry-After"] == "2"
    assert '<html lang="fr">' in page.text and shown_block(page.text) == "fr"
    assert "Momentanément indisponible" in page.text
    api = client.get("/api/games/abc")
    assert api.status_code == 503 and api.json()["error"]["code"] == "unavailable"


def test_a_server_bug_at_a_page_is_an_html_page_and_json_at_the_api(
    lenient: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lenient.app.state.repo, "get_game", failing)
    page = lenient.get("/replay/abc")
    assert page.status_code == 500
    assert page.headers["content-type"].startswith("text/html")
    assert 'data-testid="internal"' in page.text and shown_block(page.text) == "en"
    assert "Something went wrong" in page.text
    api = lenient.get("/api/games/abc")
    assert api.status_code == 500
    assert api.json() == {
        "error": {"code": "internal", "message": "the server failed to answer this request"}
    }


# -- the 404 page's language ----------------------------------------------------------------


def test_the_not_found_page_is_in_the_chosen_language(client: TestClient) -> None:
    client.cookies.set("lang", "de")
    page = client.get("/nothing/here")
    assert page.status_code == 404
    assert '<html lang="de" data-lang="de">' in page.text
    assert '<h1 data-i18n="notfound.title">Hier ist nichts</h1>' in page.text
    client.cookies.clear()
    page = client.get("/nothing/here", headers={"Accept-Language": "fr"})
    assert '<html lang="fr">' in page.text and "Rien ici" in page.text
    assert client.get("/api/nothing").json()["error"]["code"] == "not_found"


# -- link previews --------------------------------------------------------------------------


def preview(page: str) -> dict[str, str]:
    """The page's title, description and Open Graph tags."""
    tags = dict(re.findall(r'<meta (?:name|property)="([\w:]+)" content="([^"]*)">', page))
    title = re.search(r"<title>(.*?)</title>", page)
    return {"title": title.group(1) if title else ""} | tags


def test_a_room_link_previews_the_game_and_who_invites(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"variant": "master", "name": "Ann"}).json()
    code = made["code"]
    en = preview(client.get(f"/r/{code}").text)
    assert en["title"] == f"Room {code} — Master Labyrinth"
    assert en["og:title"] == en["title"]
    assert en["description"] == (
        "Ann invites you to play Master Labyrinth — open the link to take a seat or watch."
    )
    assert en["og:description"] == en["description"]
    assert (en["og:type"], en["og:site_name"], en["og:locale"]) == ("website", "Labyrinth", "en_US")
    client.cookies.set("lang", "fr")
    fr = preview(client.get(f"/r/{code}").text)
    assert fr["title"] == f"Salle {code} — Labyrinthe Master"
    assert fr["description"].startswith("Ann vous invite à jouer à Labyrinthe Master")
    assert fr["og:site_name"] == "Labyrinthe"


def test_a_started_room_and_its_replay_page_preview_the_players(client: TestClient) -> None:
    code, tokens = make_room(client, ["Ann", "Bob"])
    game_id = start(client, code, tokens[0])
    client.cookies.set("lang", "de")
    room = preview(client.get(f"/r/{code}").text)
    assert room["description"].startswith("Ann und Bob spielen Das verrückte Labyrinth")
    replay = preview(client.get(f"/replay/{game_id}").text)
    assert replay["title"] == "Wiedergabe — Ann und Bob — Labyrinth"
    assert replay["description"].startswith("Ann und Bob spielen")


def test_a_finished_games_replay_previews_its_result(client: TestClient) -> None:
    record = json.loads((ROOT / "tests/fixtures/records_v1/classic-2p.json").read_text())
    game_id = client.post("/api/games/import", json=record).json()["id"]
    page = preview(client.get(f"/replay/{game_id}").text)
    assert page["title"] == "Replay — P0 and P1 — Labyrinth"
    assert page["description"] == (
        "Labyrinth (classic), played by P0 and P1. Winner: P0. Replay it move by move."
    )


def test_the_lobby_and_rules_pages_describe_the_site(client: TestClient) -> None:
    lobby = preview(client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).text)
    assert lobby["title"] == "Lobby — Labyrinth"
    assert lobby["description"].startswith("Vier Spiele des verrückten Labyrinths")
    rules = preview(client.get("/rules/cards").text)
    assert rules["title"] == "Rules: Labyrinth, the card game — Labyrinth"
    assert rules["description"].endswith("The rules of the game, step by step.")


def test_result_words_say_how_a_game_ended() -> None:
    names = ["Ann", "Bob", "Cy"]
    assert result_words("en", "master", {"winners": [0, 2]}, names) == "Winners: Ann and Cy"
    assert result_words("fr", "classic", {"winners": [1]}, names) == "Gagnant\u00a0: Bob"
    assert result_words("de", "team", {"winners": []}, names) == "Das Team hat verloren"
    assert result_words("en", "team", {"winners": [0, 1, 2]}, names) == "The team won"
    assert result_words("en", "cards", None, names) == "No winner"
    assert words.word_list("en", names) == "Ann, Bob, and Cy"


def test_the_language_of_an_accept_language_header() -> None:
    assert words.accepted_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7") == "fr"
    assert words.accepted_language("es, de;q=0.5, en;q=0.4") == "de"
    assert words.accepted_language("en;q=0.2, de;q=0.8") == "de"
    assert words.accepted_language("de;q=0, fr;q=nan") is None
    assert words.accepted_language("") is None
    assert words.shown_name("fr", "Computer 2 (hard)") == "Ordinateur 2 (difficile)"
    assert words.shown_name("fr", "Computer Ann") == "Computer Ann"


def client_words() -> dict[str, dict[str, str]]:
    """The client's dictionaries, read from its scripts: `"key": "value",` lines in the
    `en`, `fr` and `de` blocks, later ones over earlier ones as `addTranslations` does."""
    found: dict[str, dict[str, str]] = {lang: {} for lang in words.LANGUAGES}
    block = re.compile(r"^\s*(?:const )?(en|fr|de)\s*[:=]\s*\{\s*$")
    entry = re.compile(r'^\s*"([^"]+)":\s*("(?:[^"\\]|\\.)*"),?\s*$')
    for name in ("i18n.js", "intro.js", "table-i18n.js"):
        lang = None
        for line in (ROOT / "static/js" / name).read_text(encoding="utf-8").splitlines():
            if opened := block.match(line):
                lang = opened.group(1)
            elif lang and (pair := entry.match(line)):
                found[lang][pair.group(1)] = json.loads(pair.group(2))
    return found


def test_the_servers_words_are_the_clients_where_both_have_them() -> None:
    """A page's title must not change when its script starts and says it again."""
    theirs = client_words()
    for lang, ours in words.WORDS.items():
        shared = {key for key in ours if not key.startswith("page.")}
        assert {key: theirs[lang].get(key) for key in shared} == {
            key: ours[key] for key in shared
        }, lang


# -- /favicon.ico ---------------------------------------------------------------------------


def test_favicon_ico_leads_to_the_icon(client: TestClient) -> None:
    moved = client.get("/favicon.ico", follow_redirects=False)
    assert moved.status_code == 301
    assert moved.headers["location"] == "/static/img/favicon.svg"
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert client.head("/favicon.ico", follow_redirects=False).status_code == 301


def test_a_greek_capital_lookalike_is_refused_at_a_join_a_chat_and_an_import(
    client: TestClient,
) -> None:
    code, _ = make_room(client, ["Helen", "Bob"])
    for twin in ("\u0397elen", "\u0397\u0395L\u0395\u039d", "\u0392ob"):
        joined = client.post(f"/api/rooms/{code}/join", json={"name": twin})
        assert joined.status_code == 409, twin
        assert joined.json()["error"]["code"] == "name_taken", twin
    assert client.post(f"/api/rooms/{code}/join", json={"name": "\u03b7elen"}).status_code == 201
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None})
        receive_until(ws, "welcome")
        ws.send_json({"type": "chat", "text": "hi", "name": "\u0397elen", "id": "c"})
        assert receive_until(ws, "error")["code"] == "name_taken"
    record = json.loads((ROOT / "tests/fixtures/records_v1/classic-2p.json").read_text())
    record["players"] = ["Helen", "\u0397elen"]
    refused = client.post("/api/games/import", json=record)
    assert refused.status_code == 422, refused.text
    assert "the same name as players[0]" in refused.json()["error"]["message"]
