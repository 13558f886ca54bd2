"""The WebSocket endpoint: parse each frame, hand it to the room service, answer errors.

Every refusal is an `error` message with a stable code and the connection stays open,
except for `unauthorized` (the protocol closes then) and a frame over `MAX_FRAME` (1009).
Parsing is strict: unknown types, missing or extra fields, bytes that are not UTF-8 all
answer `bad_message`, so a client bug shows at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app import boundedjson
from app.rooms import away
from app.rooms.computer import ComputerPlayers
from app.rooms.connection import Connection
from app.rooms.errors import RoomError, brief
from app.rooms.live import dumps
from app.rooms.ratelimit import AddressLimits
from app.rooms.service import RoomService
from app.web.deps import client_address

router = APIRouter()
log = logging.getLogger("app.ws")

MAX_BYTES = 64 * 1024
# A frame over this is not read at all: the socket is closed with 1009 ("message too
# big"). `app/web/serve.py` has uvicorn refuse it before it is even buffered; this check
# holds whatever runs the app (a plain `uvicorn app.main:app` takes 16 MiB frames).
MAX_FRAME = 1024 * 1024
CLOSE_TOO_BIG = 1009
# A client's `id`, echoed as `ref`: a short string, or an integer JavaScript holds
# exactly (a larger one is rounded by every browser's JSON.parse, and one beyond 64 bits
# cannot be written by the encoder at all).
MAX_ID_CHARS = 256
MAX_SAFE_INTEGER = 2**53 - 1
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


def valid_ref(ref: Any) -> bool:
    """Whether `ref` may be a message's `id`: a string of at most `MAX_ID_CHARS`, or an
    integer within JavaScript's safe range (never a bool, which Python counts as one)."""
    if isinstance(ref, str):
        return len(ref) <= MAX_ID_CHARS
    return isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) <= MAX_SAFE_INTEGER


def load(text: str, max_depth: int = boundedjson.MAX_DEPTH) -> Any:
    """The frame's JSON, or `RoomError("bad_message")` in words a client author can act
    on (never the interpreter's own advice)."""
    try:
        return boundedjson.loads(text, max_depth)
    except json.JSONDecodeError as exc:
        # not JSON, nested too deep, or a string that is not valid Unicode (which no
        # message could carry back): refused before anything else reads it
        raise RoomError("bad_message", f"not a valid JSON message: {exc.args[0]}") from exc
    except ValueError as exc:
        # CPython refuses to convert an integer literal of more than
        # `sys.get_int_max_str_digits()` digits (a cost bound); no field takes one
        limit = sys.get_int_max_str_digits()
        raise RoomError(
            "bad_message", f"not a valid JSON message: a number has more than {limit} digits"
        ) from exc


def cut(text: str, limit: int = 60) -> str:
    """`text` cut to `limit` characters: an error message names what was wrong, it does
    not echo a 60 KB string back."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value: Any) -> str:
    return cut(repr(value))


def parse(text: str, max_depth: int = boundedjson.MAX_DEPTH) -> dict[str, Any]:
    """A client message as a dict of the right shape, or `RoomError("bad_message")`.

    Only the frame itself is checked here (fields present, of their types); what an
    action means is the room's to judge, after the sender's seat (docs/protocol.md)."""
    message = load(text, max_depth)
    if not isinstance(message, dict):
        raise RoomError("bad_message", "a message is a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in SHAPES:
        raise RoomError("bad_message", f"unknown message type {shown(kind)}")
    required, optional = SHAPES[kind]
    fields = set(message) - {"type"}
    if missing := required - fields:
        raise RoomError("bad_message", f"{kind}: missing {', '.join(sorted(missing))}")
    if extra := fields - required - optional:
        names = ", ".join(cut(name, 40) for name in sorted(extra)[:5])
        raise RoomError("bad_message", f"{kind}: unknown field {names}")
    ref = message.get("id")
    if ref is not None and not valid_ref(ref):
        # refused with `ref: null`: an id the encoder cannot write must never be echoed
        if isinstance(ref, str | int) and not isinstance(ref, bool):
            raise RoomError(
                "bad_message",
                f"id is a string of at most {MAX_ID_CHARS} characters or an integer "
                "from -(2^53-1) to 2^53-1",
            )
        raise RoomError("bad_message", "id is a string or an integer")
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


class FrameTooBig(RoomError):
    """A frame over `MAX_FRAME`: answered `too_large`, then the socket is closed (1009)."""

    def __init__(self) -> None:
        super().__init__(
            "too_large", "a message is at most 64 KiB; one over 1 MiB closes the connection"
        )


def frame_text(frame: dict[str, Any]) -> str:
    """The text of a received frame, or a refusal: any frame over `MAX_BYTES` is
    `too_large`, over `MAX_FRAME` also closes the socket. A binary frame holding UTF-8
    JSON is read as a text frame is (the contract does not say which frames a client
    sends, and some libraries send bytes: refusing them would break those clients);
    bytes that are not UTF-8 are `bad_message`."""
    text = frame.get("text")
    data = frame.get("bytes")
    size = len(data) if text is None and data is not None else frame_size(text or "")
    if size > MAX_FRAME:
        raise FrameTooBig()
    if size > MAX_BYTES:
        raise RoomError("too_large", "a message is at most 64 KiB")
    if text is None:
        try:
            return (data or b"").decode()
        except UnicodeDecodeError as exc:
            raise RoomError("bad_message", "a binary frame that is not UTF-8 text") from exc
    return text


def frame_size(text: str) -> int:
    """`text`'s size in UTF-8 (the limits are in bytes), without encoding a text whose
    length alone is already over `MAX_FRAME`."""
    if len(text) > MAX_FRAME:
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def error(code: str, message: str, ref: Any = None, extra: dict[str, Any] | None = None) -> str:
    """An `error` frame; `extra` adds the fields some errors carry (a text rule's `reason`).

    It must always go out: a refusal that failed to serialise would drop the socket
    without a word. A `ref` or an extra field the encoder cannot write (an integer beyond
    64 bits, a lone surrogate) is left out, and the last resort is the standard library,
    which writes any text (escaped) and any integer."""
    message = brief(message)
    frame = {"type": "error", "code": code, "message": message, "ref": ref, **(extra or {})}
    try:
        return dumps(frame)
    except (TypeError, ValueError):
        pass
    bare = {
        "type": "error",
        "code": code,
        "message": message,
        "ref": ref if valid_ref(ref) else None,
    }
    try:
        return dumps(bare)
    except (TypeError, ValueError):
        return json.dumps(bare)


def ref_of(text: str) -> Any:
    """Best effort: the `id` of a refused message, so the client can match the error;
    null when the id itself is not one the protocol allows."""
    try:
        message = boundedjson.loads(text)
    except ValueError:
        return None
    ref = message.get("id") if isinstance(message, dict) else None
    return ref if valid_ref(ref) else None


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
            raw = frame.get("text")
            try:
                text = frame_text(frame)
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
                # a frame over MAX_FRAME is not parsed, not even for its id
                ref = None if isinstance(exc, FrameTooBig) else ref_of(raw or "")
                conn.send(error(exc.code, exc.message, ref, exc.extra))
                if exc.code == "unauthorized":
                    close_code, close_reason = CLOSE_UNAUTHORIZED, "unauthorized"
                    break
                if isinstance(exc, FrameTooBig):
                    close_code, close_reason = CLOSE_TOO_BIG, "message too big"
                    break
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception:
                # A bug must not drop the socket without a word: say so, stay open.
                log.exception("message failed", extra={"room": code, "seat": conn.seat})
                service.metrics.errors.labels("internal").inc()
                conn.send(error("internal", "the server failed here", ref_of(raw or "")))
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
