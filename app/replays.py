"""Replays of finished games: built once per game, kept compressed, in memory and stored.

A replay is the record re-played with every frame revealed (`app/records.py`); it never
changes once the game is over. Opening one should cost the browser a download, not the
server a re-play, so:

- a replay is built once, in a build process, gzipped, with its frames as patches (the
  first frame, then what changes at each step: `app/patches.py`), the encoding the page
  asks for; the body with whole frames is made from it the first time it is asked for;
- a built body is stored (table `replays`), so that no other process, and no restart,
  builds it again; `VERSION` tells bodies built by other code, which are built again;
- concurrent requests for a replay that is being built wait for that one build; at most
  `concurrency` builds run at once (whole-frame bodies and imports' re-plays included),
  all of them in the build process, never in the server's own;
- a build that failed is not tried again for `failure_ttl` seconds: each request in
  between gets the same error at once, instead of one more doomed re-play each;
- the build starts as early as anything suggests it will be wanted: when a game ends in
  this process, when a record is imported, when the replay page is requested (the
  page's own request for the data then joins the build already running).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC
from functools import partial
from pathlib import Path
from typing import Any, Literal

from anyio import to_thread

from app.patches import apply, diff
from app.records import replay_data
from app.rooms.errors import RoomError, not_found
from app.store.repository import GameRecord, Repository
from app.text import display_name

log = logging.getLogger(__name__)

Encoding = Literal["full", "patches"]
CACHE_SIZE = 256
MAX_FAILURES = 1024


MODULES = ("records.py", "patches.py", "replays.py")


def code_version() -> str:
    """A name for the code a replay body depends on: the engines (their views), the
    re-play, the patches and this module. A body stored by other code is built again, so
    a deploy that changes a view never serves frames drawn the old way."""
    here = Path(__file__).resolve().parent
    sources = [*(here / "rules").rglob("*.py"), *(here / n for n in MODULES)]
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


VERSION = code_version()


def iso(value: Any) -> str | None:
    """A stored time in ISO 8601 with its offset: SQLite gives back naive datetimes (stored
    in UTC), and a time without an offset reads as local time in a browser's `Date`."""
    if value is None:
        return None
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()


def record_of(game: GameRecord, actions: list[Any]) -> dict[str, Any]:
    """The protocol's record of a game from its stored row and action log."""
    return {
        "variant": game.variant,
        "options": game.options,
        "players": [display_name(p) for p in game.players],
        "seed": game.seed,
        "actions": [{"seq": a.seq, "seat": a.seat, "action": a.payload} for a in actions],
    }


def require_finished(game: GameRecord, what: str) -> None:
    """Records, replays and seeds are published when the game ends, never before."""
    if game.status != "finished":
        raise RoomError("game_live", f"the {what} is published when the game ends", 409)


class BuildFailed(RoomError):
    """A replay that could not be built (the record does not re-play with this code): the
    same answer for `failure_ttl` seconds, without building again."""

    def __init__(self) -> None:
        super().__init__("replay_failed", "this replay could not be built; try again later", 500)


@dataclass
class Replay:
    """One finished game's replay bodies, gzipped: frames as patches (what the replay page
    asks for), and whole frames, made the first time someone asks for them."""

    patches: bytes
    full: bytes | None = None


def build(game: GameRecord, record: dict[str, Any], bys: dict[int, str] | None = None) -> bytes:
    """The gzipped replay body with frames as patches (CPU-bound: `Replays` runs it in a
    build process, or a thread). `bys` (seq -> the log's `by`) marks the moves the server
    played for a seat, as the room's move list marks them ("computer", "timeout"): the
    record, an export, does not carry them."""
    data = replay_data(record)
    for move in data["moves"]:
        if bys and move["seq"] in bys:
            move["by"] = bys[move["seq"]]
    frames = data["frames"]
    body = {
        "id": game.id,
        "room": game.room_code,
        "variant": game.variant,
        "options": game.options,
        "players": [display_name(p) for p in game.players],
        "seq": game.seq,
        "seed_hash": game.seed_hash,
        "seed": game.seed,
        "result": game.result,
        "imported": game.imported,
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "moves": data["moves"],
        "start": frames[0],
        "patches": [diff(frames[k - 1], frames[k]) for k in range(1, len(frames))],
    }
    return _pack(body)


def with_whole_frames(patched: bytes) -> bytes:
    """The body with `frames` (every frame whole) in place of `start` and `patches`."""
    body = json.loads(gzip.decompress(patched))
    frames = [body.pop("start")]
    for ops in body.pop("patches"):
        frames.append(apply(frames[-1], ops))
    return _pack(body | {"frames": frames})


def _pack(body: dict[str, Any]) -> bytes:
    raw = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    return gzip.compress(raw, compresslevel=6)


def ready() -> bool:
    """Nothing: submitted once to each build process as it starts, so that it imports this
    module (and the engines) then, rather than when the first replay is wanted."""
    return True


class Replays:
    """The replay cache of one server process (least recently used first out)."""

    def __init__(
        self,
        repo: Repository,
        size: int = CACHE_SIZE,
        builder: Callable[[GameRecord, dict[str, Any], dict[int, str]], bytes] = build,
        executor: Executor | None = None,
        concurrency: int = 2,
        failure_ttl: float = 60.0,
    ) -> None:
        self._repo = repo
        self._size = size
        self._builder = builder
        # Where builds run: a process pool keeps their CPU work (tens of milliseconds)
        # from holding the GIL that the event loop needs for every other request; without
        # one, a worker thread.
        self._executor = executor
        self._items: OrderedDict[str, Replay] = OrderedDict()
        self._building: dict[str, asyncio.Task[Replay]] = {}
        self._whole: dict[str, asyncio.Task[bytes]] = {}
        self._slots = asyncio.Semaphore(max(1, concurrency))
        self._failure_ttl = failure_ttl
        # game id -> when its build failed: answered `BuildFailed` until it expires
        self._failures: OrderedDict[str, float] = OrderedDict()

    def _failed(self, game_id: str) -> bool:
        """True while a failed build of `game_id` is remembered."""
        failed_at = self._failures.get(game_id)
        if failed_at is None:
            return False
        if time.monotonic() - failed_at < self._failure_ttl:
            return True
        del self._failures[game_id]
        return False

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run CPU-bound `fn(*args)` where builds run (the build process, or a worker
        thread without one), taking one of the `concurrency` slots."""
        async with self._slots:
            if self._executor is None:
                return await to_thread.run_sync(fn, *args)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, fn, *args)

    async def body(self, game_id: str, encoding: Encoding = "patches") -> bytes:
        """A finished game's replay body, gzipped; `RoomError` when the game is unknown
        (404) or live (409)."""
        item = await self.get(game_id)
        if encoding == "patches":
            return item.patches
        if item.full is None:
            task = self._whole.get(game_id)
            if task is None:
                task = asyncio.ensure_future(self.run(with_whole_frames, item.patches))
                self._whole[game_id] = task
                task.add_done_callback(lambda _t: self._whole.pop(game_id, None))
            item.full = await asyncio.shield(task)
        return item.full

    async def get(self, game_id: str) -> Replay:
        """The replay of a finished game, built once however many ask at the same time."""
        item = self._items.get(game_id)
        if item is not None:
            self._items.move_to_end(game_id)
            return item
        if self._failed(game_id):
            raise BuildFailed()
        task = self._building.get(game_id)
        if task is None:
            task = asyncio.create_task(self._build(game_id))
            self._building[game_id] = task
            task.add_done_callback(partial(self._built, game_id))
        # shield: a client that goes away does not cancel the build others wait for
        return await asyncio.shield(task)

    def _built(self, game_id: str, task: asyncio.Task[Replay]) -> None:
        del self._building[game_id]
        if task.cancelled():
            return
        error = task.exception()  # retrieved here: every waiter may have gone away
        # A refusal (unknown or live game) costs one read and may change; a failed
        # build would fail the same way again.
        if isinstance(error, BuildFailed):
            self._failures[game_id] = time.monotonic()
            while len(self._failures) > MAX_FAILURES:
                self._failures.popitem(last=False)

    async def prebuild(self, limit: int) -> int:
        """Build, one after the other, the replays of the `limit` most recently finished
        games that have none built by this code: after a deploy that changed the engines,
        the games people are most likely to open are ready before they do."""
        try:
            wanted = await to_thread.run_sync(self._repo.finished_without_replay, VERSION, limit)
        except Exception:  # a database not there yet: replays get built when asked for
            log.exception("listing the replays to build failed")
            return 0
        for game_id in wanted:
            try:
                await self.get(game_id)
            except Exception:
                log.exception("building a replay failed", extra={"game": game_id})
        return len(wanted)

    def warm(self, game_id: str) -> None:
        """Start building a replay that is about to be asked for; errors are only logged
        (the request that follows reports them)."""
        if game_id in self._items or game_id in self._building or self._failed(game_id):
            return
        _background(self.get(game_id), game_id)

    async def _build(self, game_id: str) -> Replay:
        game = await to_thread.run_sync(self._repo.get_game, game_id)
        if game is None:
            raise not_found("game")
        require_finished(game, "replay")
        packed = await to_thread.run_sync(self._repo.stored_replay, game.id, VERSION)
        if packed is None:
            actions = await to_thread.run_sync(self._repo.actions, game.id, 0)
            try:
                bys = {a.seq: a.by for a in actions if a.by}
                packed = await self.run(self._builder, game, record_of(game, actions), bys)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.exception("building a replay failed", extra={"game": game.id})
                raise BuildFailed() from exc
            try:
                await to_thread.run_sync(self._repo.store_replay, game.id, VERSION, packed)
            except Exception:  # served from memory all the same; the next process rebuilds
                log.exception("storing a replay failed", extra={"game": game.id})
        item = Replay(packed)
        self._items[game_id] = item
        while len(self._items) > self._size:
            self._items.popitem(last=False)
        return item


_warming: set[asyncio.Task[Any]] = set()


def _background(job: Awaitable[Any], game_id: str) -> None:
    async def run() -> None:
        try:
            await job
        except RoomError:
            pass
        except Exception:
            log.exception("building a replay failed", extra={"game": game_id})

    task = asyncio.ensure_future(run())
    _warming.add(task)
    task.add_done_callback(_warming.discard)
