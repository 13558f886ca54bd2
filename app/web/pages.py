"""Server-rendered pages. Their data comes over the JSON API and the WebSocket."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from app.replays import VERSION
from app.rooms.errors import RoomError

router = APIRouter(default_response_class=HTMLResponse)


LANGUAGES = frozenset({"en", "fr", "de"})


def chosen_language(request: Request) -> str | None:
    """The language picked in the header, kept in the `lang` cookie (static/js/i18n.js);
    rendered into the page so that the client need not read any storage to start."""
    value = request.cookies.get("lang")
    return value if value in LANGUAGES else None


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    templates = request.app.state.templates
    return templates.TemplateResponse(
        request,
        name,
        {"request": request, "lang": chosen_language(request), **context},
        status_code=status,
    )


@router.get("/")
async def lobby(request: Request) -> HTMLResponse:
    return render(request, "lobby.html")


@router.get("/r/{code}")
async def room_page(request: Request, code: str) -> HTMLResponse:
    try:
        room = await request.app.state.service.room_info(code)
    except RoomError:
        return render(request, "not_found.html", status=404)
    return render(request, "room.html", code=room["code"], variant=room["variant"])


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
        return render(request, "not_found.html", status=404)
    if game.status == "finished":
        # The page preloads its data at once: have the replay building already.
        request.app.state.replays.warm(game.id)
    return render(
        request,
        "replay.html",
        game_id=game.id,
        variant=game.variant,
        game_status=game.status,
        # a game still played is watched in its room: the page links there instead
        live_url=f"/r/{quote(game.room_code)}" if game.room_code else None,
        ui=GAME_UIS.get(game.variant),
        # `v`: a browser's cached body (an hour) is not reused by a client of other code
        replay_url=f"/api/games/{quote(game.id)}/replay?frames=patches&v={VERSION[:16]}",
    )


@router.get("/rules", response_model=None)
async def rules_index() -> RedirectResponse:
    """`/rules` typed by hand: the family's first game, whose page the header's menu leads
    on from (there was a 404 here, and no page lists the rules alone)."""
    return RedirectResponse("/rules/classic", status_code=307)


@router.get("/rules/{variant}")
async def rules_page(request: Request, variant: str) -> HTMLResponse:
    if variant not in request.app.state.rules_pages:
        return render(request, "not_found.html", status=404)
    return render(request, f"rules/{variant}.html")
