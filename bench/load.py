"""Load run: many rooms of 2 players and 1 spectator playing at once over WebSockets.

    python bench/load.py                      # spawns its own server (SQLite, one process)
    python bench/load.py --rooms 50 --actions 40
    python bench/load.py --url http://127.0.0.1:8000   # against a running server
    python bench/load.py --think 500          # players pause 0-1 s before acting
    python bench/load.py --rooms 200 --postgres                  # one process, PostgreSQL
    python bench/load.py --rooms 200 --postgres --redis-hub      # one process, Redis hub
    python bench/load.py --rooms 200 --postgres --processes 2    # two processes + Redis

With several processes, each room's two players and its spectator are connected to
different processes, so every move crosses the Redis hub. Memory per connection is the
growth of the servers' resident memory from idle to the peak of the run, divided by the
number of WebSocket connections.

Each player waits for its turn, asks `legal`, sends a random legal action, and measures the
round trip from sending the action to receiving its own `state` with the new `seq`. Prints
actions per second, p50/p99 round trip, spectator updates and errors. It measures; it never
fails on a figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from a checkout, like the other benchmarks


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn_server(database_url: str, port: int, redis_url: str | None) -> subprocess.Popen[bytes]:
    env = os.environ | {"DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"}
    # Every simulated client comes from this one address: no per-address limits.
    env |= {"ROOMS_PER_MINUTE": "0", "JOINS_PER_MINUTE": "0", "MAX_SOCKETS_PER_ADDRESS": "0"}
    if redis_url:
        env["REDIS_URL"] = redis_url
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )


async def wait_healthy(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=url) as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise SystemExit("server did not become healthy")


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.errors: dict[str, int] = {}
        self.spectator_states = 0


async def player(
    ws_url: str,
    token: str,
    seat: int,
    budget: int,
    stats: Stats,
    rng: random.Random,
    done: asyncio.Event,
    think: float = 0.0,
) -> None:
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: tuple[int, float] | None = None
        seq = asked = -1
        deadline = time.monotonic() + 300  # a bounded run, whatever the server does
        while not done.is_set() and time.monotonic() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=1))
            except TimeoutError:
                continue
            kind = message["type"]
            if kind == "error":
                stats.errors[message["code"]] = stats.errors.get(message["code"], 0) + 1
                pending = None
            elif kind == "state":
                seq = message["seq"]
                if pending is not None and seq >= pending[0]:
                    stats.rtts.append(time.perf_counter() - pending[1])
                    pending = None
                view = message["view"]
                if len(stats.rtts) >= budget or view["status"] != "playing":
                    done.set()
                    return
                if view["turn"]["seat"] == seat and pending is None and seq > asked:
                    asked = seq
                    await ws.send(json.dumps({"type": "legal", "id": str(seq)}))
            elif kind == "legal" and message["actions"] and message["seq"] == seq:
                action = rng.choice(message["actions"])
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                pending = (seq + 1, time.perf_counter())
                await ws.send(
                    json.dumps({"type": "action", "id": "a", "seq": seq, "action": action})
                )


async def spectator(ws_url: str, stats: Stats, done: asyncio.Event) -> None:
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        while not done.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=1))
            except TimeoutError:
                continue
            if message["type"] == "state":
                stats.spectator_states += 1


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


async def sample_memory(pids: list[int], peak: list[int], done: asyncio.Event) -> None:
    while not done.is_set():
        peak[0] = max(peak[0], sum(rss_bytes(pid) for pid in pids))
        await asyncio.sleep(0.2)


async def room(
    http: httpx.AsyncClient,
    ws_bases: list[str],
    actions: int,
    stats: Stats,
    seed: int,
    think: float,
) -> None:
    code = (await http.post("/api/rooms", json={"variant": "classic"})).json()["code"]
    tokens = [
        (await http.post(f"/api/rooms/{code}/join", json={"name": f"p{i}"})).json()["token"]
        for i in range(2)
    ]
    await http.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
    urls = [f"{ws_bases[(seed + k) % len(ws_bases)]}/ws/{code}" for k in range(3)]
    done = asyncio.Event()
    rng = random.Random(seed)
    shared = Stats()
    await asyncio.gather(
        player(urls[0], tokens[0], 0, actions, shared, rng, done, think),
        player(urls[1], tokens[1], 1, actions, shared, rng, done, think),
        spectator(urls[2], shared, done),
    )
    stats.rtts.extend(shared.rtts)
    stats.spectator_states += shared.spectator_states
    for code_, n in shared.errors.items():
        stats.errors[code_] = stats.errors.get(code_, 0) + n


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", action="append", help="a running server (repeat for several)")
    parser.add_argument("--processes", type=int, default=1, help="servers to spawn")
    parser.add_argument("--postgres", action="store_true", help="spawned servers use PostgreSQL")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="hub for >1 process")
    parser.add_argument("--redis-hub", action="store_true", help="use Redis with 1 process too")
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--actions", type=int, default=40, help="actions per room")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean pause in ms before each action (0: as fast as possible)",
    )
    args = parser.parse_args()

    with contextlib.ExitStack() as stack:
        servers: list[subprocess.Popen[bytes]] = []
        urls = args.url or []
        database = "given servers"
        if not urls:
            if args.postgres:
                from app.store.db import scratch_database

                admin = os.environ.get("POSTGRES_URL", "postgresql://postgres@127.0.0.1/postgres")
                database_url = stack.enter_context(scratch_database(admin))
                database = "PostgreSQL"
            else:
                database_url = f"sqlite:///{Path(tempfile.mkdtemp()) / 'load.sqlite3'}"
                database = "SQLite"
            redis_url = args.redis if args.processes > 1 or args.redis_hub else None
            for _ in range(args.processes):
                port = free_port()
                servers.append(spawn_server(database_url, port, redis_url))
                urls.append(f"http://127.0.0.1:{port}")
        try:
            await run(args, urls, servers, database)
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=15)


async def run(
    args: argparse.Namespace, urls: list[str], servers: list[subprocess.Popen[bytes]], database: str
) -> None:
    for url in urls:
        await wait_healthy(url)
    ws_bases = [url.replace("http", "ws", 1) for url in urls]
    pids = [server.pid for server in servers]
    idle = sum(rss_bytes(pid) for pid in pids)
    peak = [idle]
    stats = Stats()
    done = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(pids, peak, done))
    # No keep-alive: a pooled connection the server closes while idle would fail a request.
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=urls[0], limits=limits, timeout=60) as http:
        started = time.perf_counter()
        await asyncio.gather(
            *(
                room(http, ws_bases, args.actions, stats, i, args.think / 1000)
                for i in range(args.rooms)
            )
        )
        elapsed = time.perf_counter() - started
    done.set()
    await sampler
    n = len(stats.rtts)
    hub = "Redis hub" if len(urls) > 1 or args.redis_hub else "in-process hub"
    print(
        f"servers: {len(urls)} ({database}, {hub}); rooms: {args.rooms} x (2 players + "
        f"1 spectator), {args.actions} actions each, think {args.think:.0f} ms"
    )
    print(f"actions applied: {n} in {elapsed:.2f} s -> {n / elapsed:.0f} actions/s")
    if n:
        print(
            f"round trip p50: {percentile(stats.rtts, 50) * 1000:.1f} ms, "
            f"p99: {percentile(stats.rtts, 99) * 1000:.1f} ms, "
            f"mean: {statistics.mean(stats.rtts) * 1000:.1f} ms"
        )
    print(f"spectator states received: {stats.spectator_states}")
    print(f"errors: {stats.errors or 'none'}")
    if pids:
        connections = 3 * args.rooms
        growth = peak[0] - idle
        print(
            f"server memory: idle {idle / 2**20:.1f} MiB, peak {peak[0] / 2**20:.1f} MiB, "
            f"~{growth / connections / 1024:.1f} KiB per connection ({connections} connections)"
        )


if __name__ == "__main__":
    asyncio.run(main())
