"""Dependencies shared by the routers: the service and repository live on `app.state`.

They are coroutines although they only read an attribute: FastAPI runs a plain `def`
dependency in a worker thread, a thread hop (and a turn at the GIL among the database's
threads) on every request for nothing.
"""

from __future__ import annotations

from fastapi import Request
from starlette.requests import HTTPConnection

from app.rooms.service import RoomService
from app.store.repository import Repository


async def get_service(request: Request) -> RoomService:
    return request.app.state.service


async def get_repo(request: Request) -> Repository:
    return request.app.state.repo


def client_address(connection: HTTPConnection) -> str:
    """The client's address as the server saw it: behind a proxy, uvicorn has already
    replaced it with `X-Forwarded-For`, but only when the proxy is trusted
    (`--forwarded-allow-ips`), so a client cannot pick its own address."""
    client = connection.client
    return client.host if client is not None else "unknown"
