"""The floor: the least a WebSocket room server can do for `bench/load.py`'s clients.

It speaks just enough of the protocol for the same client code (create, join, start,
hello with or without `"legal": true`, legal, action) and, for each action, rebroadcasts
one message of the size of the real server's state (`FLOOR_STATE_BYTES`) to every socket
of the room: no rules, no database, no views. What the real server does per second is
read against this.

    FLOOR_STATE_BYTES=3200 python -m uvicorn bench.floor:app --port 8001
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

STATE_BYTES = int(os.environ.get("FLOOR_STATE_BYTES", "3200"))


@dataclass
class Room:
    seats: int = 0
    seq: int = 0
    # The room's sockets said hello with `"legal": true`: each state carries the mover's
    # legal actions (the same text goes to everyone, as the bench's sockets all ask).
    with_legal: bool = False
    sockets: set[WebSocket] = field(default_factory=set)

    @property
    def turn(self) -> tuple[int, str]:
        """Like a classic game: seat 0 pushes then moves, then seat 1."""
        return (self.seq // 2) % 2, ("push", "move")[self.seq % 2]

    def state(self) -> str:
        seat, phase = self.turn
        head = {
            "type": "state",
            "seq": self.seq,
            "view": {"status": "playing", "turn": {"seat": seat, "phase": phase}},
            "pad": "",
        }
        if self.with_legal:
            head["legal"] = [{"type": phase}]
        text = json.dumps(head, separators=(",", ":"))
        return text.replace('"pad":""', '"pad":"' + "x" * max(0, STATE_BYTES - len(text)) + '"')


app = FastAPI()
rooms: dict[str, Room] = {}


@app.get("/healthz")
async def healthz() -> dict[str, bool]:
    return {"ok": True}


@app.post("/api/rooms")
async def create() -> dict[str, str]:
    code = secrets.token_hex(4)
    rooms[code] = Room()
    return {"code": code}


@app.post("/api/rooms/{code}/join")
async def join(code: str) -> dict[str, Any]:
    room = rooms[code]
    room.seats += 1
    return {"seat": room.seats - 1, "token": str(room.seats - 1)}


@app.post("/api/rooms/{code}/start")
async def start(code: str) -> dict[str, str]:
    return {"game_id": code}


@app.websocket("/ws/{code}")
async def socket(websocket: WebSocket, code: str) -> None:
    await websocket.accept()
    room = rooms[code]
    room.sockets.add(websocket)
    seat: int | None = None
    try:
        while True:
            message = json.loads(await websocket.receive_text())
            kind = message["type"]
            if kind == "hello":
                token = message["token"]
                seat = None if token is None else int(token)
                room.with_legal = room.with_legal or bool(message.get("legal"))
                await websocket.send_text(json.dumps({"type": "welcome", "seat": seat}))
                await websocket.send_text(room.state())
            elif kind == "legal":
                turn_seat, phase = room.turn
                actions = [{"type": phase}] if seat == turn_seat else []
                answer = {"type": "legal", "seq": room.seq, "actions": actions}
                await websocket.send_text(json.dumps(answer))
            elif kind == "action":
                if message["seq"] != room.seq or seat != room.turn[0]:
                    error = {"type": "error", "code": "stale", "ref": message.get("id")}
                    await websocket.send_text(json.dumps(error))
                    continue
                room.seq += 1
                text = room.state()
                for peer in list(room.sockets):
                    try:
                        await peer.send_text(text)
                    except Exception:
                        room.sockets.discard(peer)
    except WebSocketDisconnect:
        pass
    finally:
        room.sockets.discard(websocket)
