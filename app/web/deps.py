"""Dependencies shared by the routers: the service and repository live on `app.state`."""

from __future__ import annotations

from fastapi import Request, WebSocket

from app.rooms.service import RoomService
from app.store.repository import Repository


def get_service(request: Request) -> RoomService:
    return request.app.state.service


def get_repo(request: Request) -> Repository:
    return request.app.state.repo


def ws_service(websocket: WebSocket) -> RoomService:
    return websocket.app.state.service
