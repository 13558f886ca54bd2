"""The JSON API of protocol.md: rooms and seats (games: `app/web/games.py`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from pydantic import BaseModel, ConfigDict, Field

from app.rooms.service import RoomService
from app.web.deps import client_address, get_service

router = APIRouter(prefix="/api")

Service = Annotated[RoomService, Depends(get_service)]


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: str
    options: dict[str, Any] | None = None


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=256)


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


@router.post("/rooms", status_code=201)
async def create_room(body: CreateRoom, service: Service, request: Request) -> dict[str, Any]:
    request.app.state.limits.rooms.check(client_address(request))
    room = await service.create_room(body.variant, body.options)
    return {
        "code": room.code,
        "url": f"/r/{room.code}",
        "variant": room.variant,
        "options": room.options,
    }


@router.get("/rooms/{code}")
async def get_room(code: str, service: Service) -> dict[str, Any]:
    return await service.room_info(code)


@router.post("/rooms/{code}/join", status_code=201)
async def join_room(code: str, body: Join, service: Service, request: Request) -> dict[str, Any]:
    request.app.state.limits.joins.check(client_address(request))
    seat, token = await service.join(code, body.name)
    return {"seat": seat, "token": token}


@router.post("/rooms/{code}/start")
async def start_game(
    code: str, service: Service, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    game_id = await service.start_game(code, bearer(authorization))
    return {"game_id": game_id}


# The /api/games routes live in app/web/games.py.
