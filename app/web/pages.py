"""Server-rendered pages. Their data comes over the JSON API and the WebSocket.

What the server writes itself is what must be there before any script runs: the title,
the description and the Open Graph tags a link preview shows (an invitation pasted into
a chat said "Room 55wsyj7m — Labyrinth" and nothing else, in English whatever the
visitor's language), and the error pages, in the visitor's language (`app/web/words.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import quote

from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from app.replays import VERSION
from app.rooms.errors import RoomError
from app.store.repository import GameRecord
from app.text import display_name
from app.web.words import (
    LANGUAGES,
    LOCALES,
    WORDS,
    chosen_language,
    game_name,
    page_language,
    say,
    shown_name,
    word_list,
)

router = APIRouter(default_response_class=HTMLResponse)

# The icon browsers and link-preview bots ask for at the root, whatever the page says.
FAVICON = "/static/img/favicon.svg"
# The pages for a page's address that fails: each one's heading and text (not found is
# templates/not_found.html, whose words the client knows too).
ERROR_PAGES = {
    500: ("internal", "page.internal", "page.internal.text"),
    503: ("unavailable", "page.unavailable", "error.unavailable"),
}


@dataclass(frozen=True)
class PageMeta:
    """What `templates/base.html` writes into `<head>`: the tab's title, and for a page
    worth a preview its description and Open Graph tags, in `lang`."""

    lang: str
    title: str
    description: str | None = None

    @property
    def site_name(self) -> str:
        return say(self.lang, "app.title")

    @property
    def locale(self) -> str:
        return LOCALES[self.lang]


def render(
    request: Request,
    name: str,
    status: int = 200,
    meta: PageMeta | None = None,
    headers: dict[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    """`name` with the language chosen (`lang`, for the client) and the one the server's
    own words are in (`t`, `meta.lang`): the same unless nobody chose, when the server
    goes by `Accept-Language` as the client goes by the browser's languages."""
    templates = request.app.state.templates
    lang = page_language(request)
    response = templates.TemplateResponse(
        request,
        name,
        {
            "request": request,
            "lang": chosen_language(request),
            "meta": meta or PageMeta(lang, say(lang, "app.title")),
            "t": partial(say, lang),
            "say": say,
            "languages": LANGUAGES,
            **context,
        },
        status_code=status,
        headers=headers,
    )
    # The words depend on both (a shared cache must not give a French page to a German).
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


def titled(lang: str, *parts: str) -> str:
    """A tab title: its parts, then the site's name (`Lobby — Labyrinth`), as the client
    titles its pages (static/js/i18n.js, `applyTranslations`)."""
    return " — ".join([*parts, say(lang, "app.title")])


def error_page(request: Request, status: int, retry_after: int | None = None) -> HTMLResponse:
    """The page answered for a page's address that is not found (404), fails (500) or
    cannot read the database (503, with `Retry-After` as the API's answer has it): in the
    visitor's language, and never "does not exist" for what may well exist.

    A failure's page holds its words in the three languages, the visitor's shown
    (`data-lang-block`, as the rules pages): the header's picker switches them with no
    entry in the client's dictionary, and no request to a server in trouble."""
    lang = page_language(request)
    if status == 404:
        meta = PageMeta(lang, titled(lang, say(lang, "notfound.title")))
        return render(request, "not_found.html", 404, meta)
    kind, heading, text = ERROR_PAGES[status]
    meta = PageMeta(lang, titled(lang, say(lang, heading)))
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return render(
        request, "unavailable.html", status, meta, headers, kind=kind, heading=heading, text=text
    )


def not_found(request: Request) -> HTMLResponse:
    return error_page(request, 404)


@router.get("/")
async def lobby(request: Request) -> HTMLResponse:
    lang = page_language(request)
    meta = PageMeta(lang, titled(lang, say(lang, "nav.lobby")), say(lang, "intro.lead"))
    return render(request, "lobby.html", meta=meta)


@router.get("/r/{code}")
async def room_page(request: Request, code: str) -> HTMLResponse:
    try:
        room = await request.app.state.service.room_info(code)
    except RoomError as exc:
        if exc.code != "not_found":
            # `unavailable` above all: the room may well exist (app/web/errors.py answers)
            raise
        return not_found(request)
    meta = room_meta(page_language(request), room)
    return render(request, "room.html", meta=meta, code=room["code"], variant=room["variant"])


def room_meta(lang: str, room: dict[str, Any]) -> PageMeta:
    """An invitation's preview: the game, and who invites (the host's seat, else the first
    person's) while seats are taken, or who plays once the game has started. Nothing but
    what the room's public answer (`GET /api/rooms/{code}`) says to anyone."""
    game = game_name(lang, room["variant"])
    title = f"{say(lang, 'room.title', code=room['code'])} — {game}"
    seats = room["seats"]
    names = [shown_name(lang, display_name(s["name"])) for s in seats]
    if room["status"] == "lobby":
        host = next((s for s in seats if s["host"]), None)
        person = host or next((s for s in seats if s["kind"] == "human"), None)
        if person is None:
            description = say(lang, "page.room.waiting", game=game)
        else:
            name = shown_name(lang, display_name(person["name"]))
            description = say(lang, "page.room.invite", name=name, game=game)
    else:
        key = "page.playing" if room["status"] == "playing" else "page.finished"
        description = players_line(lang, key, names, game)
    return PageMeta(lang, title, description)


def players_line(lang: str, key: str, names: list[str], game: str) -> str:
    """`Ann and Bob are playing ...`: the sentence `key`, singular for one player."""
    key = f"{key}.one" if len(names) == 1 else key
    return say(lang, key, names=word_list(lang, names), game=game)


@dataclass(frozen=True)
class GameUI:
    """A variant's game UI in the client: the class `module` (under /static/js) exports."""

    module: str
    name: str


# The replay page imports its variant's UI in its entry script (templates/replay.html).
GAME_UIS = {
    "classic": GameUI("classic.js", "ClassicUI"),
    "master": GameUI("master.js", "MasterUI"),
    "team": GameUI("team.js", "TeamUI"),
    "cards": GameUI("cards.js", "CardsUI"),
}


@router.get("/replay/{game_id}")
async def replay_page(request: Request, game_id: str) -> HTMLResponse:
    """A finished game's replay; the frames come from `GET /api/games/{id}/replay`."""
    game = await to_thread.run_sync(request.app.state.repo.get_game, game_id)
    if game is None:
        return not_found(request)
    if game.status == "finished":
        # The page preloads its data at once: have the replay building already.
        request.app.state.replays.warm(game.id)
    return render(
        request,
        "replay.html",
        meta=replay_meta(page_language(request), game),
        game_id=game.id,
        variant=game.variant,
        game_status=game.status,
        # a game still played is watched in its room: the page links there instead
        live_url=f"/r/{quote(game.room_code)}" if game.room_code else None,
        ui=GAME_UIS.get(game.variant),
        # `v`: a browser's cached body (an hour) is not reused by a client of other code
        replay_url=f"/api/games/{quote(game.id)}/replay?frames=patches&v={VERSION[:16]}",
    )


def replay_meta(lang: str, game: GameRecord) -> PageMeta:
    """A replay's preview: the game, its players and, once it is over, its result (all
    of which the games list says to anyone; a live game's seed and hands stay out)."""
    game_words = game_name(lang, game.variant)
    names = [shown_name(lang, display_name(p)) for p in game.players]
    title = titled(lang, say(lang, "replay.title"), word_list(lang, names))
    if game.status != "finished":
        return PageMeta(lang, title, players_line(lang, "page.playing", names, game_words))
    result = result_words(lang, game.variant, game.result, names)
    description = say(
        lang, "page.replay", game=game_words, names=word_list(lang, names), result=result
    )
    return PageMeta(lang, title, description)


def result_words(lang: str, variant: str, result: dict[str, Any] | None, names: list[str]) -> str:
    """How a finished game ended, as the lobby's list says it (static/js/lobby.js,
    `winnerText`): the Team Edition is won or lost by everyone together."""
    winners = [w for w in (result or {}).get("winners") or [] if isinstance(w, int)]
    if variant == "team" and result is not None:
        return say(lang, "lobby.team_won" if winners else "lobby.team_lost")
    shown = [names[w] if 0 <= w < len(names) else f"#{w}" for w in winners]
    if not shown:
        return say(lang, "lobby.no_winner")
    key = "lobby.winners" if len(shown) > 1 else "lobby.winner"
    return say(lang, key, names=word_list(lang, shown))


@router.get("/rules", response_model=None)
async def rules_index() -> RedirectResponse:
    """`/rules` typed by hand: the family's first game, whose page the header's menu leads
    on from (there was a 404 here, and no page lists the rules alone)."""
    return RedirectResponse("/rules/classic", status_code=307)


@router.get("/rules/{variant}")
async def rules_page(request: Request, variant: str) -> HTMLResponse:
    if variant not in request.app.state.rules_pages:
        return not_found(request)
    lang = page_language(request)
    game = game_name(lang, variant)
    pitch = f"intro.pitch.{variant}"
    description = say(lang, "page.rules", pitch=say(lang, pitch)) if pitch in WORDS[lang] else None
    meta = PageMeta(lang, titled(lang, say(lang, "rules.title", game=game)), description)
    return render(request, f"rules/{variant}.html", meta=meta)


@router.api_route(
    "/favicon.ico", methods=["GET", "HEAD"], include_in_schema=False, response_model=None
)
async def favicon() -> RedirectResponse:
    """Browsers outside a page, bookmark tools and preview bots ask for `/favicon.ico`
    whatever the pages declare (it answered a 404 in JSON): the one icon there is."""
    return RedirectResponse(FAVICON, status_code=301)
