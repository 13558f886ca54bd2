"""The WebSocket endpoint: parse each frame, hand it to the room service, answer errors.

Every refusal is an `error` message with a stable code and the connection stays open,
except for `unauthorized` (the protocol closes then). Parsing is strict: unknown types,
missing or extra fields all answer `bad_message`, so a client bug shows at once.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app import boundedjson
from app.rooms import away
from app.rooms.computer import ComputerPlayers
from app.rooms.connection import Connection
from app.rooms.errors import RoomError
from app.rooms.live import dumps
from app.rooms.ratelimit import AddressLimits
from app.rooms.service import RoomService
from app.web.deps import client_address

router = APIRouter()
log = logging.getLogger("app.ws")

MAX_BYTES = 64 * 1024
CLOSE_UNAUTHORIZED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_NO_HELLO = 4408
CLOSE_TOO_MANY = 4429
CLOSE_UNAVAILABLE = 1013  # "try again later"

# type -> (required fields, optional fields)
SHAPES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "hello": (frozenset({"token"}), frozenset({"legal", "id", "seated"})),
    "action": (frozenset({"seq", "action"}), frozenset({"id"})),
    "legal": (frozenset(), frozenset({"id"})),
    "chat": (frozenset({"text"}), frozenset({"name", "id"})),
    "sync": (frozenset(), frozenset()),
    "ping": (frozenset(), frozenset()),
    "takeover": (frozenset({"seat"}), frozenset({"id"})),
    "back": (frozenset(), frozenset({"id"})),
    "leave": (frozenset(), frozenset({"id"})),
}


def parse(text: str, max_depth: int = boundedjson.MAX_DEPTH) -> dict[str, Any]:
    """A client message as a dict of the right shape, or `RoomError("bad_message")`."""
    try:
        message = boundedjson.loads(text, max_depth)
    except ValueError as exc:
        # not JSON, nested too deep, or a string that is not valid Unicode (which no
        # message could carry back): refused before anything else reads it
        raise RoomError("bad_message", f"not a valid JSON message: {exc.args[0]}") from exc
    if not isinstance(message, dict):
        raise RoomError("bad_message", "a message is a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in SHAPES:
        raise RoomError("bad_message", f"unknown message type {kind!r}")
    required, optional = SHAPES[kind]
    fields = set(message) - {"type"}
    if missing := required - fields:
        raise RoomError("bad_message", f"{kind}: missing {', '.join(sorted(missing))}")
    if extra := fields - required - optional:
        raise RoomError("bad_message", f"{kind}: unknown field {', '.join(sorted(extra))}")
    ref = message.get("id")
    if ref is not None and (not isinstance(ref, str | int) or isinstance(ref, bool)):
        raise RoomError("bad_message", "id is a string")
    token = message.get("token")
    if kind == "hello" and token is not None and not isinstance(token, str):
        raise RoomError("bad_message", "hello: token is a string or null")
    seated = message.get("seated")
    if kind == "hello" and seated is not None and not isinstance(seated, str):
        raise RoomError("bad_message", "hello: seated is a string or null")
    if kind == "hello" and not isinstance(message.get("legal", False), bool):
        raise RoomError("bad_message", "hello: legal is true or false")
    if kind == "action":
        seq = message["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise RoomError("bad_message", "action: seq is an integer")
        if not isinstance(message["action"], dict):
            raise RoomError("bad_message", "action: action is an object")
    if kind == "chat" and not isinstance(message["text"], str):
        raise RoomError("bad_message", "chat: text is a string")
    if kind == "chat" and not isinstance(message.get("name", ""), str):
        raise RoomError("bad_message", "chat: name is a string")
    return message


def decode(data: bytes) -> str:
    """A binary frame is accepted if it holds UTF-8 JSON, like a text frame."""
    if len(data) > MAX_BYTES:
        raise RoomError("too_large", "a message is at most 64 KiB")
    try:
        return data.decode()
    except UnicodeDecodeError as exc:
        raise RoomError("bad_message", "not UTF-8 text") from exc


def error(code: str, message: str, ref: Any = None, extra: dict[str, Any] | None = None) -> str:
    """An `error` frame; `extra` adds the fields some errors carry (a text rule's `reason`)."""
    return dumps({"type": "error", "code": code, "message": message, "ref": ref, **(extra or {})})


def ref_of(text: str) -> Any:
    """Best effort: the `id` of a refused message, so the client can match the error."""
    try:
        message = boundedjson.loads(text)
    except ValueError:
        return None
    ref = message.get("id") if isinstance(message, dict) else None
    return ref if isinstance(ref, str | int) and not isinstance(ref, bool) else None


@router.websocket("/ws/{code}")
async def room_socket(websocket: WebSocket, code: str) -> None:
    service: RoomService = websocket.app.state.service
    limits: AddressLimits = websocket.app.state.limits
    address = client_address(websocket)
    await websocket.accept()
    try:
        limits.sockets.acquire(address)
    except RoomError as exc:
        await websocket.send_text(error(exc.code, exc.message))
        await websocket.close(code=CLOSE_TOO_MANY, reason="too many connections")
        return
    try:
        await serve_socket(websocket, service, code)
    finally:
        limits.sockets.release(address)


async def serve_socket(websocket: WebSocket, service: RoomService, code: str) -> None:
    try:
        await service.room_info(code)
    except RoomError as exc:
        if exc.code != "not_found":
            await websocket.send_text(error(exc.code, exc.message))
            await websocket.close(code=CLOSE_UNAVAILABLE)
            return
        await websocket.send_text(error("not_found", "room does not exist"))
        await websocket.close(code=CLOSE_NOT_FOUND)
        return
    settings = websocket.app.state.settings
    address = websocket.client.host if websocket.client else None
    conn = Connection(websocket, code, settings.rate_burst, settings.rate_per_second, address)
    conn.start()
    await service.connect(code, conn)
    close_code: int | None = None
    close_reason = ""
    # A socket that never says hello holds a file descriptor for nothing: it gets
    # `hello_timeout` seconds, then is closed with 4408.
    hello_by = asyncio.get_running_loop().time() + settings.hello_timeout
    try:
        while True:
            if conn.greeted:
                frame = await websocket.receive()
            else:
                left = hello_by - asyncio.get_running_loop().time()
                try:
                    frame = await asyncio.wait_for(websocket.receive(), timeout=max(left, 0))
                except TimeoutError:
                    close_code, close_reason = CLOSE_NO_HELLO, "no hello in time"
                    break
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            try:
                if text is None:
                    text = decode(frame.get("bytes") or b"")
                if len(text) > MAX_BYTES or len(text.encode()) > MAX_BYTES:
                    raise RoomError("too_large", "a message is at most 64 KiB")
                if not conn.messages.take():
                    raise RoomError("rate_limited", "too many messages; slow down")
                await handle(
                    service,
                    conn,
                    parse(text, settings.max_json_depth),
                    websocket.app.state.computer,
                )
            except RoomError as exc:
                service.metrics.errors.labels(exc.code).inc()
                log.debug("refused", extra={"room": code, "seat": conn.seat, "code": exc.code})
                conn.send(error(exc.code, exc.message, ref_of(text or ""), exc.extra))
                if exc.code == "unauthorized":
                    close_code, close_reason = CLOSE_UNAUTHORIZED, "unauthorized"
                    break
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception:
                # A bug must not drop the socket without a word: say so, stay open.
                log.exception("message failed", extra={"room": code, "seat": conn.seat})
                service.metrics.errors.labels("internal").inc()
                conn.send(error("internal", "the server failed here", ref_of(text or "")))
    except WebSocketDisconnect:
        pass
    finally:
        await service.disconnect(conn)
        await conn.finish(close_code, close_reason)


async def handle(
    service: RoomService,
    conn: Connection,
    message: dict[str, Any],
    computer: ComputerPlayers | None = None,
) -> None:
    kind = message["type"]
    if kind == "ping":
        conn.send('{"type":"pong"}')
        return
    if kind == "hello":
        conn.with_legal = message.get("legal", False)
        await service.hello(conn, message["token"], message.get("id"), message.get("seated"))
        return
    if not conn.greeted:
        raise RoomError("bad_message", "send hello first")
    if kind == "action":
        await service.act(conn, message["seq"], message["action"])
    elif kind == "legal":
        seq, actions = await service.legal(conn)
        conn.send(
            dumps({"type": "legal", "ref": message.get("id"), "seq": seq, "actions": actions})
        )
    elif kind == "chat":
        await service.chat(conn, message["text"], message.get("name"))
    elif kind == "sync":
        await service.sync(conn)
    elif kind in ("takeover", "leave") and computer is None:
        raise RoomError("illegal", "no computer player runs here")
    elif kind == "takeover":
        assert computer is not None
        await away.takeover(service, computer, conn, message["seat"])
    elif kind == "back":
        await service.back(conn)
    elif kind == "leave":
        assert computer is not None
        await away.leave(service, computer, conn)
