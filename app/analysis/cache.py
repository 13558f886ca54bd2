"""Analyses of finished games: computed once, off the request path, kept compressed.

An analysis costs up to a second or two of CPU (every push of every turn), so it is
never computed while someone waits for a page: it is built in the replay build process
when a game ends or is imported (and when first asked for, for older games), stored in
the `analyses` table for every process and restart, and kept in memory for the most
recent games. The replay page draws the game at once and adds the marks when they come.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import logging
from collections import OrderedDict
from concurrent.futures import Executor
from functools import partial
from pathlib import Path
from typing import Any

from anyio import to_thread

from app.analysis import analyse
from app.replays import record_of, require_finished
from app.rooms.errors import RoomError, not_found
from app.store.repository import Repository

log = logging.getLogger(__name__)


def code_version() -> str:
    """A name for the code an analysis depends on (the engines, the players' search that
    the judges share, the judges): an analysis stored by other code is built again."""
    app = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for folder in ("rules", "bots", "analysis"):
        for path in sorted((app / folder).rglob("*.py")):
            digest.update(path.relative_to(app).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


VERSION = code_version()


def build(record: dict[str, Any], bys: dict[int, str] | None = None) -> bytes:
    """The gzipped analysis of a finished game's record (CPU-bound: a build process);
    `bys`: which of its actions the server played for a seat (`analyse`)."""
    body = analyse(record, bys) | {"version": VERSION}
    raw = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    return gzip.compress(raw, compresslevel=6)


class Analyses:
    """The analyses one server process has at hand (least recently used first out)."""

    def __init__(self, repo: Repository, size: int, executor: Executor | None = None) -> None:
        self._repo = repo
        self._size = size
        self._executor = executor
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._building: dict[str, asyncio.Task[bytes]] = {}

    async def body(self, game_id: str) -> bytes:
        """A finished game's analysis, gzipped; `RoomError` for an unknown (404) or live
        (409) game. Built once however many ask at the same time."""
        item = self._items.get(game_id)
        if item is not None:
            self._items.move_to_end(game_id)
            return item
        task = self._building.get(game_id)
        if task is None:
            task = asyncio.create_task(self._build(game_id))
            self._building[game_id] = task
            task.add_done_callback(partial(self._built, game_id))
        return await asyncio.shield(task)

    def warm(self, game_id: str) -> None:
        """Start building an analysis that will be wanted (a game just ended or came in)."""
        if game_id in self._items or game_id in self._building:
            return
        task = asyncio.ensure_future(self._quietly(game_id))
        _warming.add(task)
        task.add_done_callback(_warming.discard)

    async def _quietly(self, game_id: str) -> None:
        try:
            await self.body(game_id)
        except RoomError:
            pass
        except Exception:
            log.exception("building an analysis failed", extra={"game": game_id})

    def _built(self, game_id: str, task: asyncio.Task[bytes]) -> None:
        del self._building[game_id]
        if not task.cancelled():
            task.exception()  # retrieved here: every waiter may have gone away

    async def _build(self, game_id: str) -> bytes:
        game = await to_thread.run_sync(self._repo.get_game, game_id)
        if game is None:
            raise not_found("game")
        require_finished(game, "analysis")
        packed = await to_thread.run_sync(self._repo.stored_analysis, game.id, VERSION)
        if packed is None:
            actions = await to_thread.run_sync(self._repo.actions, game.id, 0)
            record = record_of(game, actions)
            bys = {a.seq: a.by for a in actions if a.by}
            if self._executor is None:
                packed = await to_thread.run_sync(build, record, bys)
            else:
                loop = asyncio.get_running_loop()
                packed = await loop.run_in_executor(self._executor, build, record, bys)
            try:
                await to_thread.run_sync(self._repo.store_analysis, game.id, VERSION, packed)
            except Exception:  # served from memory all the same
                log.exception("storing an analysis failed", extra={"game": game.id})
        self._items[game_id] = packed
        while len(self._items) > self._size:
            self._items.popitem(last=False)
        return packed


_warming: set[asyncio.Task[Any]] = set()
