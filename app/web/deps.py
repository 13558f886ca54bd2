"""Dependencies shared by the routers: the service and repository live on `app.state`."""

from __future__ import annotations

from fastapi import Request, WebSocket
from starlette.requests import HTTPConnection

from app.rooms.service import RoomService
from app.store.repository import Repository


def get_service(request: Request) -> RoomService:
    return request.app.state.service


def get_repo(request: Request) -> Repository:
    return request.app.state.repo


def ws_service(websocket: WebSocket) -> RoomService:
    return websocket.app.state.service


def client_address(connection: HTTPConnection) -> str:
    """The client's address as the server saw it: behind a proxy, uvicorn has already
    replaced it with `X-Forwarded-For`, but only when the proxy is trusted
    (`--forwarded-allow-ips`), so a client cannot pick its own address."""
    client = connection.client
    return client.host if client is not None else "unknown"
