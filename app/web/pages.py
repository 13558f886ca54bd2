"""Server-rendered pages. Their data comes over the JSON API and the WebSocket."""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.rooms.errors import RoomError

router = APIRouter(default_response_class=HTMLResponse)


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    templates = request.app.state.templates
    return templates.TemplateResponse(
        request, name, {"request": request, **context}, status_code=status
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


@router.get("/replay/{game_id}")
async def replay_page(request: Request, game_id: str) -> HTMLResponse:
    """A finished game's replay; the frames come from `GET /api/games/{id}/replay`."""
    game = await to_thread.run_sync(request.app.state.repo.get_game, game_id)
    if game is None:
        return render(request, "not_found.html", status=404)
    return render(
        request, "replay.html", game_id=game.id, variant=game.variant, game_status=game.status
    )


@router.get("/rules/{variant}")
async def rules_page(request: Request, variant: str) -> HTMLResponse:
    if variant not in request.app.state.rules_pages:
        return render(request, "not_found.html", status=404)
    return render(request, f"rules/{variant}.html")
