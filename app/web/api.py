"""The JSON API of protocol.md: rooms and seats (games: `app/web/games.py`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from app.rooms import devices
from app.rooms.live import dumps
from app.rooms.service import RoomService
from app.web.bodies import BoundedJSONRoute
from app.web.deps import client_address, get_service

router = APIRouter(prefix="/api", route_class=BoundedJSONRoute)

Service = Annotated[RoomService, Depends(get_service)]
Authorization = Annotated[str | None, Header()]


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    variant: str
    options: dict[str, Any] | None = None
    # Extensions: the creator's own seat, computer opponents, an open table, start now.
    name: str | None = Field(default=None, max_length=256)
    computers: list[str] = Field(default_factory=list, max_length=5)
    listed: bool = False
    start: bool = False
    clock: dict[str, Any] | None = None  # ext: the turn timer (app/rooms/clock.py)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=256)


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    transfer: str = Field(min_length=1, max_length=256)


class UpdateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    options: dict[str, Any] | None = None
    listed: bool | None = None


class AddComputer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    level: str


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


@router.post("/rooms", status_code=201)
async def create_room(body: CreateRoom, service: Service, request: Request) -> dict[str, Any]:
    request.app.state.limits.rooms.check(client_address(request))
    made = await service.create_table(
        body.variant,
        body.options,
        body.listed,
        body.clock,
        name=body.name,
        computers=tuple(body.computers),
        start=body.start,
    )
    return {"code": made["code"], "url": f"/r/{made['code']}", **made}


@router.get("/rooms")
async def open_tables(
    service: Service, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> dict[str, Any]:
    return {"rooms": await service.open_tables(limit)}


@router.get("/rooms/{code}")
async def get_room(code: str, service: Service) -> dict[str, Any]:
    return await service.room_info(code)


@router.get("/rooms/{code}/view")
async def room_view(code: str, service: Service) -> dict[str, Any]:
    """The room's game as a spectator sees it (extension: the lobby's live thumbnails)."""
    return await service.spectator_view(code)


@router.patch("/rooms/{code}")
async def update_room(
    code: str, body: UpdateRoom, service: Service, authorization: Authorization = None
) -> dict[str, Any]:
    return await service.update_room(code, bearer(authorization), body.options, body.listed)


@router.post("/rooms/{code}/join", status_code=201)
async def join_room(
    code: str,
    body: Join,
    service: Service,
    request: Request,
    authorization: Authorization = None,
) -> dict[str, Any]:
    request.app.state.limits.joins.check(client_address(request))
    seat, token = await service.join(code, body.name, bearer(authorization))
    return {"seat": seat, "token": token}


@router.post("/rooms/{code}/computers", status_code=201)
async def add_computer(
    code: str, body: AddComputer, service: Service, authorization: Authorization = None
) -> dict[str, Any]:
    seat, name = await service.add_computer(code, bearer(authorization), body.level)
    return {"seat": seat, "name": name}


@router.delete("/rooms/{code}/seats/{seat}")
async def remove_seat(
    code: str, seat: int, service: Service, authorization: Authorization = None
) -> dict[str, Any]:
    await service.remove_seat(code, seat, bearer(authorization))
    return {"ok": True}


@router.post("/rooms/{code}/start")
async def start_game(
    code: str, service: Service, authorization: Authorization = None
) -> dict[str, Any]:
    game_id = await service.start_game(code, bearer(authorization))
    return {"game_id": game_id}


@router.post("/rooms/{code}/device-link")
async def device_link(
    code: str,
    request: Request,
    service: Service,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    """A seat's "continue on another device" link (and its QR code as SVG). The key is
    in the URL's fragment, which a browser never sends, so it is in no request line or
    log; it works once, for `DEVICE_LINK_TTL` seconds. Never cached."""
    ttl = request.app.state.settings.device_link_ttl
    seat, transfer = await service.device_link(code, bearer(authorization), ttl)
    url = devices.link(str(request.base_url), code, transfer)
    body = {"seat": seat, "url": url, "expires_in": int(ttl), "qr_svg": devices.qr_svg(url)}
    return Response(
        dumps(body), media_type="application/json", headers={"Cache-Control": "no-store"}
    )


@router.post("/rooms/{code}/claim", status_code=201)
async def claim_seat(code: str, body: Claim, service: Service) -> Response:
    """Take a seat with a device link's key (sent in the body, never in the URL)."""
    seat, token, host_token = await service.claim_device(code, body.transfer)
    answer: dict[str, Any] = {"seat": seat, "token": token}
    if host_token is not None:
        answer["host_token"] = host_token
    return Response(
        dumps(answer),
        status_code=201,
        media_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


@router.post("/rooms/{code}/rematch")
async def rematch(
    code: str, service: Service, authorization: Authorization = None
) -> dict[str, Any]:
    offer = await service.rematch(code, bearer(authorization))
    return {"rematch": offer, "room": await service.room_info(code)}


# The /api/games routes live in app/web/games.py.
