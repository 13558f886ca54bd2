"""The JSON API of protocol.md: rooms, seats, games and their records."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from anyio import to_thread
from fastapi import APIRouter, Depends, Header, Query
from pydantic import BaseModel, ConfigDict, Field

from app.rooms.errors import RoomError, not_found
from app.rooms.service import RoomService
from app.store.repository import GameRecord, Repository
from app.web.deps import get_repo, get_service

router = APIRouter(prefix="/api")

Service = Annotated[RoomService, Depends(get_service)]
Repo = Annotated[Repository, Depends(get_repo)]


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


def iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def game_summary(game: GameRecord) -> dict[str, Any]:
    return {
        "id": game.id,
        "room": game.room_code,
        "variant": game.variant,
        "status": game.status,
        "players": game.players,
        "seq": game.seq,
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
    }


@router.post("/rooms", status_code=201)
async def create_room(body: CreateRoom, service: Service) -> dict[str, Any]:
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
async def join_room(code: str, body: Join, service: Service) -> dict[str, Any]:
    seat, token = await service.join(code, body.name)
    return {"seat": seat, "token": token}


@router.post("/rooms/{code}/start")
async def start_game(
    code: str, service: Service, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    game_id = await service.start_game(code, bearer(authorization))
    return {"game_id": game_id}


@router.get("/games")
async def list_games(
    repo: Repo,
    status: Literal["live", "finished"] | None = None,
    variant: str | None = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    games = await to_thread.run_sync(repo.list_games, status, variant, limit)
    return {"games": [game_summary(g) for g in games]}


async def _game(repo: Repository, game_id: str) -> GameRecord:
    game = await to_thread.run_sync(repo.get_game, game_id)
    if game is None:
        raise not_found("game")
    return game


@router.get("/games/{game_id}")
async def get_game(game_id: str, repo: Repo) -> dict[str, Any]:
    game = await _game(repo, game_id)
    body = game_summary(game) | {
        "options": game.options,
        "seed_hash": game.seed_hash,
        "result": game.result,
    }
    if game.status == "finished":
        body["seed"] = game.seed
    return body


@router.get("/games/{game_id}/record")
async def get_record(game_id: str, repo: Repo) -> dict[str, Any]:
    game = await _game(repo, game_id)
    if game.status != "finished":
        raise RoomError("game_live", "the record is published when the game ends", 409)
    actions = await to_thread.run_sync(repo.actions, game_id, 0)
    return {
        "variant": game.variant,
        "options": game.options,
        "players": game.players,
        "seed": game.seed,
        "actions": [{"seq": a.seq, "seat": a.seat, "action": a.payload} for a in actions],
    }
