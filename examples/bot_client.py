"""A program that plays Labyrinth through the public protocol (see docs/bots.md).

It takes a seat over HTTP, says `hello` with the seat's token on the room's WebSocket,
asks for `legal` after every `state`, and answers with one of those actions at that
`seq`. A lost connection is nothing special: it connects again and says `hello` again,
and the server sends the current state. It stops when the game is finished and prints
the result as JSON.

    pip install httpx websockets
    python examples/bot_client.py --server http://127.0.0.1:8000 --create classic \\
        --name Ann --players 2            # prints the room code, starts when 2 are seated
    python examples/bot_client.py --server http://127.0.0.1:8000 --room <code> --name Bob

Run from this repository it decides with the project's own players (`app.bots.choose`,
`--level easy|medium|hard`); elsewhere it plays a random legal action, which is all a
client needs to be a correct one. Put your own program in `decide`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

Action = dict[str, Any]
IDLE_SECONDS = 10.0


def decide(variant: str, level: str, view: dict[str, Any], legal: list[Action]) -> Action:
    """Your program goes here: any action of `legal` is accepted at that `seq`."""
    rng = random.Random(f"{view['seq']}/{view.get('you')}")
    try:
        from app.bots import choose
    except ImportError:  # outside this repository
        return rng.choice(legal)
    return choose(variant, level, view, legal, rng)  # type: ignore[arg-type]


async def create_room(http: httpx.AsyncClient, variant: str, options: dict[str, Any]) -> str:
    response = await http.post("/api/rooms", json={"variant": variant, "options": options})
    response.raise_for_status()
    return str(response.json()["code"])


async def join(http: httpx.AsyncClient, code: str, name: str) -> tuple[int, str]:
    response = await http.post(f"/api/rooms/{code}/join", json={"name": name})
    response.raise_for_status()
    body = response.json()
    return int(body["seat"]), str(body["token"])


async def start_when_seated(http: httpx.AsyncClient, code: str, token: str, players: int) -> None:
    """Wait until `players` seats are taken, then start the game (any seated player may)."""
    while True:
        room = (await http.get(f"/api/rooms/{code}")).json()
        if room["status"] != "lobby":
            return
        if len(room["seats"]) >= players:
            response = await http.post(
                f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {token}"}
            )
            if response.status_code in (200, 409):  # 409: someone started it first
                return
            response.raise_for_status()
        await asyncio.sleep(0.2)


class Player:
    """One seat's connection loop: state -> legal -> action, reconnecting as needed."""

    def __init__(self, ws_url: str, token: str, variant: str, level: str, drop_after: int):
        self.ws_url = ws_url
        self.token = token
        self.variant = variant
        self.level = level
        self.drop_after = drop_after  # close the socket once after this many actions (a test)
        self.sent = 0
        self.reconnects = 0

    async def play(self) -> dict[str, Any]:
        while True:
            try:
                result = await self._session()
            except (OSError, websockets.ConnectionClosed):
                result = None
            if result is not None:
                return result
            self.reconnects += 1
            await asyncio.sleep(min(0.2 * self.reconnects, 2.0))

    async def _session(self) -> dict[str, Any] | None:
        """One connection: None when it was lost (the caller says hello again)."""
        async with websockets.connect(self.ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            view: dict[str, Any] | None = None
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), IDLE_SECONDS)
                except TimeoutError:
                    # Nothing for a while: say hello again, which re-sends the current
                    # state (cheap insurance against any message lost on the way).
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    continue
                message = json.loads(raw)
                kind = message["type"]
                if kind == "state":
                    view = message["view"]
                    if view["status"] == "finished":
                        return dict(view["result"])
                    await ws.send(json.dumps({"type": "legal", "id": f"legal-{view['seq']}"}))
                elif kind == "legal" and view is not None:
                    if message["seq"] != view["seq"] or not message["actions"]:
                        continue  # an older state's answer, or not this seat's move
                    action = decide(self.variant, self.level, view, message["actions"])
                    await ws.send(
                        json.dumps(
                            {"type": "action", "id": f"act-{view['seq']}", "seq": view["seq"],
                             "action": action}
                        )
                    )  # fmt: skip
                    self.sent += 1
                    if self.sent == self.drop_after:
                        return None  # leaving the block closes the socket
                elif kind == "error":
                    if message["code"] in ("stale", "not_your_turn"):
                        continue  # the state moved on; its `state` message follows
                    if message["code"] == "rate_limited" and view is not None:
                        await asyncio.sleep(1.0)  # then ask again
                        await ws.send(json.dumps({"type": "legal", "id": "retry"}))
                        continue
                    raise RuntimeError(f"server refused: {message}")


async def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description="Play one seat of a Labyrinth room.")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--room", help="the room code to join")
    parser.add_argument("--create", metavar="VARIANT", help="create a room of this variant")
    parser.add_argument("--options", default="{}", help="room options as JSON (with --create)")
    parser.add_argument("--name", default="Bot")
    parser.add_argument("--players", type=int, default=0, help="start once this many sit")
    parser.add_argument("--level", default="medium", choices=["easy", "medium", "hard"])
    parser.add_argument("--drop-after", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    async with httpx.AsyncClient(base_url=args.server, timeout=10) as http:
        code = args.room or await create_room(http, args.create, json.loads(args.options))
        if args.create:
            print(json.dumps({"room": code}), flush=True)
        room = (await http.get(f"/api/rooms/{code}")).json()
        seat, token = await join(http, code, args.name)
        if args.players:
            await start_when_seated(http, code, token, args.players)
    ws_url = args.server.replace("http", "ws", 1) + f"/ws/{code}"
    player = Player(ws_url, token, room["variant"], args.level, args.drop_after)
    result = await player.play()
    summary = {"room": code, "seat": seat, "result": result, "actions": player.sent,
               "reconnects": player.reconnects}  # fmt: skip
    print(json.dumps(summary), flush=True)
    return summary


if __name__ == "__main__":
    asyncio.run(main())
